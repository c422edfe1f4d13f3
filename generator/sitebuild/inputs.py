"""What a release site is built from, as one digest, and the manifest of the last builds.

A release is rebuilt when its key changes. The key covers: the sha256 of its source (and of its
CRD sets), the generator (version and code), the templates, the MkDocs config it inherits, the
hand-written pages, the MkDocs, Material, Pygments (the snippets' lexers) and Jinja2 versions,
the list of releases in the site (pages link across releases), the group filter and the site
URL, and what the release's pages read from the other releases
(``pipeline.incremental.ReleaseInputs``: the source digests of those its change pages compare with,
the names of all others).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import generator
from generator.output.writer import write_file
from generator.pipeline.cache import tree_digest

MANIFEST_FORMAT = 2


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


@dataclass(frozen=True)
class SiteInputs:
    """Inputs every release of the site shares."""

    config_file: Path
    docs_dir: Path
    template_dirs: tuple[Path, ...]
    releases: tuple[tuple[str, ...], ...]
    """(version, source spec, CRD sets…) of every release in the site."""
    groups: tuple[str, ...] = ()
    builder: str = "mkdocs"
    site_url: str = ""
    """Where the site is published (sitemaps, canonical links)."""

    def digest(self) -> str:
        parts = {
            "generator": generator.__version__,
            "generator_code": tree_digest([Path(generator.__file__).parent]),
            "templates": tree_digest(self.template_dirs),
            "config": tree_digest([self.config_file]),
            "docs": tree_digest([self.docs_dir]),
            "mkdocs": _dist_version("mkdocs"),
            "material": _dist_version("mkdocs-material"),
            "pygments": _dist_version("pygments"),
            "jinja2": _dist_version("jinja2"),
            "releases": [list(r) for r in self.releases],
            "groups": list(self.groups),
            "site_url": self.site_url,
        }
        if self.builder != "mkdocs":  # keys of MkDocs builds stay those of earlier versions
            parts["builder"] = [self.builder, _dist_version(self.builder)]
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def release_key(site_digest: str, version: str, source_sha256: str,
                dependency_digests: Sequence[str] = ()) -> str:
    text = "\0".join([site_digest, version, source_sha256, *dependency_digests])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class ManifestEntry:
    key: str
    pages: int
    page_set: str
    """Digest of the release's page URLs: when it changes, pages of other releases that link
    across releases may point at pages that no longer exist, so those are rebuilt too."""
    source: str = ""
    """sha256 of the source the release was built from."""
    shape: str = ""
    """``pipeline.incremental.shape_digest`` of that source (reused while the source is unchanged)."""
    title: str = ""
    """The release's title (``views.pages.title_of``; reused likewise)."""


class Manifest:
    """``{site directory: {version: entry}}`` in a JSON file of the cache directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sites: dict[str, dict[str, ManifestEntry]] = {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
            return
        for site, releases in data.get("sites", {}).items():
            try:
                self.sites[site] = {v: ManifestEntry(**e) for v, e in releases.items()}
            except TypeError:
                continue

    def entries(self, site_dir: Path) -> dict[str, ManifestEntry]:
        return self.sites.setdefault(str(site_dir.resolve()), {})

    def save(self) -> None:
        data = {"format": MANIFEST_FORMAT,
                "sites": {site: {v: vars(e) for v, e in sorted(rel.items())}
                          for site, rel in sorted(self.sites.items())}}
        write_file(self.path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def page_set_digest(urls: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(sorted(urls)).encode()).hexdigest()
