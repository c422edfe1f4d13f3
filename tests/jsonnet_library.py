"""A small k8s-libsonnet stand-in built only from the builder index, with its documented semantics:
``withX(x)`` sets the target (enclosing objects merge with ``+:``), ``withXMixin(x)`` appends /
merges (``+:``; an array also takes one item), an ``obj`` only nests, ``new(name)`` sets
``apiVersion``, ``kind`` and ``metadata.name``. A snippet calling anything else fails to evaluate.
"""

from __future__ import annotations

import json
from typing import Any

import _jsonnet

from generator.examples.jsonnet import library_import
from generator.libsonnet.builders import BuilderFunction, BuilderObject, builder_index
from generator.model.types import ApiSpec


def _q(text: str) -> str:
    return json.dumps(text)


def _function(fn: BuilderFunction, gvk: Any) -> str:
    if fn.kind == "new":
        return (f"function(v) {{ apiVersion: {_q(gvk.api_version)}, kind: {_q(gvk.kind)}, "
                "metadata+: { name: v } }")
    is_array = fn.type is not None and fn.type.kind == "array"
    value = "if std.isArray(v) then v else [v]" if fn.kind == "mixin" and is_array else "v"
    *outer, leaf = fn.target
    body = f"{_q(leaf)}{'+:' if fn.kind == 'mixin' else ':'} {value}"
    for name in reversed(outer):
        body = f"{_q(name)}+: {{ {body} }}"
    return f"function(v) {{ {body} }}"


def _object(obj: BuilderObject, gvk: Any) -> str:
    fields = []
    for member in obj.members:
        if isinstance(member, BuilderObject):
            fields.append(f"{_q(member.name)}:: {_object(member, gvk)}")
        else:
            fields.append(f"{_q(member.name)}:: {_function(member, gvk)}")
    return "{ " + ", ".join(fields) + " }"


def build_library(api: ApiSpec) -> str:
    """``k`` with ``k.<group>.<version>.<kind>`` for every model that has a builder index."""
    tree: dict[str, Any] = {}
    for model in api.models.values():
        index = builder_index(model, api)
        if index is None:
            continue
        *parents, leaf = index.library_path.split(".")
        node = tree
        for name in parents:
            node = node.setdefault(name, {})
        node[leaf] = _object(index.root, index.gvk)
    return _emit(tree)


def _emit(tree: dict[str, Any]) -> str:
    return "{ " + ", ".join(
        f"{_q(k)}:: {v if isinstance(v, str) else _emit(v)}" for k, v in sorted(tree.items())) + " }"


def evaluate_all(api: ApiSpec, snippets: dict[str, str]) -> dict[str, Any]:
    """Evaluate every snippet in one Jsonnet program (the library is parsed once)."""
    library = build_library(api).encode()
    wanted = library_import(api.version)

    def imports(base: str, rel: str) -> tuple[str, bytes]:
        if rel != wanted:
            raise RuntimeError(f"unexpected import {rel!r}")
        return rel, library

    program = "{\n" + "".join(f"{_q(name)}: (\n{code}\n),\n" for name, code in snippets.items()) + "}\n"
    return json.loads(_jsonnet.evaluate_snippet("examples.jsonnet", program, import_callback=imports))
