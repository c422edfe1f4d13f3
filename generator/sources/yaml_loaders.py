"""The PyYAML loaders: scalars read as kubectl reads them (``yaml_rules``: the same table
``fast_yaml`` uses). One rule table, four readers, each for a reason:

- ``fast_yaml.load_documents``: every CRD file and manifest document (JSON data straight from
  libyaml's events; aliases and merge keys as go-yaml v2 applies them);
- ``FastLoader``: ``manifests`` composes nodes with it, for the line of every key (``scan``);
  ``crd`` falls back to it for an event ``fast_yaml`` does not know;
- ``StrictYamlLoader``: a YAML spec (``reader.parse_document``), aliases refused while parsing;
- ``FirstErrorLoader``: only after a failure, to name the first offending line in text order.

A module of its own so that ``reader`` and ``crd`` import PyYAML only when a YAML document is
read: loading JSON sources (every ``diff`` of bundled releases) does not pay for its import.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

import yaml

from generator.sources.yaml_rules import (
    MERGE,
    PLAIN,
    STR,
    NotJson,
    json_key,
    resolve_plain,
    resolve_tagged,
)

_CORE = "tag:yaml.org,2002:"


class _KubectlScalars:
    """PyYAML resolver and constructor hooks: every plain scalar gets the ``PLAIN`` tag, whose
    constructor is ``yaml_rules.resolve_plain`` (floats raw: ``reader.plain_json_data`` applies
    ``yaml_rules.json_value``); a plain ``<<`` gets the merge tag, which PyYAML's
    ``flatten_mapping`` merges as a key and which is the string ``<<`` as a value; tags
    go-yaml v2 ignores are ignored."""

    def resolve(self, kind: Any, value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            if implicit[0]:
                return MERGE if value == "<<" else PLAIN
            return STR
        return yaml.resolver.BaseResolver.resolve(self, kind, value, implicit)  # type: ignore[arg-type]

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Hashable, Any]:
        """Keys made strings as kubectl makes them (``yaml_rules.json_key``: ``1.0`` → ``1``,
        ``true``; a null key refused), before they can clash in a Python dict (1.0 == True)."""
        self.flatten_mapping(node)  # type: ignore[attr-defined]
        mapping: dict[Hashable, Any] = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[attr-defined]
            if type(key) is not str:
                try:
                    key = json_key(key)
                except ValueError as exc:
                    raise yaml.constructor.ConstructorError(
                        problem=str(exc), problem_mark=key_node.start_mark) from None
            mapping[key] = self.construct_object(value_node, deep=deep)  # type: ignore[attr-defined]
        return mapping


def _scalar(loader: Any, node: Any, value: Any) -> Any:
    try:
        return value(node)
    except NotJson as exc:
        raise yaml.constructor.ConstructorError(problem=str(exc), problem_mark=node.start_mark) from None


def _construct_plain(loader: Any, node: Any) -> Any:
    return _scalar(loader, node, lambda n: resolve_plain(n.value, raw=True))


def _construct_tagged(loader: Any, node: Any) -> Iterator[Any]:
    """Any explicit tag: a scalar by ``yaml_rules.resolve_tagged``, a collection as if untagged."""
    if isinstance(node, yaml.ScalarNode):
        yield _scalar(loader, node, lambda n: resolve_tagged(n.tag, n.value))
    elif isinstance(node, yaml.SequenceNode):
        items: list[Any] = []
        yield items
        items.extend(loader.construct_sequence(node))
    else:
        data: dict[Any, Any] = {}
        yield data
        data.update(loader.construct_mapping(node))


class StrictYamlLoader(_KubectlScalars, yaml.SafeLoader):
    """Safe YAML without aliases (no "billion laughs"), scalars as kubectl reads them."""

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.MarkedYAMLError(problem="YAML aliases (*name) are not supported",
                                       problem_mark=mark)
        return super().compose_node(parent, index)


StrictYamlLoader.yaml_constructors = {
    **{tag: constructor for tag, constructor in yaml.SafeLoader.yaml_constructors.items()
       if tag in (f"{_CORE}map", f"{_CORE}seq", f"{_CORE}str")},
    PLAIN: _construct_plain,
    MERGE: lambda loader, node: node.value,
    None: _construct_tagged,
}
for _name in ("int", "float", "bool", "null", "timestamp", "binary", "set", "omap", "pairs"):
    StrictYamlLoader.add_constructor(f"{_CORE}{_name}", _construct_tagged)

class FirstErrorLoader(StrictYamlLoader):
    """The strict loader constructing in document order (depth first), so that its error is
    the first offending place of the text: PyYAML's own order is breadth first (a mapping's
    values after every sibling), which named a shallow value at line 12219 before a deeper one
    at line 82. Deeper recursion: for error messages only."""

    compose_node = yaml.composer.Composer.compose_node  # aliases too: the error may be elsewhere

    def construct_document(self, node: Any) -> Any:
        data = self.construct_object(node, deep=True)
        self.constructed_objects, self.recursive_objects = {}, {}
        return data


FastLoader: type = StrictYamlLoader
"""libyaml when PyYAML has it, with the strict loader's rules; it cannot refuse aliases while
parsing, so its callers check for them afterwards (``crd._has_aliases``)."""
if getattr(yaml, "__with_libyaml__", False):
    class _CStrictLoader(_KubectlScalars, yaml.CSafeLoader):  # type: ignore[name-defined,misc]
        """libyaml (much faster on CRD sets) with the strict loader's rules; aliases are refused
        after loading (``crd._has_aliases``: they come back as shared objects)."""

    _CStrictLoader.yaml_constructors = StrictYamlLoader.yaml_constructors
    FastLoader = _CStrictLoader
