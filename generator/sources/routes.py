"""REST routes of a source: the ``paths`` of a swagger v2 or OpenAPI v3 document, or, for the
offline default source (kubernetes-validate has no ``paths``), the compact data shipped in
``operations.json`` (made by ``scripts/operations_data.py`` from official artifacts).

A ``Route`` is one HTTP method on one path, as the document states it; which kind it belongs to,
its RBAC rule and its Python call are worked out by ``model.operations``.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("operations.json.gz")
"""Routes of every bundled release (``scripts/operations_data.py`` writes it): JSON, one route a
line, gzipped."""

METHODS = ("get", "put", "post", "delete", "options", "head", "patch")
_TAG_WORD = re.compile(r"[^A-Za-z0-9]+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")


@dataclass(frozen=True, slots=True)
class RouteParam:
    """A path or query parameter (a body is ``Route.body``)."""

    name: str
    location: str
    """``path`` or ``query``."""
    type: str
    """``string``, ``integer``, ``boolean`` (as the document says)."""
    required: bool = False
    description: str = ""
    """The document's own text (empty for bundled data, which ships no spec text)."""


@dataclass(frozen=True, slots=True)
class Route:
    """One HTTP method on one path."""

    method: str
    """Upper case: ``GET``."""
    path: str
    action: str
    """``x-kubernetes-action`` (``get``, ``list``, ``watchlist``, ``put``, ``post``, ``connect`` …)."""
    python: str
    """The official client's ``Class.method`` (``CoreV1Api.read_namespaced_pod``); empty for a
    route the client has no method for (the deprecated ``/watch/`` paths)."""
    gvk: tuple[str, str, str] = ("", "", "")
    """``x-kubernetes-group-version-kind`` of the operation (group, version, kind)."""
    body: str = ""
    """Definition name of the request body, if it is a definition."""
    body_required: bool = False
    response: str = ""
    """Definition name of the 200 response, if any."""
    params: tuple[RouteParam, ...] = ()
    response_type: str = ""
    """The 200 response's schema type when it is not a definition (``string``: pod log, connect)."""
    response_media: str = ""
    """The first media type the operation produces for such a response (``text/plain``)."""


def python_name(operation_id: str, tag: str) -> str:
    """The official client's ``Class.method`` of an operation: the client's generator strips the
    camel-cased tag from the operation id (``readCoreV1NamespacedPod`` with tag ``core_v1`` →
    ``read_namespaced_pod``) and names the class after the tag (``CoreV1Api``). Watch operations
    have no method (the client drops them: ``watch.Watch().stream`` calls the list method)."""
    if not operation_id or not tag:
        return ""
    camel = "".join(w[:1].upper() + w[1:] for w in _TAG_WORD.split(tag) if w)
    method = operation_id.replace(camel, "", 1)
    if method == operation_id:
        return ""
    snake = _CAMEL.sub(r"\1_\2", _ACRONYM.sub(r"\1_\2", method)).lower()
    return f"{camel}Api.{snake}"


def _ref_name(value: Any, prefix: str) -> str:
    if isinstance(value, dict) and isinstance(value.get("$ref"), str) and value["$ref"].startswith(prefix):
        return str(value["$ref"][len(prefix):])
    return ""


def _param(raw: Any, shared: dict[str, Any]) -> dict[str, Any] | None:
    if isinstance(raw, dict) and isinstance(raw.get("$ref"), str):
        raw = shared.get(raw["$ref"].rsplit("/", 1)[-1])
    return raw if isinstance(raw, dict) else None


def document_routes(document: Any) -> tuple[Route, ...]:
    """Routes of a parsed swagger v2 or OpenAPI v3 document (``()`` without ``paths``).
    Malformed entries are skipped: routes are an extra, never a reason to refuse a spec."""
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        return ()
    v3 = "openapi" in document
    components = document.get("components") if v3 else None
    shared = (components.get("parameters") if isinstance(components, dict) else None) if v3 \
        else document.get("parameters")
    shared = shared if isinstance(shared, dict) else {}
    prefix = "#/components/schemas/" if v3 else "#/definitions/"
    out: list[Route] = []
    for path, item in document["paths"].items():
        if not isinstance(path, str) or not isinstance(item, dict):
            continue
        common = [p for p in map(lambda r: _param(r, shared), item.get("parameters") or ()) if p]
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                route = _route(method.upper(), path, op, common, shared, prefix, v3)
                if route is not None:
                    out.append(route)
    return tuple(sorted(out, key=lambda r: (r.path, r.method)))


def _schema_ref(container: Any, prefix: str, v3: bool) -> str:
    if not isinstance(container, dict):
        return ""
    if not v3:
        return _ref_name(container.get("schema"), prefix)
    content = container.get("content")
    if isinstance(content, dict):
        for media in content.values():
            if isinstance(media, dict) and (name := _ref_name(media.get("schema"), prefix)):
                return name
    return ""


def _route(method: str, path: str, op: dict[str, Any], common: list[dict[str, Any]],
           shared: dict[str, Any], prefix: str, v3: bool) -> Route | None:
    action = op.get("x-kubernetes-action")
    if not isinstance(action, str):
        return None  # discovery and other non-resource endpoints
    gvk = op.get("x-kubernetes-group-version-kind")
    gvk = gvk if isinstance(gvk, dict) else {}
    tags = op.get("tags")
    tag = tags[0] if isinstance(tags, list) and tags and isinstance(tags[0], str) else ""
    operation_id = _text(op.get("operationId"))
    params: dict[tuple[str, str], RouteParam] = {}
    body, body_required = "", False
    for raw in [*common, *(p for p in map(lambda r: _param(r, shared), op.get("parameters") or ()) if p)]:
        name, where = raw.get("name"), raw.get("in")
        if not isinstance(name, str) or not isinstance(where, str):
            continue
        if where == "body":
            body, body_required = _ref_name(raw.get("schema"), prefix), bool(raw.get("required"))
            continue
        if where not in ("path", "query"):
            continue
        schema = raw.get("schema") if v3 and isinstance(raw.get("schema"), dict) else raw
        kind = _text(schema.get("type")) or "string" if isinstance(schema, dict) else "string"
        text = _text(raw.get("description"))
        params[(where, name)] = RouteParam(name, where, kind, bool(raw.get("required")) or where == "path",
                                           text)
    if v3 and isinstance(op.get("requestBody"), dict):
        body = _schema_ref(op["requestBody"], prefix, v3)
        body_required = bool(op["requestBody"].get("required"))
    responses = op.get("responses")
    ok = responses.get("200") or responses.get("201") if isinstance(responses, dict) else None
    python = "" if action in ("watch", "watchlist") else python_name(operation_id, tag)
    response = _schema_ref(ok, prefix, v3)
    response_type, response_media = ("", "") if response else _plain_response(ok, op, v3)
    return Route(method, path, action, python,
                 (str(gvk.get("group", "")), str(gvk.get("version", "")), str(gvk.get("kind", ""))),
                 body, body_required, response, tuple(params.values()), response_type, response_media)


def _plain_response(ok: Any, op: dict[str, Any], v3: bool) -> tuple[str, str]:
    """(schema type, first media type) of a 200 response that is not a definition: pod log is
    ``("string", "text/plain")``; ``("", "")`` when the document says no type."""
    if not isinstance(ok, dict):
        return "", ""
    if v3:
        content = ok.get("content")
        for media, entry in (content.items() if isinstance(content, dict) else ()):
            schema = entry.get("schema") if isinstance(entry, dict) else None
            if isinstance(schema, dict) and isinstance(schema.get("type"), str):
                return schema["type"], _text(media)
        return "", ""
    schema = ok.get("schema")
    if not isinstance(schema, dict) or not isinstance(schema.get("type"), str):
        return "", ""
    produces = op.get("produces")
    media = produces[0] if isinstance(produces, list) and produces and isinstance(produces[0], str) else ""
    return schema["type"], media


# -- the shipped data ---------------------------------------------------------------------------

@cache
def _data() -> dict[str, Any]:
    try:
        return dict(json.loads(gzip.decompress(DATA_FILE.read_bytes())))
    except (OSError, ValueError, EOFError):
        return {}


def bundled_provenance(release: str) -> str:
    """What the shipped routes of ``release`` were derived from (one sentence for the page)."""
    entry = _data().get("releases", {}).get(release)
    return str(entry["from"]) if entry else ""


def decode_ranges(text: str) -> list[int]:
    """``"0-3,7"`` → ``[0, 1, 2, 3, 7]``."""
    out: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def encode_ranges(indices: list[int]) -> str:
    """Inverse of ``decode_ranges`` (sorted input)."""
    parts: list[str] = []
    start = prev = -2
    for i in [*indices, -5]:
        if i == prev + 1:
            prev = i
            continue
        if start >= 0:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = i
    return ",".join(parts)


def bundled_routes(release: str) -> tuple[Route, ...]:
    """The shipped routes of a bundled release (``()`` when the data has none for it)."""
    data = _data()
    entry = data.get("releases", {}).get(release)
    if not entry:
        return ()
    params = [RouteParam(p[0], p[1], p[2], bool(p[3])) for p in data["params"]]
    types = data["types"]
    out = []
    for i in decode_ranges(entry["routes"]):
        method, path, action, python, gvk, body, required, response, plist = data["routes"][i][:9]
        plain = data["routes"][i][9] if len(data["routes"][i]) > 9 else ""
        response_type, _, response_media = plain.partition(" ")
        group, version, kind = [*types[gvk].split("/"), "", ""][:3] if gvk >= 0 else ("", "", "")
        out.append(Route(method, path, action, python, (group, version, kind),
                         types[body] if body >= 0 else "", bool(required),
                         types[response] if response >= 0 else "",
                         tuple(params[p] for p in decode_ranges(plist)), response_type, response_media))
    return tuple(out)


def _release_key(item: tuple[str, object]) -> tuple[int, ...]:
    return tuple(int(p) for p in item[0].split("."))


def pack(text: str) -> bytes:
    """The data file's bytes for its JSON text (gzip without a timestamp: reproducible)."""
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def encode_routes(releases: dict[str, tuple[tuple[Route, ...], str]]) -> str:
    """The shipped data file's JSON text for ``release → (routes, provenance)`` (deterministic)."""
    all_routes = sorted({r for routes, _ in releases.values() for r in routes},
                        key=lambda r: (r.path, r.method, r.python, repr(r)))
    params = sorted({(p.name, p.location, p.type, p.required) for r in all_routes for p in r.params})
    param_index = {p: i for i, p in enumerate(params)}
    types = sorted({t for r in all_routes for t in (r.body, r.response) if t}
                   | {"/".join(r.gvk) for r in all_routes if any(r.gvk)})
    type_index = {t: i for i, t in enumerate(types)}
    route_index = {r: i for i, r in enumerate(all_routes)}
    rows = [[r.method, r.path, r.action, r.python,
             type_index["/".join(r.gvk)] if any(r.gvk) else -1,
             type_index.get(r.body, -1), int(r.body_required), type_index.get(r.response, -1),
             encode_ranges(sorted(param_index[(p.name, p.location, p.type, p.required)]
                                  for p in r.params)),
             f"{r.response_type} {r.response_media}" if r.response_type else ""]
            for r in all_routes]
    data = {
        "about": "REST routes of each bundled Kubernetes release, derived by "
                 "scripts/operations_data.py; indices into params/types/routes; a route's last "
                 "item is the type and media type of a response that is not a definition.",
        "params": [list(p) for p in params],
        "types": types,
        "routes": rows,
        "releases": {v: {"from": source,
                         "routes": encode_ranges(sorted(route_index[r] for r in routes))}
                     for v, (routes, source) in sorted(releases.items(), key=_release_key)},
    }
    lines = [json.dumps({k: v for k, v in data.items() if k != "routes"}, sort_keys=True)[:-1]]
    lines[0] += ', "routes": ['
    lines.extend(json.dumps(row) + ("," if i < len(rows) - 1 else "") for i, row in enumerate(rows))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def _text(value: object) -> str:
    """``value`` if it is a string, else ``""`` (spec values are untrusted)."""
    return value if isinstance(value, str) else ""
