"""The offline default source: definitions shipped in the ``kubernetes-validate`` package.

Its JSON-Schema dialect is mapped back to OpenAPI meaning: ``#/$defs/`` refs, ``["T", "null"]``
types, ``oneOf`` forms of Quantity and IntOrString (in ``canonical``), and the ``enum`` it adds to
``apiVersion``/``kind`` of kinds (dropped here: the GVK already says it).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from generator.errors import Location, SpecError, UsageError
from generator.sources.base import RawDocument
from generator.sources.canonical import Dialect, canonical_definitions
from generator.sources.package_fields import decoded_field_names, shipped_field_names
from generator.sources.package_fields import forget as forget_table

PREFIX = "kubernetes-validate:"
_DIR = re.compile(r"^v(\d+)\.(\d+)\.0-local$")


def _schema_root() -> Any:
    """The package's schema directory, found without importing the package (its import pulls in
    jsonschema, a noticeable part of every ``diff``)."""
    spec = importlib.util.find_spec("kubernetes_validate")
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            root = Path(location) / "kubernetes-json-schema"
            if root.is_dir():
                return root
    from importlib import resources

    try:
        return resources.files("kubernetes_validate") / "kubernetes-json-schema"
    except ModuleNotFoundError:
        raise UsageError(
            "the kubernetes-validate package is not installed (pip install kubernetes-validate)"
        ) from None


def available_versions() -> list[str]:
    """Kubernetes releases the installed package ships, oldest first (``["1.25", …]``)."""
    found = []
    for entry in _schema_root().iterdir():
        match = _DIR.match(entry.name)
        if match:
            found.append((int(match[1]), int(match[2])))
    return [f"{a}.{b}" for a, b in sorted(found)]


@cache
def package_version() -> str:
    """The installed ``kubernetes-validate`` version (``1.37.1``), or ``unknown``."""
    found = _dist_info_version()
    if found:
        return found
    from importlib import metadata  # slow to import: only when the fast path finds nothing

    try:
        return metadata.version("kubernetes-validate")
    except metadata.PackageNotFoundError:
        return "unknown"


def _dist_info_version() -> str:
    """``Version:`` of the one ``kubernetes_validate-*.dist-info`` beside the package directory
    (how pip installs it), or ``""`` when there is not exactly one."""
    spec = importlib.util.find_spec("kubernetes_validate")
    if spec is None or not spec.submodule_search_locations:
        return ""
    site = Path(next(iter(spec.submodule_search_locations))).parent
    infos = list(site.glob("kubernetes_validate-*.dist-info"))
    if len(infos) != 1:
        return ""
    try:
        with (infos[0] / "METADATA").open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():  # end of the headers
                    break
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return ""


def package_bytes(version: str) -> bytes:
    """The raw ``_definitions.json`` of Kubernetes ``version`` in the package."""
    if version not in available_versions():
        raise UsageError(
            f"{PREFIX}{version}: no such release in kubernetes-validate "
            f"(has {', '.join(available_versions())})"
        )
    return _definitions_file(version).read_bytes()


def _definitions_file(version: str) -> Any:
    return _schema_root() / f"v{version}.0-local" / "_definitions.json"


def table_field_names(version: str) -> dict[str, frozenset[str]] | None:
    """``field_names`` of ``version`` as the shipped table holds it (``sources.package_fields``),
    or ``None`` when the table is not of the installed package."""
    size = _file_size(version)
    return None if size is None else shipped_field_names(version, package_version(), size)


def _file_size(version: str) -> int | None:
    """The size of release ``version``'s file in the package, or ``None`` (no such release, or
    a package not on the file system)."""
    file = _definitions_file(version)
    try:
        return file.stat().st_size if isinstance(file, Path) else None
    except OSError:
        return None


def load_kubernetes_validate(version: str) -> RawDocument:
    """Definitions of Kubernetes ``version`` (``1.31``) from the package data."""
    origin = f"{PREFIX}{version}"
    data = package_bytes(version)
    return load_jsonschema_document(json.loads(data), origin, hashlib.sha256(data).hexdigest())


@cache
def field_names(version: str) -> Mapping[str, frozenset[str]]:
    """Definition name → its property names in release ``version``: the cheap view release
    history needs (no normalization), from the shipped table when it is of the installed package
    (``sources.package_fields``), else from the package's file. Cached per process, read-only."""
    found = table_field_names(version)
    if found is None:
        found = decoded_field_names(package_bytes(version))
    shared = _FIELD_SETS
    return MappingProxyType({name: shared.setdefault(fields, fields) for name, fields in found.items()})


_FIELD_SETS: dict[frozenset[str], frozenset[str]] = {}
"""Each distinct set of property names ``field_names`` made, once: the package's releases
repeat most definitions, and the sets of one process's releases are shared (memory)."""


def forget_field_names() -> None:
    """Let go of every release's ``field_names`` (a process that is done with them:
    ``pipeline.history.drop_load_memos``); made again when asked."""
    field_names.cache_clear()
    _FIELD_SETS.clear()
    forget_table()


def drop_gvk_enums(schema: dict[str, Any]) -> None:
    """Kinds carry their GVK; the one-value ``enum`` on ``apiVersion``/``kind`` is redundant."""
    if "x-kubernetes-group-version-kind" not in schema:
        return
    for name in ("apiVersion", "kind"):
        prop = schema.get("properties", {}).get(name)
        if isinstance(prop, dict):
            prop.pop("enum", None)


def load_jsonschema_document(document: Any, origin: str, sha256: str = "") -> RawDocument:
    """A ``_definitions.json``-style file given by path."""
    if not isinstance(document, dict) or not isinstance(document.get("$defs"), dict):
        raise SpecError("expected a JSON Schema with $defs", Location(origin, "/$defs"))
    if not document["$defs"]:
        raise SpecError("no definitions", Location(origin, "/$defs"))
    dialect = Dialect("#/$defs/", origin)
    definitions, pointers = canonical_definitions(document["$defs"], dialect, "/$defs")
    for schema in definitions.values():
        drop_gvk_enums(schema)
    return RawDocument(origin, "kubernetes-validate", definitions, pointers, sha256)


class PackageHistory:
    """Which definitions each release of the package has (``analysis.upgrades.History``): a
    presence check searches the release's raw file (read once per process, never parsed)."""

    def __init__(self) -> None:
        try:
            self.releases: tuple[str, ...] = tuple(available_versions())
        except UsageError:  # the package is not installed: no history, diffs of files still work
            self.releases = ()
        self._data: dict[str, bytes] = {}

    def has(self, release: str, definition: str) -> bool:
        if release not in self.releases:
            return False
        data = self._data.get(release)
        if data is None:  # the release is known to exist: read it without listing the package
            path = _schema_root() / f"v{release}.0-local" / "_definitions.json"
            data = self._data[release] = path.read_bytes()
        return f'"{definition}"'.encode() in data

    def fields(self, release: str, definition: str) -> frozenset[str] | None:
        """Property names of ``definition`` in ``release`` (None: no such release or
        definition); parses the release once per process (``field_names``)."""
        if release not in self.releases:
            return None
        return field_names(release).get(definition)
