"""What a ``build-site`` output says of itself, for ``assemble``: the file ``SITE_FACTS`` at its
root names the site it belongs to (every release, oldest first, their titles, the site's name
and URL) and the releases this output holds, each with the key of its inputs
(``inputs.release_key``: the same key, the same pages). A complete build holds every release; a
part (``build-site --only``) some. Pure: ``build`` writes it, ``assemble`` reads it."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import UsageError
from generator.views.site import version_dir

SITE_FACTS = ".k8s-api-docs-site.json"
FACTS_FORMAT = 1


@dataclass(frozen=True)
class SiteFacts:
    """One ``build-site`` output: the site it is (a part) of, and what it holds."""

    site_name: str
    site_url: str
    releases: tuple[str, ...]
    """Every release of the site, oldest first."""
    titles: Mapping[str, str]
    built: Mapping[str, str]
    """Release held here → the key of its inputs."""
    inputs: str = ""
    """``inputs.SiteInputs.digest``: the generator, config, templates, MkDocs and Material,
    the releases and their sources, groups and site URL every release was built with."""
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: False, every link names a file (no index rewriting)."""

    def to_json(self) -> str:
        data = {"format": FACTS_FORMAT, "siteName": self.site_name, "siteUrl": self.site_url,
                "releases": list(self.releases), "titles": dict(self.titles),
                "built": dict(sorted(self.built.items())), "inputs": self.inputs,
                "directoryUrls": self.directory_urls}
        return json.dumps(data, indent=1, sort_keys=True) + "\n"

    def same_site(self, other: SiteFacts) -> bool:
        return (self.site_name, self.site_url, self.releases, dict(self.titles), self.directory_urls) == \
            (other.site_name, other.site_url, other.releases, dict(other.titles), other.directory_urls)

    def same_inputs(self, other: SiteFacts) -> bool:
        return self.inputs == other.inputs

    def describe(self) -> str:
        return f"a site of {', '.join(self.releases)}" + (f" at {self.site_url}" if self.site_url else "")


def site_facts(site_name: str, site_url: str, releases: Sequence[str], titles: Mapping[str, str],
               built: Mapping[str, str], inputs: str, directory_urls: bool = True) -> SiteFacts:
    return SiteFacts(site_name, site_url, tuple(releases), dict(titles), dict(built), inputs,
                     directory_urls)


def read_facts(directory: Path) -> SiteFacts:
    """The facts of a ``build-site`` output; a ``UsageError`` naming ``directory`` when it is
    not one (or its facts are unreadable)."""
    path = directory / SITE_FACTS
    if not directory.is_dir():
        raise UsageError(f"{directory}: not a directory (a part is a build-site output directory)")
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{directory}: not a build-site output (no {SITE_FACTS})") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: unreadable ({' '.join(str(exc).split())})") from None
    try:
        if data["format"] != FACTS_FORMAT:
            raise UsageError(f"{path}: format {data['format']!r}, this k8s-api-docs reads {FACTS_FORMAT}")
        releases = tuple(str(v) for v in data["releases"])
        built = {str(k): str(v) for k, v in data["built"].items()}
        facts = SiteFacts(str(data["siteName"]), str(data["siteUrl"]), releases,
                          {str(k): str(v) for k, v in data["titles"].items()}, built, str(data["inputs"]),
                          bool(data.get("directoryUrls", True)))
    except (KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"{path}: not the facts of a build-site output (missing {exc})") from None
    for version in releases:
        if version_dir(version) != version or version == "latest" or version.startswith("."):
            raise UsageError(f"{path}: release label {version!r} cannot be a directory name")
    for version in built:
        if version not in releases or not (directory / version / "index.html").is_file():
            raise UsageError(f"{directory}: release {version} is listed in {SITE_FACTS} but its "
                             f"site {directory / version} is not there")
    return facts
