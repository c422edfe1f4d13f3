"""The property table of a model page: one row per field, with type links and notes."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from generator.analysis.gates import FeatureGate, feature_gates
from generator.model.spelling import primitive_label
from generator.model.types import ApiSpec, ElementFacts, Field, Model, TypeRef
from generator.views.notes import Note, row_notes
from generator.views.site import SitePlan, anchor_id, path_anchor, relative


@dataclass(frozen=True, slots=True)
class TypeLabel:
    """``prefix`` + ``name`` (a link when ``href``): ``[]`` + ResourceClaimConsumerReference."""

    prefix: str
    name: str
    href: str | None = None
    """Markdown link (``.md``, checked by MkDocs)."""
    suffix: str = ""
    url: str | None = None
    """The same link as a published URL, for raw HTML (``views.site.page_url``)."""
    same: SameShape | None = None
    """A nested object with the shape of a definition of the release (``Model.same_shape``)."""


@dataclass(frozen=True, slots=True)
class SameShape:
    """The definition a nested object has the shape of: ``core/v1`` ``Toleration``, linked to
    its page when the release has one."""

    group_version: str
    kind: str
    href: str | None = None
    url: str | None = None


def same_shape(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> SameShape | None:
    """``model.same_shape`` as a link from ``page``."""
    target = api.models.get(model.same_shape) if model.same_shape else None
    if target is None:
        return None
    group_version = f"{target.group}/{target.api_version}" if target.api_version else target.group
    found = plan.page_of(target.name)
    if found is None:
        return SameShape(group_version, target.kind)
    return SameShape(group_version, target.kind, relative(page, found), plan.page_url(page, found))


@dataclass(frozen=True, slots=True)
class PropertyRow:
    field: Field
    anchor: str
    type: TypeLabel
    required: bool
    notes: tuple[str, ...]
    """Plain-text notes (templates escape them)."""
    code_notes: tuple[tuple[str, tuple[str, ...]], ...]
    """Notes with code values: (label, values) → ``label: `a`, `b```."""
    gates: tuple[FeatureGate, ...]
    history: Any = None
    """``views.versions.FieldHistory`` (since / changed / removed in) when the versions hook ran."""
    item_descriptions: tuple[tuple[str, str], ...] = ()
    """The items' (map values') own descriptions, as (``each item``, text): a ``[]string``'s
    ``LabelName is a valid label name``, shown in the row after the field's description."""

    @property
    def note_items(self) -> tuple[Note, ...]:
        """The Notes column in order, as typed notes (``partials/notes.html.j2``)."""
        return row_notes(self.required, self.notes, self.code_notes, self.gates, self.history)


def field_anchor(name: str) -> str:
    """Element id of a property-table row (only ``[a-z0-9-]``)."""
    return "field-" + anchor_id(name)


def label_for_type(t: TypeRef, api: ApiSpec, plan: SitePlan, page: str) -> TypeLabel:
    """The view data of a type (a ``TypeLabel``): how it reads in the table, with a link to the
    referenced model's page; the formats render it (``render.env.type_html``, ``render.gfm.type_gfm``)."""
    prefix = ""
    while t.kind in ("array", "map") and t.items is not None:
        prefix += "[]" if t.kind == "array" else "map[string]"
        t = t.items
    if t.kind in ("array", "map"):
        return TypeLabel(prefix, "[]object" if t.kind == "array" else "map[string]object")
    if t.ref and t.ref in api.models:
        model = api.models[t.ref]
        name = "object" if model.field_path else model.kind
        found = plan.target_of(t.ref)
        if found is None:
            return TypeLabel(prefix, name)
        target, anchor = found
        fragment = f"#{anchor}" if anchor else ""
        return TypeLabel(prefix, name, relative(page, target) + fragment,
                         url=plan.page_url(page, target) + fragment,
                         same=same_shape(model, api, plan, page))
    return TypeLabel(prefix, primitive_label(t))



def unique_anchor(anchor: str, name: str, used: set[str]) -> str:
    """``anchor``, or ``anchor-<digest of name>`` when the page already has it."""
    if anchor in used:
        anchor = f"{anchor}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
    used.add(anchor)
    return anchor


_NOT_SHOWN = TypeLabel("", "")
"""The type label of an ``anchored_rows`` row (not shown anywhere)."""


def anchored_rows(model: Model, anchors: set[str]) -> list[PropertyRow]:
    """``property_rows`` with each row's field and anchor only (no type label, notes or gates):
    what ``views.lookup`` reads of the rows of the sections it keys, the anchors given exactly as
    the page gives them (``anchors``: ids already used on the page)."""
    by_path = model.crd is not None or bool(model.field_path)
    return [PropertyRow(f, _row_anchor(model, f, by_path, anchors), _NOT_SHOWN, f.required, (), (), ())
            for f in model.fields]


def _row_anchor(model: Model, f: Field, by_path: bool, anchors: set[str]) -> str:
    if by_path:
        return path_anchor("field-", f"{model.field_path}.{f.name}" if model.field_path else f.name,
                           anchors)
    return unique_anchor(field_anchor(f.name), f.name, anchors)


def property_rows(model: Model, api: ApiSpec, plan: SitePlan, page: str,
                  anchors: set[str] | None = None) -> list[PropertyRow]:
    """Rows of ``model``'s table. ``anchors``: ids already used on the page (nested sections
    share their root's page). Fields of CRDs and nested objects are anchored by field path
    (``field-spec.rules.matches.path.type``), other models' by name (``field-name``)."""
    rows = []
    anchors = set() if anchors is None else anchors
    by_path = model.crd is not None or bool(model.field_path)
    for f in model.fields:
        notes: list[str] = []
        code_notes: list[tuple[str, tuple[str, ...]]] = []
        if f.list_type == "map" and f.list_map_keys:
            code_notes.append(("list type: map keyed by", f.list_map_keys))
        elif f.list_type:
            notes.append(f"list type: {f.list_type}")
        if f.map_type:
            notes.append(f"map type: {f.map_type}")
        if f.patch_strategy:
            strategy = f"patch strategy: {f.patch_strategy}"
            if f.patch_merge_key:
                code_notes.append((strategy + ", merge key", (f.patch_merge_key,)))
            else:
                notes.append(strategy)
        if f.enum:
            code_notes.append(("enum", tuple(_value(v) for v in f.enum)))
        if f.has_default:
            code_notes.append(("default", (_value(f.default),)))
        if f.preserve_unknown_fields:
            notes.append("preserves unknown fields")
        if f.embedded_resource:
            notes.append("embedded resource")
        if f.nullable:
            notes.append("nullable")
        for key, value in f.constraints:
            code_notes.append((key, (_value(value),)))
        for rule in f.validations:
            code_notes.append(rule_note("validation", dict(rule)))
        code_notes.extend((a.label, a.options) for a in f.alternatives)
        for element in f.elements:
            code_notes.extend(element_notes(element))
        rows.append(PropertyRow(
            field=f, anchor=_row_anchor(model, f, by_path, anchors),
            type=label_for_type(f.type, api, plan, page),
            required=f.required, notes=tuple(notes), code_notes=tuple(code_notes),
            gates=feature_gates(f.description),
            item_descriptions=tuple((e.of, e.description) for e in f.elements if e.description),
        ))
    return rows


def element_notes(element: ElementFacts) -> list[tuple[str, tuple[str, ...]]]:
    """The notes of one level of an array's items (a map's values): ``each item enum: …``,
    ``each value maxLength: 63``, ``validation of each item: …``, ``each item exactly one of: …``."""
    of = element.of
    out: list[tuple[str, tuple[str, ...]]] = []
    if element.enum:
        out.append((f"{of} enum", tuple(_value(v) for v in element.enum)))
    if element.has_default:
        out.append((f"{of} default", (_value(element.default),)))
    if element.nullable:
        out.append((f"{of} nullable", ("true",)))
    out.extend((f"{of} {key}", (_value(value),)) for key, value in element.constraints)
    out.extend(rule_note(f"validation of {of}", dict(rule)) for rule in element.validations)
    out.extend((f"{of} {a.label}", a.options) for a in element.alternatives)
    return out


def rule_note(label: str, rule: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """An ``x-kubernetes-validations`` entry as a code note: the rule, then its message (or
    messageExpression), reason and fieldPath, each ``key: value``."""
    values = [str(rule.get("rule", ""))]
    for key in ("message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"):
        if key in rule:
            values.append(f"{key}: {_value(rule[key])}")
    return label, tuple(values)


_JSON_CONSTANTS = {True: "true", False: "false", None: "null"}


def _value(value: object) -> str:
    """A value as its notes show it: strings as they are (``""`` when empty: an empty default or
    enum member is seen), anything else as JSON."""
    if isinstance(value, str):
        return value or '""'
    if value is None or type(value) is bool:
        return _JSON_CONSTANTS[value]
    if type(value) is int:
        return str(value)  # json.dumps of an int, without the encoder
    return json.dumps(value, sort_keys=True)
