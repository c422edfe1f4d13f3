"""Sources: every format is read into the same ``RawDocument``.

A source spec (``--source``) is one of:
``kubernetes-validate:1.31`` · ``upstream:1.32`` (the official ``swagger.json`` of a release tag,
from a spec mirror, the cache or downloaded once; ``sources.upstream``) ·
a path to an OpenAPI v2 ``swagger.json`` (or ``.json.gz``, ``.yaml``) ·
a path to one OpenAPI v3 document or a directory of them · an http(s) URL of a v2/v3 document
(optionally ``URL#sha256=HEX`` to pin its digest) · CustomResourceDefinition manifests: a YAML/JSON
file (one or many documents), a directory of them (recursively) or a URL, recognised by content
(``sources.crd``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, get_args

from generator.errors import Location, SpecError, one_line
from generator.sources.base import Provenance, RawDocument, Schema
from generator.sources.crd import (
    crd_dir_digest,
    documents_are_crds,
    is_crd,
    load_crd_dir,
    load_crd_manifests,
    manifest_files,
    parse_manifests,
)
from generator.sources.fetch import fetch
from generator.sources.jsonschema_pkg import (
    PREFIX as KV_PREFIX,
)
from generator.sources.jsonschema_pkg import (
    available_versions,
    field_names,
    load_jsonschema_document,
    load_kubernetes_validate,
    package_bytes,
    package_version,
)
from generator.sources.openapi_v3 import (
    digest_line,
    document_files,
    load_openapi_v3_dir,
    load_openapi_v3_document,
)
from generator.sources.reader import MAX_SPEC_BYTES, parse_document, read_bytes, read_document
from generator.sources.routes import bundled_provenance, bundled_routes
from generator.sources.swagger_v2 import load_swagger
from generator.sources.upstream import PREFIX as UPSTREAM_PREFIX
from generator.sources.upstream import Resolved
from generator.sources.upstream import resolve as resolve_upstream

__all__ = ["DEFAULT_CACHE", "KV_PREFIX", "UPSTREAM_PREFIX", "Provenance", "RawDocument",
           "SourceOptions", "available_versions", "default_source", "definition_fields", "field_names",
           "load_source",
           "merge_documents", "source_digest"]

DEFAULT_CACHE = Path(".cache/k8s-api-docs")


@dataclass(frozen=True)
class SourceOptions:
    """How sources are read."""

    cache_dir: Path = DEFAULT_CACHE
    offline: bool = False
    max_bytes: int = MAX_SPEC_BYTES
    spec_mirror: Path | None = None
    """Directory of ``swagger-1.NN.json`` files read for ``upstream:`` sources before the cache."""
    lock_file: Path | None = None
    """``k8s-api-docs.lock``: digests of upstream releases without a shipped digest, recorded on
    first use and checked afterwards (``None``: neither recorded nor checked)."""


SourceKind = Literal["bundled", "upstream"]
SOURCE_KINDS: tuple[SourceKind, ...] = get_args(SourceKind)
"""Where a release without an explicit source comes from: ``bundled`` (kubernetes-validate,
offline, the default) or ``upstream`` (the release's official swagger.json)."""


def default_source(version: str, kind: str = "bundled") -> str:
    """The source of a release given only by its version: ``kubernetes-validate:1.31`` (bundled,
    offline) or ``upstream:1.31``."""
    if kind == "upstream":
        return f"{UPSTREAM_PREFIX}{version}"
    return f"{KV_PREFIX}{version}"


def load_source(spec: str, options: SourceOptions | None = None) -> RawDocument:
    """Read any supported source into a ``RawDocument`` (with its ``Provenance``)."""
    options = options or SourceOptions()
    if spec.startswith(KV_PREFIX):
        version = spec[len(KV_PREFIX) :]
        doc = load_kubernetes_validate(version)
        doc.provenance = Provenance("bundled", doc.sha256, release=version,
                                    package="kubernetes-validate", package_version=package_version())
        doc.routes, doc.routes_from = bundled_routes(version), bundled_provenance(version)
        return doc
    if spec.startswith(UPSTREAM_PREFIX):
        found = _upstream(spec, options)
        document, sha = read_document(found.path, options.max_bytes)
        doc = load_document(document, found.origin, sha)
        doc.label = spec
        doc.provenance = Provenance("upstream", sha, release=found.release.tag, url=found.release.url,
                                    file=Path(found.mirror_file).name if found.mirror_file else "",
                                    checked=found.checked)
        return doc
    if _is_url(spec):
        url, path = _fetched(spec, options)
        doc = _load_bytes(read_bytes(path, options.max_bytes), url)
        doc.provenance = Provenance("url", doc.sha256, url=url,
                                    checked="pinned" if "#sha256=" in spec else "")
        return doc
    path, is_dir = _local(spec)
    if is_dir:
        if not document_files(path) and not manifest_files(path):
            raise SpecError("empty directory: no CustomResourceDefinition manifests (*.yaml, "
                            "*.yml, *.json) or OpenAPI v3 documents (*.json)", Location(spec))
        if _is_crd_dir(path, options.max_bytes):
            doc = load_crd_dir(path, options.max_bytes)
        else:
            doc = load_openapi_v3_dir(path, options.max_bytes)
        doc.provenance = Provenance("directory", doc.sha256, file=path.resolve().name)
        return doc
    doc = _load_bytes(read_bytes(path, options.max_bytes), spec)
    doc.provenance = Provenance("file", doc.sha256, file=path.name)
    return doc


def _upstream(spec: str, options: SourceOptions) -> Resolved:
    return resolve_upstream(spec, cache_dir=options.cache_dir, offline=options.offline,
                            mirror=options.spec_mirror, lock_file=options.lock_file,
                            max_bytes=options.max_bytes)


def _load_bytes(data: bytes, origin: str) -> RawDocument:
    """A file's (or URL body's) definitions: CRD manifests when it holds several YAML documents
    or a CRD, else an OpenAPI document. ``origin`` decides JSON or YAML by its suffix; without a
    known one (a URL), JSON when the text starts like JSON."""
    sha = hashlib.sha256(data).hexdigest()
    name = origin.lower().removesuffix(".gz").split("?", 1)[0]
    if name.endswith((".yaml", ".yml")) or (not name.endswith(".json") and _is_url(origin)
                                             and data.lstrip()[:1] not in (b"{", b"[")):
        manifests = parse_manifests(data, origin, as_yaml=True)
        if documents_are_crds(manifests):
            return load_crd_manifests(manifests, origin, sha)
        if not manifests:
            raise SpecError(f"empty document ({len(data)} bytes)", Location(origin))
        return load_document(manifests[0].data, origin, sha)
    document = parse_document(data, origin)
    if is_crd(document):
        return load_crd_manifests(parse_manifests(data, origin, as_yaml=False), origin, sha)
    return load_document(document, origin, sha)


def _is_crd_dir(path: Path, max_bytes: int) -> bool:
    """A directory of CRD manifests (any YAML file, or JSON files that are not OpenAPI v3)
    rather than of OpenAPI v3 documents."""
    v3 = document_files(path)
    if not v3:
        return bool(manifest_files(path))
    document, _ = read_document(v3[0], max_bytes)
    return is_crd(document) or any(p.suffix.lower() in (".yaml", ".yml") for p in manifest_files(path))


def _is_url(spec: str) -> bool:
    return spec.lower().startswith(("http://", "https://"))


def _fetched(spec: str, options: SourceOptions) -> tuple[str, Path]:
    """The URL of a URL source (without its ``#sha256=`` pin) and its body in the cache."""
    url, _, pin = spec.partition("#sha256=")
    return url, fetch(url, options.cache_dir / "downloads", offline=options.offline,
                      sha256=pin or None, max_bytes=options.max_bytes)


def _local(spec: str) -> tuple[Path, bool]:
    """A path source that exists, and whether it is a directory."""
    if "\x00" in spec:
        raise SpecError("a source path cannot contain a NUL character", Location(spec))
    path = Path(spec)
    try:
        is_dir, exists = path.is_dir(), path.exists()
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror or exc}", Location(spec)) from None
    if not exists:
        raise SpecError("no such file or directory", Location(spec))
    return path, is_dir


def source_digest(spec: str, options: SourceOptions | None = None) -> str:
    """sha256 of a source's bytes without parsing it (a directory: of its files' names and
    digests), to tell whether a release's input changed. A URL is fetched (or read from the cache)."""
    options = options or SourceOptions()
    if spec.startswith(KV_PREFIX):
        return hashlib.sha256(package_bytes(spec[len(KV_PREFIX) :])).hexdigest()
    if spec.startswith(UPSTREAM_PREFIX):
        return _upstream(spec, options).sha256
    if _is_url(spec):
        return _fetched(spec, options)[1].name
    path, is_dir = _local(spec)
    if is_dir and _is_crd_dir(path, options.max_bytes):
        return crd_dir_digest(path, options.max_bytes)
    if is_dir:
        digest = hashlib.sha256()
        for child in document_files(path):
            data = read_bytes(child, options.max_bytes)
            digest.update(digest_line(child, hashlib.sha256(data).hexdigest()))
        return digest.hexdigest()
    return hashlib.sha256(read_bytes(path, options.max_bytes)).hexdigest()


def definition_fields(spec: str, options: SourceOptions | None = None
                      ) -> tuple[str, Mapping[str, frozenset[str]]]:
    """(format, definition name → property names) of a source: for a kubernetes-validate release
    from the package's raw definitions (``field_names``: no canonical document is made), else from
    the loaded document. A CRD's names are its field paths at every depth (its nested objects have
    rows with notes of their own)."""
    if spec.startswith(KV_PREFIX):
        return "jsonschema", field_names(spec[len(KV_PREFIX):])
    doc = load_source(spec, options)
    return doc.format, {name: frozenset(property_paths(schema) if name in doc.crds
                                        else schema.get("properties") or ())
                        for name, schema in doc.definitions.items()}


def property_paths(schema: Schema) -> list[str]:
    """Field paths of every property of an inline schema (``spec.rules[].matches[].path``)."""
    found: list[str] = []
    stack: list[tuple[object, str]] = [(schema, "")]
    while stack:
        node, path = stack.pop()
        if not isinstance(node, dict):
            continue
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, child in properties.items():
                here = f"{path}.{name}" if path else str(name)
                found.append(here)
                stack.append((child, here))
        stack.append((node.get("items"), path + "[]"))
        stack.append((node.get("additionalProperties"), path + "{}"))
    return sorted(found)


def load_document(document: Any, origin: str, sha256: str = "") -> RawDocument:
    """Recognise the format of a parsed document and load it."""
    if isinstance(document, dict):
        if "swagger" in document:
            return load_swagger(document, origin, sha256)
        if "openapi" in document:
            return load_openapi_v3_document(document, origin, sha256)
        if "$defs" in document:
            return load_jsonschema_document(document, origin, sha256)
    if isinstance(document, dict) and isinstance(document.get("kind"), str) and document["kind"]:
        api_version = document.get("apiVersion")
        what = f"a {one_line(document['kind'], 80)}" + (
            f" ({one_line(api_version, 80)})" if isinstance(api_version, str) else "")
        raise SpecError(f"{what} is not a CustomResourceDefinition (nor an OpenAPI document)",
                        Location(origin, ""))
    if isinstance(document, dict):
        problem = "top level object has no 'swagger', 'openapi' or '$defs' key"
    else:
        problem = f"top level is {_json_kind(document)}, not an object"
    raise SpecError(
        f"not an OpenAPI document: {problem} (expected 'swagger: \"2.0\"', 'openapi: 3.x' or '$defs')",
        Location(origin, ""),
    )


def merge_documents(base: RawDocument, extras: list[RawDocument]) -> RawDocument:
    """``base`` (a Kubernetes release) plus CRD sets: one document whose CRDs can refer to the
    release's definitions (``metadata`` becomes ObjectMeta). A name defined twice is an error."""
    merged = RawDocument(base.origin, base.format, dict(base.definitions), dict(base.pointers),
                         base.sha256, {n: base.file_of(n) for n in base.definitions},
                         label=base.label, provenance=base.provenance, crds=dict(base.crds),
                         diagnostics=list(base.diagnostics), routes=base.routes,
                         routes_from=base.routes_from)
    digest = hashlib.sha256(base.sha256.encode())
    for extra in extras:
        for name, schema in extra.definitions.items():
            if name in merged.definitions:
                raise SpecError(f"{name!r} is defined twice: in {merged.file_of(name)} and here",
                                Location(extra.file_of(name), extra.pointer_of(name)))
            merged.definitions[name] = schema
            merged.pointers[name] = extra.pointer_of(name)
            merged.files[name] = extra.file_of(name)
        merged.crds.update(extra.crds)
        merged.diagnostics.extend(extra.diagnostics)
        digest.update(extra.sha256.encode())
    merged.sha256 = digest.hexdigest() if extras else base.sha256
    return merged


def _json_kind(value: Any) -> str:
    """``a JSON array`` and the like, for messages."""
    if isinstance(value, list):
        return "a JSON array"
    if isinstance(value, str):
        return "a JSON string"
    if isinstance(value, bool):
        return "a JSON boolean"
    if isinstance(value, (int, float)):
        return "a JSON number"
    return "JSON null" if value is None else f"a {type(value).__name__}"
