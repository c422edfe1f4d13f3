"""How a type is spelled, in one place (the views, the renderers and the diff all read these):

- ``primitive_label``: a scalar as the property table shows it (``integer (int64)``,
  ``int-or-string``, ``quantity``; ``object`` for anything else);
- ``type_text``: a source-independent spelling (references by kind: ``[]Container``,
  ``map[string]string``), what the diff compares;
- ``type_text_in``: the spelling in one release, references by the kind of the model they point
  to, and that model's name (through arrays and maps).
"""

from __future__ import annotations

from generator.model.gvk import kind_of
from generator.model.types import ApiSpec, TypeRef


def primitive_label(t: TypeRef) -> str:
    if t.kind == "primitive":
        return f"{t.type} ({t.format})" if t.format else t.type
    if t.kind == "int-or-string":
        return "int-or-string"
    if t.kind == "quantity":
        return "quantity"
    if t.kind == "unknown":
        return f"unknown type {t.ref}"
    if t.kind == "any":
        return "any"
    return "object"


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


def type_text_in(t: TypeRef, api: ApiSpec) -> tuple[str, str | None]:
    """The type as text (no links) and the definition it refers to, through arrays and maps."""
    prefix = ""
    while t.kind in ("array", "map") and t.items is not None:
        prefix += "[]" if t.kind == "array" else "map[string]"
        t = t.items
    if t.kind in ("array", "map"):
        return prefix + ("[]object" if t.kind == "array" else "map[string]object"), None
    if t.ref and t.ref in api.models:
        return prefix + api.models[t.ref].kind, t.ref
    return prefix + primitive_label(t), None
