"""A CRD written for the schema-fact tests (issue 23): allOf enums, any-value fields, item and
map-value constraints, oneOf/anyOf/not, empty strings, selectable fields, hostile Markdown."""

from __future__ import annotations

from typing import Any

from crd_fixtures import widget_crd

HOSTILE = ("See [the guide](https://example.com/guide) and [x](javascript:alert(1)) or "
           "<img src=x onerror=alert(1)> <script>alert(2)</script> [y](data:text/html,hi).")

FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object",
            "description": HOSTILE,
            "properties": {
                "action": {"type": "string", "allOf": [
                    {"enum": ["Allow", "Deny", "Log", "Pass"]}, {"enum": ["Pass", "Deny"]}]},
                "config": {"x-kubernetes-preserve-unknown-fields": True,
                           "description": "Arbitrary JSON data."},
                "usages": {"type": "array", "items": {"type": "string", "enum": ["sign", "", "verify"]}},
                "hostnames": {"type": "array", "maxItems": 16, "items": {
                    "type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[a-z.]+$"}},
                "labels": {"type": "object", "additionalProperties": {
                    "type": "string", "maxLength": 63,
                    "x-kubernetes-validations": [{"rule": "self != 'forbidden'", "message": "no"}]}},
                "matrix": {"type": "array", "items": {"type": "array", "items": {
                    "type": "integer", "minimum": 0, "enum": [0, 1]}}},
                "format": {"type": "string", "enum": ["", "logfmt", "json"], "default": ""},
                "match": {
                    "type": "object",
                    "oneOf": [{"required": ["exact"]}, {"required": ["prefix"]}, {"required": ["regex"]}],
                    "anyOf": [{"required": ["exact", "prefix"]}, {"properties": {"regex": {"enum": ["a"]}}}],
                    "not": {"required": ["legacy"]},
                    "properties": {k: {"type": "string"} for k in ("exact", "prefix", "regex", "legacy")},
                },
                "addresses": {"type": "array", "items": {
                    "type": "object",
                    "oneOf": [
                        {"properties": {"type": {"enum": ["IPAddress"]},
                                        "value": {"anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]}}},
                        {"properties": {"type": {"not": {"enum": ["IPAddress"]}}}}],
                    "properties": {"type": {"type": "string"}, "value": {"type": "string"}}}},
            },
        },
    },
}


def facts_crd(version: str = "v1") -> dict[str, Any]:
    crd = widget_crd((version,), version, kind="Gizmo", schema=FACTS_SCHEMA)
    crd["spec"]["versions"][0]["selectableFields"] = [{"jsonPath": ".spec.format"},
                                                      {"jsonPath": ".spec.action"}]
    return crd
