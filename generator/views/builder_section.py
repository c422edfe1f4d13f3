"""The "Builder functions" section of a model page (``partials/builders.md.j2``).

Data only: the index (nested, anchored) and one entry per ``obj`` group or per field, where a
field's entry carries its functions (``withX`` and, if any, ``withXMixin``), each with its own
anchor and signature, plus the argument type, the field's own description and a link to the
property-table row that documents the field. A hand-written k8s-libsonnet helper
(``container.new(name, image)``) is an entry of its own: its documented signature and what it does
(``libsonnet.helpers``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, NamedTuple

from generator.libsonnet.builders import (
    HELPER,
    MIXIN,
    BuilderEntry,
    BuilderFunction,
    BuilderIndex,
    BuilderObject,
    builder_index,
)
from generator.memo import render_memo
from generator.model.repeats import shown_under
from generator.model.types import ApiSpec, Field, Model, TypeRef
from generator.views import site
from generator.views.builder_toc import BuilderToc, builder_toc
from generator.views.pages import ModelPage, first_sentence, sub_page_box
from generator.views.properties import TypeLabel, field_anchor, label_for_type
from generator.views.site import SitePlan, path_anchor, relative

LIBRARY_URL = "https://github.com/jsonnet-libs/k8s-libsonnet"
CRD_LIBRARY_URL = "https://github.com/jsonnet-libs/k8s"
"""k8s-gen, which generates the CRD libraries jsonnet-libs publishes (gateway-api-libsonnet…)."""
_MEMO = "builder_section"
"""The key of this module's links memo in ``SitePlan.memos``."""
COLLAPSE_AFTER = 20
"""Indexes with more entries than this are shown collapsed."""
COMPACT_AFTER = site.COMPACT_AFTER
"""A CRD kind with more functions than this (cert-manager's ClusterIssuer: 517) gets the compact form:
the index is the reference (each entry carries its anchor, each ``obj`` links its field's row),
with no entry per function: the field-path tree already describes every field. A huge index
(argo-cd's ApplicationSet: 8,852 functions) keeps its largest ``obj`` groups' members on pages of
their own (``SitePlan.builder_pages``, ``builder_pages`` here), every line and anchor kept."""


class IndexLine(NamedTuple):
    """One line of a builder index (``partials/builder_index.html.j2``); a named tuple, the
    cheapest immutable record to make (a huge CRD kind's pages have ~50,000 lines)."""

    depth: int
    label: str
    """``fn withReservedFor(reservedFor)`` / ``obj allocation.devices`` (k8s-libsonnet's text)."""
    anchor: str
    opens: bool = False
    """An ``obj`` with members: its nested list follows (it ends where the depth drops)."""
    field_url: str | None = None
    """An ``obj``'s link to the property row of its field (the compact form shows it)."""
    closes: int = 0
    """How many nested lists end before this line (the depth it drops by from the line before)."""
    moved_url: str | None = None
    """An ``obj`` whose members are on a page of their own (``SitePlan.builder_pages``): its URL."""
    moved_count: int = 0
    """How many functions that page (and the pages under it) lists."""
    name: str = ""
    """The last name of the label, as the compact index shows it: ``withReservedFor`` (a
    function), ``devices`` (an ``obj``)."""
    obj: bool = False
    """An ``obj`` line (else a function's)."""


@dataclass(frozen=True, slots=True)
class BuilderEntryView:
    """One block of entries: an ``obj`` group, ``new(name)``, or one field's functions."""

    kind: str
    """``obj`` · ``new`` · ``field`` · ``helper`` (a hand-written k8s-libsonnet helper: its
    ``summary`` says what it does)."""
    functions: tuple[BuilderFunction, ...] = ()
    obj: BuilderObject | None = None
    field: Field | None = None
    json_path: str = ""
    """Where the value lands: ``allocation.devices.results``."""
    type: TypeLabel | None = None
    """Argument type (a field's type, an object's model), linked like in the property table."""
    field_href: str | None = None
    """Link to the property-table row of the field (on this or the owning model's page)."""
    direct: bool = False
    """``new`` or a field of the page's own model: the entry shows its whole description; entries
    of nested fields show its first sentence (the whole text is one link away)."""
    summary: str = ""
    type_url: str | None = None
    field_url: str | None = None
    """The same two links as published URLs (``../x/#field-y``), for raw HTML; MkDocs rewrites
    only Markdown links (see ``site.page_url``)."""
    moved_href: str | None = None
    """An ``obj`` whose members are on a page of their own: Markdown link to it."""

    @property
    def mixin(self) -> BuilderFunction | None:
        return next((fn for fn in self.functions if fn.kind == MIXIN), None)

    @property
    def is_array(self) -> bool:
        return self.field is not None and self.field.type.kind == "array"


@dataclass(frozen=True)
class BuilderSection:
    """Context of ``partials/builders.md.j2`` (``section``, one of ``page.sections``)."""

    template: ClassVar[str] = "partials/builders.md.j2"

    index: BuilderIndex
    call: str
    """``k.resource.v1alpha3.resourceClaimStatus``."""
    lines: list[IndexLine]
    reference: list[BuilderEntryView] | Callable[[], list[BuilderEntryView]]
    """The entries (``entries``), or what makes them when first asked for: a compact section's
    shipped templates show only the index, so its entries are made only for a template that
    reads them (``--format gfm``, an override)."""
    function_count: int
    collapsed: bool
    library_url: str = LIBRARY_URL
    crd: bool = False
    """A CRD's kind: the library is the one k8s-gen generates from the CRDs."""
    compact: bool = False
    """The index carries the anchors and there is no reference (``COMPACT_AFTER``)."""
    helper_count: int = 0
    """How many of the functions are hand-written helpers."""
    new: BuilderFunction | None = None
    """The ``new`` of a kind (generated ``new(name)`` or a helper such as
    ``new(name, replicas=1, containers, podLabels={})``)."""
    top: BuilderObject | None = None
    """On a page of its own (``BuilderPage``): the ``obj`` whose members the section lists."""
    pages: int = 0
    """How many pages of their own the index's largest ``obj`` groups have (``builder_pages``)."""

    @cached_property
    def entries(self) -> list[BuilderEntryView]:
        """One block per ``obj`` group, ``new``, helper or field, in index order."""
        return self.reference if isinstance(self.reference, list) else self.reference()


@dataclass
class BuilderPage:
    """Context of ``pages/builders.md.j2``: the members of one ``obj`` group of a huge CRD
    kind's builder index (``SitePlan.builder_pages``), on a page of their own."""

    path: str
    version: str
    model: Model
    """The kind."""
    section: BuilderSection
    up: str
    """Markdown link to the page the ``obj`` line is on, at its anchor."""
    up_url: str
    kind_href: str
    kind_url: str
    release_title: str = ""
    field_paths: Any = None
    """``views.lookup.FieldPathBox`` of the kind (``views.pages.sub_page_box``)."""
    field_paths_start: str = ""
    """The kind's entry in ``fieldpaths.json``: paths typed here start at the kind."""

    @property
    def toc(self) -> BuilderToc:
        """The page's groups as headed parts of its index (``views.builder_toc``)."""
        return builder_toc(self.section.lines, self.section.top.dotted if self.section.top else "")


class _Links:
    """Type labels and property-row links from one page, memoized per release and directory: the
    same fields (ObjectMeta, PodSpec…) recur on many pages, and links only depend on the
    directory of the page (nested fields never belong to the page's own model)."""

    def __init__(self, path: str, api: ApiSpec, plan: SitePlan) -> None:
        self.path, self.api, self.plan = path, api, plan
        # kept with the release's plan (the build state), started afresh when the release is
        # loaded again: directory → memo
        kept = plan.memos.get(_MEMO)
        if kept is None or kept[0] is not api:
            directories: dict[str, dict[Any, Any]] = {}
            kept = plan.memos[_MEMO] = (api, directories)
        self.memo = kept[1].setdefault(posixpath.dirname(path), {})

    def type(self, t: TypeRef) -> TypeLabel:
        label = self.memo.get(t)
        if label is None:
            label = self.memo[t] = label_for_type(t, self.api, self.plan, self.path)
        return label  # type: ignore[return-value]

    def urls(self, t: TypeRef, owner: str, f: Field, direct: bool) -> tuple[str | None, str | None]:
        """Published URLs of the type's page and of the field's property row: ``#field-x`` for a
        direct entry, else the same for every page of the directory (nested entries are shared
        between the pages of a directory)."""
        return self.type(t).url, self.row_url(owner, f, direct)

    def row_url(self, owner: str, f: Field, direct: bool) -> str | None:
        """The published URL of the field's property row (``urls``)."""
        nested = self.nested_row(owner, f, direct)
        if nested is not None:
            return nested
        if direct:
            return "#" + field_anchor(f.name)
        key = ("row_url", owner, f.name)
        if key not in self.memo:
            home = self.plan.page_of(owner)
            self.memo[key] = f"{self.plan.page_url(self.path, home)}#{field_anchor(f.name)}" if home else None
        return self.memo[key]  # type: ignore[return-value]

    def field(self, owner: str, f: Field, direct: bool) -> str | None:
        nested = self.nested_row(owner, f, direct, markdown=True)
        if nested is not None:
            return nested
        if direct:
            return "#" + field_anchor(f.name)
        key = (owner, f.name)
        if key not in self.memo:
            href = self.plan.link(self.path, owner)
            self.memo[key] = f"{href}#{field_anchor(f.name)}" if href else None
        return self.memo[key]  # type: ignore[return-value]

    def json_path(self, owner: str, f: Field, target: tuple[str, ...]) -> str:
        """Where the value lands: ``spec.rules[].matches[].path.type`` for a field of an inline
        object (its path says where the arrays are), else the target's names."""
        model = self.api.models.get(owner)
        if model is not None and model.field_path:
            return f"{model.field_path}.{f.name}"
        return ".".join(target)

    def nested_row(self, owner: str, f: Field, direct: bool, markdown: bool = False) -> str | None:
        """``#field-spec.rules.matches.path.type``: the row of a field of a CRD or of an inline
        object, anchored by its path on its root's page (or a sub-page of it), as a published URL
        (``markdown``: a ``.md`` link); ``""`` when its object has no section; ``None`` for other
        fields."""
        model = self.api.models.get(owner)
        if model is None or not (model.field_path or model.crd is not None):
            return None
        if model.field(f.name) is None:
            return ""  # k8s-gen's own field (metadata of a schema without one): no row to link
        if model.field_path:  # under a repeated object: the row shown under the one it repeats
            key = ("shown_under", owner)
            if key not in self.memo:
                self.memo[key] = shown_under(self.api.models, owner)
            model = self.api.models.get(self.memo[key], model)  # type: ignore[arg-type]
            owner = model.name
        target = self.plan.target_of(owner)
        if target is None:
            return ""  # an object without a section (not part of its root's tree): no row to link
        path = f"{model.field_path}.{f.name}" if model.field_path else f.name
        anchor = "#" + path_anchor("field-", path, set())
        page = target[0]  # the kind's page, or a sub-page of a huge tree (views.site.SPLIT_AT)
        if page == self.path:
            return anchor
        return (relative(self.path, page) if markdown else self.plan.page_url(self.path, page)) + anchor


@render_memo(16384)
def _summary(description: str) -> str:
    return first_sentence(description)


class _Collector:
    """Index lines and entries of one page, depth first; an ``obj`` group's contents are reused
    from other pages of the same directory (they do not depend on the page). ``entries`` false:
    the lines and counts only; ``lines`` false: the entries only."""

    def __init__(self, links: _Links, moved: dict[str, str] | None = None, *, lines: bool = True,
                 entries: bool = True, counts: dict[int, int] | None = None) -> None:
        self.links = links
        self.moved = moved or {}
        """``obj`` anchor → the page its members are on (``SitePlan.builder_pages``)."""
        self.counts = {} if counts is None else counts
        """``BuilderObject.uid`` → how many functions are below it (``_functions_under``)."""
        self.want_lines, self.want_entries = lines, entries
        self.lines: list[IndexLine] = []
        self.entries: list[BuilderEntryView] = []
        self.count = 0
        self.helpers = 0

    def level(self, members: tuple[BuilderEntry, ...], depth: int) -> None:
        current = list[BuilderFunction]()
        want_lines, want_entries = self.want_lines, self.want_entries
        for entry in members:
            if isinstance(entry, BuilderObject):
                self.flush(current)
                current = []
                self.obj(entry, depth)
                continue
            self.count += 1
            if want_lines:
                signature = entry.signature
                self.lines.append(IndexLine(depth, f"fn {signature}", entry.anchor,
                                            closes=self.closes(depth), name=signature.split("(", 1)[0]))
            if entry.kind == HELPER:
                self.flush(current)
                current = []
                self.helpers += 1
                if want_entries:
                    assert entry.helper is not None
                    self.entries.append(BuilderEntryView("helper", (entry,), direct=not entry.path,
                                                         summary=entry.helper.summary))
            elif not want_entries:
                continue  # the functions of a field: one entry
            elif entry.kind == MIXIN and current and current[-1].target == entry.target:
                current.append(entry)
            elif entry.field is None:
                self.flush(current)
                current = []
                self.entries.append(BuilderEntryView("new", (entry,), direct=True))
            else:
                self.flush(current)
                current = [entry]
        self.flush(current)

    def closes(self, depth: int) -> int:
        """Lists that end before a line at ``depth`` (an inner collector starts below its
        ``obj`` line: none)."""
        return max(self.lines[-1].depth - depth, 0) if self.lines else 0

    def flush(self, current: list[BuilderFunction]) -> None:
        if not current:
            return
        first = current[0]
        f = first.field
        assert f is not None
        direct = not first.path
        type_url, field_url = self.links.urls(f.type, first.owner, f, direct)
        self.entries.append(BuilderEntryView(
            "field", tuple(current), field=f, json_path=self.links.json_path(first.owner, f, first.target),
            type=self.links.type(f.type), field_href=self.links.field(first.owner, f, direct),
            direct=direct, summary=_summary(f.description), type_url=type_url, field_url=field_url))

    def obj(self, obj: BuilderObject, depth: int) -> None:
        assert obj.field is not None
        direct = depth == 0
        moved = self.moved.get(obj.anchor)
        path = self.links.path
        if self.want_lines:
            count = _functions_under(obj, self.counts) if moved else 0
            title = obj.title
            self.lines.append(IndexLine(depth, title, obj.anchor, opens=bool(obj.members) and not moved,
                                        field_url=self.links.row_url(obj.owner, obj.field, direct),
                                        closes=self.closes(depth),
                                        moved_url=self.links.plan.page_url(path, moved) if moved else None,
                                        moved_count=count,
                                        name=title.rsplit(".", 1)[-1].removeprefix("obj "), obj=True))
        if self.want_entries:
            links, f = self.links, obj.field
            type_url, field_url = links.urls(f.type, obj.owner, f, direct)
            self.entries.append(BuilderEntryView(
                "obj", obj=obj, field=f, json_path=links.json_path(obj.owner, f, obj.target),
                type=links.type(f.type), field_href=links.field(obj.owner, f, direct),
                direct=direct, summary=_summary(f.description), type_url=type_url,
                field_url=field_url, moved_href=relative(path, moved) if moved else None))
        if moved:
            if self.want_lines:
                self.count += count
            return
        key = ("obj", obj.uid, self.want_lines, self.want_entries)
        cached = self.links.memo.get(key)
        if cached is None:
            inner = _Collector(self.links, lines=self.want_lines, entries=self.want_entries,
                               counts=self.counts)
            inner.level(obj.members, depth + 1)
            cached = (inner.lines, inner.entries, inner.count, inner.helpers)
            model = self.links.api.models.get(obj.model)
            if model is None or not model.field_path:  # an inline object's obj is on one page only
                self.links.memo[key] = cached
        lines, entries, count, helpers = cached  # type: ignore[misc]
        self.lines.extend(lines)
        self.entries.extend(entries)
        self.count += count
        self.helpers += helpers


def _functions_under(obj: BuilderObject, counts: dict[int, int]) -> int:
    """How many functions are below ``obj`` (at any depth), each ``obj``'s count worked out once
    (``counts``): the pages of a huge index name the counts of the pages below theirs."""
    found = counts.get(obj.uid)
    if found is None:
        found = counts[obj.uid] = sum(_functions_under(m, counts) if isinstance(m, BuilderObject) else 1
                                      for m in obj.members)
    return found


def builder_section(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """The section of ``page``; ``None`` when the model has no builder functions."""
    index = builder_index(page.model, api)
    return None if index is None else index_section(index, page.path, api, plan)


def index_section(index: BuilderIndex, path: str, api: ApiSpec, plan: SitePlan,
                  top: BuilderObject | None = None, counts: dict[int, int] | None = None
                  ) -> BuilderSection | None:
    """The section of ``index`` on page ``path`` (a model's, or a helper-only library object's:
    ``views.library``; ``top``: the members of that ``obj`` on a page of their own); ``None``
    when it has no functions. ``counts``: the function counts of ``obj`` groups, shared by the
    pages of one index (``_functions_under``)."""
    moved = plan.builder_pages.get(index.model) if index.crd else None
    compact = index.crd and len(index) > COMPACT_AFTER
    links = _Links(path, api, plan)
    members = index.root.members if top is None else top.members
    collector = _Collector(links, moved, entries=not compact, counts=counts)
    collector.level(members, 0)
    if not collector.count:
        return None
    reference: list[BuilderEntryView] | Callable[[], list[BuilderEntryView]] = collector.entries
    if compact:
        def reference() -> list[BuilderEntryView]:
            entries = _Collector(links, moved, lines=False)
            entries.level(members, 0)
            return entries.entries
    if index.crd:
        return BuilderSection(index, index.call, collector.lines, reference,
                              collector.count, collapsed=len(collector.lines) > COLLAPSE_AFTER,
                              library_url=CRD_LIBRARY_URL, crd=True, new=index.function("new"),
                              compact=compact, top=top, pages=len(moved or ()))
    return BuilderSection(index, index.call, collector.lines, reference,
                          collector.count, collapsed=len(collector.lines) > COLLAPSE_AFTER,
                          helper_count=collector.helpers, new=index.function("new"))


def builders_hook(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """Section hook (``pipeline.default_hooks``): the page's builder section, if any."""
    return builder_section(page, api, plan)


def builder_pages(model: Model, api: ApiSpec, plan: SitePlan, title: str) -> list[BuilderPage]:
    """The pages of the ``obj`` groups of ``model``'s builder index that have one (none unless
    the index is huge: ``SitePlan.builder_pages``), in index order."""
    moved = plan.builder_pages.get(model.name)
    index = builder_index(model, api) if moved else None
    if index is None or not moved:
        return []
    home = plan.model_pages[model.name]
    pages = []
    counts: dict[int, int] = {}
    above: list[tuple[int, str]] = []  # the moved objs the walk is in: (depth, page)
    for depth, entry in index.entries():
        while above and above[-1][0] >= depth:
            above.pop()
        if not isinstance(entry, BuilderObject) or entry.anchor not in moved:
            continue
        parent = above[-1][1] if above else home  # the page the obj's line is on
        sub = moved[entry.anchor]
        above.append((depth, sub))
        section = index_section(index, sub, api, plan, entry, counts)
        if section is not None:
            pages.append(BuilderPage(sub, api.version, model, section,
                                     f"{relative(sub, parent)}#{entry.anchor}",
                                     f"{plan.page_url(sub, parent)}#{entry.anchor}",
                                     relative(sub, home), plan.page_url(sub, home), title,
                                     *sub_page_box(model, api, plan, sub)))
    return pages
