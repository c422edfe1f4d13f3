"""The parts of a CRD kind page beyond a model page: the CRD header (names, scope, version
status, other versions, conversion, subresources), printer columns and the field-path tree of
nested objects, each a section with its own property table."""

from __future__ import annotations

from dataclasses import dataclass
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
    toc_depth: int = 0
    """Sections this deep (the page's top is 1) have a heading of their own, listed in the table
    of contents (``TOC_SECTIONS``); deeper ones are shown as on the kind's page."""


TOC_SECTIONS = 30
"""Most sections a sub-page lists in its table of contents: every section down to the deepest
level that keeps the count within this (at least the top). Each entry is in the page twice (the
theme's sidebar and its phone drawer) and a whole tree's would push the largest sub-pages past
500 KB of HTML."""


def toc_depth(sections: list[NestedSection]) -> int:
    """The depth down to which ``sections`` have headings (``NestedObjectsPage.toc_depth``)."""
    counts: dict[int, int] = {}
    for s in sections:
        counts[s.depth] = counts.get(s.depth, 0) + 1
    depth, total = 1, counts.get(1, 0)
    while depth + 1 in counts and total + counts[depth + 1] <= TOC_SECTIONS:
        depth += 1
        total += counts[depth]
    return depth


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
                title, toc_depth=toc_depth(nested)))
            todo.append(sub)
    return pages
