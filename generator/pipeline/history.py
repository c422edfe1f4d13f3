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
    Presence,
    ReleaseIndex,
    Timeline,
    identity,
    index_api,
    index_fields,
)
from generator.config import HISTORY_SCOPES, one_of
from generator.model.gvk import kind_of
from generator.model.types import ApiSpec
from generator.pipeline.collector import fewer_collections
from generator.sources import available_versions, field_names
from generator.sources.jsonschema_pkg import forget_field_names, package_bytes, table_field_names
from generator.sources.release_history import field_sets, field_sets_of, forget, history_releases


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
        with fewer_collections():  # long-lived indexes: no garbage for the collector to find
            every = {v: _package_index(v) for v in available_versions() if v not in indexes}
            older = _history_indexes(None)
        every.update({v: older[v] for v in _older_releases(every) if v not in indexes})
    every.update(indexes)
    return Timeline.build(every)


@cache
def _package_index(version: str) -> ReleaseIndex:
    """Index of a kubernetes-validate release (package data: made once per process). A model
    the same as in another release shares its ``Presence`` (memory)."""
    index = index_fields(field_names(version))
    shared = _PRESENCES
    for versions in index.values():
        for api_version, presence in versions.items():
            versions[api_version] = shared.setdefault(presence, presence)
    return index


_PRESENCES: dict[Presence, Presence] = {}


def _older_releases(package: Mapping[str, object]) -> list[str]:
    """The history table's releases the installed package does not ship (all of them when it
    ships none)."""
    return [v for v in history_releases() if v not in package]


@cache
def _history_indexes(keys: frozenset[ModelKey] | None) -> dict[str, ReleaseIndex]:
    """Release → index of every release of the shipped history table (of only the models
    ``keys`` when given), as ``index_fields`` makes them (the first name of a model and API
    version wins), made in one pass. A run of releases with the same fields shares one
    ``Presence``, and releases where a model is the same share its API version → presence
    mapping (read-only): few objects, so the collector has little to walk. Made once per
    process."""
    releases = history_releases()
    per_key: dict[ModelKey, list[dict[str, Presence]]] = {}
    if keys is None:
        runs = field_sets()
    else:
        kinds = {k.kind for k in keys}
        runs = field_sets_of(lambda name: kind_of(name) in kinds and identity(name)[0] in keys)
    for name in sorted(runs):
        key, api_version = identity(name)
        if keys is not None and key not in keys:
            continue
        slots = per_key.setdefault(key, [{} for _ in releases])
        for mask, fields in runs[name]:
            presence = Presence(name, fields)
            for i in range(len(releases)):
                if mask >> i & 1:
                    slots[i].setdefault(api_version, presence)
    out: dict[str, ReleaseIndex] = {r: {} for r in releases}
    for key, slots in per_key.items():
        shared: dict[tuple[tuple[str, Presence], ...], dict[str, Presence]] = {}
        for release, versions in zip(releases, slots, strict=True):
            if versions:
                out[release][key] = shared.setdefault(tuple(versions.items()), versions)
    return out


def drop_load_memos() -> None:
    """Let go of what a timeline is made from (each package release's field sets and index, the
    history table's, the definition names' identities: several MB), for a process that makes
    no other timeline (``pipeline.build``'s ``last``): the timelines already made keep what they
    use. Made again when asked."""
    _package_index.cache_clear()
    _PRESENCES.clear()
    _history_indexes.cache_clear()
    identity.cache_clear()
    forget_field_names()
    forget()


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
        older = _history_indexes(wanted)
        for version in _older_releases(dict.fromkeys(package)):
            if version not in indexes:
                indexes[version] = older[version]
    return Timeline.build({v: {k: i[k] for k in wanted if k in i} for v, i in indexes.items()})


_SPACE = re.compile(rb"\s*")


def _narrow_index(version: str, keys: frozenset[ModelKey]) -> ReleaseIndex:
    """``_package_index(version)`` restricted to ``keys``: from the shipped table when it is of
    the installed package, else the definitions named ``….<kind>`` in the raw ``$defs`` (found
    by a byte search), each decoded from where it starts."""
    shipped = table_field_names(version)
    if shipped is not None:
        return index_fields({name: fields for name, fields in shipped.items()
                             if "#" not in name and identity(name)[0] in keys})
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
