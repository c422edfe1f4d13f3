"""Fast strict YAML: JSON data built straight from libyaml's parser events.

PyYAML's composer and constructor (even under ``CSafeLoader``) are Python code that make a node
object per value and then visit every node several times; on a 5 MB CRD set they were most of
the load time, followed by the walks that then refuse aliases and check the data
(``reader._json_data``). Here the data is built straight from libyaml's events, in one pass,
with the same rules as the strict loader (``yaml_loaders.StrictYamlLoader``):

- no aliases (no "billion laughs");
- only the strict loader's scalar tags (str, null, bool, int, float; no timestamp, binary…);
- nesting deeper than ``reader.MAX_DATA_DEPTH`` is refused, naming the JSON pointer;
- keys become strings as ``reader._key`` makes them; a repeated key keeps its first place and its
  last value, as PyYAML does.

Anything else (an alias, a merge key ``<<``, an explicit tag, a complex key) returns ``None``:
the caller then loads the text the slow way, whose error messages are the documented ones.
Without libyaml the pure-Python parser of the strict loader gives the events (same results,
slower).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import yaml

from generator.errors import Location, SpecError, pointer
from generator.sources.reader import MAX_DATA_DEPTH, _key
from generator.sources.yaml_loaders import StrictYamlLoader as _StrictYamlLoader

_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SCALARS = {tag: _StrictYamlLoader.yaml_constructors[tag] for tag in (
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float")}
"""Scalar tags besides ``str`` the strict loader constructs, with its constructors."""

_CACHED = 4096
"""Plain scalars whose tags ``_resolve`` remembers (short ones: ``object``, ``string``, ``true``)."""
_tags: dict[str, str] = {}


def _resolve(self: Any, kind: Any, value: str, implicit: tuple[bool, bool]) -> str:
    """``Resolver.resolve`` without path resolvers (none are registered), remembering the tags
    of short plain scalars: ``_document`` asks once per scalar."""
    if kind is yaml.ScalarNode:
        if not implicit[0]:
            return _STR
        tag = _tags.get(value)
        if tag is None:
            tag = yaml.resolver.BaseResolver.resolve(self, kind, value, implicit)
            if len(value) <= 32 and len(_tags) < _CACHED:
                _tags[value] = tag
        return tag
    return _MAP if kind is yaml.MappingNode else _SEQ


_Events: type = _StrictYamlLoader
if getattr(yaml, "__with_libyaml__", False):
    class _CEvents(yaml.CSafeLoader):  # type: ignore[name-defined,misc]
        """libyaml with the strict loader's implicit tags (no timestamps), resolved faster."""

        resolve = _resolve

    _CEvents.yaml_implicit_resolvers = _StrictYamlLoader.yaml_implicit_resolvers
    _Events = _CEvents


class _Unsupported(Exception):
    """Something only the full constructor handles (or refuses with its own message)."""


def load_documents(text: str, origin: str) -> tuple[list[Any], bool] | None:
    """The non-empty documents of a YAML stream as JSON data, and whether any string (key or
    value) holds ``{{``; ``None`` when the text needs the full loader (see the module docstring).
    Raises ``yaml.YAMLError`` on a syntax error and ``SpecError`` on nesting too deep."""
    loader = _Events(text)
    try:
        documents: list[Any] = []
        braces = False
        loader.get_event()  # stream start
        while not loader.check_event(yaml.StreamEndEvent):
            loader.get_event()  # document start
            value, found = _document(loader, origin)
            loader.get_event()  # document end
            braces = braces or found
            if value is not None:
                documents.append(value)
        return documents, braces
    except _Unsupported:
        return None
    finally:
        loader.dispose()


_END = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _document(loader: Any, origin: str) -> tuple[Any, bool]:
    """One document's data, built from the parser's events (no node objects)."""
    root: list[Any] = []
    # frames: [container, key of the next value (mappings; _KEY: a key comes next)]
    frames: list[list[Any]] = [[root, None]]
    braces = False
    resolve, get_event = loader.resolve, loader.get_event
    scalar_event, mapping_start = yaml.ScalarEvent, yaml.MappingStartEvent
    sequence_start = yaml.SequenceStartEvent
    scalar_node, key, limit, tags = yaml.ScalarNode, _KEY, MAX_DATA_DEPTH + 1, _tags
    while True:
        event = get_event()
        kind = type(event)
        if kind is not scalar_event and kind in _END:
            frames.pop()
            if len(frames) == 1:
                break
            continue
        frame = frames[-1]
        if kind is scalar_event:
            tag = event.tag
            if tag is None or tag == "!":
                implicit = event.implicit
                tag = (tags.get(event.value) or resolve(scalar_node, event.value, implicit)
                       if implicit[0] else _STR)
            if tag == _STR:
                value = event.value
                if "{{" in value:
                    braces = True
            elif tag in _SCALARS:
                value = _SCALARS[tag](loader, scalar_node(tag, event.value, style=event.style))
            else:
                raise _Unsupported  # an explicit tag the strict loader refuses
            container = frame[0]
            if type(container) is dict:
                if frame[1] is key:  # a mapping key
                    frame[1] = value if type(value) is str else _key(value, origin, _at(frames, None))
                    continue
                if len(frames) > limit:
                    _too_deep(frames, origin)
                container[frame[1]] = value  # a repeated key: first place, last value (as PyYAML)
                frame[1] = key
            else:
                if len(frames) > limit:
                    _too_deep(frames, origin)
                container.append(value)
                if len(frames) == 1:
                    break
        elif kind is mapping_start or kind is sequence_start:
            mapping = kind is mapping_start
            tag = event.tag
            if tag is not None and tag != "!" and tag != (_MAP if mapping else _SEQ):
                raise _Unsupported
            if frame[1] is key:
                raise _Unsupported  # a complex key
            if len(frames) > limit:
                _too_deep(frames, origin)
            value = {} if mapping else []
            container = frame[0]
            if type(container) is dict:
                container[frame[1]] = value  # a repeated key: first place, last value (as PyYAML)
                frame[1] = key
            else:
                container.append(value)
            frames.append([value, key if mapping else None])
        else:
            raise _Unsupported  # an alias
    return (root[0] if root else None), braces


_KEY = object()


def _at(frames: list[list[Any]], last: Any) -> str:
    """JSON pointer of the container of the innermost frame (``last``: and then this token)."""
    tokens = []
    for parent, child in pairwise(frames):
        container = parent[0]
        if type(container) is dict:
            tokens.append(next(k for k, v in reversed(container.items()) if v is child[0]))
        elif container is not frames[0][0]:
            tokens.append(len(container) - 1)
    if last is not None:
        tokens.append(last)
    return "".join(pointer(t) for t in tokens)


def _too_deep(frames: list[list[Any]], origin: str) -> None:
    frame = frames[-1]
    token = frame[1] if type(frame[0]) is dict else len(frame[0])
    raise SpecError(f"document nested deeper than {MAX_DATA_DEPTH} levels",
                    Location(origin, _at(frames, token)))
