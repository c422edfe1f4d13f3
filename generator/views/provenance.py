"""What a release was built from, as the release home's "Source" section and the model pages'
footer say it: package and version, or URL/file, and the sha256 of the bytes read; for bundled
data, that it is a snapshot with known differences from upstream."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from generator.model.types import ApiSpec
from generator.sources import known_differences as listed
from generator.sources.base import Provenance
from generator.sources.known_differences import KnownDifference

SOURCE_ANCHOR = "source"
"""Id of the release home's "Source" heading."""
DIFFERENCES_ANCHOR = "known-differences-from-upstream"
"""Id of its "Known differences from upstream" heading (bundled releases)."""

_CHECKED = {
    "shipped": "matches the digest k8s-api-docs ships for {tag}",
    "lock": "matches the digest recorded for {tag} in k8s-api-docs.lock",
    "recorded": "recorded for {tag} in k8s-api-docs.lock on first use",
    "pinned": "matches the #sha256= pin",
}



@dataclass(frozen=True)
class SourceNote:
    """Context of the release home's "Source" section and the model pages' footer (plain text:
    templates escape it)."""

    summary: str
    """``kubernetes-validate 1.37.0, its data for Kubernetes 1.32`` and the like."""
    sha256: str
    url: str = ""
    """Where the document is published (a link)."""
    file: str = ""
    """Local file or directory name read (a spec mirror file, a path source)."""
    checked: str = ""
    """How the digest was checked, e.g. ``matches the digest k8s-api-docs ships for v1.32.0``."""
    snapshot: bool = False
    """Bundled data: a snapshot with known differences from upstream."""
    release: str = ""
    """The Kubernetes release of bundled data (``1.32``)."""
    upstream_spec: str = ""
    """The source that gives the exact upstream text instead (``upstream:1.32``)."""
    differences: tuple[KnownDifference, ...] = ()
    """The known differences of a snapshot (``sources.known_differences``)."""
    compared: bool = False
    """Whether the list covers this release (the snapshot was compared with upstream)."""


def source_note(api: ApiSpec) -> SourceNote:
    """The source note of a release (one per provenance: every page of a release shares it)."""
    if api.provenance is None:
        return SourceNote(f"{api.source} ({api.format})", api.sha256)
    return _note(api.provenance, api.source)


@cache
def _note(p: Provenance, label: str) -> SourceNote:
    checked = _CHECKED.get(p.checked, "").format(tag=p.release)
    if p.kind == "bundled":
        differences, compared = known_differences(p.release)
        return SourceNote(
            f"{p.package} {p.package_version}, its bundled data for Kubernetes {p.release}",
            p.sha256, snapshot=True, release=p.release, upstream_spec=f"upstream:{p.release}",
            differences=differences, compared=compared)
    if p.kind == "upstream":
        where = f", read from the spec mirror file {p.file}" if p.file else ""
        return SourceNote(f"the official api/openapi-spec/swagger.json of Kubernetes {p.release}{where}",
                          p.sha256, url=p.url, file=p.file, checked=checked)
    if p.kind == "url":
        return SourceNote("the document at", p.sha256, url=p.url, checked=checked)
    what = "the directory" if p.kind == "directory" else "the file"
    return SourceNote(f"{what} {p.file or label}", p.sha256, file=p.file)


def known_differences(release: str) -> tuple[tuple[KnownDifference, ...], bool]:
    """(The known differences between ``release``'s bundled data and upstream, whether that
    release was compared) from the project's list (``sources.known_differences``)."""
    return listed.differences_for(release), release in listed.COMPARED_RELEASES
