"""Routes → the operations of each kind, with the RBAC rule the API server checks for each.

**RBAC derivation** (``request_info``) follows the API server's ``RequestInfoFactory.NewRequestInfo``
(kubernetes ``staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go``), step by step:

1. ``/api/{version}/…`` has no group, ``/apis/{group}/{version}/…`` has one;
2. a first segment in ``specialVerbs`` (``proxy``, ``watch``) is the verb and is consumed;
   otherwise the verb comes from the HTTP method: POST → create, GET/HEAD → get, PUT → update,
   PATCH → patch, DELETE → delete, anything else (OPTIONS) → none;
3. ``namespaces/{namespace}/…`` sets the namespace and, unless the next segment is a namespace
   subresource (``status``, ``finalize``), drops both segments;
4. the rest is ``resource/name/subresource`` (no subresource for ``proxy``);
5. no name and ``get`` → ``list``, or ``watch`` when the query has ``watch`` not ``false``/``0``;
   no name and ``delete`` → ``deletecollection``.

The resource of the rule is ``resource/subresource`` and its apiGroup the path's group, whatever
the body's kind: ``POST …/pods/{name}/eviction`` (body policy/v1 Eviction) is ``create`` on
``pods/eviction`` in ``""``. Connect subresources (exec, attach, portforward, proxy) get their verb
from the HTTP method like everything else.

Every list operation has its watch: the same path with ``?watch=true`` (verb ``watch``, step 5),
called through ``watch.Watch().stream(<list method>, …)`` (``watch_operation``). Documents list
it only as a ``watch`` query parameter, and the deprecated ``/watch/`` paths only some sources
have, so it is derived here for every release and CRD alike.

A subresource belongs to the kind whose resource it addresses (``deployments/{name}/scale`` is
Deployment's, though its body is autoscaling/v1 Scale). CRD kinds get the routes the API server
serves for a custom resource (``crd_routes``), called through ``CustomObjectsApi``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from generator.model.operation_types import Operation, RbacRule
from generator.model.types import CrdInfo, Model
from generator.sources.routes import Route, RouteParam

SPECIAL_VERBS = ("proxy", "watch")
SPECIAL_VERBS_NO_SUBRESOURCES = ("proxy",)
NAMESPACE_SUBRESOURCES = ("status", "finalize")
API_PREFIXES = ("api", "apis")
GROUPLESS_API_PREFIXES = ("api",)
_METHOD_VERBS = {"POST": "create", "GET": "get", "HEAD": "get", "PUT": "update", "PATCH": "patch",
                 "DELETE": "delete"}
ACTIONS = {"get": "get", "list": "list", "watch": "watch", "watchlist": "watch", "put": "update",
           "post": "create", "patch": "patch", "delete": "delete",
           "deletecollection": "deletecollection", "connect": "connect"}
"""``x-kubernetes-action`` → the action shown."""
_PARAM = re.compile(r"{(\w+)}")


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """What the API server derives from a request (the fields RBAC uses)."""

    resource_request: bool
    api_group: str = ""
    api_version: str = ""
    namespace: str = ""
    verb: str = ""
    resource: str = ""
    name: str = ""
    subresource: str = ""


def request_info(method: str, path: str, query: Mapping[str, str] | None = None) -> RequestInfo:
    """``RequestInfoFactory.NewRequestInfo`` for a request (a path template counts ``{name}`` as
    a name like any other segment)."""
    parts = [p for p in path.strip("/").split("/")] if path.strip("/") else []
    if len(parts) < 3 or parts[0] not in API_PREFIXES:
        return RequestInfo(False, verb=method.lower())
    prefix, parts = parts[0], parts[1:]
    group = ""
    if prefix not in GROUPLESS_API_PREFIXES:
        if len(parts) < 3:
            return RequestInfo(False, verb=method.lower())
        group, parts = parts[0], parts[1:]
    version, parts = parts[0], parts[1:]
    if parts and parts[0] in SPECIAL_VERBS:
        if len(parts) < 2:
            return RequestInfo(True, group, version, verb=parts[0])
        verb, parts = parts[0], parts[1:]
    else:
        verb = _METHOD_VERBS.get(method.upper(), "")
    namespace = ""
    if parts and parts[0] == "namespaces" and len(parts) > 1:
        namespace = parts[1]
        if len(parts) > 2 and parts[2] not in NAMESPACE_SUBRESOURCES:
            parts = parts[2:]
    resource = name = subresource = ""
    if len(parts) >= 3 and verb not in SPECIAL_VERBS_NO_SUBRESOURCES:
        subresource = parts[2]
    if len(parts) >= 2:
        name = parts[1]
    if parts:
        resource = parts[0]
    if not name and verb == "get":
        watch = (query or {}).get("watch")
        verb = "list" if watch is None or watch.lower() in ("false", "0") else "watch"
    if not name and verb == "delete":
        verb = "deletecollection"
    return RequestInfo(True, group, version, namespace, verb, resource, name, subresource)


def rbac_rule(method: str, path: str, query: Mapping[str, str] | None = None) -> RbacRule:
    info = request_info(method, path, query)
    resource = f"{info.resource}/{info.subresource}" if info.subresource else info.resource
    return RbacRule(info.api_group, resource, info.verb)


def _scope(path: str, namespaced: bool) -> str:
    if "{namespace}" in path:
        return "namespace"
    return "all" if namespaced else "cluster"


_KUBECTL = {"get": "kubectl get {r} NAME", "list": "kubectl get {r}", "watch": "kubectl get {r} --watch",
            "create": "kubectl create -f FILE", "update": "kubectl replace -f FILE",
            "patch": "kubectl patch {r} NAME --patch-file FILE", "delete": "kubectl delete {r} NAME",
            "deletecollection": "kubectl delete {r} --all"}
_KUBECTL_SUB = {("log", "get"): "kubectl logs NAME", ("exec", "create"): "kubectl exec NAME -- COMMAND",
                ("attach", "create"): "kubectl attach NAME", ("portforward", "create"):
                "kubectl port-forward {r}/NAME PORT", ("eviction", "create"): "kubectl drain NODE",
                ("scale", "update"): "kubectl scale {r} NAME --replicas=N",
                ("scale", "patch"): "kubectl scale {r} NAME --replicas=N",
                ("status", "get"): "kubectl get {r} NAME --subresource=status",
                ("status", "patch"): "kubectl patch {r} NAME --subresource=status --patch-file FILE",
                ("scale", "get"): "kubectl get {r} NAME --subresource=scale",
                ("token", "create"): "kubectl create token NAME",
                ("approval", "update"): "kubectl certificate approve NAME",
                ("ephemeralcontainers", "patch"): "kubectl debug NAME --image=IMAGE",
                ("resize", "patch"): "kubectl patch {r} NAME --subresource=resize --patch-file FILE",
                ("proxy", "get"): "kubectl get --raw PATH"}


def kubectl_command(resource: str, subresource: str, verb: str, scope: str) -> str:
    """The kubectl command that sends this request, where one does."""
    template = _KUBECTL_SUB.get((subresource, verb)) if subresource else _KUBECTL.get(verb)
    if not template:
        return ""
    command = template.format(r=resource)
    if scope == "all" and command.startswith("kubectl get") and "NAME" not in command:
        command += " --all-namespaces"
    return command


def _operation(route: Route, namespaced: bool, list_methods: Mapping[str, str]) -> Operation:
    info = request_info(route.method, route.path)
    action = ACTIONS.get(route.action, route.action)
    scope = _scope(route.path, namespaced)
    deprecated = info.verb == "watch"
    python, args, watch_via = route.python, _positional(route), ""
    if deprecated:
        # the client has no watch methods: Watch().stream calls the list method of the same path
        plain = route.path.replace("/watch/", "/", 1)
        if info.name:
            plain = plain.rsplit("/", 1)[0]
        python, watch_via = "", list_methods.get(plain, "")
        args = tuple(p.name for p in route.params if p.location == "path" and p.name != "name")
    return Operation(route.method, route.path, action, info.resource, info.subresource, scope,
                     rbac_rule(route.method, route.path), route.params, route.body, route.response,
                     python, args, watch_via, bool(deprecated and info.name),
                     kubectl_command(info.resource, info.subresource, info.verb, scope), deprecated,
                     response_type=route.response_type, response_media=route.response_media)


WATCH_QUERY = {"watch": "true"}
WATCH_EVENT = "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"
"""What a watch streams (the response the deprecated ``/watch/`` paths name)."""


def watch_operation(listing: Operation) -> Operation:
    """The watch of a list operation: its path with ``?watch=true``, RBAC verb ``watch``, the
    list method streamed by ``watch.Watch().stream``, the list's query parameters but ``watch``."""
    query = "&".join(f"{k}={v}" for k, v in WATCH_QUERY.items())
    return replace(listing, action="watch", rbac=rbac_rule(listing.method, listing.path, WATCH_QUERY),
                   params=tuple(p for p in listing.params if p.name != "watch"), body="",
                   response=WATCH_EVENT, python="", watch_via=listing.python, watch_single=False,
                   kubectl=kubectl_command(listing.resource, "", "watch", listing.scope), deprecated=False,
                   query=query, response_type="", response_media="")


def _with_watches(ops: list[Operation]) -> list[Operation]:
    return [*ops, *(watch_operation(op) for op in ops
                    if op.action == "list" and not op.subresource and not op.query)]


def _positional(route: Route) -> tuple[str, ...]:
    if not route.python:
        return ()
    args = tuple(p.name for p in route.params if p.location == "path")
    return (*args, "body") if route.body_required else args


def build_operations(models: Mapping[str, Model], routes: tuple[Route, ...]
                     ) -> dict[str, tuple[Operation, ...]]:
    """Definition name of each kind → its operations (routes first, then CRD kinds)."""
    by_gvk: dict[tuple[str, str, str], str] = {}
    for name, model in models.items():
        for gvk in model.gvks:
            if gvk.kind == model.kind and not model.field_path:
                by_gvk.setdefault((gvk.group, gvk.version, gvk.kind), name)
    owner: dict[tuple[str, str, str], str] = {}
    infos = [(route, request_info(route.method, route.path)) for route in routes]
    for route, info in infos:
        if info.resource_request and not info.subresource and route.gvk[2] \
                and (route.gvk[0], route.gvk[1]) == (info.api_group, info.api_version):
            target = by_gvk.get(route.gvk)
            if target:
                owner.setdefault((info.api_group, info.api_version, info.resource), target)
    namespaced = {key for (route, info) in infos if info.namespace
                  for key in [(info.api_group, info.api_version, info.resource)]}
    list_methods = {route.path: route.python for route, _ in infos
                    if route.python and ACTIONS.get(route.action) == "list"}
    out: dict[str, list[Operation]] = {}
    for route, info in infos:
        key = (info.api_group, info.api_version, info.resource)
        target = owner.get(key)
        if target is None:
            continue
        out.setdefault(target, []).append(_operation(route, key in namespaced, list_methods))
    for name, model in models.items():
        if model.crd is not None and model.crd.served and name not in out:
            crd = model.crd
            out[name] = [replace(op, python_args=crd_python_args(op, crd))
                         for op in (_operation(r, crd.scope == "Namespaced", {}) for r in crd_routes(crd))]
    return {name: tuple(sorted(_with_watches(ops), key=_order)) for name, ops in sorted(out.items())}


_ACTION_ORDER = {a: i for i, a in enumerate(
    ("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "connect"))}


def _order(op: Operation) -> tuple[object, ...]:
    return (op.subresource, op.deprecated, _ACTION_ORDER.get(op.action, 99), op.scope != "namespace",
            op.path, op.method, op.query)


_CRD_METHODS = (
    # (subresource, method, action, python verb, has name, body required)
    ("", "GET", "list", "list", False, False),
    ("", "POST", "post", "create", False, True),
    ("", "DELETE", "deletecollection", "delete_collection", False, False),
    ("", "GET", "get", "get", True, False),
    ("", "PUT", "put", "replace", True, True),
    ("", "PATCH", "patch", "patch", True, True),
    ("", "DELETE", "delete", "delete", True, False),
    ("status", "GET", "get", "get", True, False),
    ("status", "PUT", "put", "replace", True, True),
    ("status", "PATCH", "patch", "patch", True, True),
    ("scale", "GET", "get", "get", True, False),
    ("scale", "PUT", "put", "replace", True, True),
    ("scale", "PATCH", "patch", "patch", True, True),
)
_COMMON = {"list": ("labelSelector", "fieldSelector", "limit", "continue", "resourceVersion",
                    "resourceVersionMatch", "timeoutSeconds", "watch", "allowWatchBookmarks"),
           "post": ("dryRun", "fieldManager", "fieldValidation"),
           "put": ("dryRun", "fieldManager", "fieldValidation"),
           "patch": ("dryRun", "fieldManager", "fieldValidation", "force"),
           "delete": ("dryRun", "gracePeriodSeconds", "propagationPolicy"),
           "deletecollection": ("dryRun", "gracePeriodSeconds", "propagationPolicy", "labelSelector"),
           "get": ("resourceVersion",)}
_TYPES = {"limit": "integer", "timeoutSeconds": "integer", "gracePeriodSeconds": "integer",
          "watch": "boolean", "allowWatchBookmarks": "boolean", "force": "boolean"}


def crd_routes(crd: CrdInfo) -> tuple[Route, ...]:
    """The routes the API server serves for one served version of a CRD, with the
    ``CustomObjectsApi`` method of each (the client's generic methods take group, version,
    namespace, plural and name)."""
    base = f"/apis/{crd.group}/{crd.version}"
    scoped = crd.scope == "Namespaced"
    gvk = (crd.group, crd.version, crd.kind)
    out: list[Route] = []
    for sub, method, action, verb, named, body in _CRD_METHODS:
        if (sub == "status" and not crd.status_subresource) or (sub == "scale" and not crd.scale_subresource):
            continue
        forms = [True, False] if scoped and action == "list" else [scoped]
        for in_namespace in forms:
            path = f"{base}/namespaces/{{namespace}}/{crd.plural}" if in_namespace \
                else f"{base}/{crd.plural}"
            path += "/{name}" if named else ""
            path += f"/{sub}" if sub else ""
            method_name = (f"{verb}_{'namespaced' if in_namespace else 'cluster'}_custom_object"
                           + (f"_{sub}" if sub else ""))
            params = [RouteParam(p, "path", "string", True) for p in _PARAM.findall(path)]
            params += [RouteParam(q, "query", _TYPES.get(q, "string")) for q in _COMMON.get(action, ())]
            out.append(Route(method, path, action, f"CustomObjectsApi.{method_name}", gvk,
                             "", body, "", tuple(params)))
    return tuple(out)


def crd_python_args(op: Operation, crd: CrdInfo) -> tuple[str, ...]:
    """The positional arguments of a ``CustomObjectsApi`` call: group, version, namespace,
    plural, name, body, the literals quoted."""
    args = [repr(crd.group), repr(crd.version)]
    if "{namespace}" in op.path:
        args.append("namespace")
    args.append(repr(crd.plural))
    if "{name}" in op.path:
        args.append("name")
    if op.method in ("POST", "PUT", "PATCH"):
        args.append("body")
    return tuple(args)
