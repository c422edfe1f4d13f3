"""The versions view of a model page: the "Other versions" line and per-field history notes
(since, changed from the previous release of the site, removed in).

``PublishedReleases`` holds every release published side by side (loaded and planned) plus the timeline
of every known release; ``VersionsHook`` is the model-page section hook that uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from generator.analysis.diff import Change, api_groups, diff_models
from generator.analysis.structure import StructureComparer
from generator.analysis.timeline import ModelKey, Timeline, best_api_version, ranges
from generator.model.ordering import api_version_sort_key, release_sort_key
from generator.model.types import ApiSpec, Model
from generator.views.pages import ModelPage
from generator.views.site import SitePlan, relative, release_url, tree_link


@dataclass(frozen=True, slots=True)
class VersionLink:
    """One API version of the model in one release; ``href`` is None for the page itself."""

    api_version: str
    href: str | None
    """Published URL (the lines are raw HTML): ``../v1beta1/x/``, ``../../../../1.32/…/x/``."""
    path: str | None = None
    """The same page as a relative ``.md`` link when it is in this tree (``site.tree_link``), for
    pages read as files (``--format gfm``)."""


@dataclass(frozen=True, slots=True)
class ReleaseEntry:
    """The model in one release of the site; no ``api_versions`` means absent there."""

    version: str
    current: bool
    api_versions: tuple[VersionLink, ...]


@dataclass(frozen=True)
class OtherVersions:
    """Data of ``partials/other_versions.md.j2``."""

    kind: str
    api_version: str
    releases: tuple[ReleaseEntry, ...]
    """Every release of the site, oldest first."""
    lifetime: tuple[tuple[str, str], ...]
    """Runs of known releases that have this API version of the model."""
    kind_lifetime: tuple[tuple[str, str], ...]
    """Runs of known releases that have the model in any API version."""
    known: tuple[str, str]
    """First and last release the timeline knows (a CRD: of the site's own releases)."""
    crd: bool = False
    """A CRD's model: the lifetimes count only the site's releases (what the Kubernetes releases
    of the timeline have says nothing about a CRD set)."""


@dataclass(frozen=True, slots=True)
class FieldHistory:
    """History notes of one property-table row (empty strings: nothing to say)."""

    since: str = ""
    """First known release with the field; empty when the oldest known release has it."""
    since_api_versions: tuple[str, ...] = ()
    """The API versions that had it in release ``since`` (most stable first), when this page's
    is not one of them; empty when it is (a field added to several API versions at once is
    "since 1.34" on each of their pages, naming none)."""
    removed_in: str = ""
    compared_to: str = ""
    """``1.31`` or ``1.31 v1alpha3``: the previous site release the changes are relative to."""
    changes: tuple[Change, ...] = ()


@dataclass
class PublishedReleases:
    """Releases published side by side (oldest first) and the timeline of all known releases."""

    apis: Mapping[str, ApiSpec]
    """By version (a mapping that may load a release's model when it is first looked up)."""
    plans: dict[str, SitePlan]
    timeline: Timeline
    order: list[str] = field(default_factory=list)
    _groups: dict[str, dict[tuple[str, str], str]] = field(default_factory=dict, repr=False)
    _comparers: dict[tuple[str, str], StructureComparer] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:

        self.order = sorted(self.apis, key=release_sort_key)

    def api_group(self, version: str, model: Model) -> str:
        """The API group as written (``resource.k8s.io``) of a model of release ``version``."""
        if version not in self._groups:
            self._groups[version] = api_groups(self.apis[version])
        return self._groups[version].get((model.group, model.api_version), model.group)

    def comparer(self, old: str, new: str) -> StructureComparer:
        """Structural type comparison between two releases (memoized per pair)."""
        if (old, new) not in self._comparers:
            self._comparers[(old, new)] = StructureComparer(self.apis[old], self.apis[new])
        return self._comparers[(old, new)]

    def previous(self, version: str) -> str | None:
        i = self.order.index(version)
        return self.order[i - 1] if i > 0 else None

    def counterpart(self, version: str, key: ModelKey, api_version: str) -> Model | None:
        """The model in release ``version``: same API version if there, else the most stable."""
        present = self.timeline.versions_in(key, version)
        if not present:
            return None
        name = present[best_api_version(present, api_version)].name
        return self.apis[version].models.get(name)

    def page_path(self, from_version: str, from_page: str, to_version: str, name: str) -> str | None:
        """Relative ``.md`` link to the page of ``name`` in ``to_version``, when in this tree."""
        target = self.plans[to_version].page_of(name)
        if target is None:
            return None
        if to_version == from_version:
            return relative(from_page, target)
        return tree_link(from_page, target, self.plans[from_version], self.plans[to_version])

    def page_href(self, from_version: str, from_page: str, to_version: str, name: str) -> str | None:
        """Published URL of the page of definition ``name`` in release ``to_version``."""
        target = self.plans[to_version].page_of(name)
        if target is None:
            return None
        if to_version == from_version:
            return self.plans[from_version].page_url(from_page, target)
        return release_url(from_page, target, self.plans[from_version], self.plans[to_version])


def other_versions(model: Model, version: str, page: str, site: PublishedReleases) -> OtherVersions:
    key = ModelKey(model.group, model.kind)
    entries = []
    for release in site.order:
        present = site.timeline.versions_in(key, release)
        links = []
        for api_version in sorted(present, key=_version_order(model.api_version)):
            name = present[api_version].name
            current = release == version and name == model.name
            href = None if current else site.page_href(version, page, release, name)
            if current or href:
                path = None if current else site.page_path(version, page, release, name)
                links.append(VersionLink(api_version, href, path))
        entries.append(ReleaseEntry(release, release == version, tuple(links)))
    timeline = site.timeline
    if model.crd is not None:  # only the site's releases were read with the CRD sets
        return OtherVersions(
            kind=model.kind, api_version=model.api_version, releases=tuple(entries),
            lifetime=tuple(ranges(timeline.releases_of(key, model.api_version), site.order)),
            kind_lifetime=tuple(ranges(timeline.releases_of(key), site.order)),
            known=(site.order[0], site.order[-1]) if site.order else ("", ""), crd=True)
    return OtherVersions(
        kind=model.kind, api_version=model.api_version, releases=tuple(entries),
        lifetime=tuple(ranges(timeline.releases_of(key, model.api_version), timeline.releases)),
        kind_lifetime=tuple(ranges(timeline.releases_of(key), timeline.releases)),
        known=(timeline.first, timeline.releases[-1] if timeline.releases else ""),
    )


def _version_order(this: str):  # type: ignore[no-untyped-def]

    return lambda v: (v != this, api_version_sort_key(v))


def field_histories(model: Model, api: ApiSpec, site: PublishedReleases) -> dict[str, FieldHistory]:
    """History notes of every field of ``model`` in release ``api.version``."""
    key = ModelKey(model.group, model.kind)
    timeline = site.timeline
    changes: dict[str, tuple[Change, ...]] = {}
    compared_to = ""
    previous = site.previous(api.version)
    if previous is not None:
        before = site.counterpart(previous, key, model.api_version)
        if before is not None and (before.fields != model.fields
                                   or before.api_version != model.api_version):
            compared_to = previous if before.api_version == model.api_version else (
                f"{previous} {before.api_version}")
            where = Change("", "info", site.api_group(api.version, model), model.api_version,
                           model.kind)
            _, fields = diff_models(before, model, where, site.comparer(previous, api.version))
            changes = {f.field: f.changes for f in fields if f.status == "changed"}
    later = site.order[site.order.index(api.version) + 1 :]
    # A CRD's field is "since" a release only when an earlier release had the CRD without it:
    # the Kubernetes releases a CRD set is combined with say nothing of when its fields came
    # (history "all" knows no CRD), nor does a CRD release that adds the kind with the field.
    lives = timeline.releases_of(key) if _from_crd(model, api) else []
    unnoted = {timeline.first, lives[0] if lives else timeline.first}
    out = {}
    for f in model.fields:
        since = timeline.field_since(key, f.name)
        since_release, since_avs = since if since else ("", ())
        if since_release in unnoted:
            since_release = ""
        if not since_release or model.api_version in since_avs:
            since_avs = ()
        out[f.name] = FieldHistory(
            since=since_release,
            since_api_versions=since_avs,
            removed_in=_removed_in(site, key, model.api_version, f.name, api.version, later),
            compared_to=compared_to if f.name in changes else "",
            changes=changes.get(f.name, ()),
        )
    return out


def _from_crd(model: Model, api: ApiSpec) -> bool:
    """A CRD version's root or one of its nested objects."""
    root = api.models.get(model.root) if model.root else model
    return root is not None and root.crd is not None


def _removed_in(site: PublishedReleases, key: ModelKey, api_version: str, name: str, version: str,
                later: list[str]) -> str:
    """The release that drops the field, shown only on the last page of the site that has it
    (no later site release has this API version of the model with the field)."""
    for release in later:
        present = site.timeline.versions_in(key, release).get(api_version)
        if present is not None and name in present.fields:
            return ""
    return site.timeline.field_removed_in(key, api_version, name, version) or ""


class VersionsHook:
    """Model-page hook: sets ``page.other_versions`` and the ``history`` of each row."""

    def __init__(self, site: PublishedReleases) -> None:
        self.site = site

    def __call__(self, page: ModelPage, api: ApiSpec, plan: SitePlan) -> None:
        if api.version not in self.site.apis:
            return
        page.other_versions = other_versions(page.model, api.version, page.path, self.site)
        histories = field_histories(page.model, api, self.site)
        page.rows = [replace(row, history=histories.get(row.field.name)) for row in page.rows]
        for i, section in enumerate(page.nested):  # nested objects have histories of their own
            found = field_histories(section.model, api, self.site)
            page.nested[i] = replace(section, rows=[replace(row, history=found.get(row.field.name))
                                                    for row in section.rows])
