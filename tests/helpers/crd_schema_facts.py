"""An independent reader of CRD files for the corpus test: every property of every CRD version and
the facts its row must show, read straight from the YAML as kubectl reads it
(``helpers.kubectl_yaml``: go-yaml v2's rules written out again); it imports nothing of
``generator``.

The facts and how a row spells them are those of ``docs/crd-facts.md``: effective enum (``allOf``
members' enums intersected), default, constraints, CEL rules, the constraints of array items and
map values (``each item …`` / ``each value …``), ``oneOf`` / ``anyOf`` / ``not`` rules, and the
type (``any`` for ``x-kubernetes-preserve-unknown-fields`` with no ``type``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from helpers.kubectl_yaml import load_all

CONSTRAINTS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
               "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
               "minProperties", "maxProperties")
RULE_KEYS = ("message", "messageExpression", "reason", "fieldPath", "optionalOldSelf")


def shown(value: Any) -> str:
    """A value as a row shows it: strings as they are (``""`` when empty), the rest as JSON."""
    if isinstance(value, str):
        return value if value else '""'
    return json.dumps(value, sort_keys=True)


@dataclass
class Facts:
    """What one property's row must show."""

    path: str
    """``spec.rules[].matches[].path``."""
    name: str
    type: str
    required: bool
    notes: list[tuple[str, list[str]]] = field(default_factory=list)
    """(label, values) code notes the row must have, e.g. ("enum", ["a", "b"])."""


def crd_documents(directory: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every CRD document under ``directory`` (a file or a tree of YAML/JSON files)."""
    files = [directory] if directory.is_file() else sorted(
        p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml", ".json") and p.is_file())
    for path in files:
        for doc in load_all(path.read_text(encoding="utf-8")):  # as kubectl reads YAML
            if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                yield path, doc


def _merged(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its ``allOf`` members folded in: properties and required lists joined,
    enums intersected, rules joined, other keys from the schema first, then the members."""
    members = schema.get("allOf")
    if not isinstance(members, list) or not members:
        return schema
    out = dict(schema)
    out.pop("allOf")
    members = [_merged(m) for m in members if isinstance(m, dict)]
    for m in members:
        for key, value in m.items():
            if key == "properties":
                out["properties"] = {**value, **out.get("properties", {})}
            elif key == "required":
                out["required"] = sorted({*out.get("required", []), *value})
            elif key == "enum":
                continue
            elif key == "x-kubernetes-validations":
                out[key] = [*out.get(key, []), *value]
            else:
                out.setdefault(key, value)
    enums = [e for e in [schema.get("enum"), *[m.get("enum") for m in members]] if isinstance(e, list)]
    if enums:
        first = enums[0]
        out["enum"] = [v for v in first if all(v in other for other in enums[1:])]
    return out


def _bare_type_union(options: Any) -> bool:
    """``anyOf: [{type: integer}, {type: string}]``: the int-or-string spelling, no rule."""
    return isinstance(options, list) and bool(options) and all(
        isinstance(o, dict) and set(o) <= {"type", "format", "description"} for o in options)


def _map_values(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The value schema of a map (an object with ``additionalProperties`` and no properties)."""
    extra = schema.get("additionalProperties")
    if schema.get("type", "") in ("object", "") and isinstance(extra, dict) and "properties" not in schema:
        return extra
    return None


def type_label(schema: dict[str, Any]) -> str:
    """How the Type column reads (before any "same shape as" note)."""
    schema = _merged(schema)
    kind = schema.get("type", "")
    if schema.get("x-kubernetes-int-or-string") or schema.get("format") == "int-or-string":
        return "int-or-string"
    for key in ("anyOf", "oneOf"):
        if not kind and _bare_type_union(schema.get(key)):
            kinds = {o.get("type") for o in schema[key]}
            if kinds == {"integer", "string"}:
                return "int-or-string"
            if kinds in ({"string", "number"}, {"string", "integer", "number"}):
                return "string"
    if kind == "array":
        items = schema.get("items")
        return "[]" + (type_label(items) if isinstance(items, dict) else "object")
    values = _map_values(schema)
    if values is not None:
        return "map[string]" + type_label(values)
    if kind in ("string", "integer", "number", "boolean"):
        fmt = schema.get("format")
        return f"{kind} ({fmt})" if fmt else kind
    preserve = schema.get("x-kubernetes-preserve-unknown-fields") is True
    if not kind and preserve and not schema.get("properties") and "additionalProperties" not in schema:
        return "any"
    return "object"


def words(schema: Any) -> str:
    """A ``oneOf`` / ``anyOf`` / ``not`` member in words (docs/crd-facts.md): names when it only
    requires properties (``a and b``), else its conditions joined by ``; ``."""
    if isinstance(schema, dict) and list(schema) == ["required"] and schema["required"]:
        return " and ".join(map(str, schema["required"]))
    return _conditions(schema)


def _conditions(schema: Any) -> str:
    if not isinstance(schema, dict):
        return shown(schema)
    parts = []
    for key, value in sorted(schema.items()):
        if key == "description":
            continue
        if key == "properties":
            parts += [f"{name} {_conditions(sub)}" for name, sub in sorted(value.items())]
        elif key == "enum":
            parts.append(f"is {shown(value[0])}" if len(value) == 1
                         else "is one of " + ", ".join(map(shown, value)))
        elif key == "required":
            parts.append("has " + " and ".join(map(str, value)))
        elif key == "not":
            parts.append(f"not ({_conditions(value)})")
        elif key == "anyOf":
            parts.append("(" + " or ".join(map(_conditions, value)) + ")")
        elif key == "oneOf":
            parts.append("exactly one of (" + ", ".join(map(_conditions, value)) + ")")
        elif key == "allOf":
            parts.append(" and ".join(map(_conditions, value)))
        elif key in ("type", "format", "pattern"):
            parts.append(f"{key} {shown(value)}")
        else:
            parts.append(f"{key} {json.dumps(value, sort_keys=True)}")
    return "; ".join(parts) or "anything"


def alternatives(schema: dict[str, Any], prefix: str = "") -> list[tuple[str, list[str]]]:
    """``exactly one of`` / ``at least one of`` / ``not`` notes of ``schema``."""
    out: list[tuple[str, list[str]]] = []
    for key, label in (("oneOf", "exactly one of"), ("anyOf", "at least one of")):
        options = schema.get(key)
        if isinstance(options, list) and options and not _bare_type_union(options):
            out.append((prefix + label, [words(m) for m in options]))
    if "not" in schema:
        out.append((prefix + "not", [words(schema["not"])]))
    return out


def value_notes(schema: dict[str, Any], of: str = "") -> list[tuple[str, list[str]]]:
    """enum, default, constraints, rules and alternatives of one schema (``of``: ``each item``…
    for an array's items or a map's values)."""
    prefix = of + " " if of else ""
    notes: list[tuple[str, list[str]]] = []
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        notes.append((prefix + "enum", [shown(v) for v in schema["enum"]]))
    if "default" in schema:
        notes.append((prefix + "default", [shown(schema["default"])]))
    for key in CONSTRAINTS:
        if key in schema:
            notes.append((prefix + key, [shown(schema[key])]))
    for rule in schema.get("x-kubernetes-validations") or ():
        values = [str(rule.get("rule", ""))]
        values += [f"{k}: {shown(rule[k])}" for k in RULE_KEYS if k in rule]
        notes.append((f"validation of {of}" if of else "validation", values))
    notes += alternatives(schema, prefix)
    return notes


def element_notes(schema: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """The notes of an array's items and a map's values, level by level (``each item``,
    ``each item's item``, ``each value``…)."""
    notes: list[tuple[str, list[str]]] = []
    of = ""
    while True:
        values = _map_values(schema)
        if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
            schema, what = _merged(schema["items"]), "item"
        elif values is not None:
            schema, what = _merged(values), "value"
        else:
            return notes
        of = f"{of}'s {what}" if of else f"each {what}"
        notes += value_notes(schema, of)


def property_facts(schema: dict[str, Any], path: str = "") -> Iterator[Facts]:
    """Facts of every property under the object ``schema`` (``path``: its field path)."""
    schema = _merged(schema)
    required = set(schema.get("required") or ())
    for name, sub in sorted((schema.get("properties") or {}).items()):
        sub = _merged(sub)
        here = f"{path}.{name}" if path else name
        facts = Facts(here, name, type_label(sub), name in required)
        facts.notes += value_notes(sub)
        facts.notes += element_notes(sub)
        yield facts
        yield from _below(sub, here)


def _below(schema: dict[str, Any], path: str) -> Iterator[Facts]:
    """Properties of the objects inside ``schema`` (its items, map values, its own properties)."""
    if schema.get("properties"):
        yield from property_facts(schema, path)
        return
    kind = schema.get("type")
    if kind == "array" and isinstance(schema.get("items"), dict):
        yield from _below(_merged(schema["items"]), path + "[]")
    elif _map_values(schema) is not None:
        yield from _below(_merged(schema["additionalProperties"]), path + "{}")


@dataclass
class CrdVersion:
    group: str
    kind: str
    version: str
    file: Path
    properties: list[Facts]
    selectable_fields: list[str]


def crd_versions(directory: Path) -> Iterator[CrdVersion]:
    """Every version (with a schema) of every CRD under ``directory``."""
    for path, doc in crd_documents(directory):
        spec = doc["spec"]
        for version in spec.get("versions") or ():
            schema = ((version.get("schema") or {}).get("openAPIV3Schema")
                      or (spec.get("validation") or {}).get("openAPIV3Schema"))
            if not isinstance(schema, dict):
                continue
            yield CrdVersion(spec["group"], spec["names"]["kind"], version["name"], path,
                             list(property_facts(schema)),
                             [f.get("jsonPath", "") for f in version.get("selectableFields") or ()])
