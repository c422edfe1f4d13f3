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
from generator.sources.routes import Route

Schema = dict[str, Any]


@dataclass(frozen=True)
class Provenance:
    """What a source's definitions were read from: the pages' "Source" notes say it."""

    kind: str
    """``bundled`` (kubernetes-validate), ``upstream`` (``upstream:1.32``), ``url``, ``file`` or
    ``directory``."""
    sha256: str
    """Digest of the bytes read (of all files, for a directory)."""
    release: str = ""
    """Kubernetes release the data is of: ``1.32`` (bundled) or the tag ``v1.32.0`` (upstream)."""
    package: str = ""
    """``kubernetes-validate`` and its installed version, for bundled data."""
    package_version: str = ""
    url: str = ""
    """Where the document is published (upstream, URL sources)."""
    file: str = ""
    """Name of the local file or directory read (a mirror file, a path source): the base name
    only, so pages do not depend on where the build ran."""
    checked: str = ""
    """How the digest was checked: ``shipped`` (a digest this tool ships), ``lock`` (the lock
    file), ``recorded`` (first use, now in the lock file), ``pinned`` (``URL#sha256=``) or empty."""

    @property
    def snapshot(self) -> bool:
        """Bundled data: a package's snapshot, with known differences from upstream."""
        return self.kind == "bundled"


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
    label: str = ""
    """What pages call the source (``upstream:1.32``); default ``origin``."""
    provenance: Provenance | None = None
    crds: dict[str, dict[str, Any]] = field(default_factory=dict)
    """CRD version definitions → what the CRD says besides the schema (``sources.crd``): group,
    kind, names, scope, served/storage/deprecated, printer columns, subresources, conversion."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Notes made while reading (a skipped non-CRD document), passed on by the normalizer."""
    routes: tuple[Route, ...] = ()
    """REST routes (``sources.routes``): the document's ``paths``, or shipped data."""
    routes_from: str = ""
    """Where ``routes`` come from, for the page (empty without routes)."""

    def pointer_of(self, name: str) -> str:
        return self.pointers.get(name, "")

    def file_of(self, name: str) -> str:
        return self.files.get(name, self.origin)
