"""Page views: everything a template needs, as plain data (no Markdown decisions here)."""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from generator.model.gvk import primary_gvk, stability
from generator.model.types import COMMON_GROUP, ApiSpec, CrdInfo, GroupVersionKind, Model
from generator.views.crd import (
    CrdView,
    NestedObjectsPage,
    NestedPageLink,
    NestedSection,
    crd_view,
    nested_objects_pages,
    nested_page_links,
    nested_sections,
)
from generator.views.lookup import FieldPathBox, field_path_box, in_release
from generator.views.operation_params import ParameterDoc, parameter_docs
from generator.views.properties import PropertyRow, property_rows
from generator.views.provenance import DIFFERENCES_ANCHOR, SOURCE_ANCHOR, SourceNote, source_note
from generator.views.site import SitePlan, relative

_PLAIN_PATH = re.compile(r"[A-Za-z0-9_.-]{1,80}")
"""A placeholder path written into an attribute: spec text of no other shape."""


@dataclass(frozen=True)
class Link:
    text: str
    href: str
    """Markdown link (``.md``, checked by MkDocs)."""
    note: str = ""
    url: str = ""
    """The same link as a published URL, for raw HTML (``views.site.page_url``); model pages."""


class Section(Protocol):
    """A section of a model page that a section hook returns (``render.pages.SectionHook``):
    typed data rendered by the partial it names, in the order the hooks ran."""

    template: ClassVar[str]
    """The partial that renders it, e.g. ``partials/python.md.j2`` (found in the page format's
    folder, overrides first); it reads the section as ``section``."""


@dataclass
class ModelPage:
    """Context of ``pages/model.md.j2``. Section hooks add their sections to ``sections``."""

    path: str
    version: str
    model: Model
    gvk: GroupVersionKind | None
    group_label: str
    rows: list[PropertyRow]
    appears_in: list[Link]
    up: Link
    sections: list[Section] = field(default_factory=list)
    """What the section hooks returned, in their order (block ``sections``)."""
    other_versions: Any = None
    """``views.versions.OtherVersions`` when the versions hook ran (block ``other_versions``)."""
    source: SourceNote | None = None
    """What the release was built from (block ``source``, the page's footer)."""
    source_url: str = ""
    """Published URL of the release home's "Source" section."""
    differences_url: str = ""
    """Published URL of the release home's list of known differences from upstream."""
    crd: CrdView | None = None
    """A CRD kind: header data and printer columns (blocks ``crd``, ``printer_columns``)."""
    nested: list[NestedSection] = field(default_factory=list)
    """Nested objects (field-path tree), each a section with a property table (block ``nested``)."""
    nested_omitted: int = 0
    """Nested objects not shown: always 0 (every nested object has its section, ``views.site``)."""
    nested_pages: list[NestedPageLink] = field(default_factory=list)
    """Parts of a huge nested-object tree on pages of their own (``views.site.SPLIT_AT``)."""
    field_paths: FieldPathBox | None = None
    """The field-path box above the property table (``views.lookup``)."""
    release_title: str = ""
    """What the badge line calls the release (``release_title``: ``Kubernetes 1.31``)."""


@dataclass
class IndexEntry:
    kind: str
    href: str
    is_kind: bool
    description: str
    url: str = ""
    """``href`` as a published URL (the index tables are raw HTML)."""
    crd: CrdInfo | None = None
    """A CRD version: the index marks it (storage, not served, deprecated)."""


@dataclass
class ApiVersionView:
    group: str
    api_version: str
    stability: str
    href: str
    models: list[IndexEntry]


@dataclass
class GroupView:
    group: str
    href: str
    api_versions: list[ApiVersionView]


@dataclass
class IndexPage:
    """Context of the version home, group and API-version pages."""

    path: str
    version: str
    title: str
    groups: list[GroupView]
    up: Link | None = None
    extra_links: list[Link] = field(default_factory=list)
    source: SourceNote | None = None
    """What the release was built from: the release home only (block ``source``)."""
    parameters: list[ParameterDoc] = field(default_factory=list)
    """Request parameters of the operations, described once: the release home only."""


def group_label(model: Model) -> str:
    if model.group == COMMON_GROUP and not model.api_version:
        return COMMON_GROUP
    return f"{model.group}/{model.api_version}"


def first_sentence(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    short = flat[: end + 1] if 0 < end < limit else flat[:limit]
    return short + ("…" if len(short) < len(flat) and not short.endswith(".") else "")


def model_page(model: Model, api: ApiSpec, plan: SitePlan) -> ModelPage:
    path = plan.model_pages[model.name]
    appears = []
    for name in model.referrers:
        target = plan.page_of(name)
        if target:
            other = api.models[name]
            appears.append(Link(other.kind, relative(path, target), group_label(other),
                                plan.page_url(path, target)))
    up_path = plan.api_version_index(model.group, model.api_version)
    home = plan.page_url(path, plan.home)
    anchors: set[str] = set()
    rows = property_rows(model, api, plan, path, anchors)
    nested, omitted = nested_sections(model, api, plan, path, anchors)
    return ModelPage(
        path=path, version=api.version, model=model, gvk=primary_gvk(model),
        group_label=group_label(model), rows=rows,
        appears_in=appears,
        up=Link(group_label(model), relative(path, up_path), url=plan.page_url(path, up_path)),
        source=source_note(api), source_url=f"{home}#{SOURCE_ANCHOR}",
        differences_url=f"{home}#{DIFFERENCES_ANCHOR}",
        crd=crd_view(model, api, plan, path),
        nested=nested, nested_omitted=omitted, nested_pages=nested_page_links(path, api, plan),
        field_paths=field_path_box(model, api, plan, path),
        release_title=release_title(api),
    )


def _group_views(api: ApiSpec, plan: SitePlan, page: str,
                 only_group: str | None = None, only_version: str | None = None) -> list[GroupView]:
    groups = []
    for group, versions in api.tree.items():
        if only_group is not None and group != only_group:
            continue
        version_views = []
        for api_version, models in versions.items():
            if only_version is not None and api_version != only_version:
                continue
            entries = [
                IndexEntry(m.kind, relative(page, plan.model_pages[m.name]), m.is_kind,
                           first_sentence(m.description), plan.page_url(page, plan.model_pages[m.name]),
                           m.crd)
                for m in models
            ]
            version_views.append(ApiVersionView(
                group, api_version, stability(api_version) if api_version else "",
                relative(page, plan.api_version_index(group, api_version)), entries))
        groups.append(GroupView(group, relative(page, plan.group_index(group)), version_views))
    return groups


def title_of(version: str, crd_only: bool = False) -> str:
    """What pages, navigation and the site's root call a release: ``Kubernetes 1.31``; a release
    that is only CRD sets: ``gateway-v1.2.0 custom resources``. The one place release titles
    come from (``release_title`` for a loaded release)."""
    return f"{version} custom resources" if crd_only else f"Kubernetes {version}"


def release_title(api: ApiSpec) -> str:
    """``title_of`` a loaded release."""
    return title_of(api.version, api.format == "crd")


def index_pages(api: ApiSpec, plan: SitePlan, paths: Container[str] | None = None) -> list[IndexPage]:
    """Version home, one page per group and one per API version; only ``paths``, when given."""
    pages = [IndexPage(plan.home, api.version, release_title(api),
                       _group_views(api, plan, plan.home), source=source_note(api),
                       parameters=parameter_docs() if api.operations else [])
             ] if paths is None or plan.home in paths else []
    for group, versions in api.tree.items():
        gpath = plan.group_index(group)
        if paths is None or gpath in paths:
            pages.append(IndexPage(gpath, api.version, group,
                                   _group_views(api, plan, gpath, only_group=group),
                                   up=Link(release_title(api), relative(gpath, plan.home))))
        for api_version in versions:
            vpath = plan.api_version_index(group, api_version)
            if vpath == gpath or (paths is not None and vpath not in paths):
                continue
            pages.append(IndexPage(
                vpath, api.version, f"{group}/{api_version}",
                _group_views(api, plan, vpath, only_group=group, only_version=api_version),
                up=Link(group, relative(vpath, gpath))))
    return pages


def nested_pages(model: Model, api: ApiSpec, plan: SitePlan, title: str) -> list[NestedObjectsPage]:
    """The sub-pages of a huge CRD kind's tree (``views.crd.nested_objects_pages``), each with
    the field-path box of the kind: a path typed there starts at the kind (``spec.generators…``),
    the placeholder is a path through the page's top object."""
    pages = nested_objects_pages(model, api, plan, title)
    for sub in pages:
        top = sub.top.field_path.replace("[]", "").replace("{}", "")
        first = sub.top.fields[0].name if sub.top.fields else ""
        sub.field_paths, sub.field_paths_start = sub_page_box(
            model, api, plan, sub.path, f"{top}.{first}" if first else top)
    return pages


def sub_page_box(model: Model, api: ApiSpec, plan: SitePlan, path: str, example: str = ""
                 ) -> tuple[FieldPathBox | None, str]:
    """The field-path box of kind ``model`` on its sub-page ``path`` (``example``: the
    placeholder when it is a plain path, else the kind's) and the kind's entry in
    ``fieldpaths.json``, where paths typed there start."""
    box = field_path_box(model, api, plan, path)
    if box is None:
        return None, ""
    box = FieldPathBox(box.url, example if _PLAIN_PATH.fullmatch(example) else box.example)
    return box, in_release(plan, plan.model_pages[model.name])
