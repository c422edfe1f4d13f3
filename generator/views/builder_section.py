"""The "Builder functions" section of a model page (``partials/builders.md.j2``).

Data only: the index (nested, anchored) and one entry per ``obj`` group or per field, where a
field's entry carries its functions (``withX`` and, if any, ``withXMixin``), each with its own
anchor and signature, plus the argument type, the field's own description and a link to the
property-table row that documents the field.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.types import ApiSpec, Field
from generator.views.builders import MIXIN, BuilderFunction, BuilderIndex, BuilderObject, builder_index
from generator.views.pages import ModelPage
from generator.views.properties import TypeLabel, field_anchor, type_label
from generator.views.site import SitePlan

SECTION = "builders"
LIBRARY_URL = "https://github.com/jsonnet-libs/k8s-libsonnet"
COLLAPSE_AFTER = 12
"""Indexes with more entries than this are shown collapsed."""


@dataclass(frozen=True, slots=True)
class IndexLine:
    depth: int
    label: str
    """``fn withReservedFor(reservedFor)`` / ``obj allocation.devices`` (k8s-libsonnet's text)."""
    anchor: str


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


def _field_href(owner: str, f: Field, page: ModelPage, plan: SitePlan) -> str | None:
    if owner == page.model.name:
        return "#" + field_anchor(f.name)
    href = plan.link(page.path, owner)
    return f"{href}#{field_anchor(f.name)}" if href else None


def builder_section(page: ModelPage, api: ApiSpec, plan: SitePlan) -> BuilderSection | None:
    """The section of ``page``; ``None`` when the model has no builder functions."""
    index = builder_index(page.model, api)
    if index is None:
        return None
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
            type=type_label(f.type, api, plan, page.path),
            field_href=_field_href(first.owner, f, page, plan)))
        current.clear()

    for depth, entry in index.entries():
        if isinstance(entry, BuilderObject):
            flush()
            lines.append(IndexLine(depth, entry.title, entry.anchor))
            assert entry.field is not None
            entries.append(BuilderEntryView(
                "obj", obj=entry, field=entry.field, json_path=".".join(entry.target),
                type=type_label(entry.field.type, api, plan, page.path),
                field_href=_field_href(entry.owner, entry.field, page, plan)))
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
    return BuilderSection(index, "k." + index.library_path, lines, entries, count,
                          collapsed=len(lines) > COLLAPSE_AFTER)


def builders_hook(page: ModelPage, api: ApiSpec, plan: SitePlan) -> None:
    """Section hook (``pipeline.default_hooks``): adds ``page.sections["builders"]``."""
    section = builder_section(page, api, plan)
    if section is not None:
        page.sections[SECTION] = section
