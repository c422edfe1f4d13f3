"""What a release site is built from, as one digest, and the manifest of the last builds.

A release is rebuilt when its key changes. The key covers: the sha256 of its source, the
generator (version and code), the templates, the MkDocs config it inherits, the hand-written
pages, the MkDocs and Material versions, the list of releases in the site (pages link across
releases) and the group filter.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import generator
from generator.digests import tree_digest
from generator.writer import write_file

MANIFEST_FORMAT = 1


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
    releases: tuple[tuple[str, str], ...]
    """(version, source spec) of every release in the site."""
    groups: tuple[str, ...] = ()

    def digest(self) -> str:
        parts = {
            "generator": generator.__version__,
            "generator_code": tree_digest([Path(generator.__file__).parent]),
            "templates": tree_digest(self.template_dirs),
            "config": tree_digest([self.config_file]),
            "docs": tree_digest([self.docs_dir]),
            "mkdocs": _dist_version("mkdocs"),
            "material": _dist_version("mkdocs-material"),
            "releases": [list(r) for r in self.releases],
            "groups": list(self.groups),
        }
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def release_dependencies(version: str, site_versions: Sequence[str]) -> list[str]:
    """Other releases whose *content* the pages of ``version`` show (their source digests go into
    its key). Today none: pages only link to other releases, and links are covered by the list
    of releases in the site plus the page-set rule of ``build_site``. A feature that shows another
    release's content (a changes page diffing against the previous release, field history)
    must name those releases here."""
    return []


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
