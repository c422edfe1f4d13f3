"""Operations of a kind as model data: one HTTP method on one path, what the API server checks
for it (RBAC) and the official Python client's call (``model.operations`` builds them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.sources.routes import RouteParam


@dataclass(frozen=True, slots=True)
class RbacRule:
    """The RBAC rule that allows one request: ``apiGroups``, ``resources``, ``verbs``."""

    api_group: str
    resource: str
    """``pods`` or ``pods/log``."""
    verb: str
    """Empty when the API server derives no verb (``OPTIONS``): only ``verbs: ["*"]`` allows it."""

    def to_dict(self) -> dict[str, Any]:
        return {"apiGroups": [self.api_group], "resources": [self.resource],
                "verbs": [self.verb] if self.verb else []}


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of a kind."""

    method: str
    path: str
    action: str
    """``get``, ``list``, ``watch``, ``create``, ``update``, ``patch``, ``delete``,
    ``deletecollection`` or ``connect``."""
    resource: str
    subresource: str
    scope: str
    """``namespace`` (path has ``{namespace}``), ``all`` (a namespaced kind across namespaces)
    or ``cluster``."""
    rbac: RbacRule
    params: tuple[RouteParam, ...] = ()
    body: str = ""
    """Definition name of the request body (``io.k8s.api.autoscaling.v1.Scale``)."""
    response: str = ""
    python: str = ""
    """``CoreV1Api.read_namespaced_pod``: a method of the release's official client; empty for
    the deprecated ``/watch/`` paths (see ``watch_via``)."""
    python_args: tuple[str, ...] = ()
    """Positional arguments of the call (``name``, ``namespace``; CRDs: quoted group etc.)."""
    watch_via: str = ""
    """A deprecated ``/watch/`` path: the list method ``watch.Watch().stream`` calls instead."""
    watch_single: bool = False
    """A ``/watch/…/{name}`` path: one object (the stream gets ``field_selector``)."""
    kubectl: str = ""
    """The kubectl command that maps to it, if one does."""
    deprecated: bool = False
    """A deprecated ``/watch/`` path."""
    query: str = ""
    """A query that makes it another operation of the same path: ``watch=true`` (the watch of a
    list path, RBAC verb ``watch``)."""
    response_type: str = ""
    """The 200 response when it is not a definition: its schema type (``string``: pod log, the
    connect subresources)."""
    response_media: str = ""
    """The media type of such a response (``text/plain``, ``*/*``)."""

    @property
    def url(self) -> str:
        """The path with the query that selects the operation (``…/pods?watch=true``)."""
        return f"{self.path}?{self.query}" if self.query else self.path

    @property
    def key(self) -> str:
        """``GET /api/v1/namespaces/{namespace}/pods/{name}``: what identifies it across releases
        (a watch: ``GET …/pods?watch=true``)."""
        return f"{self.method} {self.url}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "method": self.method, "path": self.path, "action": self.action,
            "python": self.python or None, "rbac": self.rbac.to_dict(),
            "resource": self.resource, "subresource": self.subresource or None, "scope": self.scope,
            "parameters": [{"name": p.name, "in": p.location, "type": p.type, "required": p.required}
                           for p in self.params],
            "body": self.body or None, "response": self.response or None,
        }
        if self.python_args:
            out["pythonArgs"] = list(self.python_args)
        if self.watch_via:
            out["watchVia"] = self.watch_via
        if self.kubectl:
            out["kubectl"] = self.kubectl
        if self.deprecated:
            out["deprecated"] = True
        if self.query:
            out["query"] = self.query
        if self.response_type:
            out["responseType"] = self.response_type
            out["responseMediaType"] = self.response_media or None
        return out
