"""The shipped history of releases older than kubernetes-validate's: 1.10 to 1.24.

``history.json.gz`` (made by ``scripts/history_data.py`` from ``kubernetes-validate==1.24.1``,
whose package holds the JSON schemas of 1.10-1.24) lists facts only: per definition, the releases
that have it (a bit mask over ``releases``), the (group, version, kind) it declares, and each field
with its type (``string``, ``integer/int32``, ``[]io.k8s.api.core.v1.Container``,
``map[]string``, a definition name) and the releases that have it with that type. Read once per
process, only when something dates a release older than the installed package's.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

DATA_FILE = Path(__file__).with_name("history.json.gz")
FORMAT = 1


def pack(text: str) -> bytes:
    """The data file's bytes for its JSON text (gzip without a timestamp: reproducible)."""
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


@cache
def table() -> Mapping[str, Any]:
    """The decoded table (empty when the file is missing or of another format)."""
    try:
        data = json.loads(gzip.decompress(DATA_FILE.read_bytes()))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def history_releases() -> tuple[str, ...]:
    """The releases the table covers, oldest first (``("1.10", …, "1.24")``)."""
    return tuple(table().get("releases", ()))


def _bit(release: str) -> int:
    releases = history_releases()
    return 1 << releases.index(release) if release in releases else 0


@cache
def history_field_names(release: str) -> Mapping[str, frozenset[str]]:
    """Definition name → its property names in ``release`` (``sources.field_names`` of a
    release of the table). Cached per process, read-only."""
    bit = _bit(release)
    out: dict[str, frozenset[str]] = {}
    if bit:
        for name, entry in table()["definitions"].items():
            if entry["in"] & bit:
                out[name] = frozenset(f for f, typed in entry["fields"].items()
                                      if any(mask & bit for _, mask in typed))
    return MappingProxyType(out)


@cache
def definition_fields(definition: str) -> Mapping[str, frozenset[str]]:
    """Release → the property names of ``definition`` in it, for the releases that have it."""
    entry = table().get("definitions", {}).get(definition)
    if entry is None:
        return MappingProxyType({})
    out = {}
    for i, release in enumerate(history_releases()):
        bit = 1 << i
        if entry["in"] & bit:
            out[release] = frozenset(f for f, typed in entry["fields"].items()
                                     if any(mask & bit for _, mask in typed))
    return MappingProxyType(out)


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


def encode(document: Mapping[str, Any]) -> str:
    """The table's JSON text: sorted keys, no spaces (deterministic)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
