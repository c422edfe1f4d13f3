"""Write ``generator/sources/history.json.gz``: the definitions of Kubernetes 1.10-1.24.

The installed kubernetes-validate ships 1.25 onwards; ``kubernetes-validate==1.24.1`` ships the
JSON schemas of 1.10-1.24 (``kubernetes-json-schema/v1.NN.0-local/_definitions.json``; 1.10 only
as ``v1.10.0-local-strict``, the same properties with ``additionalProperties: false``). It cannot
be installed beside the newer package, so its downloaded file (``tests/setup_extras.py``:
``.cache/history/``) is read as an archive, never installed or imported.

Only facts are shipped: per definition, the releases that have it, the (group, version, kind) it
declares, each field's name and type with the releases that have it, and (what the timeline
reads, without rebuilding it) its field names per run of releases with the same fields. The deprecated aliases
``io.k8s.kubernetes.pkg.…`` of 1.10-1.13 (a bare ``$ref`` to the ``io.k8s.api`` definition) are
left out. No descriptions, no spec text.

    python scripts/history_data.py            # rewrite the data file
    python scripts/history_data.py --check    # exit 1 when the file differs (no network)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from setup_extras import HISTORY_PACKAGE, download_history_package, history_package  # noqa: E402

from generator.output.writer import refresh_data_file  # noqa: E402
from generator.sources.packed import encode, pack  # noqa: E402
from generator.sources.release_history import DATA_FILE, FORMAT  # noqa: E402

_MEMBER = re.compile(r"kubernetes-json-schema/v1\.(\d+)\.0-local(-strict)?/_definitions\.json$")
_ALIASES = "io.k8s.kubernetes.pkg."


def definition_files(archive: Path) -> Iterator[tuple[str, bool, bytes]]:
    """(release, strict, bytes) of every ``_definitions.json`` in the sdist or wheel."""
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as z:
            for name in sorted(z.namelist()):
                if (m := _MEMBER.search(name)):
                    yield f"1.{m[1]}", bool(m[2]), z.read(name)
        return
    with tarfile.open(archive) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            if (m := _MEMBER.search(member.name)) and (fh := tar.extractfile(member)):
                yield f"1.{m[1]}", bool(m[2]), fh.read()


def release_definitions(archive: Path) -> dict[str, dict[str, Any]]:
    """Release → its definitions: the ``-local`` variant, else ``-local-strict``."""
    found: dict[str, tuple[bool, bytes]] = {}
    for release, strict, data in definition_files(archive):
        if release not in found or (found[release][0] and not strict):
            found[release] = (strict, data)
    return {r: json.loads(data)["definitions"]
            for r, (_, data) in sorted(found.items(), key=lambda kv: int(kv[0].split(".")[1]))}


def type_text(schema: Any) -> str:
    """``string``, ``integer/int32``, ``[]io.k8s.api.core.v1.Container``, ``map[]string``,
    ``object``, a definition name, ``a|b`` for ``oneOf``; ``""`` when it says nothing."""
    if not isinstance(schema, dict):
        return ""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return ref.rpartition("/")[2]
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list):
            return "|".join(type_text(s) for s in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "")
    if kind == "array":
        return "[]" + type_text(schema.get("items"))
    if kind == "object" or (kind is None and "additionalProperties" in schema):
        extra = schema.get("additionalProperties")
        return "map[]" + type_text(extra) if isinstance(extra, dict) else "object"
    if isinstance(kind, str):
        fmt = schema.get("format")
        return kind + (f"/{fmt}" if isinstance(fmt, str) and fmt else "")
    return ""


def history_document(archive: Path) -> dict[str, Any]:
    releases = release_definitions(archive)
    order = list(releases)
    definitions: dict[str, dict[str, Any]] = {}
    for i, defs in enumerate(releases.values()):
        bit = 1 << i
        for name, schema in defs.items():
            if name.startswith(_ALIASES) or not isinstance(schema, dict):
                continue
            entry = definitions.setdefault(name, {"in": 0, "gvk": {}, "fields": {}})
            entry["in"] |= bit
            for gvk in schema.get("x-kubernetes-group-version-kind") or ():
                key = (gvk.get("group", ""), gvk.get("version", ""), gvk.get("kind", ""))
                entry["gvk"][key] = entry["gvk"].get(key, 0) | bit
            for field, prop in (schema.get("properties") or {}).items():
                typed = entry["fields"].setdefault(field, {})
                text = type_text(prop)
                typed[text] = typed.get(text, 0) | bit
    out = {}
    for name in sorted(definitions):
        entry = definitions[name]
        sets: dict[tuple[str, ...], int] = {}
        for i in range(len(order)):
            if entry["in"] & (1 << i):
                present = tuple(sorted(f for f, typed in entry["fields"].items()
                                       if any(m & (1 << i) for m in typed.values())))
                sets[present] = sets.get(present, 0) | (1 << i)
        out[name] = {
            "in": entry["in"],
            "gvk": [[*key, mask] for key, mask in sorted(entry["gvk"].items())],
            "fields": {f: sorted([t, m] for t, m in typed.items())
                       for f, typed in sorted(entry["fields"].items())},
            "sets": sorted([mask, list(fields)] for fields, mask in sets.items()),
        }
    return {"format": FORMAT, "package": HISTORY_PACKAGE, "packageFile": archive.name,
            "sha256": hashlib.sha256(archive.read_bytes()).hexdigest(),
            "releases": order, "definitions": out}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    archive = history_package()
    if archive is None and not args.check:
        download_history_package()
        archive = history_package()
    if archive is None:
        print(f"{HISTORY_PACKAGE} is not downloaded (run tests/setup_extras.py)", file=sys.stderr)
        return 2
    data = pack(encode(history_document(archive)))
    status, message = refresh_data_file(DATA_FILE, data, check=args.check)
    print(message)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
