"""OpenAPI v2 (``swagger.json``) loader."""

from __future__ import annotations

from typing import Any

from generator.errors import Location, SpecError
from generator.sources.base import RawDocument
from generator.sources.canonical import Dialect, canonical_definitions
from generator.sources.routes import document_routes


def load_swagger(document: Any, origin: str, sha256: str = "") -> RawDocument:
    """Definitions of a parsed OpenAPI v2 document."""
    if not isinstance(document, dict):
        raise SpecError("top level must be an object with 'swagger' and 'definitions'",
                        Location(origin, ""))
    version = document.get("swagger")
    if version != "2.0":
        raise SpecError(f"unsupported swagger version {version!r} (expected '2.0')",
                        Location(origin, "/swagger"))
    raw = document.get("definitions")
    if not raw:
        raise SpecError("no definitions", Location(origin, "/definitions"))
    dialect = Dialect("#/definitions/", origin)
    definitions, pointers = canonical_definitions(raw, dialect, "/definitions")
    routes = document_routes(document)
    return RawDocument(origin, "swagger-v2", definitions, pointers, sha256, routes=routes,
                       routes_from="the paths of the source document" if routes else "")
