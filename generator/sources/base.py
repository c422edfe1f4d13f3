"""The one shape every loader returns: definitions in a canonical schema dialect.

Canonical dialect (what ``model.normalize`` reads):
- ``$ref`` holds the bare definition name (``io.k8s.api.core.v1.Pod``), never a pointer;
- ``type`` is one string (nullable forms and ``nullable`` are dropped);
- a one-item ``allOf`` wrapping a ``$ref`` is unwrapped, keeping the wrapper's own keys;
- IntOrString is ``type: string, format: int-or-string``; Quantity is ``type: string``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Schema = dict[str, Any]


@dataclass
class RawDocument:
    """Definitions read from one source, plus where each came from."""

    origin: str
    """File path, URL or ``kubernetes-validate:1.31``: what error messages name."""
    format: str
    """``swagger-v2``, ``openapi-v3`` or ``kubernetes-validate``."""
    definitions: dict[str, Schema]
    pointers: dict[str, str] = field(default_factory=dict)
    """Definition name → JSON pointer of that definition in its original file."""
    sha256: str = ""
    """Digest of the source bytes (of all files, for a directory)."""
    files: dict[str, str] = field(default_factory=dict)
    """Definition name → file it came from, where a source has several files."""

    def pointer_of(self, name: str) -> str:
        return self.pointers.get(name, "")

    def file_of(self, name: str) -> str:
        return self.files.get(name, self.origin)
