"""CustomResourceDefinition loader: CRD manifests → canonical definitions, one per CRD version.

A CRD version's ``openAPIV3Schema`` becomes the definition ``<reversed group>.<version>.<Kind>``
(the k8s-libsonnet naming: ``gateway.networking.k8s.io`` → ``io.k8s.networking.gateway.v1.HTTPRoute``)
with its schema kept inline; nested objects get their names in the model (``model.normalize``).
What the CRD says besides the schema (names, scope, versions, printer columns, subresources,
conversion) travels as plain data in ``RawDocument.crds``.

Accepted: ``apiextensions.k8s.io/v1`` and ``v1beta1`` (``spec.validation`` and top-level
``spec.version``), YAML (one or many documents) or JSON (one CRD or a ``List``), a file, a
directory (recursively) or a fetched URL. Other documents are skipped with one INFO diagnostic.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from generator.errors import Diagnostics, Level, Location, SpecError, escape_pointer_token, pointer
from generator.sources.base import RawDocument
from generator.sources.canonical import MAX_DEPTH, Dialect, canonicalize
from generator.sources.reader import MAX_SPEC_BYTES, json_error_message, plain_json_data, read_bytes

if TYPE_CHECKING:
    import yaml

API_GROUP = "apiextensions.k8s.io"
CRD_KIND = "CustomResourceDefinition"
YAML_SUFFIXES = (".yaml", ".yml")
CRD_SUFFIXES = (*YAML_SUFFIXES, ".json")
_TEMPLATE = re.compile(r"\{\{.*?\}\}")
_NO_REFS = Dialect("#/\0never/", "")
"""CRD schemas may not use ``$ref`` (rejected before canonicalizing)."""
_TEXT_KEYS = frozenset({"description", "message", "messageExpression", "rule", "deprecationWarning"})
"""Keys whose string values are prose or CEL, where ``{{`` is not a Helm template."""


@dataclass(frozen=True)
class Manifest:
    """One parsed document of a manifest file and where it is."""

    file: str
    index: int
    """0-based position of the document in its file (``(document N)`` in messages is 1-based)."""
    count: int
    data: Any
    braces: bool = True
    """Whether some string of the document may hold ``{{`` (``False`` only when the YAML walk
    saw none: the Helm-template check is then skipped)."""

    @property
    def source(self) -> str:
        """What messages name: the file, plus the document number when the file has several."""
        return f"{self.file} (document {self.index + 1})" if self.count > 1 else self.file


def is_crd(document: Any) -> bool:
    """Whether a parsed document is a CRD (or a ``List`` holding CRDs)."""
    if not isinstance(document, dict):
        return False
    api_version = document.get("apiVersion")
    kind = document.get("kind")
    if kind == CRD_KIND and isinstance(api_version, str) and api_version.startswith(API_GROUP + "/"):
        return True
    if kind in ("List", CRD_KIND + "List") and isinstance(document.get("items"), list):
        return any(is_crd(item) for item in document["items"])
    return False


def parse_manifests(data: bytes, origin: str, *, as_yaml: bool | None = None) -> list[Manifest]:
    """Every document of a manifest file (empty YAML documents dropped). ``as_yaml``: ``None``
    decides by the name's suffix and, for names without one (cached URLs), by trying JSON first."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(f"not UTF-8 text (byte {exc.start})", Location(origin)) from None
    if as_yaml is None:
        name = origin.lower().removesuffix(".gz")
        as_yaml = name.endswith(YAML_SUFFIXES) or not text.lstrip().startswith(("{", "["))
    if not as_yaml:
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SpecError(json_error_message(exc, text), Location(origin)) from None
        except (RecursionError, ValueError) as exc:
            raise SpecError(f"invalid JSON: {exc}", Location(origin)) from None
        return [Manifest(origin, 0, 1, document)]
    import yaml  # YAML only when a YAML document is read (``sources.yaml_loaders``)

    from generator.sources.fast_yaml import load_documents
    from generator.sources.yaml_loaders import FastLoader

    try:
        try:
            fast = load_documents(text, origin)
        except SpecError:  # what kubectl refuses: a Helm template's {{ … }} is a complex key
            refuse_template_text(text, origin)
            raise
        if fast is not None:
            documents, braces = fast
            return [Manifest(origin, i, len(documents), d, braces) for i, d in enumerate(documents)]
        documents = [d for d in yaml.load_all(text, Loader=FastLoader) if d is not None]
    except yaml.YAMLError as fast_error:
        refuse_template_text(text, origin)
        _raise_yaml_error(_python_yaml_error(text) or fast_error, origin)
    except RecursionError:
        raise SpecError("YAML nested too deeply", Location(origin)) from None
    if _has_aliases(documents):
        _raise_yaml_error(_python_yaml_error(text), origin)
    count = len(documents)
    return [Manifest(origin, i, count, plain_json_data(d, origin)) for i, d in enumerate(documents)]


def _python_yaml_error(text: str) -> yaml.YAMLError | None:
    """The pure-Python parser's error for ``text``, the first in document order (its messages
    are the documented ones)."""
    import yaml

    from generator.sources.yaml_loaders import FirstErrorLoader

    try:
        for _ in yaml.load_all(text, Loader=FirstErrorLoader):
            pass
    except yaml.YAMLError as exc:
        return exc
    except RecursionError:
        return None
    return None


def _raise_yaml_error(exc: yaml.YAMLError | None, origin: str) -> NoReturn:
    mark = getattr(exc, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
    problem = getattr(exc, "problem", None) or "invalid YAML"
    raise SpecError(f"invalid YAML at {where}: {problem}", Location(origin)) from None


def _has_aliases(documents: list[Any]) -> bool:
    """YAML aliases load as one object in several places (the pure-Python parser then says
    where, and refuses them: no "billion laughs")."""
    seen: set[int] = set()
    stack: list[Any] = list(documents)
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list)):
            if id(node) in seen:
                return True
            seen.add(id(node))
            stack.extend(node.values() if isinstance(node, dict) else node)
    return False


def template_line(text: str, action: re.Pattern[str] = _TEMPLATE) -> tuple[int, int] | None:
    """The line of the first template ``action`` (default: any ``{{ … }}``) in ``text`` and the
    document (from 0) it is in, or ``None``."""
    document = 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("---"):
            document += 1
        if action.search(line):
            return number, document
    return None


def refuse_template_text(text: str, origin: str) -> None:
    """A file YAML cannot parse because it is a Helm template: say so, with the line."""
    found = template_line(text)
    if found is not None:
        number, document = found
        where = f"{origin} (document {document + 1})" if document else origin
        raise SpecError(f"Helm template syntax {{{{ … }}}} at line {number}: render the chart "
                        "first (helm template), then document its output", Location(where))


def _template_pointer(value: Any, at: str = "", key: str = "") -> str | None:
    """Pointer of the first value or key that holds ``{{ … }}`` outside prose and CEL."""
    if isinstance(value, dict):
        for k, v in value.items():
            if _TEMPLATE.search(k):
                return at + pointer(k)
            found = _template_pointer(v, at + pointer(k), k)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _template_pointer(v, at + pointer(i), key)
            if found is not None:
                return found
    elif isinstance(value, str) and key not in _TEXT_KEYS and _TEMPLATE.search(value):
        return at
    return None


def manifest_files(directory: Path) -> list[Path]:
    """Manifest files under ``directory`` (recursively, hidden ones skipped), in a stable order."""
    try:
        found = [p for p in directory.rglob("*") if p.name.lower().endswith(CRD_SUFFIXES)
                 and p.is_file() and not any(part.startswith(".")
                                             for part in p.relative_to(directory).parts)]
    except OSError as exc:
        raise SpecError(f"cannot list directory: {exc.strerror or exc}",
                        Location(str(directory))) from None
    return sorted(found, key=lambda p: p.relative_to(directory).as_posix())


def definition_name(group: str, version: str, kind: str) -> str:
    """``gateway.networking.k8s.io``, ``v1``, ``HTTPRoute`` → ``io.k8s.networking.gateway.v1.HTTPRoute``."""
    return ".".join([*reversed(group.split(".")), version, kind])


class CrdLoader:
    """Collects the CRDs of one or many manifests into one ``RawDocument``."""

    def __init__(self, origin: str) -> None:
        self.doc = RawDocument(origin, "crd", {})
        self.diagnostics = Diagnostics()
        self._kinds: dict[tuple[str, str], str] = {}
        """(group, kind) → source of the CRD that defined it."""
        self._digest = hashlib.sha256()

    def add_bytes(self, data: bytes, origin: str, *, as_yaml: bool | None = None) -> None:
        self._digest.update(_digest_line(origin, data))
        for manifest in parse_manifests(data, origin, as_yaml=as_yaml):
            self.add(manifest)

    def add(self, manifest: Manifest) -> None:
        data = manifest.data
        if isinstance(data, dict) and data.get("kind") in ("List", CRD_KIND + "List") and is_crd(data):
            for i, item in enumerate(data["items"]):
                self._add_crd(manifest, item, pointer("items", i))
            return
        if not is_crd(data):
            self.diagnostics.add(Level.INFO, f"skipped: {_describe(data)} is not a "
                                 f"CustomResourceDefinition", Location(manifest.source))
            return
        self._add_crd(manifest, data, "")

    def finish(self) -> RawDocument:
        if not self.doc.definitions:
            raise SpecError("no CustomResourceDefinition found", Location(self.doc.origin))
        self.doc.sha256 = self._digest.hexdigest()
        self.doc.diagnostics = list(self.diagnostics)
        return self.doc

    # -- one CRD ---------------------------------------------------------------------------
    def _add_crd(self, manifest: Manifest, crd: Any, at: str) -> None:
        src = manifest.source
        if not isinstance(crd, dict) or not is_crd(crd):
            self.diagnostics.add(Level.INFO, f"skipped: {_describe(crd)} is not a "
                                 "CustomResourceDefinition", Location(src, at))
            return
        found = _template_pointer(crd) if manifest.braces else None
        if found is not None:
            raise SpecError("Helm template syntax {{ … }}: render the chart first (helm template), "
                            "then document its output", Location(src, at + found))
        spec = _get(crd, "spec", dict, src, at)
        group = _get(spec, "group", str, src, at + "/spec")
        names = _get(spec, "names", dict, src, at + "/spec")
        kind = _get(names, "kind", str, src, at + "/spec/names")
        if not group or not kind:
            raise SpecError("spec.group and spec.names.kind must not be empty", Location(src, at + "/spec"))
        previous = self._kinds.get((group, kind))
        if previous is not None:
            raise SpecError(f"two CRDs define kind {kind!r} in group {group!r}: {previous} and {src}",
                            Location(src, at + "/spec/names/kind"))
        self._kinds[(group, kind)] = src
        beta = crd["apiVersion"].endswith("/v1beta1")
        versions = _versions(spec, beta, src, at)
        common = {
            "group": group, "kind": kind,
            "plural": names.get("plural", ""), "singular": names.get("singular", ""),
            "listKind": names.get("listKind", ""),
            "shortNames": _strings(names.get("shortNames"), src, at + "/spec/names/shortNames"),
            "categories": _strings(names.get("categories"), src, at + "/spec/names/categories"),
            "scope": spec.get("scope", "Namespaced"),
            "conversion": _conversion(spec.get("conversion")),
            "crdName": _text(crd["metadata"].get("name")) if isinstance(crd.get("metadata"), dict) else "",
            "file": manifest.file,
            "apiextensions": crd["apiVersion"],
            "versions": [{"name": v["name"], "served": v["served"], "storage": v["storage"],
                          "deprecated": v["deprecated"]} for v in versions],
        }
        for version in versions:
            name = definition_name(group, version["name"], kind)
            schema, schema_at = version["schema"], version["schema_at"]
            _refuse_refs(schema, src, schema_at, 0)
            self.doc.definitions[name] = canonicalize(schema, Dialect(_NO_REFS.ref_prefix, src), schema_at)
            self.doc.pointers[name] = schema_at
            self.doc.files[name] = src
            self.doc.crds[name] = {**common, **{k: v for k, v in version.items()
                                                if k not in ("schema", "schema_at")}}


def _versions(spec: dict[str, Any], beta: bool, src: str, at: str) -> list[dict[str, Any]]:
    """Each version of a CRD with its schema (v1beta1: shared ``spec.validation`` and columns)."""
    raw = spec.get("versions")
    if raw is None and beta and isinstance(spec.get("version"), str):
        raw = [{"name": spec["version"], "served": True, "storage": True}]
    if not isinstance(raw, list) or not raw:
        raise SpecError("spec.versions must be a non-empty array", Location(src, at + "/spec/versions"))
    shared_schema = None
    if beta and isinstance(spec.get("validation"), dict):
        shared_schema = spec["validation"].get("openAPIV3Schema")
    shared_columns = spec.get("additionalPrinterColumns") if beta else None
    shared_subresources = spec.get("subresources") if beta else None
    seen: dict[str, int] = {}
    out = []
    for i, version in enumerate(raw):
        here = f"{at}/spec/versions/{i}"
        _get_dict(version, src, here)
        name = _get(version, "name", str, src, here)
        if name in seen:
            raise SpecError(f"version {name!r} is listed twice (also at {at}/spec/versions/{seen[name]})",
                            Location(src, here + "/name"))
        seen[name] = i
        schema_at = here + "/schema/openAPIV3Schema"
        schema = (version.get("schema") or {}).get("openAPIV3Schema") if isinstance(
            version.get("schema"), dict) else None
        if schema is None and shared_schema is not None:
            schema, schema_at = shared_schema, f"{at}/spec/validation/openAPIV3Schema"
        if not isinstance(schema, dict) or not schema:
            raise SpecError(f"CRD version {name!r} has no schema (openAPIV3Schema): nothing to document",
                            Location(src, schema_at))
        columns = version.get("additionalPrinterColumns", shared_columns) or []
        columns_at = here + "/additionalPrinterColumns"
        _get_list(columns, src, columns_at)
        out.append({
            "name": name,
            "served": version.get("served", True) is True,
            "storage": version.get("storage", False) is True,
            "deprecated": version.get("deprecated", False) is True,
            "deprecationWarning": _text(version.get("deprecationWarning")),
            "selectableFields": _selectable_fields(version.get("selectableFields")),
            "printerColumns": [_column(c, beta, src, f"{columns_at}/{j}") for j, c in enumerate(columns)],
            "subresources": _subresources(version.get("subresources", shared_subresources)),
            "schema": schema, "schema_at": schema_at,
        })
    return out


def _selectable_fields(value: Any) -> list[str]:
    """``selectableFields`` JSON paths (entries without a string ``jsonPath`` are ignored)."""
    if not isinstance(value, list):
        return []
    return [f["jsonPath"] for f in value if isinstance(f, dict) and isinstance(f.get("jsonPath"), str)]


def _column(column: Any, beta: bool, src: str, at: str) -> dict[str, Any]:
    _get_dict(column, src, at)
    path_key = "JSONPath" if beta and "JSONPath" in column else "jsonPath"
    return {"name": _text(column.get("name")), "type": _text(column.get("type")),
            "format": _text(column.get("format")), "jsonPath": _text(column.get(path_key)),
            "description": _text(column.get("description")),
            "priority": column.get("priority") if isinstance(column.get("priority"), int) else 0}


def _subresources(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(value.get("status"), dict):
        out["status"] = True
    scale = value.get("scale")
    if isinstance(scale, dict):
        out["scale"] = {k: _text(scale.get(k)) for k in
                        ("specReplicasPath", "statusReplicasPath", "labelSelectorPath") if scale.get(k)}
    return out


def _conversion(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {"strategy": "None"}
    out: dict[str, Any] = {"strategy": _text(value.get("strategy")) or "None"}
    webhook: dict[str, Any] = value["webhook"] if isinstance(value.get("webhook"), dict) else {}
    versions = webhook.get("conversionReviewVersions", value.get("conversionReviewVersions"))
    if isinstance(versions, list):
        out["reviewVersions"] = [v for v in versions if isinstance(v, str)]
    return out


def _refuse_refs(schema: Any, src: str, at: str, depth: int) -> None:
    """CRD schemas are inline: ``$ref`` is refused (as the API server does), and so is nesting
    deeper than ``canonical.MAX_DEPTH``. Pointers are only spelled out for the error."""
    # entries: (node, parent entry, token from the parent, level)
    stack: list[tuple[Any, Any, Any, int]] = [(schema, None, None, depth)]
    while stack:
        entry = stack.pop()
        node, _, _, level = entry
        if isinstance(node, dict):
            if level > MAX_DEPTH:
                raise SpecError(f"schema nested deeper than {MAX_DEPTH} levels",
                                Location(src, _pointer_of(at, entry)))
            if "$ref" in node:
                raise SpecError("$ref is not allowed in a CRD schema (schemas must be inline)",
                                Location(src, _pointer_of(at, entry) + "/$ref"))
            for key, value in node.items():
                if key in ("properties", "patternProperties", "definitions") and isinstance(value, dict):
                    stack.extend((v, entry, (key, k), level + 1) for k, v in value.items())
                elif key in ("items", "additionalProperties", "not"):
                    stack.append((value, entry, (key,), level + 1))
                elif key in ("allOf", "anyOf", "oneOf") and isinstance(value, list):
                    stack.extend((v, entry, (key, i), level + 1) for i, v in enumerate(value))
        elif isinstance(node, list):  # items as an array
            stack.extend((v, entry, (i,), level) for i, v in enumerate(node))


def _pointer_of(at: str, entry: tuple[Any, Any, Any, int]) -> str:
    """The JSON pointer of a ``_refuse_refs`` entry below ``at``."""
    tokens: list[Any] = []
    while entry[1] is not None:
        tokens[:0] = entry[2]
        entry = entry[1]
    return at + "".join("/" + (escape_pointer_token(t) if isinstance(t, str) else str(t)) for t in tokens)


def _describe(data: Any) -> str:
    if isinstance(data, dict):
        kind, api_version = data.get("kind"), data.get("apiVersion")
        if isinstance(kind, str) and kind:
            return f"a {kind}" + (f" ({api_version})" if isinstance(api_version, str) else "")
        return "an object without kind"
    return "a document that is not an object"


def _get(obj: dict[str, Any], key: str, kind: type, src: str, at: str) -> Any:
    value = obj.get(key)
    if not isinstance(value, kind):
        names: dict[type, str] = {dict: "an object", str: "a string", list: "an array"}
        what = names.get(kind, kind.__name__)
        raise SpecError(f"{key} must be {what}", Location(src, f"{at}/{key}"))
    return value


def _get_dict(value: Any, src: str, at: str) -> None:
    if not isinstance(value, dict):
        raise SpecError("must be an object", Location(src, at))


def _get_list(value: Any, src: str, at: str) -> None:
    if not isinstance(value, list):
        raise SpecError("must be an array", Location(src, at))


def _strings(value: Any, src: str, at: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError("must be an array of strings", Location(src, at))
    return list(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def documents_are_crds(manifests: list[Manifest]) -> bool:
    """Whether a parsed file is a CRD manifest: several documents, or one that is a CRD."""
    return len(manifests) > 1 or any(is_crd(m.data) for m in manifests)


def _digest_line(origin: str, data: bytes) -> bytes:
    return f"{origin}\0{hashlib.sha256(data).hexdigest()}\n".encode()


def crd_dir_digest(directory: Path, max_bytes: int = MAX_SPEC_BYTES) -> str:
    """What ``load_crd_dir(directory).sha256`` is, without parsing."""
    digest = hashlib.sha256()
    for path in manifest_files(directory):
        digest.update(_digest_line(str(path), read_bytes(path, max_bytes)))
    return digest.hexdigest()


def load_crd_dir(directory: Path, max_bytes: int = MAX_SPEC_BYTES) -> RawDocument:
    """Every CRD under ``directory`` (recursively); other documents are skipped with a note."""
    files = manifest_files(directory)
    if not files:
        raise SpecError("no *.yaml, *.yml or *.json manifests in directory", Location(str(directory)))
    loader = CrdLoader(str(directory))
    for path in files:
        loader.add_bytes(read_bytes(path, max_bytes), str(path))
    return loader.finish()


def load_crd_manifests(manifests: list[Manifest], origin: str, sha256: str) -> RawDocument:
    loader = CrdLoader(origin)
    for manifest in manifests:
        loader.add(manifest)
    doc = loader.finish()
    doc.sha256 = sha256
    return doc
