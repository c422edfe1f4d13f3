"""The release timeline (``analysis.timeline``) of loaded releases plus every release the
``kubernetes-validate`` package ships and, before those, the shipped history table of 1.10-1.24
(``sources.release_history``): what field histories, ``explain`` and ``scan`` date things with.
No Jinja here: the terminal commands stay fast."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache

from generator.analysis.timeline import (
    ModelKey,
    ReleaseIndex,
    Timeline,
    identity,
    index_api,
    index_fields,
)
from generator.config import HISTORY_SCOPES, one_of
from generator.model.types import ApiSpec
from generator.sources import available_versions, field_names
from generator.sources.jsonschema_pkg import package_bytes
from generator.sources.release_history import (
    definition_fields,
    history_field_names,
    history_releases,
    table,
)


def release_timeline(apis: Iterable[ApiSpec], history: str = "all",
                     known: Mapping[str, ReleaseIndex] | None = None) -> Timeline:
    """Timeline of the site's releases plus, with ``history="all"``, every kubernetes-validate
    release (a site release always uses its own definitions; not when every release is a CRD
    set). ``known``: indexes already made of
    some of ``apis``, by version."""
    apis = list(apis)
    known = known or {}
    return timeline_of({api.version: known.get(api.version) or index_api(api) for api in apis},
                       history, all(api.format == "crd" for api in apis))


def timeline_of(indexes: Mapping[str, ReleaseIndex], history: str, crd_only: bool) -> Timeline:
    """``release_timeline`` of the site's releases' ``indexes``; ``crd_only``: every one is a CRD
    set. A kubernetes-validate release that is a site release is not indexed: the site's wins."""
    one_of(history, HISTORY_SCOPES, "history must be 'all' or 'site', not {value!r}")
    every = {}
    if history == "all" and not crd_only:  # CRD sets: their own only
        every = {v: _package_index(v) for v in available_versions() if v not in indexes}
        every.update({v: _history_index(v) for v in _older_releases(every) if v not in indexes})
    every.update(indexes)
    return Timeline.build(every)


@cache
def _package_index(version: str) -> ReleaseIndex:
    """Index of a kubernetes-validate release (package data: made once per process)."""
    return index_fields(field_names(version))


def _older_releases(package: Mapping[str, object]) -> list[str]:
    """The history table's releases the installed package does not ship (all of them when it
    ships none)."""
    return [v for v in history_releases() if v not in package]


@cache
def _history_index(version: str) -> ReleaseIndex:
    """Index of a release of the shipped history table (made once per process)."""
    return index_fields(history_field_names(version))


def narrow_timeline(apis: Iterable[ApiSpec], keys: Iterable[ModelKey]) -> Timeline:
    """``release_timeline(apis)`` of only the models ``keys`` (what ``explain`` dates): each
    kubernetes-validate release's definitions of those models are parsed out of its raw file
    instead of the whole file."""
    apis = list(apis)
    wanted = frozenset(keys)
    indexes = {api.version: index_api(api) for api in apis}
    if any(api.format != "crd" for api in apis):
        package = available_versions()
        for version in package:
            if version not in indexes:
                indexes[version] = _narrow_index(version, wanted)
        for version in _older_releases(dict.fromkeys(package)):
            if version not in indexes:
                indexes[version] = index_fields({
                    n: fields for n in _history_names(wanted)
                    if (fields := definition_fields(n).get(version)) is not None})
    return Timeline.build({v: {k: i[k] for k in wanted if k in i} for v, i in indexes.items()})


def _history_names(keys: frozenset[ModelKey]) -> list[str]:
    """The history table's definition names of the models ``keys``."""
    return [n for n in table().get("definitions", ()) if identity(n)[0] in keys]


_SPACE = re.compile(rb"\s*")


def _narrow_index(version: str, keys: frozenset[ModelKey]) -> ReleaseIndex:
    """``_package_index(version)`` restricted to ``keys``: the definitions named ``….<kind>`` in
    the raw ``$defs`` (found by a byte search), each decoded from where it starts."""
    data = package_bytes(version)
    decoder = json.JSONDecoder()
    names: dict[str, frozenset[str]] = {}
    for kind in sorted({k.kind for k in keys}):
        needle = f'.{kind}":'.encode()
        at = data.find(needle)
        while at >= 0:
            end = at + len(needle)
            name = data[data.rfind(b'"', 0, at) + 1 : end - 2].decode("utf-8", "replace")
            value = _SPACE.match(data, end).end()  # type: ignore[union-attr]
            if (data[value : value + 1] == b"{" and "#" not in name
                    and identity(name)[0] in keys and name not in names):
                names[name] = _properties(decoder, data, value)
            at = data.find(needle, end)
    return index_fields(names)


def _properties(decoder: json.JSONDecoder, data: bytes, start: int) -> frozenset[str]:
    """Property names of the schema object starting at byte ``start``: decoded up to the
    closing brace of its indentation level (the package's layout), else to the end."""
    close = data.find(b"\n    }", start)
    try:
        schema, _ = decoder.raw_decode(data[start : close + 6].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        schema, _ = decoder.raw_decode(data[start:].decode("utf-8"))
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return frozenset(properties or ())
