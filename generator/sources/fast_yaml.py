"""Fast YAML: JSON data built straight from libyaml's parser events, as kubectl reads it.

PyYAML's composer and constructor (even under ``CSafeLoader``) are Python code that make a node
object per value and then visit every node several times; on a large CRD set they were most of
the load time. Here the data is built straight from libyaml's events, in one pass, with
kubectl's rules (go-yaml v2, then ``encoding/json``):

- scalars resolve by ``yaml_rules`` (the table PyYAML's constructor in ``yaml_loaders`` uses too);
- keys become strings as ``yaml_rules.json_key`` makes them; a repeated key keeps its first place
  and its last value; a mapping or sequence as a key is refused (kubectl: invalid map key);
- aliases are expanded (copies) within go-yaml v2's alias ratio (``allowed_alias_ratio``: no
  "billion laughs"); merge keys ``<<`` are applied where they stand, as go-yaml v2 does;
- tags on mappings and sequences are ignored, as go-yaml v2 ignores them;
- nesting deeper than ``reader.MAX_DATA_DEPTH`` is refused, naming the JSON pointer.

Errors name the line of the first offending event. Without libyaml the pure-Python parser of
the strict loader gives the events (same results, slower).
"""

from __future__ import annotations

import copy
from itertools import pairwise
from typing import Any, NoReturn

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
_MERGE = object()
"""The key of a frame whose next value is merged into its mapping (a plain ``<<`` key)."""


def allowed_alias_ratio(decoded: int) -> float:
    """go-yaml v2's ``allowedAliasRatio``: the share of decoded values aliases may make, 99 % up
    to 400,000 values, down to 10 % at 4,000,000 (``decode.go``)."""
    if decoded <= 400_000:
        return 0.99
    if decoded >= 4_000_000:
        return 0.10
    return 0.99 - 0.89 * (decoded - 400_000) / 3_600_000


def _document(loader: Any, origin: str) -> tuple[Any, bool]:
    """One document's data, built from the parser's events (no node objects). Aliases are
    expanded (copies) and merge keys applied as go-yaml v2 does: a ``<<`` value (a mapping, an
    alias of one, or a sequence of them, the first winning) is written into its mapping where
    it stands, over the keys before it; "excessive aliasing" is refused by go-yaml's ratio."""
    root: list[Any] = []
    strings: dict[str, str] = {}
    """Each distinct string once: keys (``type``, ``description``) and the descriptions of a
    CRD's repeated subtrees recur thousands of times; one object each keeps the model small."""
    # frames: [container, key of the next value (mappings; _KEY: a key comes next; _MERGE),
    #          its anchor, values decoded before it, the mapping it merges into (or None)]
    frames: list[list[Any]] = [[root, None, None, 0, None]]
    anchors: dict[str, tuple[Any, int]] = {}
    """Anchor → (its value, how many values it holds)."""
    braces = False
    decoded = aliased = 0
    get_event = loader.get_event
    scalar_event, mapping_start = yaml.ScalarEvent, yaml.MappingStartEvent
    sequence_start, alias_event = yaml.SequenceStartEvent, yaml.AliasEvent
    key, merge, limit = _KEY, _MERGE, MAX_DATA_DEPTH + 1
    while True:
        event = get_event()
        kind = type(event)
        if kind is not scalar_event and kind in _END:
            value, _, anchor, before, into = frames.pop()
            if anchor is not None:
                anchors[anchor] = (value, decoded - before)
            if into is not None:
                _merge(into, value, event, origin)
            if len(frames) == 1:
                break
            continue
        frame = frames[-1]
        if kind is scalar_event:
            decoded += 1
            tag = event.tag
            try:
                if tag is None or tag == "!":
                    text = event.value
                    if not event.implicit[0]:
                        value = text
                    elif type(frame[0]) is dict and frame[1] is key:  # a key: its raw float
                        if text == "<<":
                            frame[1] = merge
                            continue
                        value = resolve_plain(text, raw=True)
                    else:
                        value = _plain(text)
                else:
                    value = resolve_tagged(tag, event.value)
                    if type(value) is float and not (type(frame[0]) is dict and frame[1] is key):
                        value = json_value(value)
            except NotJson as exc:
                _fail(str(exc), event, origin)
            if type(value) is str:
                value = strings.setdefault(value, value)
                if "{{" in value:
                    braces = True
            if event.anchor is not None:
                anchors[event.anchor] = (value, 1)
        elif kind is alias_event:
            name = event.anchor
            if name not in anchors:
                if any(f[2] == name for f in frames):
                    _fail(f"anchor {name!r} value contains itself", event, origin)
                _fail(f"found undefined alias {name!r}", event, origin)
            value, size = anchors[name]
            decoded += size
            aliased += size
            if aliased > 100 and decoded > 1000 and aliased / decoded > allowed_alias_ratio(decoded):
                _fail("document contains excessive aliasing (kubectl refuses it too)", event, origin)
            if type(value) is dict or type(value) is list:
                value = copy.deepcopy(value)
        elif kind is mapping_start or kind is sequence_start:
            decoded += 1  # a tag on it is ignored, as go-yaml v2 does
            if frame[1] is key:
                _fail("a mapping or sequence cannot be a key (kubectl: invalid map key)", event, origin)
            if len(frames) > limit:
                _too_deep(frames, origin)
            value = {} if kind is mapping_start else []
            container = frame[0]
            into = None
            if type(container) is dict:
                if frame[1] is merge:
                    into = container  # merged when it ends
                else:
                    container[frame[1]] = value  # a repeated key: first place, last value
                frame[1] = key
            else:
                container.append(value)
            frames.append([value, key if kind is mapping_start else None, event.anchor, decoded - 1, into])
            continue
        else:
            raise _Unsupported
        # a scalar or an alias's value
        container = frame[0]
        if type(container) is dict:
            if frame[1] is key:  # a mapping key
                if type(value) is dict or type(value) is list:
                    _fail("a mapping or sequence cannot be a key (kubectl: invalid map key)", event,
                          origin)
                frame[1] = value if type(value) is str else _key(value, event, origin)
                continue
            if len(frames) > limit:
                _too_deep(frames, origin)
            if frame[1] is merge:
                _merge(container, value, event, origin)
            else:
                container[frame[1]] = value  # a repeated key: first place, last value (as PyYAML)
            frame[1] = key
        else:
            if len(frames) > limit:
                _too_deep(frames, origin)
            if frames[-1][4] is not None and type(value) is not dict:  # a merged sequence's item
                _fail("map merge requires map or sequence of maps as the value", event, origin)
            container.append(value)
            if len(frames) == 1:
                break
    return (root[0] if root else None), braces


def _merge(into: dict[str, Any], value: Any, event: Any, origin: str) -> None:
    """go-yaml v2's ``merge``: a mapping's keys written into ``into``; a sequence of mappings
    from the last to the first (the first wins)."""
    if type(value) is dict:
        into.update(value)
    elif type(value) is list and all(type(item) is dict for item in value):
        for item in reversed(value):
            into.update(item)
    else:
        _fail("map merge requires map or sequence of maps as the value", event, origin)


def _fail(problem: str, event: Any, origin: str) -> NoReturn:
    mark = event.start_mark
    raise SpecError(f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: {problem}",
                    Location(origin))


_KEY = object()


def _key(value: Any, event: Any, origin: str) -> str:
    """A key that is not a string, as kubectl makes it one (``yaml_rules.json_key``)."""
    try:
        return json_key(value)
    except ValueError as exc:
        _fail(str(exc), event, origin)


def _at(frames: list[list[Any]], last: Any) -> str:
    """JSON pointer of the container of the innermost frame (``last``: and then this token)."""
    tokens = []
    for parent, child in pairwise(frames):
        container = parent[0]
        if type(container) is dict:
            tokens.append(next((k for k, v in reversed(container.items()) if v is child[0]), "<<"))
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
