"""Nested objects that repeat, exactly, an earlier one of the same tree.

CRD generators inline every type where it is used, so one CRD can hold the same subtree many
times: a pod template's ``containers[]`` and ``initContainers[]``, a ``PersistentVolumeClaim``
spec under ``storage`` and again under every ephemeral volume. A nested object (``Model.field_path``)
*repeats* an earlier one when everything its page would show is the same, at every depth: its
description and rules, each field's name, description, type, required flag, enum, default,
constraints, list and map facts, item facts and alternatives, and the same for the objects under
it (found at the same relative paths). Only the definition pointers (where in the file) differ.

"Earlier" is the order the page shows nested objects: depth first, in the parent's field order.
A repeat is kept only when it is worth a reference (``MIN_PROPERTIES`` properties at every
depth); objects under a repeat are not compared again (they are shown once, under the first).
Pure: models in, ``{repeat's name: first's name}`` out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import fields, replace
from operator import attrgetter

from generator.model.types import NESTED_SEPARATOR, Field, Model, TypeRef

MIN_PROPERTIES = 4
"""Fewest properties (counted at every depth) a subtree needs to be shown once and referenced."""

_FIELD_GETTER = attrgetter(*(f.name for f in fields(Field) if f.name not in ("name", "type")))


def repeated_subtrees(models: Mapping[str, Model]) -> dict[str, str]:
    """Each nested object that repeats an earlier one of its tree, mapped to that first one."""
    children: dict[str, list[Model]] = {}
    for model in models.values():
        if model.field_path and model.parent in models:
            children.setdefault(model.parent, []).append(model)
    keys = _Keys(models, children)
    out: dict[str, str] = {}
    for root in sorted({m.root for m in models.values() if m.field_path and m.root in models}):
        first: dict[Hashable, str] = {}
        stack = list(reversed(ordered_children(models[root], children.get(root, []))))
        while stack:
            model = stack.pop()
            key, size = keys.of(model)
            if size >= MIN_PROPERTIES:
                earlier = first.setdefault(key, model.name)
                if earlier != model.name:
                    out[model.name] = earlier
                    continue  # what is under a repeat is shown under the first one
            stack.extend(reversed(ordered_children(model, children.get(model.name, []))))
    return out


def mark_repeats(models: dict[str, Model]) -> None:
    """Set ``Model.same_as`` of every repeat in ``models`` (in place)."""
    for name, first in repeated_subtrees(models).items():
        models[name] = replace(models[name], same_as=first)


def shown_under(models: Mapping[str, Model], name: str) -> str:
    """The nested object whose section shows the fields of ``name``: ``name`` itself, or, for a
    repeat or an object under one, the object at the same place under the one it repeats."""
    for _ in range(64):  # a first's subtree can hold a repeat of an earlier one: a few steps
        model = models.get(name)
        rest, current = "", model
        while current is not None and current.field_path and not current.same_as:
            parent = models.get(current.parent)
            if parent is None:
                return name
            rest = current.field_path[len(parent.field_path):] + rest
            current = parent
        if current is None or not current.same_as:
            return name
        first = models[current.same_as]
        name = f"{first.root}{NESTED_SEPARATOR}{first.field_path}{rest}"
    return name


def ordered_children(parent: Model, children: list[Model]) -> list[Model]:
    """Nested objects one level under ``parent`` in the order of its fields (then by path)."""
    if len(children) < 2:
        return list(children)
    order = {f.name: i for i, f in enumerate(parent.fields)}
    prefix = parent.field_path + "." if parent.field_path else ""

    def key(child: Model) -> tuple[int, str]:
        rest = child.field_path[len(prefix):] if child.field_path.startswith(prefix) else child.field_path
        head = rest.split("[", 1)[0].split("{", 1)[0]
        return order.get(head, len(order)), child.field_path

    return sorted(children, key=key)


class _Keys:
    """Content keys of nested objects: equal keys, equal pages. Interned as small integers."""

    def __init__(self, models: Mapping[str, Model], children: Mapping[str, list[Model]]) -> None:
        self.models = models
        self.children = children
        self.ids: dict[Hashable, int] = {}
        self.done: dict[str, tuple[int, int]] = {}

    def of(self, model: Model) -> tuple[int, int]:
        """``(key, properties at every depth)`` of nested object ``model``."""
        found = self.done.get(model.name)
        if found is not None:
            return found
        size = len(model.fields)
        parts: list[Hashable] = [model.description, model.validations, model.shape, model.same_shape]
        for f in model.fields:
            parts.append((f.name, self._type(f.type, model), _facts(f)))
        for child in self.children.get(model.name, ()):
            key, under = self.of(child)
            parts.append((_relative(child, model), key))
            size += under
        interned = self.ids.setdefault(tuple(parts), len(self.ids))
        self.done[model.name] = (interned, size)
        return interned, size

    def _type(self, t: TypeRef, owner: Model) -> Hashable:
        """A field's type with nested objects named by their path below ``owner``."""
        items = self._type(t.items, owner) if t.items is not None else None
        ref: Hashable = t.ref
        target = self.models.get(t.ref) if t.ref else None
        if target is not None and target.field_path and target.parent == owner.name:
            ref = ("nested", _relative(target, owner))
        return (t.kind, t.type, t.format, items, ref)


def _relative(child: Model, parent: Model) -> str:
    return child.field_path[len(parent.field_path):] if parent.field_path else child.field_path


def _facts(f: Field) -> str:
    """Everything of a field but its name and type, spelled exactly (``repr`` tells
    ``1`` from ``1.0`` and ``True``, as the page does)."""
    return repr(_FIELD_GETTER(f))
