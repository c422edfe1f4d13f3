"""The k8s-libsonnet builder functions of a model: which exist, their names, order and anchors.

k8s-libsonnet (``k.resource.v1alpha3.resourceClaimStatus.withReservedFor(...)``) is generated
mechanically from the OpenAPI definitions; this module re-derives exactly its function set so the
docs can list it, and so other features can build Jsonnet from it.

API (plain, frozen data; no Markdown here)::

    index = builder_index(model, api)        # BuilderIndex, or None: no k8s-libsonnet section
    index.library_path                       # "resource.v1alpha3.resourceClaimStatus" (k.<this>)
    index.gvk                                # GroupVersionKind of a kind (for new(name)), else None
    for fn in index.functions():             # BuilderFunction, page order (depth first)
        fn.kind                              # "new" | "with" | "mixin" | "helper"
        fn.helper                            # a hand-written helper's facts (libsonnet.helpers)
        fn.dotted, fn.signature              # "allocation.withController", "withController(controller)"
        fn.call, fn.arg                      # "allocation.withController(controller)", "controller"
        fn.anchor                            # "fn-allocationwithcontroller" (k8s-libsonnet's id)
        fn.target                            # JSON path it sets: ("allocation", "controller")
        fn.field, fn.owner                   # the Field set and the definition name owning it
    index.function("allocation.withController")  # lookup by dotted name
    index.for_target(("allocation", "controller"))  # every function setting that JSON path
    index.root.members                       # BuilderFunction | BuilderObject, index order
    index.entries()                          # (depth, entry) in page order, objects included
    helper_objects(api)                      # {"core.v1.list": ("core", "v1")}: objects of helpers only
    helper_index("core.v1.list", "1.31")     # their index (the helpers, the library's anchors)

``builder_index`` shares one ``BuilderPlanner`` per ``ApiSpec`` (the last few are kept): levels
and subtrees common to many models (ObjectMeta, PodSpec…) are worked out once.

Semantics (for code that generates Jsonnet from the index): ``withX(x)`` sets ``target`` to ``x``
(merging the enclosing objects, ``+:``), ``withXMixin(x)`` appends to / merges into the existing
value (``target+: x``; an array also accepts a single item), an ``obj`` only nests, and
``new(name)`` sets ``apiVersion``/``kind`` (from ``gvk``) and ``metadata.name``.

Rules (k8s-libsonnet's, see docs/pages.md "Builder functions"):

- Covered definitions match ``<domain>.<group>.<version>.<Kind>`` under ``io.k8s.api.``,
  ``io.k8s.apimachinery.pkg.apis.`` or ``io.k8s.kube-aggregator.pkg.apis.``; ``*List`` kinds and
  meta ``Status`` (``metadata`` is ``ListMeta``) are not.
- Per property: array, map or property-less object → ``withX`` + ``withXMixin``; an object with
  properties (through ``$ref``) → ``obj x`` holding its functions, recursively; anything else →
  ``withX``. References to ``JSONSchemaProps``/``ListMeta`` and references that would close a cycle
  are not expanded (``withX`` only, as k8s-libsonnet does for unresolved references).
- No ``apiVersion`` function at the top level, no ``status`` at any depth; a kind gets ``new(name)``
  and no ``withKind``.
- Index order per level: names starting with ``new``, then functions, then objects; byte order.
- Anchors: GitHub-style slug of ``"fn " + path + name`` / ``"obj " + path``, repeats get ``-1``…
- The hand-written helpers of k8s-libsonnet (``libsonnet.helpers``: ``container.new(name, image)``,
  ``mapContainers``…) join their level in the same order, with their documented arguments
  (``new(name, replicas=1, containers, podLabels={})``); a helper named like a generated function
  (``new``) replaces it. A repeated anchor then numbers the whole page in page order.
- An inline (nested, ``Model.field_path``) object is an ``obj`` like a referenced one; an array of
  inline objects gets ``withX``/``withXMixin`` and also an ``obj`` of the same name whose
  functions build one item (``fn.base``/``fn.writes``: ``spec.rules.matches.path.withType``
  writes ``path.type`` of one item of ``spec.rules[].matches[]``), as k8s-gen does for inline
  schemas; arrays of referenced objects get no ``obj``.
- A CRD version's kind (``Model.crd``) follows ``libsonnet.crds``: k8s-gen's library path
  (``gateway.v1.httpRoute``, ``nogroup.v1.certificate``), ``metadata`` always k8s-gen's own
  ObjectMeta copy, no hand-written helpers.
- A field name starting upper case gets k8s-libsonnet's lower-cased key (``Port`` → ``withPort``,
  argument ``port``); ``fn.target`` keeps the real name. Two fields with the same key: the first
  in byte order wins (k8s-libsonnet keeps an arbitrary one).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Union

from generator.libsonnet.crds import ALIAS as CRD_ALIAS
from generator.libsonnet.crds import GEN_OBJECT_META, crd_group_version_kind, gen_object_meta
from generator.libsonnet.helpers import Helper, helpers_for, library_paths
from generator.memo import render_memo
from generator.model.types import LIST_META, ApiSpec, Field, GroupVersionKind, Model, TypeRef

_SERIALS = itertools.count()
COVERED_PREFIXES = ("io.k8s.api.", "io.k8s.apimachinery.pkg.apis.", "io.k8s.kube-aggregator.pkg.apis.")
_DEFINITION = re.compile(r"^.+?\.(\w*)\.(\w*)\.(\w*)$")
NOT_EXPANDED = frozenset({
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps",
    "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.JSONSchemaProps",
    LIST_META,
})
JSONNET_KEYWORDS = frozenset({
    "assert", "else", "false", "for", "function", "if", "import", "importbin", "importstr", "in",
    "local", "null", "self", "super", "tailstrict", "then", "true",
})
NEW, WITH, MIXIN, HELPER = "new", "with", "mixin", "helper"
_PLAIN_SLUG = re.compile(r"[a-z0-9 _-]*")
_SLUG_DROP = re.compile("[!\"#$%&'()*+,./:;<=>?@\\[\\\\\\]^`{|}~\u2019\u2000-\u206f\u2e00-\u2e7f]")


@dataclass(frozen=True, slots=True)
class BuilderFunction:
    """One ``fn``: ``withX(x)``, ``withXMixin(x)`` or ``new(name)``."""

    name: str
    """``withReservedFor``, ``withReservedForMixin``, ``new``."""
    kind: str
    """``new`` · ``with`` (sets the value) · ``mixin`` (appends / merges)."""
    arg: str
    """Argument name: ``reservedFor``; ``name`` for ``new``."""
    path: tuple[str, ...]
    """Names of the enclosing ``obj`` groups: ``("allocation", "devices")``."""
    anchor: str
    """Element id on the model page (equals k8s-libsonnet's): ``fn-allocationdeviceswithresults``."""
    target: tuple[str, ...] = ()
    """JSON path of the value it sets (real field names): ``("allocation", "devices", "results")``;
    empty for ``new``."""
    field: Field | None = None
    """The field it sets (its own description); ``None`` for ``new``."""
    owner: str = ""
    """Definition name of the model that has ``field``."""
    helper: Helper | None = None
    """A hand-written k8s-libsonnet helper (``kind`` ``helper``): its documented arguments."""
    base: int = 0
    """How many leading names of ``target`` lie above the object the function's result merges
    into: 0 (the library object's root), or the length of an array's path for the functions of
    an inline array item's ``obj`` (they build one item: ``spec.rules.matches.path.withType``
    returns ``{path+: {type: ...}}``)."""

    @property
    def writes(self) -> tuple[str, ...]:
        """The path the function's result sets, from the object it merges into."""
        return self.target[self.base:]

    @property
    def type(self) -> TypeRef | None:
        """Type of the argument (the field's type); ``None`` for ``new`` (a string)."""
        return self.field.type if self.field is not None else None

    @property
    def signature(self) -> str:
        """``withController(controller)``; a helper's documented arguments with their defaults:
        ``new(name, replicas=1, containers, podLabels={})``."""
        if self.helper is not None:
            return self.helper.signature
        return f"{self.name}({self.arg})"

    @property
    def dotted(self) -> str:
        """``allocation.devices.withResults``: how it is called below ``k.<library path>``."""
        return ".".join((*self.path, self.name))

    @property
    def call(self) -> str:
        """``allocation.devices.withResults(results)``."""
        prefix = "".join(p + "." for p in self.path)
        return prefix + self.signature

    @property
    def title(self) -> str:
        """k8s-libsonnet's section title: ``fn allocation.devices.withResults``."""
        return f"fn {self.dotted}"


@dataclass(frozen=True, slots=True)
class BuilderObject:
    """One ``obj`` group (or the root): nested functions and objects, in index order."""

    name: str
    """Last path element (``devices``); empty for the root."""
    path: tuple[str, ...]
    """``("allocation", "devices")``; empty for the root."""
    anchor: str
    """``obj-allocationdevices``; empty for the root."""
    model: str
    """Definition name of the object's type."""
    members: tuple[BuilderFunction | BuilderObject, ...] = ()
    target: tuple[str, ...] = ()
    """JSON path of the object (real field names)."""
    field: Field | None = None
    """The field holding the object; ``None`` for the root."""
    owner: str = ""
    """Definition name of the model that has ``field``."""
    base: int = 0
    """``BuilderFunction.base`` of the functions inside (the length of ``target`` for an inline
    array item's ``obj``)."""
    item: bool = False
    """Its functions build one item of the array ``target`` (an inline array item's ``obj``)."""
    uid: int = dataclasses.field(default_factory=lambda: next(_SERIALS), init=False, compare=False,
                                 repr=False)
    """A number no other object of the process gets (``replace`` makes a new one): the key of
    memos of what is derived from this object (views, Jsonnet snippets), which must not use
    ``id()`` (reused once an object is freed)."""

    @property
    def dotted(self) -> str:
        return ".".join(self.path)

    @property
    def title(self) -> str:
        return f"obj {self.dotted}"

    @property
    def functions(self) -> tuple[BuilderFunction, ...]:
        return tuple(m for m in self.members if isinstance(m, BuilderFunction))

    @property
    def objects(self) -> tuple[BuilderObject, ...]:
        return tuple(m for m in self.members if isinstance(m, BuilderObject))


BuilderEntry = Union[BuilderFunction, BuilderObject]  # noqa: UP007 (a runtime alias on 3.10)


@dataclass(frozen=True)
class BuilderIndex:
    """All builder functions of one model (k8s-libsonnet's ``k.<library_path>``)."""

    model: str
    """Definition name."""
    library_path: str
    """``resource.v1alpha3.resourceClaimStatus``."""
    root: BuilderObject
    gvk: GroupVersionKind | None = None
    """For kinds: what ``new(name)`` writes into ``apiVersion``/``kind``."""
    crd: bool = False
    """A CRD version's kind: the library is the one k8s-gen generates from the CRDs
    (``libsonnet.crds``), not k8s-libsonnet."""
    _by_dotted: dict[str, BuilderFunction] = field(default_factory=dict, repr=False, compare=False)

    @property
    def call(self) -> str:
        """How a user reaches it: ``k.apps.v1.deployment`` (k8s-libsonnet imported as ``k``),
        ``crds.gateway.v1.httpRoute`` (a CRD library imported as ``crds``)."""
        return f"{CRD_ALIAS if self.crd else 'k'}.{self.library_path}"

    def entries(self) -> Iterator[tuple[int, BuilderEntry]]:
        """``(depth, entry)`` for every function and object, depth first in index order."""
        yield from _walk_members(self.root.members, 0)

    def functions(self) -> Iterator[BuilderFunction]:
        for _, entry in self.entries():
            if isinstance(entry, BuilderFunction):
                yield entry

    def objects(self) -> Iterator[BuilderObject]:
        for _, entry in self.entries():
            if isinstance(entry, BuilderObject):
                yield entry

    def function(self, dotted: str) -> BuilderFunction | None:
        """Lookup by dotted name: ``allocation.devices.withResults``."""
        if "." not in dotted:  # a function of the root (``new``): only the root's members are
            # looked at, without naming every function of a huge index (a CRD kind's: 40,000)
            return next((m for m in self.root.members
                         if isinstance(m, BuilderFunction) and m.name == dotted and not m.path), None)
        if not self._by_dotted:
            for fn in self.functions():
                self._by_dotted.setdefault(fn.dotted, fn)
        return self._by_dotted.get(dotted)

    def for_target(self, target: tuple[str, ...]) -> list[BuilderFunction]:
        """The functions setting JSON path ``target`` (``withX`` then ``withXMixin``)."""
        return [fn for fn in self.functions() if fn.target == tuple(target)]

    @cached_property
    def function_count(self) -> int:
        """How many builder functions the index holds (counted once: an index never changes)."""
        return sum(1 for _ in self.functions())

    def __len__(self) -> int:
        return self.function_count


def _walk_members(members: tuple[BuilderEntry, ...], depth: int) -> Iterator[tuple[int, BuilderEntry]]:
    """Depth first, with a stack of iterators: each entry is yielded once, not once per level
    above it (a chain of ``yield from``), whatever the depth."""
    stack = [iter(members)]
    while stack:
        for member in stack[-1]:
            yield depth + len(stack) - 1, member
            if isinstance(member, BuilderObject) and member.members:
                stack.append(iter(member.members))
                break
        else:
            stack.pop()


# -- names ------------------------------------------------------------------------------------

def _rune_class(char: str) -> int:
    if char.islower():
        return 1
    if char.isupper():
        return 2
    if char.isdigit():
        return 3
    return 4


@render_memo(4096)
def camel_lower(name: str) -> str:
    """k8s-libsonnet's key for a field: the first camel-case word lower-cased (``Port`` → ``port``,
    ``URLPath`` → ``urlPath``); most names are unchanged."""
    if name[:1].islower():
        return name  # the first word is lower case already
    runs: list[list[str]] = []
    last = 0
    for char in name:
        cls = _rune_class(char)
        if runs and cls == last:
            runs[-1].append(char)
        else:
            runs.append([char])
        last = cls
    for i in range(len(runs) - 1):
        if runs[i] and runs[i][0].isupper() and runs[i + 1][0].islower():
            runs[i + 1].insert(0, runs[i].pop())
    words = ["".join(r) for r in runs if r]
    if not words:
        return name
    return words[0].lower() + "".join(words[1:])


_ASCII_WORD_START = re.compile(r"(?<![0-9A-Za-z_])[a-z]")


def _go_title(text: str) -> str:
    """Go's ``strings.Title``: upper-case every letter that follows a separator."""
    if text.isascii():  # a separator is then any character but [0-9A-Za-z_]
        return _ASCII_WORD_START.sub(_upper, text)
    out = []
    prev = " "
    for char in text:
        out.append(char.upper() if _is_separator(prev) else char)
        prev = char
    return "".join(out)


def _upper(match: re.Match[str]) -> str:
    return match.group().upper()


def _is_separator(char: str) -> bool:
    if char.isascii():
        return not (char.isalnum() or char == "_")
    if char.isalpha() or char.isdigit():
        return False
    return char.isspace()


def title_name(key: str) -> str:
    """``x-kubernetes-foo`` → ``X-Kubernetes-Foo``; a leading ``-`` dropped, ``.`` → ``_``."""
    if key.startswith("-"):
        key = key[1:]
    return _go_title(key.replace(".", "_"))


@render_memo(4096)
def function_name(key: str) -> str:
    return "with" + title_name(key)


@render_memo(4096)
def argument_name(key: str) -> str:
    """``-``/``.`` → ``_``; ``error`` → ``err``; Jsonnet keywords capitalised (``local`` → ``Local``)."""
    arg = key.replace("-", "_").replace(".", "_")
    if arg == "error":
        return "err"
    if arg in JSONNET_KEYWORDS:
        return title_name(arg)
    return arg


@render_memo(8192)
def slug(text: str) -> str:
    """GitHub-style heading slug: lower-case, punctuation dropped, whitespace → ``-``.

    Characters that are not printable (controls) are dropped too, so the id is always safe."""
    lowered = _SLUG_DROP.sub("", text.lower())
    if _PLAIN_SLUG.fullmatch(lowered):
        return lowered.replace(" ", "-")
    return "".join("-" if c.isspace() else c for c in lowered
                   if c.isspace() or (c.isprintable() and unicodedata.category(c) != "Cf"))


class Slugger:
    """Unique slugs in document order: a repeated slug gets ``-1``, ``-2``… (github-slugger)."""

    def __init__(self) -> None:
        self.occurrences: dict[str, int] = {}

    def __call__(self, text: str) -> str:
        base = result = slug(text)
        while result in self.occurrences:
            self.occurrences[base] += 1
            result = f"{base}-{self.occurrences[base]}"
        self.occurrences[result] = 0
        return result


# -- selection --------------------------------------------------------------------------------

def library_path(name: str) -> str | None:
    """``io.k8s.api.core.v1.PodSpec`` → ``core.v1.podSpec``; ``None`` when not covered."""
    if not name.startswith(COVERED_PREFIXES):
        return None
    match = _DEFINITION.match(name)
    if match is None:
        return None
    group, version, kind = match.groups()
    return f"{group}.{version}.{camel_lower(kind)}"


def builder_gvk(model: Model) -> GroupVersionKind | None:
    """The GVK ``new(name)`` writes: the most specific declared one (k8s-libsonnet's choice)."""
    chosen: GroupVersionKind | None = None
    for gvk in model.gvks:
        if chosen is None or (not chosen.group and gvk.group):
            chosen = gvk
    return chosen


# -- building ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Planned:
    """One member of a model's level, independent of where the model is nested."""

    sort_key: tuple[bool, bool, str]
    field: Field
    key: str
    nested: str
    """Definition whose ``obj`` group this is; empty for functions."""
    names: tuple[tuple[str, str], ...] = ()
    """(function name, kind) pairs of a function member: withX, and withXMixin when it has one."""
    arg: str = ""
    item: bool = False
    """An inline array item's ``obj`` (beside the array's ``withX``/``withXMixin``)."""


class BuilderPlanner:
    """Builds the indexes of one ``ApiSpec``; remembers each model's level so shared subtrees
    (ObjectMeta, PodSpec…) are worked out once."""

    def __init__(self, api: ApiSpec) -> None:
        self.api = api
        self._levels: dict[tuple[str, bool], tuple[_Planned, ...]] = {}
        self._subtrees: dict[tuple[str, str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...], int],
                             BuilderObject] = {}
        self._reach: dict[str, frozenset[str]] = {}
        self._extra: dict[str, Model] = {}
        self._indexes: dict[str, BuilderIndex | None] = {}
        self._subtree_anchors: dict[int, tuple[str, ...]] = {}
        """``BuilderObject.uid`` → the anchors below it (``_anchors``)."""

    def _model(self, name: str) -> Model | None:
        """A model of the spec, or k8s-gen's ObjectMeta copy (``libsonnet.crds``)."""
        found = self.api.models.get(name)
        if found is None and name == GEN_OBJECT_META:
            found = self._extra.get(name)
            if found is None:
                found = self._extra[name] = gen_object_meta(self.api)
        return found

    def _inline(self, name: str) -> bool:
        """Whether ``name`` is an inline object (``Model.field_path``): one field's, never shared."""
        model = self._model(name)
        return model is not None and bool(model.field_path)

    def _reachable(self, name: str) -> frozenset[str]:
        """Definitions an ``obj`` group of ``name`` can lead to (itself included)."""
        found = self._reach.get(name)
        if found is None:
            seen, todo = {name}, [name]
            while todo:
                for item in self._level(todo.pop(), False):
                    if item.nested and item.nested not in seen:
                        seen.add(item.nested)
                        todo.append(item.nested)
            found = self._reach[name] = frozenset(seen)
        return found

    def index(self, model: Model) -> BuilderIndex | None:
        """The builder functions of ``model``; ``None`` when k8s-libsonnet has no section for it.
        Worked out once per model (the page section, the example and the search index ask)."""
        if model.name not in self._indexes or self.api.models.get(model.name) is not model:
            found = self._index(model)
            if self.api.models.get(model.name) is not model:
                return found
            self._indexes[model.name] = found
        return self._indexes[model.name]

    def _index(self, model: Model) -> BuilderIndex | None:
        if model.field_path:
            return None  # an inline object: part of its root's library object
        crd = model.crd is not None
        if crd:
            parts = crd_group_version_kind(model)
            path = f"{parts[0]}.{parts[1]}.{camel_lower(parts[2])}" if parts else None
        else:
            path = library_path(model.name)
        if path is None or model.is_list:
            return None
        # First with plain slugs and shared subtrees (ObjectMeta, PodSpec… recur on many pages);
        # only a page where two slugs collide is rebuilt with numbered ones (k8s-libsonnet's -1).
        members = self._members(model.name, (), (), (model.name,), None)
        anchors = self._anchors(members)
        if len(anchors) != len(set(anchors)):
            members = self._members(model.name, (), (), (model.name,), Slugger())
        helpers = () if crd else helpers_for(path, self.api.version)
        if helpers:
            members = _with_helpers(members, helpers)
            anchors = self._anchors(members)
            if len(anchors) != len(set(anchors)):
                members = _renumbered(members, Slugger())
        root = BuilderObject("", (), "", model.name, members)
        return BuilderIndex(model.name, path, root, builder_gvk(model) if model.is_kind else None,
                            crd=crd)

    def _anchors(self, members: tuple[BuilderEntry, ...]) -> list[str]:
        """Every anchor of ``members`` and below, depth first; a shared subtree's (ObjectMeta,
        PodSpec…: thousands of entries below some kinds) listed once per planner."""
        out: list[str] = []
        for entry in members:
            out.append(entry.anchor)
            if isinstance(entry, BuilderObject):
                inner = self._subtree_anchors.get(entry.uid)
                if inner is None:
                    inner = tuple(self._anchors(entry.members))
                    if not self._inline(entry.model):  # inline objects: not shared
                        self._subtree_anchors[entry.uid] = inner
                out += inner
        return out

    # -- one level ---------------------------------------------------------------------------
    def _expandable(self, t: TypeRef) -> str:
        """The definition an ``obj`` group would hold for type ``t`` (cycles checked later)."""
        if t.kind != "ref" or t.ref in NOT_EXPANDED:
            return ""
        target = self.api.models.get(t.ref)
        if target is None or target.shape != "object" or not target.fields:
            return ""
        return t.ref

    def _item_object(self, t: TypeRef) -> str:
        """The inline object (a nested model) whose ``obj`` builds one item of array type ``t``:
        k8s-gen gives inline items with properties an ``obj``, referenced ones none."""
        if t.kind != "array" or t.items is None:
            return ""
        nested = self._expandable(t.items)
        return nested if nested and self.api.models[nested].field_path else ""

    def _has_mixin(self, t: TypeRef) -> bool:
        """Arrays, maps and property-less objects (also through a ``$ref``) get a Mixin."""
        seen: set[str] = set()
        while t.kind == "ref" and t.ref not in seen:
            seen.add(t.ref)
            target = self.api.models.get(t.ref)
            if t.ref in NOT_EXPANDED or target is None or target.shape == "object":
                return False  # not expanded (or closing a cycle): like an unresolved $ref upstream
            if target.shape == "free-form":
                return True
            if target.scalar is None:
                return False
            t = target.scalar
        return t.kind in ("array", "map", "object", "any")

    def _function(self, f: Field, key: str) -> _Planned:
        name = function_name(key)
        names = ((name, WITH), (name + "Mixin", MIXIN)) if self._has_mixin(f.type) else ((name, WITH),)
        return _Planned((not name.startswith("new"), False, name), f, key, "", names, argument_name(key))

    def _level(self, name: str, root: bool) -> tuple[_Planned, ...]:
        cached = self._levels.get((name, root))
        if cached is not None:
            return cached
        model = self._model(name)
        assert model is not None
        kind = root and model.is_kind
        taken = {"new"} if kind else set()
        planned: list[_Planned] = []
        if root and model.crd is not None:
            # k8s-gen's own ObjectMeta, whatever the CRD's schema says about metadata
            meta = model.field("metadata") or Field("metadata", TypeRef("object"))
            planned.append(_Planned((True, True, "metadata"), meta, "metadata", GEN_OBJECT_META))
            taken.add("metadata")
        for f in model.fields:
            if f.name == "status" or (root and f.name == "apiVersion") or (kind and f.name == "kind"):
                continue
            if f.name == "metadata" and "metadata" in taken:
                continue
            key = camel_lower(f.name)
            nested = self._expandable(f.type)
            item = (_Planned((not key.startswith("new"), True, key), f, key, nested) if nested
                    else self._function(f, key))
            label = key if nested else item.names[0][0]
            if label in taken:
                continue  # two fields with the same k8s-libsonnet name: the first one wins
            taken.add(label)
            planned.append(item)
            inline = "" if nested else self._item_object(f.type)
            if inline and key not in taken:
                taken.add(key)
                planned.append(_Planned((not key.startswith("new"), True, key), f, key, inline, item=True))
        planned.sort(key=lambda item: item.sort_key)
        level = tuple(planned)
        if not model.field_path:  # an inline object's level is planned for its one index only
            self._levels[(name, root)] = level
        return level

    # -- instances (path-dependent: anchors, dotted names, JSON targets) -----------------------
    def _object(self, item: _Planned, owner: str, path: tuple[str, ...], target: tuple[str, ...],
                stack: tuple[str, ...], slugger: Slugger | None, base: int = 0) -> BuilderObject:
        sub_path, sub_target = (*path, item.key), (*target, item.field.name)
        if item.item:
            base = len(sub_target)  # the functions inside build one item
        # An inline object (a CRD's nested schema) is under one field of one definition: never
        # shared, so neither memoized nor keyed by what it can reach.
        shared = slugger is None and not self._inline(item.nested)
        key: tuple[Any, ...] = ()
        if shared:
            reach = self._reachable(item.nested)
            # the object carries the field it stands for and its owner (its entry's description
            # and link): shared only between pages that reach it through the same field
            key = (item.nested, owner, item.field.name, sub_path, sub_target,
                   tuple(m for m in stack if m in reach), base)
            if key in self._subtrees:
                return self._subtrees[key]
        anchor = (slugger or slug)("obj " + ".".join(sub_path))
        members = self._members(item.nested, sub_path, sub_target, (*stack, item.nested), slugger, base)
        obj = BuilderObject(item.key, sub_path, anchor, item.nested, members, sub_target, item.field, owner,
                            base, item.item)
        if shared:
            self._subtrees[key] = obj
        return obj

    def _members(self, name: str, path: tuple[str, ...], target: tuple[str, ...],
                 stack: tuple[str, ...], slugger: Slugger | None, base: int = 0) -> tuple[BuilderEntry, ...]:
        """Members of one level; ``slugger`` None: plain slugs, subtrees shared."""
        slugs: Callable[[str], str] = slugger or slug
        out: list[BuilderEntry] = []
        prefix = "fn " + "".join(p + "." for p in path)
        model = self._model(name)
        assert model is not None
        if not path and model.is_kind:
            out.append(BuilderFunction("new", NEW, "name", path, slugs(prefix + "new")))
        level = self._level(name, not path)
        if any(item.nested in stack for item in level if item.nested):
            level = _resorted(level, stack)  # a cycle turns an obj into a function: re-sort
        for item in level:
            if item.nested and item.nested not in stack:
                numbered = slugger if isinstance(slugger, Slugger) else None
                out.append(self._object(item, name, path, target, stack, numbered, base))
                continue
            if item.item:
                continue  # an inline item closing a cycle: the array's withX is there already
            names = item.names or ((function_name(item.key), WITH),)  # a cycle: withX only
            arg = item.arg or argument_name(item.key)
            here = (*target, item.field.name)
            for fn_name, kind in names:
                out.append(BuilderFunction(fn_name, kind, arg, path, slugs(prefix + fn_name), here,
                                           item.field, name, base=base))
        return tuple(out)


def _index_order(entry: BuilderEntry) -> tuple[bool, bool, str]:
    """k8s-libsonnet's (docsonnet's) order: names starting with ``new`` first, then functions,
    then objects; byte order within."""
    return (not entry.name.lower().startswith("new"), isinstance(entry, BuilderObject), entry.name)


def _with_helpers(members: tuple[BuilderEntry, ...], helpers: tuple[Helper, ...],
                  depth: int = 0) -> tuple[BuilderEntry, ...]:
    """``members`` with the hand-written helpers of their level (and, through the ``obj`` groups
    they name, of nested levels) merged in index order; a helper replaces the generated function
    of the same name (``new``). Shared subtrees are copied, never changed."""
    here = [h for h in helpers if len(h.path) == depth]
    deeper = [h for h in helpers if len(h.path) > depth]
    if not here and not deeper:
        return members
    names = {h.name for h in here}
    out: list[BuilderEntry] = []
    for entry in members:
        if isinstance(entry, BuilderObject):
            inner = [h for h in deeper if h.path[depth] == entry.name]
            if inner:
                entry = replace(entry, members=_with_helpers(entry.members, tuple(inner), depth + 1))
        elif entry.name in names:
            continue
        out.append(entry)
    for h in here:
        prefix = "".join(p + "." for p in h.path)
        out.append(BuilderFunction(h.name, HELPER, ", ".join(a.name for a in h.args), h.path,
                                   slug(f"fn {prefix}{h.name}"), helper=h))
    out.sort(key=_index_order)
    return tuple(out)


def _renumbered(members: tuple[BuilderEntry, ...], slugger: Slugger) -> tuple[BuilderEntry, ...]:
    """The same entries with anchors numbered in page order (k8s-libsonnet's ``-1``…)."""
    out: list[BuilderEntry] = []
    for entry in members:
        if isinstance(entry, BuilderObject):
            anchor = slugger(entry.title)
            out.append(replace(entry, anchor=anchor, members=_renumbered(entry.members, slugger)))
        else:
            out.append(replace(entry, anchor=slugger(entry.title)))
    return tuple(out)


def _resorted(level: tuple[_Planned, ...], stack: tuple[str, ...]) -> tuple[_Planned, ...]:
    def key(item: _Planned) -> tuple[bool, bool, str]:
        if item.nested and item.nested in stack:
            name = function_name(item.key)
            return (not name.startswith("new"), False, name)
        return item.sort_key

    return tuple(sorted(level, key=key))


_PLANNERS: list[BuilderPlanner] = []


def planner_for(api: ApiSpec) -> BuilderPlanner:
    """A shared planner for ``api`` (the last few are kept)."""
    for planner in _PLANNERS:
        if planner.api is api:
            return planner
    planner = BuilderPlanner(api)
    _PLANNERS.insert(0, planner)
    del _PLANNERS[4:]
    return planner


def builder_index(model: Model, api: ApiSpec) -> BuilderIndex | None:
    """The builder functions of ``model``; ``None`` when k8s-libsonnet has no section for it."""
    return planner_for(api).index(model)


def helper_objects(api: ApiSpec) -> dict[str, tuple[str, str]]:
    """k8s-libsonnet objects made only of hand-written helpers, no definition of ``api`` having
    their path (``core.v1.list``: ``list.new(items)`` builds a ``v1`` ``List``), each with the
    group and API version of ``api`` whose pages it sits beside (``("core", "v1")``); only
    objects of a group/version ``api`` has. Sorted by path."""
    covered: set[str] = set()
    beside: dict[str, tuple[str, str]] = {}
    for name in sorted(api.models):
        path = library_path(name)
        if path is None:
            continue
        covered.add(path)
        model = api.models[name]
        beside.setdefault(path.rsplit(".", 1)[0], (model.group, model.api_version))
    return {path: beside[path.rsplit(".", 1)[0]] for path in library_paths(api.version)
            if path not in covered and path.rsplit(".", 1)[0] in beside}


def helper_index(path: str, version: str) -> BuilderIndex | None:
    """The index of a helper-only library object (``helper_objects``): its helpers in index
    order with the library's anchors (``fn-new``); ``None`` when it has none in ``version``."""
    helpers = helpers_for(path, version)
    if not helpers:
        return None
    members = _with_helpers((), helpers)
    anchors = [entry.anchor for _, entry in _walk_members(members, 0)]
    if len(anchors) != len(set(anchors)):
        members = _renumbered(members, Slugger())
    return BuilderIndex("", path, BuilderObject("", (), "", "", members))
