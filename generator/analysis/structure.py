"""Structural comparison of two types: does every value valid for the old type stay valid?

Used when a field's referenced type changes name (``LoadBalancerStatus`` →
``IngressLoadBalancerStatus``): the two definitions are compared field by field, recursively and
cycle-safe, ignoring descriptions. The verdict:

- ``same``: the structures are identical (a rename);
- ``widened``: the new type only adds optional fields, widens numbers, drops or extends an enum…;
- ``narrowed``: something valid before may be rejected now (a field removed, a type narrowed, a
  field newly required without a default, enum values removed); the differences name the
  nested paths (``ingress[].ports[].error: removed``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from generator.analysis.gates import feature_gates
from generator.model.gvk import kind_of, stability
from generator.model.spelling import type_text
from generator.model.types import ApiSpec, Field, Model, TypeRef

_WIDENING_FORMATS = {("int32", "int64"), ("float", "double"), ("int32", ""), ("int64", ""),
                     ("float", ""), ("double", "")}
"""(old format, new format) pairs that widen a number; other format changes narrow."""
MAX_DIFFERENCES = 20
"""Differences kept per comparison (the verdict always counts them all)."""


def field_maturity(description: str) -> str:
    """``alpha`` / ``beta`` when a field's description says the field is an alpha or beta field
    or sits behind an alpha or beta feature gate (``analysis.gates``: the stage badge's reading;
    a stage said of one of its values does not count), else ``""``."""
    stages = {g.stage for g in feature_gates(description) if g.stage and not g.of_value}
    return "alpha" if "alpha" in stages else "beta" if "beta" in stages else ""


def _documents_validation(model: Model) -> bool:
    """Whether ``model``'s schema documents validation written in Go (a built-in GA or beta
    type), rather than being what the server validates (a CRD's) or an alpha type."""
    return (model.crd is None and not model.root
            and stability(model.api_version) != "alpha" if model.api_version else False)


def narrows(old: TypeRef, new: TypeRef) -> bool:
    """Whether some value valid for ``old`` may be invalid for ``new`` (references compared by
    name; see ``StructureComparer`` for comparing what they point to)."""
    if type_text(old) == type_text(new):
        return False
    if new.kind in ("object", "any"):
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


def value_text(value: Any) -> str:
    """A value in a report: a string as it is (``""`` when empty, so it is seen), else JSON."""
    if isinstance(value, str):
        return value or '""'
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True, slots=True)
class Difference:
    """One nested difference: ``path`` below the compared type (``ports[].protocol``)."""

    path: str
    what: str
    breaking: bool
    alpha: bool = False
    """The field concerned is an alpha field (the deprecation policy lets it go)."""

    @property
    def text(self) -> str:
        what = self.what + (" (an alpha field)" if self.alpha and self.breaking else "")
        return f"{self.path}: {what}" if self.path else what


@dataclass(frozen=True, slots=True)
class Comparison:
    """Result of comparing an old type with a new one."""

    verdict: str
    """``same`` · ``widened`` · ``narrowed``."""
    differences: tuple[Difference, ...] = ()
    """The first ``MAX_DIFFERENCES`` differences, breaking ones first."""
    total: int = 0
    breaking_total: int = 0
    alpha_only: bool = False
    """Every breaking difference concerns an alpha field (the policy lets those go)."""

    @property
    def breaking(self) -> bool:
        return self.verdict == "narrowed"

    def reason(self, limit: int = 4) -> str:
        """``type renamed, same shape`` · ``widened: namespace added (optional)`` · ``narrowed: …``
        (a narrowed verdict names its breaking differences only)."""
        if self.verdict == "same":
            return "type renamed, same shape"
        shown = [d for d in self.differences if d.breaking or not self.breaking][:limit]
        more = (self.breaking_total if self.breaking else self.total) - len(shown)
        text = "; ".join(d.text for d in shown)
        return f"{self.verdict}: {text}" + (f"; {more} more" if more > 0 else "")


def comparison_of(found: tuple[Difference, ...]) -> Comparison:
    if not found:
        return SAME
    bad = [d for d in found if d.breaking]
    ordered = tuple(bad + [d for d in found if not d.breaking])
    return Comparison("narrowed" if bad else "widened", ordered[:MAX_DIFFERENCES], len(found),
                      len(bad), bool(bad) and all(d.alpha for d in bad))


SAME = Comparison("same")


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


class StructureComparer:
    """Compares types of ``old`` with types of ``new``; results memoized per definition pair."""

    def __init__(self, old: ApiSpec, new: ApiSpec) -> None:
        self.old, self.new = old, new
        self._memo: dict[tuple[str, str], tuple[Difference, ...]] = {}
        self._active: set[tuple[str, str]] = set()

    def compare(self, old: TypeRef, new: TypeRef) -> Comparison:
        """Compare two field types (the same definition name on both sides counts as same:
        that definition's own changes are reported where it is listed)."""
        return comparison_of(self._types(old, new, ""))

    # -- internals ----------------------------------------------------------------------------
    def _scalar(self, t: TypeRef, api: ApiSpec) -> TypeRef:
        """A reference to a scalar definition (``Time``) as its scalar type."""
        if t.kind == "ref":
            model = api.models.get(t.ref)
            if model is not None and model.shape == "scalar" and model.scalar is not None:
                return model.scalar
            if model is not None and model.shape == "free-form":
                return TypeRef("object")
        return t

    def _types(self, old: TypeRef, new: TypeRef, path: str) -> tuple[Difference, ...]:
        if old.kind in ("array", "map") and new.kind == old.kind and old.items and new.items:
            return self._types(old.items, new.items, path + ("[]" if old.kind == "array" else "{}"))
        if old.kind == "ref" and new.kind == "ref":
            if old.ref == new.ref:
                return ()
            return self._models(old.ref, new.ref, path)
        a, b = self._scalar(old, self.old), self._scalar(new, self.new)
        if a.kind == "ref" or b.kind == "ref":
            if type_text(a) == type_text(b):
                return ()
            broke = b.kind != "object"
            return (Difference(path, f"type {type_text(old)} → {type_text(new)}", broke),)
        if type_text(a) == type_text(b):
            return ()
        return (Difference(path, f"type {type_text(a)} → {type_text(b)}", narrows(a, b)),)

    def _models(self, old_name: str, new_name: str, path: str) -> tuple[Difference, ...]:
        key = (old_name, new_name)
        if key in self._memo:
            return self._rebase(self._memo[key], path)
        if key in self._active:
            return ()  # a cycle: assumed equal until shown otherwise
        a, b = self.old.models.get(old_name), self.new.models.get(new_name)
        if a is None or b is None:
            missing = kind_of(old_name if a is None else new_name)
            return (Difference(path, f"cannot compare: {missing} is not defined", True),)
        self._active.add(key)
        try:
            found = self._model_fields(a, b)
        finally:
            self._active.discard(key)
        self._memo[key] = found
        return self._rebase(found, path)

    @staticmethod
    def _rebase(found: tuple[Difference, ...], path: str) -> tuple[Difference, ...]:
        if not path:
            return found
        return tuple(Difference(_join(path, d.path) if not d.path.startswith("[") else path + d.path,
                                d.what, d.breaking, d.alpha) for d in found)

    def _model_fields(self, a: Model, b: Model) -> tuple[Difference, ...]:
        if a.shape != b.shape:
            if b.shape == "free-form":
                return (Difference("", f"{a.shape} → free-form object", False),)
            if a.shape == "scalar" or b.shape == "scalar":
                return self._types(self._scalar(TypeRef("ref", ref=a.name), self.old),
                                   self._scalar(TypeRef("ref", ref=b.name), self.new), "")
            return (Difference("", f"{a.shape} → {b.shape}", True),)
        if a.shape == "scalar":
            return self._types(a.scalar or TypeRef("unknown"), b.scalar or TypeRef("unknown"), "")
        old_fields = {f.name: f for f in a.fields}
        new_fields = {f.name: f for f in b.fields}
        found: list[Difference] = []
        for name in sorted(old_fields.keys() | new_fields.keys()):
            before, after = old_fields.get(name), new_fields.get(name)
            if after is None and before is not None:
                found.append(Difference(name, "removed", True,
                                        field_maturity(before.description) == "alpha"))
            elif before is None and after is not None:
                alpha = field_maturity(after.description) == "alpha"
                if after.required and not after.has_default:
                    found.append(Difference(name, "added as required", True, alpha))
                else:
                    found.append(Difference(name, "added (optional)", False, alpha))
            elif before is not None and after is not None:
                found.extend(self._field(before, after, name, _documents_validation(b)))
        return tuple(found)

    def _field(self, before: Field, after: Field, path: str,
               documents: bool = False) -> list[Difference]:
        """``documents``: the model is a built-in GA/beta type whose schema documents Go
        validation (a field newly marked required there was already required:
        ``analysis.diff.REQUIRED_MARKER_REASON``)."""
        alpha = field_maturity(before.description) == "alpha"
        found = [Difference(d.path, d.what, d.breaking, d.alpha or alpha)
                 for d in self._types(before.type, after.type, path)]
        if after.required and not before.required and documents and not alpha:
            found.append(Difference(path, "now marked required (documentation)", False, alpha))
        elif after.required and not before.required:
            found.append(Difference(path, "now required" + (" (defaulted)" if after.has_default
                                                             else ""),
                                    not after.has_default, alpha))
        elif before.required and not after.required:
            found.append(Difference(path, "now optional", False, alpha))
        if before.enum != after.enum:
            old_values = {value_text(v) for v in before.enum}
            new_values = {value_text(v) for v in after.enum}
            removed = sorted(old_values - new_values) if after.enum else []
            added = sorted(new_values - old_values) if before.enum else []
            if not before.enum:
                found.append(Difference(path, "values now limited to " + ", ".join(
                    sorted(new_values)), True, alpha))
            elif removed:
                found.append(Difference(path, "enum values removed: " + ", ".join(removed), True,
                                        alpha))
            if added:
                found.append(Difference(path, "enum values added: " + ", ".join(added), False,
                                        alpha))
            if not after.enum:
                found.append(Difference(path, "enum dropped (any value)", False, alpha))
        return found
