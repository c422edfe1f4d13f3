"""The API server's RequestInfo of a request, for the tests' oracles: written out again from
``RequestInfoFactory.NewRequestInfo`` (kubernetes ``staging/src/k8s.io/apiserver/pkg/endpoints/
request/requestinfo.go``; the factory the server builds has ``APIPrefixes`` {api, apis} and
``GrouplessAPIPrefixes`` {api}), independent of ``generator.model.operations``: it imports nothing of
``generator``.

The Go function, in order: split the path on ``/`` (trimmed); fewer than 3 parts or a first part
not an API prefix is a non-resource request (verb: the lower-case method). ``apis`` needs 3 more
parts (group, version, one more), ``api`` has no group. After the version: a ``specialVerbs`` part
(``proxy``, ``watch``) is the verb and is consumed (an error if nothing follows); else the method
says it (POST create, GET/HEAD get, PUT update, PATCH patch, DELETE delete, else empty).
``namespaces/{ns}`` sets the namespace and, when a third part follows that is not a namespace
subresource (``status``, ``finalize``), the parts restart there. Then parts are
resource/name/subresource (no subresource for ``specialVerbsNoSubresources``: ``proxy``). No name
and ``get``: ``list``, or ``watch`` when the first ``watch`` query value is not ``false``/``0``
(any case). No name and ``delete``: ``deletecollection``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

API_PREFIXES = frozenset({"api", "apis"})
GROUPLESS_API_PREFIXES = frozenset({"api"})
SPECIAL_VERBS = frozenset({"proxy", "watch"})
SPECIAL_VERBS_NO_SUBRESOURCES = frozenset({"proxy"})
NAMESPACE_SUBRESOURCES = frozenset({"status", "finalize"})


@dataclass
class ServerRequestInfo:
    """Go's ``RequestInfo`` (field names in snake case)."""

    is_resource_request: bool
    path: str
    verb: str
    api_prefix: str = ""
    api_group: str = ""
    api_version: str = ""
    namespace: str = ""
    resource: str = ""
    subresource: str = ""
    name: str = ""
    parts: list[str] = field(default_factory=list)


class UnresolvableRequest(ValueError):
    """``unable to determine kind and namespace from url``."""


def new_request_info(method: str, path: str, query: Mapping[str, list[str]] | None = None,
                     ) -> ServerRequestInfo:
    """``NewRequestInfo`` of a request: ``method``, URL ``path`` and query (name → values)."""
    info = ServerRequestInfo(False, path, method.lower())
    trimmed = path.strip("/")
    current = trimmed.split("/") if trimmed else []
    if len(current) < 3 or current[0] not in API_PREFIXES:
        return info
    info.api_prefix, current = current[0], current[1:]
    if info.api_prefix not in GROUPLESS_API_PREFIXES:
        if len(current) < 3:
            return info
        info.api_group, current = current[0], current[1:]
    info.is_resource_request = True
    info.api_version, current = current[0], current[1:]
    if current[0] in SPECIAL_VERBS:
        if len(current) < 2:
            raise UnresolvableRequest(f"unable to determine kind and namespace from url, {path}")
        info.verb, current = current[0], current[1:]
    else:
        info.verb = {"POST": "create", "GET": "get", "HEAD": "get", "PUT": "update",
                     "PATCH": "patch", "DELETE": "delete"}.get(method, "")
    if current[0] == "namespaces" and len(current) > 1:
        info.namespace = current[1]
        if len(current) > 2 and current[2] not in NAMESPACE_SUBRESOURCES:
            current = current[2:]
    info.parts = current
    if len(current) >= 3 and info.verb not in SPECIAL_VERBS_NO_SUBRESOURCES:
        info.subresource = current[2]
    if len(current) >= 2:
        info.name = current[1]
    if len(current) >= 1:
        info.resource = current[0]
    if not info.name and info.verb == "get":
        values = (query or {}).get("watch", [])
        info.verb = "list" if not values or values[0].lower() in ("false", "0") else "watch"
    if not info.name and info.verb == "delete":
        info.verb = "deletecollection"
    return info
