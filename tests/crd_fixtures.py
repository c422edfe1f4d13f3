"""Small CustomResourceDefinitions written for the tests (no upstream text)."""

from __future__ import annotations

import copy
from typing import Any

import yaml

WIDGET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A widget.",
    "properties": {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "spec": {
            "type": "object",
            "required": ["size"],
            "properties": {
                "size": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
                "colour": {"type": "string", "enum": ["red", "blue"], "default": "red"},
                "parts": {
                    "type": "array", "maxItems": 4,
                    "items": {
                        "type": "object", "required": ["name"],
                        "properties": {
                            "name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 12},
                            "port": {"type": "integer", "format": "int32"},
                            "kind": {"type": "string", "enum": ["Service", "Other"],
                                     "default": "Service"},
                        },
                        "x-kubernetes-validations": [
                            {"rule": "self.kind != 'Service' || has(self.port)",
                             "message": "Service parts need a port"}],
                    },
                },
            },
        },
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    },
}


def widget_crd(versions: tuple[str, ...] = ("v1",), storage: str = "v1", *, group: str = "example.com",
               kind: str = "Widget", schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """A CRD of kind ``Widget`` serving ``versions``."""
    plural = kind.lower() + "s"
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {
            "group": group,
            "names": {"kind": kind, "listKind": kind + "List", "plural": plural,
                      "singular": kind.lower(), "shortNames": ["wd"], "categories": ["toys"]},
            "scope": "Namespaced",
            "versions": [{
                "name": v, "served": True, "storage": v == storage,
                "schema": {"openAPIV3Schema": copy.deepcopy(schema or WIDGET_SCHEMA)},
                "additionalPrinterColumns": [
                    {"name": "Size", "type": "integer", "jsonPath": ".spec.size"},
                    {"name": "Colour", "type": "string", "jsonPath": ".spec.colour", "priority": 1}],
                "subresources": {"status": {}},
            } for v in versions],
        },
    }


def dump(*documents: dict[str, Any]) -> str:
    return yaml.safe_dump_all(documents, sort_keys=False)
