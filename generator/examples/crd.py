"""Examples of custom resources: a YAML object that satisfies the CRD version's schema (required
fields, types, enums, patterns, lengths, bounds, item and property counts), the Python call of
the official client's ``CustomObjectsApi`` that creates it, and the same object in Jsonnet.

CEL rules (``x-kubernetes-validations``) are not evaluated: the ones on the fields the example
sets are listed as not checked. Deterministic: the same schema gives the same example.
"""

from __future__ import annotations

import json
import pprint
import re
from dataclasses import dataclass
from typing import Any

from generator.examples.crd_jsonnet import crd_jsonnet
from generator.examples.snippets import Example, to_yaml
from generator.libsonnet.builders import builder_index
from generator.model.types import ApiSpec, Model

STRING_CANDIDATES = (
    "example", "example-1", "a", "example.com", "Example", "1", "https://example.com", "/",
    "/example", "1s", "10s", "100m", "1Gi", "v1", "A", "example_1", "example.com/example", "0",
    "*", "2024-01-01T00:00:00Z", "true", "x" * 8,
)
"""Strings tried, in order, against a schema's pattern and lengths."""
FORMAT_SAMPLES = {"date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "uri": "https://example.com",
                  "email": "user@example.com", "hostname": "example.com", "ipv4": "192.0.2.1",
                  "ipv6": "2001:db8::1", "uuid": "00000000-0000-4000-8000-000000000000",
                  "duration": "1s", "byte": "ZXhhbXBsZQ=="}
MAX_DEPTH = 40


@dataclass(frozen=True)
class CrdExample:
    example: Example
    unchecked: tuple[str, ...]
    """CEL rules on the fields the example sets: ``path: rule (message)``."""
    unsatisfied: tuple[str, ...]
    """Fields whose constraints no generated value meets (the schema is then shown as is)."""


class _Sampler:
    def __init__(self) -> None:
        self.unchecked: list[str] = []
        self.unsatisfied: list[str] = []

    def rules(self, schema: dict[str, Any], path: str) -> None:
        for rule in schema.get("x-kubernetes-validations", ()):
            message = rule.get("message") or rule.get("messageExpression") or ""
            text = f"{path or '(object)'}: {rule.get('rule', '')}" + (f" ({message})" if message else "")
            self.unchecked.append(text)

    def value(self, schema: dict[str, Any], path: str, depth: int = 0) -> Any:
        self.rules(schema, path)
        if schema.get("enum"):
            return schema["enum"][0]
        kind = schema.get("type", "")
        if schema.get("format") == "int-or-string" or schema.get("x-kubernetes-int-or-string"):
            return self.integer(schema) if not schema.get("pattern") else self.string(schema, path)
        if "default" in schema and kind != "object" and kind != "array":
            return schema["default"]
        if kind == "object" or "properties" in schema or (not kind and "additionalProperties" in schema):
            return self.obj(schema, path, depth)
        if kind == "array":
            return self.array(schema, path, depth)
        if kind == "integer":
            return self.integer(schema)
        if kind == "number":
            return self.integer(schema)
        if kind == "boolean":
            return True
        if kind == "string":
            return self.string(schema, path)
        if schema.get("x-kubernetes-preserve-unknown-fields"):
            return {}
        for key in ("anyOf", "oneOf", "allOf"):
            if schema.get(key):
                return self.value(schema[key][0], path, depth + 1)
        return {}

    def obj(self, schema: dict[str, Any], path: str, depth: int, keep: tuple[str, ...] = ()) -> Any:
        properties = schema.get("properties") or {}
        if depth > MAX_DEPTH:
            return {}
        required = [p for p in schema.get("required", ()) if p in properties]
        names = [p for p in properties if p in required or p in keep
                 or (depth == 1 and "default" in properties[p])]  # spec-level server defaults
        extra = [p for p in properties if p not in names]
        while len(names) < schema.get("minProperties", 0) and extra:
            names.append(extra.pop(0))
        out = {}
        for name in names:
            where = f"{path}.{name}" if path else name
            sub = properties[name]
            if name not in required and name not in keep and "default" in sub:
                self.rules(sub, where)
                out[name] = sub["default"]  # what the API server would set
            else:
                out[name] = self.value(sub, where, depth + 1)
        additional = schema.get("additionalProperties")
        if not properties and isinstance(additional, dict) and schema.get("minProperties", 0) > 0:
            out["example"] = self.value(additional, f"{path}.example", depth + 1)
        return out

    def array(self, schema: dict[str, Any], path: str, depth: int) -> list[Any]:
        items: dict[str, Any] = schema["items"] if isinstance(schema.get("items"), dict) else {}
        count = max(schema.get("minItems", 0), 1 if schema.get("maxItems", 1) >= 1 else 0)
        if depth > MAX_DEPTH:
            count = schema.get("minItems", 0)
        values = [self.value(items, f"{path}[]", depth + 1) for _ in range(count)]
        if schema.get("uniqueItems") or schema.get("x-kubernetes-list-type") in ("set", "map"):
            values = _distinct(values, items)
        return values

    def integer(self, schema: dict[str, Any]) -> int | float:
        low = schema.get("minimum")
        high = schema.get("maximum")
        value: int | float = 1
        if low is not None:
            value = max(value, low + (1 if schema.get("exclusiveMinimum") is True else 0))
        if high is not None:
            value = min(value, high - (1 if schema.get("exclusiveMaximum") is True else 0))
        multiple = schema.get("multipleOf")
        if multiple and value % multiple:
            value = multiple * (int(value // multiple) + 1)
        return int(value) if float(value).is_integer() else value

    def string(self, schema: dict[str, Any], path: str) -> str:
        candidates = list(STRING_CANDIDATES)
        if schema.get("format") in FORMAT_SAMPLES:
            candidates.insert(0, FORMAT_SAMPLES[schema["format"]])
        low, high = schema.get("minLength", 0), schema.get("maxLength")
        pattern = schema.get("pattern")
        regex = _regex(pattern) if isinstance(pattern, str) else None
        for text in candidates:
            if len(text) < low:
                text = text + "x" * (low - len(text))
            if high is not None and len(text) > high:
                continue
            if regex is None or regex.search(text):
                return text
        self.unsatisfied.append(f"{path}: pattern {pattern!r}")
        return "example"


def _distinct(values: list[Any], items: dict[str, Any]) -> list[Any]:
    """Items made different where they are plain strings or integers (list types set/map)."""
    out = []
    for i, value in enumerate(values):
        if isinstance(value, str) and i:
            value = f"{value}-{i}"
        elif isinstance(value, int) and not isinstance(value, bool) and i:
            value = value + i
        out.append(value)
    return out


def _regex(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(pattern)
    except re.error:
        return None


def crd_example(model: Model, api: ApiSpec) -> CrdExample | None:
    """The example of a CRD version's kind (``None`` for other models); its Jsonnet calls the
    builder functions of the library k8s-gen generates from the CRDs (``crd_jsonnet``)."""
    info = model.crd
    if info is None or not isinstance(info.schema, dict):
        return None
    sampler = _Sampler()
    schema = info.schema
    sampler.rules(schema, "")
    properties = schema.get("properties") or {}
    keep = tuple(p for p in ("spec",) if p in properties)
    body = sampler.obj({**schema, "properties": {k: v for k, v in properties.items()
                                                 if k not in ("apiVersion", "kind", "metadata")}},
                       "", 0, keep)
    metadata: dict[str, Any] = {"name": "example"}
    if info.namespaced:
        metadata["namespace"] = "default"
    data = {"apiVersion": f"{info.group}/{info.version}", "kind": info.kind, "metadata": metadata, **body}
    variable = "body"
    index = builder_index(model, api)
    example = Example(model.name, data, to_yaml(data), python_call(model, data, variable), variable,
                      crd_jsonnet(index, data) if index is not None else jsonnet(data))
    return CrdExample(example, tuple(sampler.unchecked), tuple(sampler.unsatisfied))


def python_call(model: Model, data: Any, variable: str = "body") -> str:
    """The ``CustomObjectsApi`` call that creates ``data`` (namespaced or cluster-scoped)."""
    info = model.crd
    assert info is not None
    body = pprint.pformat(data, indent=1, width=88, sort_dicts=False)
    args = [f'group="{info.group}"', f'version="{info.version}"']
    if info.namespaced:
        call = "create_namespaced_custom_object"
        args.append('namespace="default"')
    else:
        call = "create_cluster_custom_object"
    args += [f"plural={json.dumps(info.plural)}", f"body={variable}"]
    lines = ["from kubernetes import client, config", "", "config.load_kube_config()",
             f"{variable} = {body}", f"client.CustomObjectsApi().{call}(",
             *(f"    {a}," for a in args), ")"]
    return "\n".join(lines) + "\n"


def jsonnet(data: Any) -> str:
    """The object as Jsonnet (JSON is Jsonnet; keys that are identifiers go unquoted): for a kind
    name k8s-gen's pattern does not take (no library object)."""
    return _jsonnet_value(data, 0) + "\n"


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_JSONNET_KEYWORDS = frozenset({"assert", "else", "error", "false", "for", "function", "if", "import",
                               "importstr", "importbin", "in", "local", "null", "tailstrict", "then",
                               "self", "super", "true"})


def _jsonnet_value(value: Any, indent: int) -> str:
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = []
        for key, item in value.items():
            name = key if _IDENT.match(key) and key not in _JSONNET_KEYWORDS else json.dumps(key)
            items.append(f"{pad}{name}: {_jsonnet_value(item, indent + 1)},")
        return "{\n" + "\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + "\n".join(f"{pad}{_jsonnet_value(v, indent + 1)}," for v in value) + "\n" + \
            "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)
