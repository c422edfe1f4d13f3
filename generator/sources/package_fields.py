"""The property names of every definition of each release the pinned ``kubernetes-validate``
ships, as a small table: ``package_fields.json.gz``, made by ``scripts/package_fields_data.py``
from the installed package (``--check`` in the tests compares it with the package, byte for
byte). The release timeline needs only these names of every release; reading them here instead
of decoding each release's ``_definitions.json`` (15 MB of JSON for 1.25-1.37) saves most of
the time a timeline takes.

The table is used for a release only when the installed package is the version it was made from
and that release's file has the size it had; any other package is read as before
(``jsonschema_pkg.field_names``). Facts only: definition and property names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from generator.sources import packed

DATA_FILE = Path(__file__).with_name("package_fields.json.gz")
FORMAT = 1


def decoded_field_names(data: bytes) -> dict[str, frozenset[str]]:
    """Definition name → its property names, from a release's raw ``_definitions.json`` (a
    definition that is not an object has none)."""
    definitions = json.loads(data).get("$defs", {})
    return {name: frozenset(schema.get("properties") or ()) if isinstance(schema, dict) else frozenset()
            for name, schema in definitions.items()}


def table_document(version: str, releases: Mapping[str, tuple[int, Mapping[str, frozenset[str]]]]
                   ) -> dict[str, Any]:
    """The table of package ``version``: per release (its file's size, its field names), each
    distinct name and set stored once."""
    names = sorted({n for _, fields in releases.values() for n in fields})
    sets = sorted({tuple(sorted(s)) for _, fields in releases.values() for s in fields.values()})
    name_at = {n: i for i, n in enumerate(names)}
    set_at = {s: i for i, s in enumerate(sets)}
    return {"format": FORMAT, "package": "kubernetes-validate", "version": version,
            "names": names, "sets": [list(s) for s in sets],
            "releases": {r: {"bytes": size, "definitions": sorted(
                [name_at[n], set_at[tuple(sorted(s))]] for n, s in fields.items())}
                for r, (size, fields) in releases.items()}}


def pack(document: Mapping[str, Any]) -> bytes:
    """The data file's bytes (``packed``)."""
    return packed.pack(packed.encode(document))


@cache
def _table() -> Mapping[str, Any]:
    return packed.read(DATA_FILE, FORMAT)


def shipped_field_names(release: str, package_version: str, size: int
                        ) -> dict[str, frozenset[str]] | None:
    """``decoded_field_names`` of ``release`` as the table holds it, or ``None`` when the table
    is not of this package (``package_version``, the file's ``size``)."""
    table = _table()
    entry = table.get("releases", {}).get(release) if table.get("version") == package_version else None
    if entry is None or entry.get("bytes") != size:
        return None
    names, sets = table["names"], table["sets"]
    made: dict[int, frozenset[str]] = {}
    out = {}
    for name_at, set_at in entry["definitions"]:
        found = made.get(set_at)
        if found is None:
            found = made[set_at] = frozenset(sets[set_at])
        out[names[name_at]] = found
    return out


def forget() -> None:
    """Let go of the decoded table (``jsonschema_pkg.forget_field_names``)."""
    _table.cache_clear()
