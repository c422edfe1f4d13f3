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
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from generator.libsonnet.builders import (
    HELPER,
    MIXIN,
    BuilderEntry,
    BuilderFunction,
    BuilderIndex,
    BuilderObject,
    builder_index,
)
from generator.model.types import ApiSpec, Field, TypeRef
from generator.views.pages import ModelPage, first_sentence
from generator.views.properties import TypeLabel, field_anchor, type_label
from generator.views.site import SitePlan, page_url

LIBRARY_URL = "https://github.com/jsonnet-libs/k8s-libsonnet"
COLLAPSE_AFTER = 20
"""Indexes with more entries than this are shown collapsed."""


@dataclass(frozen=True, slots=True)
class IndexLine:
    depth: int
    label: str
    """``fn withReservedFor(reservedFor)`` / ``obj allocation.devices`` (k8s-libsonnet's text)."""
    anchor: str
    opens: bool = False
    """An ``obj`` with members: its nested list follows (it ends where the depth drops)."""
    closes: int = 0
    """How many nested lists end before this line (the depth it drops by from the line before)."""


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
    entries: list[BuilderEntryView]
    function_count: int
    collapsed: bool
    library_url: str = LIBRARY_URL
    helper_count: int = 0
    """How many of the functions are hand-written helpers."""
    new: BuilderFunction | None = None
    """The ``new`` of a kind (generated ``new(name)`` or a helper such as
    ``new(name, replicas=1, containers, podLabels={})``)."""


class _Links:
    """Type labels and property-row links from one page, memoized per release and directory: the
    same fields (ObjectMeta, PodSpec…) recur on many pages, and links only depend on the
    directory of the page (nested fields never belong to the page's own model)."""

    _plans: list[tuple[SitePlan, dict[str, dict[object, object]]]] = []
    """The last few plans (kept alive, so their ids cannot be reused) → directory → memo."""

    def __init__(self, path: str, api: ApiSpec, plan: SitePlan) -> None:
        self.path, self.api, self.plan = path, api, plan
        dirs = next((memo for known, memo in self._plans if known is plan), None)
        if dirs is None:
            dirs = {}
            self._plans.insert(0, (plan, dirs))
            del self._plans[4:]
        self.memo = dirs.setdefault(posixpath.dirname(path), {})

    def type(self, t: TypeRef) -> TypeLabel:
        label = self.memo.get(t)
        if label is None:
            label = self.memo[t] = type_label(t, self.api, self.plan, self.path)
        return label  # type: ignore[return-value]

    def urls(self, t: TypeRef, owner: str, f: Field, direct: bool) -> tuple[str | None, str | None]:
        """Published URLs of the type's page and of the field's property row: ``#field-x`` for a
        direct entry, else the same for every page of the directory (nested entries are shared
        between the pages of a directory)."""
        type_url = self.type(t).url
        if direct:
            return type_url, "#" + field_anchor(f.name)
        key = ("row_url", owner, f.name)
        if key not in self.memo:
            home = self.plan.page_of(owner)
            self.memo[key] = f"{page_url(self.path, home)}#{field_anchor(f.name)}" if home else None
        return type_url, self.memo[key]  # type: ignore[return-value]

    def field(self, owner: str, f: Field, direct: bool) -> str | None:
        if direct:
            return "#" + field_anchor(f.name)
        key = (owner, f.name)
        if key not in self.memo:
            href = self.plan.link(self.path, owner)
            self.memo[key] = f"{href}#{field_anchor(f.name)}" if href else None
        return self.memo[key]  # type: ignore[return-value]


@lru_cache(maxsize=16384)
def _summary(description: str) -> str:
    return first_sentence(description)


class _Collector:
    """Index lines and entries of one page, depth first; an ``obj`` group's contents are reused
    from other pages of the same directory (they do not depend on the page)."""

    def __init__(self, links: _Links) -> None:
        self.links = links
        self.lines: list[IndexLine] = []
        self.entries: list[BuilderEntryView] = []
        self.count = 0
        self.helpers = 0

    def level(self, members: tuple[BuilderEntry, ...], depth: int) -> None:
        links, current = self.links, []
        for entry in members:
            if isinstance(entry, BuilderObject):
                self.flush(current)
                current = []
                self.obj(entry, depth)
                continue
            self.count += 1
            self.lines.append(IndexLine(depth, f"fn {entry.signature}", entry.anchor,
                                        closes=self.closes(depth)))
            if entry.kind == HELPER:
                self.flush(current)
                current = []
                self.helpers += 1
                assert entry.helper is not None
                self.entries.append(BuilderEntryView("helper", (entry,), direct=not entry.path,
                                                     summary=entry.helper.summary))
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
        del links

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
            "field", tuple(current), field=f, json_path=".".join(first.target),
            type=self.links.type(f.type), field_href=self.links.field(first.owner, f, direct),
            direct=direct, summary=_summary(f.description), type_url=type_url, field_url=field_url))

    def obj(self, obj: BuilderObject, depth: int) -> None:
        assert obj.field is not None
        self.lines.append(IndexLine(depth, obj.title, obj.anchor, opens=bool(obj.members),
                                    closes=self.closes(depth)))
        direct = depth == 0
        type_url, field_url = self.links.urls(obj.field.type, obj.owner, obj.field, direct)
        self.entries.append(BuilderEntryView(
            "obj", obj=obj, field=obj.field, json_path=".".join(obj.target),
            type=self.links.type(obj.field.type), field_href=self.links.field(obj.owner, obj.field, direct),
            direct=direct, summary=_summary(obj.field.description), type_url=type_url,
            field_url=field_url))
        key = ("obj", id(obj))
        cached = self.links.memo.get(key)
        if cached is None or cached[0] is not obj:  # type: ignore[index]
            inner = _Collector(self.links)
            inner.level(obj.members, depth + 1)
            cached = self.links.memo[key] = (obj, inner.lines, inner.entries, inner.count,
                                             inner.helpers)
        _, lines, entries, count, helpers = cached  # type: ignore[misc]
        self.lines.extend(lines)
        self.entries.extend(entries)
        self.count += count
        self.helpers += helpers


def builder_section(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """The section of ``page``; ``None`` when the model has no builder functions."""
    index = builder_index(page.model, api)
    return None if index is None else index_section(index, page.path, api, plan)


def index_section(index: BuilderIndex, path: str, api: ApiSpec, plan: SitePlan
                  ) -> BuilderSection | None:
    """The section of ``index`` on page ``path`` (a model's, or a helper-only library object's:
    ``views.library``); ``None`` when it has no functions."""
    collector = _Collector(_Links(path, api, plan))
    collector.level(index.root.members, 0)
    if not collector.count:
        return None
    return BuilderSection(index, "k." + index.library_path, collector.lines, collector.entries,
                          collector.count, collapsed=len(collector.lines) > COLLAPSE_AFTER,
                          helper_count=collector.helpers, new=index.function("new"))


def builders_hook(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """Section hook (``pipeline.default_hooks``): the page's builder section, if any."""
    return builder_section(page, api, plan)
