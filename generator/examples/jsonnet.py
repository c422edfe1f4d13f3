"""The Jsonnet rendering of a sample: k8s-libsonnet builder calls, only functions of the builder index.

    local k = import 'github.com/jsonnet-libs/k8s-libsonnet/1.31/main.libsonnet';
    local deployment = k.apps.v1.deployment;

    deployment.new('nginx', 3, [k.core.v1.container.new('nginx', 'registry.k8s.io/nginx:1.27')])
    + deployment.spec.strategy.withType('RollingUpdate')

Where a Jsonnet user would call one of k8s-libsonnet's hand-written helpers, the snippet does:
``deployment.new('nginx', 3, [k.core.v1.container.new('nginx', 'registry.k8s.io/nginx:1.27')])``,
``k.core.v1.envVar.fromSecretRef(…)``, ``k.core.v1.volume.fromConfigMap(…)`` (``jsonnet_helpers``
says which helper fits a sample and which of its paths the call writes). Every other leaf of the
sample is set by the ``withX`` function whose target is its JSON path (descending through ``obj``
groups), which also replaces a value a helper wrote differently; a model value passed to ``withX``
is built the same way from its own library when k8s-libsonnet has one. A kind whose sample names
its builder GVK starts with ``new``. What no function sets (``status``, and ``apiVersion`` outside
``new``) is added as a plain object, so the snippet yields the whole sample with the real library
(generated functions + hand-written patches).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from generator.examples.jsonnet_helpers import (
    CONSTRUCTORS,
    EMPTY_WRITES_NOTHING,
    VALUE_HELPERS,
    Arg,
    Call,
    Code,
    HelperCall,
)
from generator.examples.samples import Sample
from generator.libsonnet.builders import BuilderFunction, BuilderIndex, BuilderObject, planner_for
from generator.model.types import ApiSpec

LIBRARY = "github.com/jsonnet-libs/k8s-libsonnet/{release}/main.libsonnet"
WIDTH = 100
_PLAIN = re.compile(r"^[^'\\\x00-\x1f\x7f\u2028\u2029]*$")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
JSONNET_KEYWORDS = frozenset({
    "assert", "else", "error", "false", "for", "function", "if", "import", "importbin", "importstr",
    "in", "local", "null", "self", "super", "tailstrict", "then", "true",
})


def library_import(version: str) -> str:
    return LIBRARY.format(release=version)


def string(text: str) -> str:
    """A Jsonnet string literal: single-quoted when nothing needs escaping, else JSON's escapes."""
    if _PLAIN.match(text):
        return f"'{text}'"
    return json.dumps(text)


def key(name: str) -> str:
    """An object key: bare when it is an identifier (and not a keyword), else a string."""
    return name if IDENTIFIER.match(name) and name not in JSONNET_KEYWORDS else string(name)


def member(names: tuple[str, ...]) -> str:
    """``.a.b``, with ``['local']`` for a keyword or a name that is not an identifier."""
    return "".join(f".{n}" if IDENTIFIER.match(n) and n not in JSONNET_KEYWORDS else f"[{string(n)}]"
                   for n in names)


def literal(value: object, indent: str = "") -> str:
    """Jsonnet for a plain JSON value."""
    if isinstance(value, str):
        return string(value)
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(literal(v, indent) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{key(str(k))}: {literal(v, indent)}" for k, v in value.items()) + " }"
    return string(str(value))


def _level(obj: BuilderObject) -> dict[str, BuilderFunction | BuilderObject]:
    """The members of one level by the field they act on: its ``withX`` setter or its ``obj``."""
    out: dict[str, BuilderFunction | BuilderObject] = {}
    for entry in obj.members:
        if isinstance(entry, BuilderObject) or entry.kind == "with":
            out.setdefault(entry.target[-1], entry)
    return out


class JsonnetRenderer:
    """Jsonnet snippets for the samples of one release."""

    def __init__(self, api: ApiSpec) -> None:
        self.api = api
        self.planner = planner_for(api)
        self._indexes: dict[str, BuilderIndex | None] = {}
        self._levels: dict[int, dict[str, BuilderFunction | BuilderObject]] = {}
        """``BuilderObject.uid`` → its level."""

    def index(self, name: str) -> BuilderIndex | None:
        if name not in self._indexes:
            model = self.api.models.get(name)
            self._indexes[name] = self.planner.index(model) if model is not None else None
        return self._indexes[name]

    def level(self, obj: BuilderObject) -> dict[str, BuilderFunction | BuilderObject]:
        """``_level`` memoized (the planner shares subtrees such as ObjectMeta between indexes)."""
        found = self._levels.get(obj.uid)
        if found is None:
            found = self._levels[obj.uid] = _level(obj)
        return found

    def snippet(self, sample: Sample) -> str:
        """The whole snippet, or ``""`` when k8s-libsonnet has no functions for this model."""
        if sample.kind != "model":
            return ""
        index = self.index(sample.model)
        if index is None:
            return ""
        alias = index.library_path.rsplit(".", 1)[-1]
        if alias in JSONNET_KEYWORDS or alias == "k" or not IDENTIFIER.match(alias):
            alias = "this"
        parts = self.parts(sample, alias, top=True)
        head = (f"local k = import {string(library_import(self.api.version))};\n"
                f"local {alias} = k{member(tuple(index.library_path.split('.')))};\n\n")
        return head + (self.join(parts, "", WIDTH) if parts else "{}") + "\n"

    # -- builder expressions ---------------------------------------------------------------
    def parts(self, sample: Sample, prefix: str, top: bool = False, indent: str = "") -> list[str]:
        """The calls (``prefix.withX(...)``, helpers such as ``prefix.new(...)``) and plain objects
        that together build ``sample``; ``indent``: where the expression's lines start."""
        index = self.index(sample.model)
        assert index is not None
        entries = dict(sample.entries)
        calls: list[str] = []
        skip: set[tuple[str, ...]] = set()
        gvk = index.gvk
        if top and gvk is not None and _value(entries.get("apiVersion")) == gvk.api_version and \
                _value(entries.get("kind")) == gvk.kind and "metadata" in entries:
            name = dict(entries["metadata"].entries).get("name")
            if name is not None and name.kind == "value" and isinstance(name.value, str):
                new = index.function("new")
                matcher = CONSTRUCTORS.get(index.library_path)
                found: HelperCall | None = HelperCall("new", (name.value,))
                if new is not None and new.helper is not None and matcher is not None:
                    found = matcher(sample, name.value)
                elif matcher is not None:
                    # a release before the known patches: its hand-written new (every
                    # k8s-libsonnet release has one) may take other arguments: not called
                    found = None
                if found is not None:
                    calls.append(self.helper_call(prefix, found, indent))
                    skip = {("apiVersion",), ("kind",), ("metadata", "name"), *found.writes}
        helper = VALUE_HELPERS.get(index.library_path)
        found = helper(sample) if helper is not None else None
        fn = index.function(found.name) if found is not None else None
        if found is not None and fn is not None and fn.helper is not None:
            calls.append(self.helper_call(prefix, found, indent))
            skip |= found.writes
        plain: dict[str, object] = {}
        for empty in EMPTY_WRITES_NOTHING.get(index.library_path, ()):
            value = entries.get(empty)
            if value is not None and not value.entries and not value.items and _patched(index):
                skip.add((empty,))
                put_at_path(plain, (empty,), MergeLeaf(value.data()))
        self._walk(sample, (), prefix, index.root, skip, calls, plain, indent)
        if plain:
            calls.append(merge_literal(plain))
        return calls

    def helper_call(self, prefix: str, call: HelperCall, indent: str = "") -> str:
        head = f"{prefix}.{call.name}("
        used = len(indent) + len(head)
        args = [self.argument(arg, indent, used) for arg in call.args]
        args += [f"{name}={self.argument(arg, indent, used + len(name) + 1)}" for name, arg in call.named]
        return head + ", ".join(args) + ")"

    def argument(self, arg: Arg, indent: str, used: int) -> str:
        """One argument of a helper call."""
        if isinstance(arg, str):
            return string(arg)
        if isinstance(arg, Code):
            return arg.text
        if isinstance(arg, Call):
            return f"{arg.function}({', '.join(self.argument(a, indent, used) for a in arg.args)})"
        return self.value(arg, indent + "  ", used + 3)

    def _walk(self, node: Sample, path: tuple[str, ...], prefix: str, obj: BuilderObject,
              skip: set[tuple[str, ...]], calls: list[str], plain: dict[str, object],
              indent: str = "") -> None:
        level = self.level(obj)
        for name, value in node.entries:
            target = (*path, name)
            if target in skip:
                continue
            entry = level.get(name)
            if isinstance(entry, BuilderFunction):
                head = f"{prefix}{member((*entry.path, entry.name))}("
                calls.append(f"{head}{self.value(value, indent + '  ', len(indent) + len(head) + 3)})")
            elif entry is not None and value.kind == "model" and value.entries:
                self._walk(value, target, prefix, entry, skip, calls, plain, indent)
            else:
                put_at_path(plain, target, MergeLeaf(value.data()))

    def value(self, sample: Sample, indent: str, used: int = 0) -> str:
        """An argument: nested builder calls for a model with a library, else a literal; on one line
        when it fits after the ``used`` columns before it."""
        index = self.index(sample.model) if sample.kind == "model" and sample.entries else None
        if index is not None:
            parts = self.parts(sample, "k" + member(tuple(index.library_path.split("."))), indent=indent)
            return self.join(parts, indent, used)
        if sample.kind == "array":
            inner = indent + "  "
            items = [self.value(item, inner, len(inner)) for item in sample.items]
            flat = "[" + ", ".join(items) + "]"
            if used + len(flat) + 1 <= WIDTH and "\n" not in flat:
                return flat
            return "[\n" + "".join(f"{inner}{item},\n" for item in items) + indent + "]"
        if sample.kind == "map":
            entries = [f"{key(k)}: {self.value(v, indent + '  ', WIDTH)}" for k, v in sample.entries]
            return "{ " + ", ".join(entries) + " }"
        return literal(sample.data())

    def join(self, parts: list[str], indent: str, used: int = 0) -> str:
        flat = " + ".join(parts)
        if used + len(flat) <= WIDTH and "\n" not in flat:
            return flat
        return f"\n{indent}+ ".join(parts)


def _patched(index: BuilderIndex) -> bool:
    """Whether this release's library object has its hand-written patch (its helpers)."""
    return any(fn.helper is not None for fn in index.root.functions)


def _value(sample: Sample | None) -> object:
    return sample.value if sample is not None and sample.kind == "value" else None


@dataclass(frozen=True, slots=True)
class MergeLeaf:
    value: object


def merge_literal(tree: dict[str, object]) -> str:
    """A plain object to add with ``+``: enclosing objects merge (``+:``), leaves are set."""
    fields = []
    for name, value in tree.items():
        if isinstance(value, MergeLeaf):
            fields.append(f"{key(name)}: {literal(value.value)}")
        else:
            assert isinstance(value, dict)
            fields.append(f"{key(name)}+: {merge_literal(value)}")
    return "{ " + ", ".join(fields) + " }"


def put_at_path(tree: dict[str, object], path: tuple[str, ...], value: object) -> None:
    for name in path[:-1]:
        child = tree.setdefault(name, {})
        assert isinstance(child, dict)
        tree = child
    tree[path[-1]] = value
