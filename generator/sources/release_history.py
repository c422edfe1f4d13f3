"""The shipped history of releases older than kubernetes-validate's: 1.10 to 1.24.

``history.json.gz`` (made by ``scripts/history_data.py`` from ``kubernetes-validate==1.24.1``,
whose package holds the JSON schemas of 1.10-1.24) lists facts only: per definition, the releases
that have it (a bit mask over ``releases``), the (group, version, kind) it declares, and each field
with its type (``string``, ``integer/int32``, ``[]io.k8s.api.core.v1.Container``,
``map[]string``, a definition name) and the releases that have it with that type; and its field
names per run of releases with the same fields (``sets``: what the timeline reads). Read once per
process, only when something dates a release older than the installed package's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.sources import packed

DATA_FILE = Path(__file__).with_name("history.json.gz")
FORMAT = 2


def _read() -> Mapping[str, Any]:
    return packed.read(DATA_FILE, FORMAT)


@cache
def table() -> Mapping[str, Any]:
    """The decoded table (empty when the file is missing or of another format)."""
    return _read()


Runs = tuple[tuple[int, frozenset[str]], ...]
"""A definition's (release mask, its field names) of each run of releases with the same fields."""


@cache
def _runs_by_name() -> tuple[tuple[str, ...], dict[str, Runs | list[list[Any]]]]:
    """The releases, and each definition's runs: as decoded (lists) until ``_runs_of`` turns
    them into ``Runs`` in place (the lists are then let go). Read from the table when something
    loaded it already, else from the file without keeping the rest (the fields' types and kinds:
    ``generate`` never reads them)."""
    data = table() if table.cache_info().currsize else _read()
    return tuple(data.get("releases", ())), {
        name: entry["sets"] for name, entry in data.get("definitions", {}).items()}


def _runs_of(name: str) -> Runs:
    """``name``'s runs, made once."""
    runs = _runs_by_name()[1]
    found = runs[name]
    if isinstance(found, list):
        found = runs[name] = tuple((mask, frozenset(fields)) for mask, fields in found)
    return found


@cache
def _field_runs() -> Mapping[str, Runs]:
    """``field_sets``: what field histories read."""
    return MappingProxyType({name: _runs_of(name) for name in _runs_by_name()[1]})


def history_releases() -> tuple[str, ...]:
    """The releases the table covers, oldest first (``("1.10", …, "1.24")``)."""
    return _runs_by_name()[0]


def _bit(release: str) -> int:
    releases = history_releases()
    return 1 << releases.index(release) if release in releases else 0


def field_sets() -> Mapping[str, Runs]:
    """Definition name → (release mask, its field names) of each run of releases with the same
    fields: one frozenset per run, shared by the releases of the run."""
    return _field_runs()


def field_sets_of(wanted: Callable[[str], bool]) -> Mapping[str, Runs]:
    """``field_sets`` of the definitions ``wanted`` says yes to (``explain``'s few models: the
    others' sets are not made)."""
    return {name: _runs_of(name) for name in _runs_by_name()[1] if wanted(name)}


@cache
def history_field_names(release: str) -> Mapping[str, frozenset[str]]:
    """Definition name → its property names in ``release`` (``sources.field_names`` of a
    release of the table). Cached per process, read-only."""
    bit = _bit(release)
    return MappingProxyType({name: fields for name, runs in field_sets().items()
                             for mask, fields in runs if mask & bit})


def definition_fields(definition: str) -> Mapping[str, frozenset[str]]:
    """Release → the property names of ``definition`` in it, for the releases that have it."""
    releases = history_releases()
    return MappingProxyType({
        release: fields for mask, fields in field_sets().get(definition, ())
        for i, release in enumerate(releases) if mask & (1 << i)})


def history_has(release: str, definition: str) -> bool:
    """Whether ``release`` of the table has a definition named ``definition``."""
    entry = table().get("definitions", {}).get(definition)
    return entry is not None and bool(entry["in"] & _bit(release))


def field_type(release: str, definition: str, name: str) -> str:
    """The type of field ``name`` of ``definition`` in ``release`` (``""``: no such field)."""
    entry = table().get("definitions", {}).get(definition)
    bit = _bit(release)
    for typed, mask in (entry or {}).get("fields", {}).get(name, ()):
        if mask & bit:
            return str(typed)
    return ""


def served_kinds(release: str) -> frozenset[tuple[str, str, str]]:
    """The (API group, version, kind) the definitions of ``release`` declare (the group as
    written in ``apiVersion``: ``""`` for core)."""
    bit = _bit(release)
    return frozenset((g, v, k) for entry in table().get("definitions", {}).values()
                     for g, v, k, mask in entry.get("gvk", ()) if mask & bit)


class CombinedHistory:
    """``analysis.upgrades.History`` of the table's releases followed by ``newer``'s (the
    installed package: ``jsonschema_pkg.PackageHistory``)."""

    def __init__(self, newer: Any) -> None:
        self.newer = newer
        own = [r for r in history_releases() if r not in newer.releases]
        self.releases: tuple[str, ...] = (*own, *newer.releases)
        self._own = frozenset(own)

    def has(self, release: str, definition: str) -> bool:
        if release in self._own:
            return history_has(release, definition)
        return bool(self.newer.has(release, definition))

    def fields(self, release: str, definition: str) -> frozenset[str] | None:
        if release in self._own:
            return history_field_names(release).get(definition)
        found: frozenset[str] | None = self.newer.fields(release, definition)
        return found


def forget() -> None:
    """Let go of the decoded table and everything made of it (a process that is done with it:
    ``pipeline.history.drop_load_memos``); read again when asked."""
    for memo in (table, _runs_by_name, _field_runs, history_field_names):
        memo.cache_clear()
