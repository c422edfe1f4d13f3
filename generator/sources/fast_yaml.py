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
from generator.sources.reader import MAX_DATA_DEPTH
from generator.sources.yaml_loaders import StrictYamlLoader as _StrictYamlLoader
from generator.sources.yaml_rules import NotJson, json_key, json_value, resolve_plain, resolve_tagged

_CACHED = 4096
"""Plain scalars whose values ``_plain`` remembers (short ones: ``object``, ``string``, ``true``)."""
_values: dict[str, Any] = {}


def _plain(text: str) -> Any:
    """``yaml_rules.resolve_plain``, remembering the values of short plain scalars."""
    try:
        return _values[text]
    except KeyError:
        value = resolve_plain(text)
        if len(text) <= 32 and len(_values) < _CACHED:
            _values[text] = value
        return value


_Events: type = _StrictYamlLoader
if getattr(yaml, "__with_libyaml__", False):
    _Events = yaml.CSafeLoader  # type: ignore[attr-defined]  # only its parser's events are used


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
    get_event = loader.get_event
    scalar_event, mapping_start = yaml.ScalarEvent, yaml.MappingStartEvent
    sequence_start = yaml.SequenceStartEvent
    key, limit = _KEY, MAX_DATA_DEPTH + 1
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
            try:
                if tag is None or tag == "!":
                    text = event.value
                    if not event.implicit[0]:
                        value = text
                    elif type(frame[0]) is dict and frame[1] is key:  # a key: its raw float
                        if text == "<<":
                            raise _Unsupported  # a merge key
                        value = resolve_plain(text, raw=True)
                    else:
                        value = _plain(text)
                else:
                    value = resolve_tagged(tag, event.value)
                    if type(value) is float and not (type(frame[0]) is dict and frame[1] is key):
                        value = json_value(value)
            except NotJson as exc:
                mark = event.start_mark
                raise SpecError(f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: "
                                f"{exc}", Location(origin)) from None
            if type(value) is str and "{{" in value:
                braces = True
            container = frame[0]
            if type(container) is dict:
                if frame[1] is key:  # a mapping key
                    frame[1] = value if type(value) is str else _key(value, event, origin)
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
            mapping = kind is mapping_start  # a tag on it is ignored, as go-yaml v2 does
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


def _key(value: Any, event: Any, origin: str) -> str:
    """A key that is not a string, as kubectl makes it one (``yaml_rules.json_key``)."""
    try:
        return json_key(value)
    except ValueError as exc:
        mark = event.start_mark
        raise SpecError(f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: {exc}",
                        Location(origin)) from None


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
