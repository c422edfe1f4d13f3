"""k8s-libsonnet as a Jsonnet user imports it: a generated library built from the builder index,
plus the real hand-written patches of ``../shared/libsonnet`` (read at test time, never copied).

The generated part follows k8s-libsonnet's generated code: ``withX(x)`` sets the target (enclosing
objects merge with ``+:``), ``withXMixin(x)`` appends / merges (``+:``; an array also takes one
item), an ``obj`` only nests, ``new(name)`` sets ``apiVersion``, ``kind`` and ``metadata.name``
(through ``metadata.withName``), arguments carry the index's names (the patches pass some by
name). ``main.libsonnet`` is that plus each patch file, as k8s-libsonnet assembles it. A snippet
calling anything else fails to evaluate.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import _jsonnet

from generator.examples.crd_jsonnet import LIBRARY as CRD_LIBRARY
from generator.examples.jsonnet import library_import
from generator.libsonnet.builders import HELPER, BuilderFunction, BuilderObject, builder_index
from generator.model.types import ApiSpec

PATCH_DIR = ("libsonnet", "k8s-custom", "core")
DOC_UTIL = ("libsonnet", "doc-util", "main.libsonnet")


def _q(text: str) -> str:
    return json.dumps(text)


def _function(fn: BuilderFunction) -> str:
    arg = fn.arg
    is_array = fn.type is not None and fn.type.kind == "array"
    value = f"if std.isArray({arg}) then {arg} else [{arg}]" if fn.kind == "mixin" and is_array else arg
    *outer, leaf = fn.writes  # from the object it merges into (an inline array's item: the item)
    body = f"{_q(leaf)}{'+:' if fn.kind == 'mixin' else ':'} {value}"
    for name in reversed(outer):
        body = f"{_q(name)}+: {{ {body} }}"
    return f"function({arg}) {{ {body} }}"


def _object(obj: BuilderObject, gvk: Any = None) -> str:
    fields = []
    if gvk is not None:
        fields.append(f"new:: function(name) {{ apiVersion: {_q(gvk.api_version)}, kind: {_q(gvk.kind)} }}"
                      " + self.metadata.withName(name=name)")
    for member in obj.members:
        if isinstance(member, BuilderObject):
            fields.append(f"{_q(member.name)}:: {_object(member)}")
        elif member.kind not in (HELPER, "new"):
            fields.append(f"{_q(member.name)}:: {_function(member)}")
    return "{ " + ", ".join(fields) + " }"


def build_generated(api: ApiSpec) -> str:
    """``gen.libsonnet``: ``k.<group>.<version>.<kind>`` for every model with a builder index,
    generated functions only (the helpers come from the patch files)."""
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


def patch_files(shared: Path) -> list[Path]:
    return sorted(shared.joinpath(*PATCH_DIR).glob("*.libsonnet"))


def main_libsonnet(shared: Path) -> str:
    """k8s-libsonnet's ``main.libsonnet``: the generated library plus every patch file."""
    return "(import 'gen.libsonnet')" + "".join(
        f"\n+ (import '_custom/{p.name}')" for p in patch_files(shared))


class Library:
    """Import resolution for ``main.libsonnet`` of one release (generated + real patches)."""

    def __init__(self, api: ApiSpec, shared: Path) -> None:
        self.gen = build_generated(api).encode()
        self.main = main_libsonnet(shared).encode()
        self.shared = shared
        self.wanted = library_import(api.version)

    def __call__(self, base: str, rel: str) -> tuple[str, bytes]:
        if rel == self.wanted:
            return "main.libsonnet", self.main
        if rel in ("gen.libsonnet", "../gen.libsonnet"):
            return "gen.libsonnet", self.gen
        if rel.startswith("_custom/") and "/" not in rel[len("_custom/"):]:
            path = self.shared.joinpath(*PATCH_DIR, rel[len("_custom/"):])
            return str(path), path.read_bytes()
        if rel == "doc-util/main.libsonnet":
            path = self.shared.joinpath(*DOC_UTIL)
            return str(path), path.read_bytes()
        raise RuntimeError(f"unexpected import {rel!r} from {base!r}")


class CrdLibrary:
    """Import resolution for the library k8s-gen generates from a CRD set: ``main.libsonnet`` is
    the generated library (no hand-written patches)."""

    def __init__(self, api: ApiSpec) -> None:
        self.gen = build_generated(api).encode()

    def __call__(self, base: str, rel: str) -> tuple[str, bytes]:
        if rel == CRD_LIBRARY:
            return "main.libsonnet", b"(import 'gen.libsonnet')"
        if rel == "gen.libsonnet":
            return "gen.libsonnet", self.gen
        raise RuntimeError(f"unexpected import {rel!r} from {base!r}")


def evaluate_crds(api: ApiSpec, snippets: dict[str, str]) -> dict[str, Any]:
    """Evaluate the snippets of CRD examples against the library generated from ``api``'s CRDs."""
    program = "{\n" + "".join(f"{_q(name)}: (\n{code}\n),\n" for name, code in snippets.items()) + "}\n"
    return json.loads(_jsonnet.evaluate_snippet("program.jsonnet", program, import_callback=CrdLibrary(api)))


def evaluate(api: ApiSpec, shared: Path, program: str) -> Any:
    return json.loads(_jsonnet.evaluate_snippet("program.jsonnet", program,
                                                import_callback=Library(api, shared)))


def evaluate_all(api: ApiSpec, shared: Path, snippets: dict[str, str]) -> dict[str, Any]:
    """Evaluate every snippet in one Jsonnet program (the library is parsed once)."""
    program = "{\n" + "".join(f"{_q(name)}: (\n{code}\n),\n" for name, code in snippets.items()) + "}\n"
    return evaluate(api, shared, program)
