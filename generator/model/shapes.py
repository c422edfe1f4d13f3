"""Inline objects that have the shape of a release's own definition.

CRDs cannot refer to Kubernetes' types: generators copy them inline (cert-manager's pod template
holds a whole ``Affinity``, ``Toleration``s, a ``PodSecurityContext``…). A nested object (a CRD's
inline schema, ``Model.field_path``) has the *same shape* as a definition when both have the same
property names with the same types, recursively: nested objects against the definitions they
stand for, scalars by their JSON type (``Time`` is a ``string``; ``Quantity`` and
``IntOrString`` are what a CRD spells ``x-kubernetes-int-or-string``), free-form objects alike.
Descriptions, required lists, defaults, formats and validations do not count: they are the CRD's
own and its page keeps showing them.

A match is kept only when it says something: the shape has at least ``MIN_PROPERTIES``
properties counted at every depth (``{name}`` never matches ``LocalObjectReference``, nor
``{limits, requests}`` ``VolumeResourceRequirements``) and ``MIN_TOP_PROPERTIES`` of its own, and
exactly one definition of the release has it. When several do, those that also require the same
properties are kept (a CRD's ``conditions[]`` copies meta/v1 ``Condition``, which requires
``lastTransitionTime``; ``StorageVersionCondition`` has the same fields but does not); still several, none
is named (``SecretKeySelector`` and ``ConfigMapKeySelector`` are both ``{key, name, optional}``).
Candidates are the release's definitions that are objects and not CRD kinds.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from generator.model.types import Model, TypeRef

MIN_PROPERTIES = 4
"""Fewest properties (at every depth) a shape needs to be named after a definition."""
MIN_TOP_PROPERTIES = 2
"""Fewest properties of its own: an object of one property is a wrapper whose shape is that
property's type (matched on its own), not a type worth naming (``{conditions}`` is not
``ServiceCIDRStatus``)."""
_UNMATCHABLE = 10**9
"""Size of a shape that is recursive (only definitions are; inline objects never match them)."""


class _Shapes:
    """Shape keys of models: equal keys, equal shapes. Keys are interned as small integers."""

    def __init__(self, models: Mapping[str, Model]) -> None:
        self.models = models
        self.ids: dict[Hashable, int] = {}
        self.keys: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        self._open: set[str] = set()

    def _intern(self, key: Hashable) -> int:
        return self.ids.setdefault(key, len(self.ids))

    def type_key(self, t: TypeRef) -> Hashable:
        if t.kind in ("array", "map"):
            return (t.kind, self.type_key(t.items) if t.items is not None else ("object",))
        if t.kind in ("int-or-string", "quantity"):
            return ("int-or-string",)
        if t.kind == "primitive":
            return ("primitive", t.type)
        if t.kind == "ref":
            target = self.models.get(t.ref)
            if target is None:
                return ("unknown", t.ref)
            if target.shape == "object":
                return ("object", self.key(target.name))
            if target.shape == "scalar" and target.scalar is not None and t.ref not in self._open:
                self._open.add(t.ref)
                try:
                    return self.type_key(target.scalar)
                finally:
                    self._open.discard(t.ref)
            return ("free-form",)
        if t.kind == "object":
            return ("free-form",)
        return ("unknown", t.ref)

    def key(self, name: str) -> int:
        """The shape key of object model ``name`` (a recursive definition gets a key no inline
        object can have)."""
        found = self.keys.get(name)
        if found is not None:
            return found
        if name in self._open:
            return self._intern(("recursive", name))
        self._open.add(name)
        try:
            model = self.models[name]
            key = self._intern(tuple(sorted((f.name, self.type_key(f.type)) for f in model.fields)))
        finally:
            self._open.discard(name)
        self.keys[name] = key
        return key

    def size(self, name: str) -> int:
        """Properties of model ``name`` at every depth."""
        found = self.sizes.get(name)
        if found is not None:
            return found
        self.sizes[name] = _UNMATCHABLE  # until known: a cycle through here is unmatchable
        total = 0
        for f in self.models[name].fields:
            total += 1
            target = self.models.get(f.type.referenced())
            if target is not None and target.shape == "object":
                total += self.size(target.name)
        self.sizes[name] = min(total, _UNMATCHABLE)
        return self.sizes[name]


def _required(model: Model) -> frozenset[str]:
    return frozenset(f.name for f in model.fields if f.required)


def same_shapes(models: Mapping[str, Model], min_properties: int = MIN_PROPERTIES) -> dict[str, str]:
    """Nested object → the one definition of ``models`` with its shape (see the module
    docstring); nested objects without such a definition are left out."""
    nested = [m for m in models.values() if m.field_path and m.shape == "object"
              and len(m.fields) >= MIN_TOP_PROPERTIES]
    if not nested:
        return {}
    shapes = _Shapes(models)
    candidates: dict[int, list[Model]] = {}
    for model in models.values():
        if not model.field_path and model.crd is None and model.shape == "object":
            candidates.setdefault(shapes.key(model.name), []).append(model)
    out = {}
    for model in nested:
        found = candidates.get(shapes.key(model.name), [])
        if len(found) > 1:  # the same names and types: the same required ones too?
            found = [c for c in found if _required(c) == _required(model)]
        if len(found) == 1 and shapes.size(model.name) >= min_properties:
            out[model.name] = found[0].name
    return out
