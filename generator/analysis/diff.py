"""What changed between two releases: API versions, models and fields, each change classed.

Models are matched by (navigation group, API version, kind), so any two sources compare.
Classes (``SEVERITIES``, worst first):

- ``breaking``: an API version, model or field removed, a type narrowed, enum values removed, or
  a field newly required, in a GA API version (definitions with no API version count as GA);
- ``warning``: the same in a beta API version;
- ``info``: the same in an alpha API version, and every other change (additions, descriptions,
  defaults, list semantics, feature-gate mentions…).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from generator.analysis.gates import feature_gates
from generator.model.gvk import kind_of, stability
from generator.model.ordering import api_version_sort_key
from generator.model.types import ApiSpec, Field, Model, TypeRef

SEVERITIES = ("breaking", "warning", "info")
"""Change classes, worst first."""

CHANGE_KINDS = (
    "api-version-added", "api-version-removed", "model-added", "model-removed",
    "field-added", "field-removed", "type-changed", "required-changed", "enum-changed",
    "default-changed", "list-type-changed", "map-keys-changed", "map-type-changed",
    "patch-changed", "description-changed", "gate-added", "gate-removed",
    # CRDs (analysis.crd_diff.CRD_CHANGE_KINDS):
    "crd-version-not-served", "crd-scope-changed", "crd-storage-version-changed",
    "crd-version-deprecated", "crd-version-served", "validation-rule-added",
    "validation-rule-changed", "validation-rule-removed", "printer-columns-changed",
)
"""Every ``change`` value, in report order (the JSON schema's vocabulary)."""

_RANK = {s: i for i, s in enumerate(SEVERITIES)}
_WIDENING_FORMATS = {("int32", "int64"), ("float", "double"), ("int32", ""), ("int64", ""),
                   ("float", ""), ("double", "")}
"""(old format, new format) pairs that widen a number; other format changes narrow."""


def worst(severities: Iterable[str]) -> str:
    """The worst class among ``severities`` (``info`` when empty)."""
    return min(severities, key=_RANK.__getitem__, default="info")


def at_least(severity: str, threshold: str) -> bool:
    """Whether ``severity`` is ``threshold`` or worse."""
    return _RANK[severity] <= _RANK[threshold]


def classify(api_version: str, incompatible: bool) -> str:
    """Class of a change: incompatible changes by the API version's stability, else info."""
    if not incompatible:
        return "info"
    level = stability(api_version) if api_version else "ga"
    return {"ga": "breaking", "beta": "warning"}.get(level, "info")


@dataclass(frozen=True, slots=True)
class WordChange:
    """One hunk of a word diff: ``before`` ``old``→``new`` ``after`` (context words kept short)."""

    before: str
    old: str
    new: str
    after: str


@dataclass(frozen=True, slots=True)
class Change:
    """One change; ``model``/``field`` are empty for API-version and model-level changes."""

    change: str
    severity: str
    group: str
    """API group as written in ``apiVersion`` (``resource.k8s.io``; ``core`` for the core group)."""
    api_version: str
    model: str = ""
    field: str = ""
    old: str | None = None
    new: str | None = None
    words: tuple[WordChange, ...] = ()

    @property
    def subject(self) -> str:
        """``resource.k8s.io/v1alpha3 ResourceClaimStatus.devices``."""
        where = f"{self.group}/{self.api_version}" if self.api_version else self.group
        if not self.model:
            return where
        return f"{where} {self.model}" + (f".{self.field}" if self.field else "")

    @property
    def summary(self) -> str:
        """What changed, in one line (no subject): ``description changed: 32 → 256``."""
        label = self.change.replace("-", " ")
        if self.change == "description-changed":
            hunks = [f"{w.old or '∅'} → {w.new or '∅'}" for w in self.words[:3]]
            more = "; …" if len(self.words) > 3 else ""
            return f"{label}: " + "; ".join(_short(h) for h in hunks) + more
        if self.old is not None and self.new is not None:
            return f"{label}: {_short(self.old)} → {_short(self.new)}"
        value = self.new if self.new is not None else self.old
        return f"{label}: {_short(value)}" if value else label

    @property
    def message(self) -> str:
        return f"{self.subject}: {self.summary}"


def _short(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class FieldChange:
    """Every change of one field (one entry on a change page)."""

    field: str
    status: str
    """``added`` · ``removed`` · ``changed``."""
    changes: tuple[Change, ...]

    @property
    def severity(self) -> str:
        return worst(c.severity for c in self.changes)


@dataclass(frozen=True)
class ModelChange:
    """A model added, removed or changed; ``old_name``/``new_name`` are definition names."""

    group: str
    """Navigation group (``resource``)."""
    api_group: str
    api_version: str
    kind: str
    status: str
    """``added`` · ``removed`` · ``changed``."""
    old_name: str
    new_name: str
    is_kind: bool
    changes: tuple[Change, ...] = ()
    """Model-level changes (added/removed, description, gates)."""
    fields: tuple[FieldChange, ...] = ()

    @property
    def severity(self) -> str:
        return worst(c.severity for c in self.all_changes())

    def all_changes(self) -> Iterator[Change]:
        yield from self.changes
        for f in self.fields:
            yield from f.changes


@dataclass(frozen=True)
class ApiDiff:
    """Every change from ``old`` to ``new``, sorted for reading."""

    old_version: str
    new_version: str
    old_source: str
    new_source: str
    api_versions: tuple[Change, ...] = ()
    models: tuple[ModelChange, ...] = ()

    def changes(self) -> list[Change]:
        """All changes, flat, in report order."""
        out = list(self.api_versions)
        for model in self.models:
            out.extend(model.all_changes())
        return out

    def counts(self) -> dict[str, dict[str, int]]:
        """change kind → class → count, for kinds that occur (report order)."""
        table: dict[str, dict[str, int]] = {}
        for c in self.changes():
            row = table.setdefault(c.change, dict.fromkeys(SEVERITIES, 0))
            row[c.severity] += 1
        return {k: table[k] for k in CHANGE_KINDS if k in table}

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(SEVERITIES, 0)
        for c in self.changes():
            totals[c.severity] += 1
        return totals

    def trips(self, threshold: str) -> bool:
        """Whether any change is ``threshold`` or worse (the ``--fail-on`` gate)."""
        return any(at_least(c.severity, threshold) for c in self.changes())


# -- types ------------------------------------------------------------------------------------
def type_text(t: TypeRef) -> str:
    """A source-independent spelling of a type (references by kind)."""
    if t.kind == "array":
        return "[]" + (type_text(t.items) if t.items else "object")
    if t.kind == "map":
        return "map[string]" + (type_text(t.items) if t.items else "object")
    if t.kind == "ref":
        return kind_of(t.ref)
    if t.kind == "primitive":
        return f"{t.type} ({t.format})" if t.format else t.type
    return t.kind


def narrows(old: TypeRef, new: TypeRef) -> bool:
    """Whether some value valid for ``old`` may be invalid for ``new``."""
    if type_text(old) == type_text(new):
        return False
    if new.kind == "object":
        return False
    if old.kind in ("array", "map") or new.kind in ("array", "map"):
        if old.kind != new.kind or old.items is None or new.items is None:
            return True
        return narrows(old.items, new.items)
    if old.kind == "primitive" and new.kind == "primitive":
        if old.type == new.type:
            return (old.format, new.format) not in _WIDENING_FORMATS and bool(new.format)
        return not (old.type == "integer" and new.type == "number")
    if new.kind == "int-or-string":
        return not (old.kind == "primitive" and old.type in ("integer", "string"))
    if new.kind == "quantity":
        return not (old.kind == "primitive" and old.type in ("integer", "number"))
    return True


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def word_changes(old: str, new: str, context: int = 4) -> tuple[WordChange, ...]:
    """Word diff of two texts (whitespace-insensitive); empty when the words are equal."""
    a, b = old.split(), new.split()
    if a == b:
        return ()
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return tuple(
        WordChange(" ".join(a[max(0, i1 - context) : i1]), " ".join(a[i1:i2]), " ".join(b[j1:j2]),
                   " ".join(a[i2 : i2 + context]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )


# -- fields -----------------------------------------------------------------------------------
def field_changes(old: Field, new: Field, where: Change) -> list[Change]:
    """Changes of one field present on both sides; ``where`` supplies group/version/model."""
    av = where.api_version
    out: list[Change] = []

    def add(kind: str, old_value: str | None, new_value: str | None, incompatible: bool = False,
            words: tuple[WordChange, ...] = ()) -> None:
        out.append(Change(kind, classify(av, incompatible), where.group, av, where.model, new.name,
                          old_value, new_value, words))

    if type_text(old.type) != type_text(new.type):
        add("type-changed", type_text(old.type), type_text(new.type), narrows(old.type, new.type))
    if old.required != new.required:
        add("required-changed", _required(old.required), _required(new.required), new.required)
    if old.enum != new.enum:
        removed = bool(old.enum) and bool(set(map(_value, old.enum)) - set(map(_value, new.enum)))
        add("enum-changed", _values(old.enum), _values(new.enum), removed and bool(new.enum))
    if (old.has_default, old.default) != (new.has_default, new.default):
        add("default-changed", _value(old.default) if old.has_default else "none",
            _value(new.default) if new.has_default else "none")
    if old.list_type != new.list_type:
        add("list-type-changed", old.list_type or "none", new.list_type or "none")
    if old.list_map_keys != new.list_map_keys:
        add("map-keys-changed", ", ".join(old.list_map_keys) or "none",
            ", ".join(new.list_map_keys) or "none")
    if old.map_type != new.map_type:
        add("map-type-changed", old.map_type or "none", new.map_type or "none")
    if (old.patch_strategy, old.patch_merge_key) != (new.patch_strategy, new.patch_merge_key):
        add("patch-changed", _patch(old), _patch(new))
    out.extend(description_changes(old.description, new.description, where, new.name))
    return out


def description_changes(old: str, new: str, where: Change, field_name: str = "") -> list[Change]:
    """Description word diff plus feature gates mentioned or no longer mentioned."""
    out: list[Change] = []
    words = word_changes(old, new)
    if words:
        out.append(Change("description-changed", "info", where.group, where.api_version, where.model,
                          field_name, old, new, words))
        old_gates = {g.name for g in feature_gates(old)}
        new_gates = {g.name for g in feature_gates(new)}
        for gate in sorted(new_gates - old_gates):
            out.append(Change("gate-added", "info", where.group, where.api_version, where.model,
                              field_name, None, gate))
        for gate in sorted(old_gates - new_gates):
            out.append(Change("gate-removed", "info", where.group, where.api_version, where.model,
                              field_name, gate, None))
    return out


def _required(value: bool) -> str:
    return "required" if value else "optional"


def _values(values: tuple[Any, ...]) -> str:
    return ", ".join(_value(v) for v in values) or "none"


def _patch(f: Field) -> str:
    if not f.patch_strategy:
        return "none"
    return f.patch_strategy + (f" (merge key {f.patch_merge_key})" if f.patch_merge_key else "")


def diff_models(old: Model, new: Model, where: Change) -> tuple[list[Change], list[FieldChange]]:
    """Model-level changes and per-field changes between two versions of one model."""
    model_level = description_changes(old.description, new.description, where)
    fields: list[FieldChange] = []
    old_fields = {f.name: f for f in old.fields}
    new_fields = {f.name: f for f in new.fields}
    av = where.api_version
    for name in sorted(old_fields.keys() | new_fields.keys()):
        before, after = old_fields.get(name), new_fields.get(name)
        if before is None and after is not None:
            change = Change("field-added", classify(av, after.required), where.group, av, where.model,
                            name, None, type_text(after.type) + (" (required)" if after.required else ""))
            fields.append(FieldChange(name, "added", (change,)))
        elif after is None and before is not None:
            change = Change("field-removed", classify(av, True), where.group, av, where.model, name,
                            type_text(before.type), None)
            fields.append(FieldChange(name, "removed", (change,)))
        elif before is not None and after is not None:
            changes = field_changes(before, after, where)
            if changes:
                fields.append(FieldChange(name, "changed", tuple(changes)))
    return model_level, fields


# -- whole APIs -------------------------------------------------------------------------------
ModelIndexKey = tuple[str, str, str]


def _model_index(api: ApiSpec) -> dict[ModelIndexKey, Model]:
    """(group, API version, kind) → model; a duplicate kind keeps its definition name as kind."""
    out: dict[ModelIndexKey, Model] = {}
    for name, model in api.models.items():
        key = (model.group, model.api_version, model.kind)
        if key in out:
            key = (model.group, model.api_version, name)
        out[key] = model
    return out


def api_groups(api: ApiSpec) -> dict[tuple[str, str], str]:
    """(navigation group, API version) → API group as written (``resource.k8s.io``, ``core``)."""
    exact: dict[tuple[str, str], str] = {}
    by_group: dict[str, str] = {}
    for model in api.models.values():
        for gvk in model.gvks:
            if gvk.group.split(".")[0] == model.group:
                name = gvk.group
            elif not gvk.group and model.group == "core":
                name = "core"
            else:
                continue
            by_group.setdefault(model.group, name)
            if gvk.version == model.api_version:
                exact[(model.group, model.api_version)] = name
    versions = {(m.group, m.api_version) for m in api.models.values() if m.group in by_group}
    return {gv: exact.get(gv, by_group[gv[0]]) for gv in sorted(versions)}


def diff_apis(old: ApiSpec, new: ApiSpec) -> ApiDiff:
    """Every change from ``old`` to ``new``."""
    groups = {**api_groups(old), **api_groups(new)}

    def api_group(group: str, api_version: str) -> str:
        return groups.get((group, api_version), group)

    old_index, new_index = _model_index(old), _model_index(new)
    old_versions = {(k[0], k[1]) for k in old_index if k[1]}
    new_versions = {(k[0], k[1]) for k in new_index if k[1]}
    version_changes = [
        Change("api-version-added", "info", api_group(*gv), gv[1])
        for gv in new_versions - old_versions
    ] + [
        Change("api-version-removed", classify(gv[1], True), api_group(*gv), gv[1])
        for gv in old_versions - new_versions
    ]
    version_changes.sort(key=lambda c: (c.group, api_version_sort_key(c.api_version), c.change))

    models: list[ModelChange] = []
    for key in sorted(old_index.keys() | new_index.keys(),
                      key=lambda k: (k[0], api_version_sort_key(k[1]), k[2])):
        group, av, kind = key
        before, after = old_index.get(key), new_index.get(key)
        where = Change("", "info", api_group(group, av), av, kind)
        if after is not None and before is None:
            added = Change("model-added", "info", where.group, av, kind)
            models.append(ModelChange(group, where.group, av, kind, "added", "", after.name,
                                      after.is_kind, (added,)))
        elif before is not None and after is None:
            removed = Change("model-removed", classify(av, True), where.group, av, kind)
            models.append(ModelChange(group, where.group, av, kind, "removed", before.name, "",
                                      before.is_kind, (removed,)))
        elif before is not None and after is not None:
            model_level, fields = diff_models(before, after, where)
            if model_level or fields:
                models.append(ModelChange(group, where.group, av, kind, "changed", before.name,
                                          after.name, after.is_kind, tuple(model_level),
                                          tuple(fields)))
    return ApiDiff(old.version, new.version, old.source, new.source, tuple(version_changes),
                   tuple(models))
