"""The one shape every loader returns: definitions in a canonical schema dialect.

Canonical dialect (what ``model.normalize`` reads):
- ``$ref`` holds the bare definition name (``io.k8s.api.core.v1.Pod``), never a pointer;
- ``type`` is one string (nullable forms are dropped; ``nullable: true`` is kept as a note);
- a one-item ``allOf`` wrapping a ``$ref`` is unwrapped, keeping the wrapper's own keys;
- IntOrString is ``type: string, format: int-or-string``; Quantity is ``type: string``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.errors import Diagnostic

Schema = dict[str, Any]


@dataclass
class RawDocument:
    """Definitions read from one source, plus where each came from."""

    origin: str
    """File path, URL or ``kubernetes-validate:1.31``: what error messages name."""
    format: str
    """``swagger-v2``, ``openapi-v3``, ``kubernetes-validate`` or ``crd``."""
    definitions: dict[str, Schema]
    pointers: dict[str, str] = field(default_factory=dict)
    """Definition name → JSON pointer of that definition in its original file."""
    sha256: str = ""
    """Digest of the source bytes (of all files, for a directory)."""
    files: dict[str, str] = field(default_factory=dict)
    """Definition name → file it came from, where a source has several files."""
    crds: dict[str, dict[str, Any]] = field(default_factory=dict)
    """CRD version definitions → what the CRD says besides the schema (``sources.crd``): group,
    kind, names, scope, served/storage/deprecated, printer columns, subresources, conversion."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Notes made while reading (a skipped non-CRD document), passed on by the normalizer."""

    def pointer_of(self, name: str) -> str:
        return self.pointers.get(name, "")

    def file_of(self, name: str) -> str:
        return self.files.get(name, self.origin)
