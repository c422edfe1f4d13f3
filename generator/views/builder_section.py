"""The "Builder functions" section of a model page (``partials/builders.md.j2``).

Data only: the index (nested, anchored) and one entry per ``obj`` group or per field, where a
field's entry carries its functions (``withX`` and, if any, ``withXMixin``), each with its own
anchor and signature, plus the argument type, the field's own description and a link to the
property-table row that documents the field.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, replace

from generator.model.types import ApiSpec, Field, TypeRef
from generator.views.builders import MIXIN, BuilderFunction, BuilderIndex, BuilderObject, builder_index
from generator.views.pages import ModelPage, first_sentence
from generator.views.properties import TypeLabel, field_anchor, type_label
from generator.views.site import SitePlan

SECTION = "builders"
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
    """An ``obj`` with members: its nested list follows."""
    closes: int = 0
    """How many nested lists end after this line."""


@dataclass(frozen=True, slots=True)
class BuilderEntryView:
    """One block of entries: an ``obj`` group, ``new(name)``, or one field's functions."""

    kind: str
    """``obj`` · ``new`` · ``field``."""
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
    """A field of the page's own model: the entry shows its whole description; entries of
    nested fields show its first sentence (the whole text is one link away)."""
    summary: str = ""

    @property
    def mixin(self) -> BuilderFunction | None:
        return next((fn for fn in self.functions if fn.kind == MIXIN), None)

    @property
    def is_array(self) -> bool:
        return self.field is not None and self.field.type.kind == "array"


@dataclass(frozen=True)
class BuilderSection:
    """Context of ``partials/builders.md.j2`` (``page.sections["builders"]``)."""

    index: BuilderIndex
    call: str
    """``k.resource.v1alpha3.resourceClaimStatus``."""
    lines: list[IndexLine]
    entries: list[BuilderEntryView]
    function_count: int
    collapsed: bool
    library_url: str = LIBRARY_URL


class _Links:
    """Type labels and property-row links from one page, memoized: the same fields (ObjectMeta,
    PodSpec…) recur on many pages of one directory, and links only depend on the directory."""

    _cache: dict[tuple[int, str], dict[object, object]] = {}

    def __init__(self, page: ModelPage, api: ApiSpec, plan: SitePlan) -> None:
        self.page, self.api, self.plan = page, api, plan
        key = (id(plan), posixpath.dirname(page.path))
        if len(self._cache) > 4096:
            self._cache.clear()
        self.memo = self._cache.setdefault(key, {})

    def type(self, t: TypeRef) -> TypeLabel:
        label = self.memo.get(t)
        if label is None:
            label = self.memo[t] = type_label(t, self.api, self.plan, self.page.path)
        return label  # type: ignore[return-value]

    def field(self, owner: str, f: Field) -> str | None:
        if owner == self.page.model.name:
            return "#" + field_anchor(f.name)
        key = (owner, f.name)
        if key not in self.memo:
            href = self.plan.link(self.page.path, owner)
            self.memo[key] = f"{href}#{field_anchor(f.name)}" if href else None
        return self.memo[key]  # type: ignore[return-value]


def builder_section(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """The section of ``page``; ``None`` when the model has no builder functions."""
    index = builder_index(page.model, api)
    if index is None:
        return None
    links = _Links(page, api, plan)
    lines: list[IndexLine] = []
    entries: list[BuilderEntryView] = []
    count = 0
    current: list[BuilderFunction] = []

    def flush() -> None:
        if not current:
            return
        first = current[0]
        f = first.field
        assert f is not None
        entries.append(BuilderEntryView(
            "field", tuple(current), field=f, json_path=".".join(first.target),
            type=links.type(f.type), field_href=links.field(first.owner, f),
            direct=not first.path, summary=first_sentence(f.description)))
        current.clear()

    for depth, entry in index.entries():
        if isinstance(entry, BuilderObject):
            flush()
            lines.append(IndexLine(depth, entry.title, entry.anchor, opens=bool(entry.members)))
            assert entry.field is not None
            entries.append(BuilderEntryView(
                "obj", obj=entry, field=entry.field, json_path=".".join(entry.target),
                type=links.type(entry.field.type), field_href=links.field(entry.owner, entry.field),
                direct=len(entry.path) == 1, summary=first_sentence(entry.field.description)))
            continue
        count += 1
        lines.append(IndexLine(depth, f"fn {entry.signature}", entry.anchor))
        if entry.kind == MIXIN and current and current[-1].target == entry.target:
            current.append(entry)
            continue
        flush()
        if entry.field is None:
            entries.append(BuilderEntryView("new", (entry,)))
        else:
            current.append(entry)
    flush()
    if not count:
        return None
    for i, line in enumerate(lines):
        following = lines[i + 1].depth if i + 1 < len(lines) else 0
        if not line.opens and following < line.depth:
            lines[i] = replace(line, closes=line.depth - following)
    return BuilderSection(index, "k." + index.library_path, lines, entries, count,
                          collapsed=len(lines) > COLLAPSE_AFTER)


def builders_hook(page: ModelPage, api: ApiSpec, plan: SitePlan) -> None:
    """Section hook (``pipeline.default_hooks``): adds ``page.sections["builders"]``."""
    section = builder_section(page, api, plan)
    if section is not None:
        page.sections[SECTION] = section
