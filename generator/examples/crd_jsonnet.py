"""The Jsonnet of a custom resource example, from the builder functions of the library k8s-gen
(jsonnet-libs/k8s) generates from the CRDs, as jsonnet-libs publishes it for Gateway API and
cert-manager (``libsonnet.crds``)::

    // main.libsonnet: the library k8s-gen (jsonnet-libs/k8s) generates from these CRDs
    local crds = import 'main.libsonnet';
    local httpRoute = crds.gateway.v1.httpRoute;

    httpRoute.new('example')
    + httpRoute.metadata.withNamespace('default')
    + httpRoute.spec.withRules([
      httpRoute.spec.rules.withMatches([httpRoute.spec.rules.matches.path.withType('PathPrefix')]),
    ])

``new(name)`` writes ``apiVersion``, ``kind`` and ``metadata.name``; every other leaf is set by the
``withX`` whose target is its path, descending through ``obj`` groups; the items of an inline
array are built with the functions of the array's item ``obj`` (they build one item). What no
function sets is added as a plain object, so the snippet yields exactly the example.
"""

from __future__ import annotations

from typing import Any

from generator.examples.jsonnet import (
    IDENTIFIER,
    JSONNET_KEYWORDS,
    WIDTH,
    MergeLeaf,
    literal,
    member,
    merge_literal,
    put_at_path,
    string,
)
from generator.libsonnet.builders import WITH, BuilderFunction, BuilderIndex, BuilderObject
from generator.libsonnet.crds import ALIAS

LIBRARY = "main.libsonnet"
"""What the snippet imports: the ``main.libsonnet`` k8s-gen writes for a CRD set."""
ROOT = ALIAS
"""The snippet's name for the whole library."""

_Level = tuple[dict[str, BuilderFunction], dict[str, BuilderObject], dict[str, BuilderObject]]


def _level(obj: BuilderObject) -> _Level:
    """By field name: the ``withX`` setters, the ``obj`` groups of objects, the item ``obj`` of
    inline arrays."""
    setters: dict[str, BuilderFunction] = {}
    objects: dict[str, BuilderObject] = {}
    items: dict[str, BuilderObject] = {}
    for entry in obj.members:
        if isinstance(entry, BuilderObject):
            (items if entry.item else objects).setdefault(entry.target[-1], entry)
        elif entry.kind == WITH:
            setters.setdefault(entry.target[-1], entry)
    return setters, objects, items


class CrdJsonnet:
    """The snippet of one CRD version's example."""

    def __init__(self, index: BuilderIndex) -> None:
        self.index = index
        alias = index.library_path.rsplit(".", 1)[-1]
        if alias in JSONNET_KEYWORDS or alias == ROOT or not IDENTIFIER.match(alias):
            alias = "this"
        self.alias = alias
        self._levels: dict[int, _Level] = {}
        """``BuilderObject.uid`` → its level (never ``id()``: reused once an object is freed)."""

    def level(self, obj: BuilderObject) -> _Level:
        found = self._levels.get(obj.uid)
        if found is None:
            found = self._levels[obj.uid] = _level(obj)
        return found

    def snippet(self, data: dict[str, Any]) -> str:
        index, alias = self.index, self.alias
        calls: list[str] = []
        skip: set[tuple[str, ...]] = set()
        meta = data.get("metadata")
        name = meta.get("name") if isinstance(meta, dict) else None
        gvk = index.gvk
        if gvk is not None and isinstance(name, str) and data.get("apiVersion") == gvk.api_version \
                and data.get("kind") == gvk.kind:
            calls.append(f"{alias}.new({string(name)})")
            skip = {("apiVersion",), ("kind",), ("metadata", "name")}
        calls += self.parts(index.root, data, skip, "")
        head = (f"// {LIBRARY}: the library k8s-gen (jsonnet-libs/k8s) generates from these CRDs\n"
                f"local {ROOT} = import {string(LIBRARY)};\n"
                f"local {alias} = {ROOT}{member(tuple(index.library_path.split('.')))};\n\n")
        return head + (self.join(calls, "", 0) if calls else "{}") + "\n"

    def parts(self, obj: BuilderObject, data: dict[str, Any], skip: set[tuple[str, ...]],
              indent: str) -> list[str]:
        """The calls (and a plain object for the rest) that build ``data`` at ``obj``'s level."""
        calls: list[str] = []
        plain: dict[str, object] = {}
        self._walk(obj, data, (), skip, calls, plain, indent)
        if plain:
            calls.append(merge_literal(plain))
        return calls

    def _walk(self, obj: BuilderObject, node: dict[str, Any], path: tuple[str, ...],
              skip: set[tuple[str, ...]], calls: list[str], plain: dict[str, object], indent: str) -> None:
        setters, objects, items = self.level(obj)
        for name, value in node.items():
            here = (*path, name)
            if here in skip:
                continue
            nested = objects.get(name)
            if nested is not None and isinstance(value, dict) and value:
                self._walk(nested, value, here, skip, calls, plain, indent)
                continue
            fn = setters.get(name)
            if fn is None:
                put_at_path(plain, here, MergeLeaf(value))
                continue
            head = f"{self.alias}{member((*fn.path, fn.name))}("
            calls.append(head + self.value(value, items.get(name), indent, len(indent) + len(head) + 3) + ")")

    def value(self, value: Any, item: BuilderObject | None, indent: str, used: int) -> str:
        """An argument: the items of an inline array built with its item ``obj``, else a literal."""
        if item is None or not isinstance(value, list):
            return literal(value)
        inner = indent + "  "
        built = [self.join(self.parts(item, v, set(), inner), inner, len(inner))
                 if isinstance(v, dict) and v else literal(v) for v in value]
        flat = "[" + ", ".join(built) + "]"
        if used + len(flat) <= WIDTH and "\n" not in flat:
            return flat
        return "[\n" + "".join(f"{inner}{b},\n" for b in built) + indent + "]"

    def join(self, parts: list[str], indent: str, used: int) -> str:
        flat = " + ".join(parts)
        if used + len(flat) <= WIDTH and "\n" not in flat:
            return flat
        return f"\n{indent}+ ".join(parts)


def crd_jsonnet(index: BuilderIndex, data: dict[str, Any]) -> str:
    return CrdJsonnet(index).snippet(data)
