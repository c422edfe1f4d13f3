"""Rewrite one schema dialect into the canonical one (see ``sources.base``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from generator.errors import Location, SpecError, escape_pointer_token, pointer

MAX_DEPTH = 64
_VERBATIM = frozenset({"x-kubernetes-unions", "readOnly", "example", "x-kubernetes-embedded-resource",
                       "x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string"})
_STRINGS = frozenset({"description", "format", "title", "x-kubernetes-list-type",
                      "x-kubernetes-map-type", "x-kubernetes-patch-strategy",
                      "x-kubernetes-patch-merge-key"})
"""Keys whose value must be a string, kept as is."""
PRIMITIVES = frozenset({"string", "integer", "number", "boolean", "object", "array"})


@dataclass(frozen=True)
class Dialect:
    """How one source format spells references and types."""

    ref_prefix: str
    """``#/definitions/``, ``#/components/schemas/`` or ``#/$defs/``."""
    source: str


def _unescape(token: str) -> str:
    return unquote(token).replace("~1", "/").replace("~0", "~")


def ref_name(ref: Any, dialect: Dialect, at: str) -> str:
    """Turn a local ``$ref`` into a bare definition name, or raise naming the pointer."""
    if not isinstance(ref, str):
        raise SpecError("$ref must be a string", Location(dialect.source, at))
    if ref.startswith(dialect.ref_prefix):
        name = _unescape(ref[len(dialect.ref_prefix) :])
        if name:
            return name
    if "://" in ref or not ref.startswith("#"):
        raise SpecError(
            f"external $ref {ref!r} is not supported (only {dialect.ref_prefix}…)",
            Location(dialect.source, at),
        )
    raise SpecError(f"unsupported $ref {ref!r}", Location(dialect.source, at))


def _expect(value: Any, kind: type | tuple[type, ...], what: str, src: str, at: str) -> Any:
    if not isinstance(value, kind):
        raise SpecError(f"{what} must be {_kind_name(kind)}", Location(src, at))
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def _plain_type(schema: Any) -> str | None:
    """The single non-null type of a schema that is nothing but a type."""
    if not isinstance(schema, dict) or set(schema) - {"type", "format", "description"}:
        return None
    types = schema.get("type")
    if isinstance(types, str):
        return types
    if isinstance(types, list):
        rest = [t for t in types if t != "null"]
        if len(rest) == 1 and isinstance(rest[0], str):
            return rest[0]
    return None


def _union_type(options: Any) -> dict[str, str] | None:
    """``oneOf``/``anyOf`` of bare types → one canonical type (IntOrString, Quantity)."""
    if not isinstance(options, list) or not options:
        return None
    kinds = {_plain_type(o) for o in options}
    if None in kinds:
        return None
    if kinds == {"string", "integer"}:
        return {"type": "string", "format": "int-or-string"}
    if kinds == {"string", "number"} or kinds == {"string", "integer", "number"}:
        return {"type": "string"}
    return None


def canonicalize(schema: Any, dialect: Dialect, at: str, depth: int = 0) -> dict[str, Any]:
    """Canonical form of ``schema`` found at JSON pointer ``at`` of ``dialect.source``."""
    src = dialect.source
    if depth > MAX_DEPTH:
        raise SpecError(f"schema nested deeper than {MAX_DEPTH} levels", Location(src, at))
    if not isinstance(schema, dict):
        _expect(schema, dict, "a schema", src, at)
    out: dict[str, Any] = {}
    # The commonest keys first; a key's pointer is only built when it is needed (recursion or an
    # error): this runs for every schema of every definition.
    for key, value in schema.items():
        if key in _STRINGS:
            if not isinstance(value, str):
                _expect(value, str, key, src, f"{at}/{key}")
            out[key] = value
        elif key == "type":
            if isinstance(value, list):
                rest = [t for t in value if t != "null"]
                if len(rest) == 1 and isinstance(rest[0], str):  # ["T", "null"]: most of them
                    out["type"] = rest[0]
                    continue
                if not all(isinstance(t, str) for t in rest):
                    raise SpecError("type must be a string or an array of strings",
                                    Location(src, f"{at}/{key}"))
                if set(rest) == {"string", "integer"}:
                    out["type"], out["format"] = "string", "int-or-string"
                elif rest:
                    out["type"] = rest[0]
            else:
                out["type"] = _expect(value, str, "type", src, f"{at}/{key}")
        elif key == "properties":
            here = f"{at}/{key}"
            _expect(value, dict, "properties", src, here)
            out["properties"] = {
                _expect(name, str, "a property name", src, here): canonicalize(
                    sub, dialect, f"{here}/{escape_pointer_token(name)}", depth + 1
                )
                for name, sub in value.items()
            }
        elif key == "$ref":
            out["$ref"] = ref_name(value, dialect, f"{at}/{key}")
        elif key in _VERBATIM:
            out[key] = value
        elif key == "items":
            here = f"{at}/{key}"
            if isinstance(value, list):
                value = value[0] if value else {}
                here += "/0"
            out["items"] = canonicalize(value, dialect, here, depth + 1)
        elif key in ("allOf", "oneOf", "anyOf"):
            here = f"{at}/{key}"
            _expect(value, list, key, src, here)
            if key != "allOf":
                union = _union_type(value)
                if union is not None:
                    out.update(union)
                    continue
            out[key] = [
                canonicalize(item, dialect, f"{here}/{i}", depth + 1)
                for i, item in enumerate(value)
            ]
        elif key == "additionalProperties":
            if isinstance(value, bool):
                out[key] = value
            else:
                out[key] = canonicalize(value, dialect, f"{at}/{key}", depth + 1)
        elif key in ("required", "enum", "x-kubernetes-list-map-keys"):
            here = f"{at}/{key}"
            _expect(value, list, key, src, here)
            if key != "enum":
                for i, item in enumerate(value):
                    if not isinstance(item, str):
                        _expect(item, str, f"{key} entry", src, here + pointer(i))
            out[key] = value
        elif key in ("x-kubernetes-group-version-kind", "x-kubernetes-validations"):
            here = f"{at}/{key}"
            _expect(value, list, key, src, here)
            for i, item in enumerate(value):
                if not isinstance(item, dict):
                    _expect(item, dict, f"{key} entry", src, here + pointer(i))
            out[key] = value
        elif key == "nullable":
            if value is True:
                out[key] = True
        else:
            out[key] = value
    return _unwrap_all_of(out)


def _unwrap_all_of(out: dict[str, Any]) -> dict[str, Any]:
    """Merge ``allOf`` members into the schema; the wrapper's own keys win (v3 ``$ref`` style),
    but every member's ``enum`` and ``x-kubernetes-validations`` apply: the valid values are the
    intersection of the enums (in the order of the first that has one), and the rules are joined."""
    members = out.pop("allOf", None)
    if not members:
        return out
    merged: dict[str, Any] = {}
    enums = [out["enum"]] if isinstance(out.get("enum"), list) else []
    rules: list[Any] = []
    for member in members:
        for key, value in member.items():
            if key == "properties":
                merged.setdefault("properties", {}).update(value)
            elif key == "required":
                merged["required"] = sorted({*merged.get("required", []), *value})
            elif key == "enum" and isinstance(value, list):
                enums.append(value)
            elif key == "x-kubernetes-validations":
                rules.extend(value)
            else:
                merged.setdefault(key, value)
    merged.update(out)
    if enums:
        merged["enum"] = [v for v in enums[0] if all(_member(v, e) for e in enums[1:])]
    if rules:
        merged["x-kubernetes-validations"] = [*out.get("x-kubernetes-validations", ()), *rules]
    return merged


def _member(value: Any, values: list[Any]) -> bool:
    """Whether ``value`` is in ``values`` by JSON equality (``1`` is not ``True``)."""
    return any(type(value) is type(v) and value == v for v in values)


def canonical_definitions(
    raw: Any, dialect: Dialect, container: str
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Canonicalize every definition of a ``definitions``-like map at pointer ``container``."""
    _expect(raw, dict, container.rsplit("/", 1)[-1] or "definitions", dialect.source, container)
    definitions: dict[str, dict[str, Any]] = {}
    pointers: dict[str, str] = {}
    for name, schema in raw.items():
        at = container + pointer(name)
        _expect(name, str, "a definition name", dialect.source, at)
        definitions[name] = canonicalize(schema, dialect, at)
        pointers[name] = at
    return definitions, pointers
