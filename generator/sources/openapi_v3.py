"""OpenAPI v3 loader: one ``/openapi/v3`` document, or a directory of them (one per group/version)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from generator.errors import Location, SpecError
from generator.sources.base import RawDocument
from generator.sources.canonical import Dialect, canonical_definitions
from generator.sources.reader import MAX_SPEC_BYTES, read_document
from generator.sources.routes import document_routes

SCHEMAS = "/components/schemas"


def load_openapi_v3_document(document: Any, origin: str, sha256: str = "") -> RawDocument:
    """Schemas of one parsed OpenAPI v3 document."""
    if not isinstance(document, dict):
        raise SpecError("top level must be an object with 'openapi' and 'components'",
                        Location(origin, ""))
    version = document.get("openapi")
    if not isinstance(version, str) or not version.startswith("3."):
        raise SpecError(f"unsupported openapi version {version!r} (expected 3.x)",
                        Location(origin, "/openapi"))
    components = document.get("components")
    if not isinstance(components, dict) or not components.get("schemas"):
        raise SpecError("no components.schemas", Location(origin, SCHEMAS))
    dialect = Dialect("#/components/schemas/", origin)
    definitions, pointers = canonical_definitions(components["schemas"], dialect, SCHEMAS)
    routes = document_routes(document)
    return RawDocument(origin, "openapi-v3", definitions, pointers, sha256, routes=routes,
                       routes_from="the paths of the source document" if routes else "")


def document_files(directory: Path) -> list[Path]:
    """The v3 documents of a directory source, in the order they are read."""
    try:
        return sorted(p for p in directory.iterdir() if p.name.endswith((".json", ".json.gz")))
    except OSError as exc:
        raise SpecError(f"cannot list directory: {exc.strerror or exc}",
                        Location(str(directory))) from None


def digest_line(path: Path, sha256: str) -> bytes:
    """One document's share of a directory source's digest: its name and content digest."""
    return f"{path.name}\0{sha256}\n".encode()


def load_openapi_v3_dir(directory: Path, max_bytes: int = MAX_SPEC_BYTES) -> RawDocument:
    """Merge every ``*.json`` v3 document of a directory; shared schemas appear once."""
    files = document_files(directory)
    if not files:
        raise SpecError("no OpenAPI v3 *.json documents in directory", Location(str(directory)))
    merged = RawDocument(str(directory), "openapi-v3", {})
    digest = hashlib.sha256()
    for path in files:
        document, sha = read_document(path, max_bytes)
        digest.update(digest_line(path, sha))
        part = load_openapi_v3_document(document, str(path), sha)
        for name, schema in part.definitions.items():
            if name not in merged.definitions:
                merged.definitions[name] = schema
                merged.pointers[name] = part.pointers[name]
                merged.files[name] = str(path)
        merged.routes += part.routes
    merged.sha256 = digest.hexdigest()
    merged.routes = tuple(sorted(set(merged.routes), key=lambda r: (r.path, r.method)))
    merged.routes_from = "the paths of the source documents" if merged.routes else ""
    return merged
