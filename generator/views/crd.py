"""The parts of a CRD kind page beyond a model page: the CRD header (names, scope, version
status, other versions, conversion, subresources), printer columns and the field-path tree of
nested objects, each a section with its own property table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.model.repeats import ordered_children
from generator.model.types import NESTED_SEPARATOR, ApiSpec, CrdInfo, Model, PrinterColumn
from generator.views.properties import PropertyRow, SameShape, anchored_rows, property_rows, same_shape
from generator.views.site import SitePlan, relative


@dataclass(frozen=True, slots=True)
class VersionLink:
    name: str
    href: str | None
    """Markdown link to that version's page (``None``: this page, or no page)."""
    url: str | None
    served: bool
    storage: bool
    deprecated: bool
    current: bool


@dataclass(frozen=True)
class CrdView:
    info: CrdInfo
    api_version: str
    """What to write in ``apiVersion``: ``gateway.networking.k8s.io/v1``."""
    versions: list[VersionLink]
    columns: list[PrinterColumn]
    wide_columns: list[PrinterColumn]
    """``priority`` > 0: shown by ``kubectl get -o wide`` only."""


@dataclass(frozen=True)
class NestedSection:
    """One nested object: its field path, anchor, parent link and property table."""

    model: Model
    path: str
    anchor: str
    depth: int
    parent_path: str
    parent_href: str
    """``#anchor`` of the parent's section, or ``#properties`` for the root."""
    rows: list[PropertyRow]
    same: SameShape | None = None
    """The definition of the release this object has the shape of (``Model.same_shape``)."""
    repeats: RepeatLink | None = None
    """The earlier object of the tree this one repeats exactly (``Model.same_as``): no rows of
    its own, a link to that object's section."""


@dataclass(frozen=True, slots=True)
class RepeatLink:
    """The section a repeated nested object refers to (``Model.same_as``)."""

    path: str
    """Field path of the object shown: ``spec.template.spec.containers[]``."""
    href: str
    """``#anchor``, or the published URL of its page and the anchor."""


def crd_view(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> CrdView | None:
    info = model.crd
    if info is None:
        return None
    siblings = api.crd_versions.get((info.group, info.kind), {})
    versions = []
    for status in info.versions:
        other = siblings.get(status.name)
        target = plan.page_of(other.name) if other is not None else None
        current = status.name == info.version
        versions.append(VersionLink(
            status.name, relative(page, target) if target and not current else None,
            plan.page_url(page, target) if target and not current else None,
            status.served, status.storage, status.deprecated, current))
    return CrdView(info, f"{info.group}/{info.version}", versions,
                   [c for c in info.printer_columns if c.priority == 0],
                   [c for c in info.printer_columns if c.priority > 0])


@dataclass(frozen=True)
class NestedPageLink:
    """A part of the nested-object tree shown on a page of its own (``SitePlan.nested_pages``)."""

    path: str
    """Field path of the object at its top: ``spec``."""
    href: str
    """Markdown link (``.md``)."""
    url: str
    """The same as a published URL (raw HTML)."""
    sections: int
    """How many nested objects that page (and the pages under it) shows."""


@dataclass
class NestedObjectsPage:
    """Context of ``pages/nested.md.j2``: a part of a huge CRD's nested-object tree, the object
    ``top`` and everything under it (``views.site.SPLIT_AT``), on a page of its own."""

    path: str
    version: str
    model: Model
    """The kind (the root of the tree)."""
    top: Model
    up: str
    """Markdown link to the page the object's parent is shown on."""
    up_url: str
    kind_href: str
    """Markdown link to the kind's page."""
    kind_url: str
    nested: list[NestedSection]
    nested_pages: list[NestedPageLink]
    release_title: str = ""
    nested_omitted: int = 0
    field_paths: Any = None
    """``views.lookup.FieldPathBox`` of the page (set by ``views.pages.nested_pages``)."""
    field_paths_start: str = ""
    """The kind's entry in ``fieldpaths.json``: paths typed on a sub-page start at the kind."""
    headings: list[TocHeading] = field(default_factory=list)
    """Of each section (``nested``, in order): its heading, listed in the table of contents
    (``toc_headings``)."""


@dataclass(frozen=True, slots=True)
class TocHeading:
    """The Markdown heading of a sub-page's section: its level (the page's top ``###``, each
    level of the tree one deeper, down to ``######``) and its table-of-contents label: the path
    after the section it is listed under (``solvers[]`` under ``spec.acme``), or ``""`` where
    that is not plain text Markdown keeps as it is (the heading's text, the whole path, then)."""

    level: int
    label: str
    anchor: str = ""
    """The section's anchor as the heading's attribute list writes it (``attr_id``)."""


TOP_LEVEL = 3
"""The heading level of a sub-page's top section (under its ``## Nested objects``)."""
PLAIN_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(?:\[\]|\{\})*(?:\.[A-Za-z0-9_-]+(?:\[\]|\{\})*)*")
"""A label Markdown keeps as it is in an attribute list: names, ``[]``, ``{}`` and dots."""
EMPHASIS = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""An underscore Python-Markdown could read as emphasis (not inside a word)."""


def attr_id(anchor: str) -> str:
    """``anchor`` as a Markdown attribute list writes it: an underscore Python-Markdown could
    read as emphasis (``object-spec._x_``) escaped (``\\_``), which it writes back as ``_``."""
    return EMPHASIS.sub(r"\\_", anchor) if "_" in anchor else anchor


def toc_headings(sections: list[NestedSection]) -> list[TocHeading]:
    """The heading of each of a sub-page's ``sections`` (``NestedObjectsPage.headings``): every
    section has one, so the table of contents lists them all, nested as the tree is (the theme
    indents each level); past ``######`` the sections are listed under their ancestor at
    ``#####``, labelled with the path after it."""
    out = []
    above: list[str] = []  # the paths of the sections the walk is in, by depth
    for s in sections:
        del above[s.depth - 1:]
        above.append(s.path)
        level = min(TOP_LEVEL - 1 + s.depth, 6)
        parent = above[level - TOP_LEVEL - 1] if level > TOP_LEVEL else ""
        label = s.path[len(parent):].lstrip(".") if parent and s.path.startswith(parent) else ""
        if not PLAIN_LABEL.fullmatch(label) or EMPHASIS.search(label) or label == s.path:
            label = ""
        out.append(TocHeading(level, label, attr_id(s.anchor)))
    return out


def nested_sections(model: Model, api: ApiSpec, plan: SitePlan, page: str,
                    anchors: set[str], top: Model | None = None, *, shown: bool = True
                    ) -> tuple[list[NestedSection], int]:
    """Sections of the nested objects under ``model`` shown on ``page`` (from ``top`` down on a
    sub-page), depth first in field order, and how many are not shown anywhere: none (every
    nested object has its section, on this page or a sub-page: ``views.site.plan_site``).
    ``shown`` false: the rows carry their fields and anchors only (``anchored_rows``)."""
    if top is None and not any(NESTED_SEPARATOR in f.type.referenced() for f in model.fields):
        return [], 0
    children: dict[str, list[Model]] = {}
    for other in api.nested.get(model.name, ()):
        children.setdefault(other.parent, []).append(other)
    out: list[NestedSection] = []
    start = [top] if top is not None else ordered_children(model, children.get(model.name, []))
    stack = [(c, 1) for c in reversed(start)]
    while stack:
        child, depth = stack.pop()
        found = plan.target_of(child.name)
        if found is None or found[0] != page:
            continue  # on a page of its own (and so is all under it)
        anchor = found[1]
        anchors.add(anchor)
        parent = api.models[child.parent]
        parent_target = plan.target_of(parent.name)
        parent_anchor = parent_target[1] if parent_target and parent_target[1] else "properties"
        parent_page = parent_target[0] if parent_target else page
        parent_href = (f"#{parent_anchor}" if parent_page == page
                       else f"{plan.page_url(page, parent_page)}#{parent_anchor}")
        repeats = _repeat_link(child, api, plan, page)
        rows = ([] if repeats else property_rows(child, api, plan, page, anchors) if shown
                else anchored_rows(child, anchors))
        out.append(NestedSection(child, child.field_path, anchor, depth,
                                 parent.field_path or parent.kind, parent_href, rows,
                                 same_shape(child, api, plan, page), repeats))
        stack.extend((c, depth + 1) for c in reversed(ordered_children(child, children.get(child.name, []))))
    return out, 0


def _repeat_link(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> RepeatLink | None:
    first = api.models.get(model.same_as) if model.same_as else None
    target = plan.target_of(first.name) if first is not None else None
    if first is None or target is None:
        return None
    where, anchor = target
    href = f"#{anchor}" if where == page else f"{plan.page_url(page, where)}#{anchor}"
    return RepeatLink(first.field_path, href)


def nested_page_links(page: str, api: ApiSpec, plan: SitePlan) -> list[NestedPageLink]:
    """The sub-pages of ``page`` (``SitePlan.nested_pages``), as links from it."""
    links = []
    for sub, name in plan.nested_pages.get(page, ()):
        shown = _pages_under(sub, plan)
        count = sum(1 for target in plan.sections.values() if target[0] in shown)
        links.append(NestedPageLink(api.models[name].field_path, relative(page, sub),
                                    plan.page_url(page, sub), count))
    return links


def _pages_under(page: str, plan: SitePlan) -> set[str]:
    out = {page}
    for sub, _ in plan.nested_pages.get(page, ()):
        out |= _pages_under(sub, plan)
    return out


def nested_objects_pages(model: Model, api: ApiSpec, plan: SitePlan, title: str
                         ) -> list[NestedObjectsPage]:
    """The sub-pages of ``model``'s nested-object tree (none unless it is huge)."""
    home = plan.model_pages[model.name]
    pages = []
    todo = [home]
    while todo:
        parent_page = todo.pop(0)
        for sub, name in plan.nested_pages.get(parent_page, ()):
            top = api.models[name]
            nested, _ = nested_sections(model, api, plan, sub, set(), top)
            pages.append(NestedObjectsPage(
                sub, api.version, model, top, relative(sub, parent_page), plan.page_url(sub, parent_page),
                relative(sub, home), plan.page_url(sub, home), nested, nested_page_links(sub, api, plan),
                title, headings=toc_headings(nested)))
            todo.append(sub)
    return pages
