"""The watch of every list path and the named non-JSON responses (issue 31): held against the
Kubernetes bootstrap roles ``view``/``edit``/``admin``, whose grants an operation must carry."""

from __future__ import annotations

import html
import json
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.cli import main
from generator.config import Release
from generator.model.operation_types import Operation
from generator.model.operations import rbac_rule, watch_operation
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.pipeline.load import load_api
from generator.sources.routes import RouteParam, document_routes
from generator.views.operations_section import operation_anchor, python_call

# The aggregated bootstrap roles, as facts (resource names and verbs) read from Kubernetes'
# plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go: ``view`` aggregates
# ``system:aggregate-to-view``, ``edit`` adds ``system:aggregate-to-edit``, ``admin`` adds
# ``system:aggregate-to-admin``. Read = get, list, watch; Write = create, update, patch, delete,
# deletecollection.
READ = ("get", "list", "watch")
WRITE = ("create", "update", "patch", "delete", "deletecollection")
AGGREGATE_TO_VIEW: dict[str, tuple[str, ...]] = {
    "": ("pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts", "services",
         "services/status", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status",
         "configmaps", "limitranges", "resourcequotas", "bindings", "events", "pods/status",
         "resourcequotas/status", "namespaces/status", "replicationcontrollers/status", "pods/log",
         "namespaces"),
    "discovery.k8s.io": ("endpointslices",),
    "apps": ("controllerrevisions", "statefulsets", "statefulsets/status", "statefulsets/scale", "daemonsets",
             "daemonsets/status", "deployments", "deployments/status", "deployments/scale", "replicasets",
             "replicasets/status", "replicasets/scale"),
    "autoscaling": ("horizontalpodautoscalers", "horizontalpodautoscalers/status"),
    "batch": ("jobs", "cronjobs", "cronjobs/status", "jobs/status"),
    "extensions": ("daemonsets", "daemonsets/status", "deployments", "deployments/scale",
                   "deployments/status", "ingresses", "ingresses/status", "replicasets", "replicasets/scale",
                   "replicasets/status", "replicationcontrollers/scale", "networkpolicies"),
    "policy": ("poddisruptionbudgets", "poddisruptionbudgets/status"),
    "networking.k8s.io": ("networkpolicies", "ingresses", "ingresses/status"),
}
AGGREGATE_TO_EDIT_READ: dict[str, tuple[str, ...]] = {
    "": ("pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "secrets", "services/proxy"),
}
AGGREGATE_TO_EDIT_WRITE: dict[str, tuple[str, ...]] = {
    "": ("pods", "pods/attach", "pods/proxy", "pods/exec", "pods/portforward", "replicationcontrollers",
         "replicationcontrollers/scale", "serviceaccounts", "services", "services/proxy",
         "persistentvolumeclaims", "configmaps", "secrets", "events"),
    "apps": ("statefulsets", "statefulsets/scale", "daemonsets", "deployments", "deployments/scale",
             "deployments/rollback", "replicasets", "replicasets/scale"),
    "autoscaling": ("horizontalpodautoscalers",),
    "batch": ("jobs", "cronjobs"),
    "extensions": ("daemonsets", "deployments", "deployments/scale", "deployments/rollback", "ingresses",
                   "replicasets", "replicasets/scale", "replicationcontrollers/scale", "networkpolicies"),
    "policy": ("poddisruptionbudgets",),
    "networking.k8s.io": ("networkpolicies", "ingresses"),
}
AGGREGATE_TO_EDIT_SINGLE = (("", "pods/eviction", "create"), ("", "serviceaccounts/token", "create"))
AGGREGATE_TO_ADMIN = (("authorization.k8s.io", "localsubjectaccessreviews", ("create",)),
                      ("rbac.authorization.k8s.io", "roles", READ + WRITE),
                      ("rbac.authorization.k8s.io", "rolebindings", READ + WRITE))


def role_pairs() -> set[tuple[str, str, str]]:
    """(apiGroup, resource, verb) of every grant of view, edit and admin."""
    pairs = {(g, r, v) for g, rs in AGGREGATE_TO_VIEW.items() for r in rs for v in READ}
    pairs |= {(g, r, v) for g, rs in AGGREGATE_TO_EDIT_READ.items() for r in rs for v in READ}
    pairs |= {(g, r, v) for g, rs in AGGREGATE_TO_EDIT_WRITE.items() for r in rs for v in WRITE}
    pairs |= set(AGGREGATE_TO_EDIT_SINGLE)
    pairs |= {(g, r, v) for g, r, verbs in AGGREGATE_TO_ADMIN for v in verbs}
    return pairs


def reachable(pair: tuple[str, str, str], served: dict[tuple[str, str], set[str]]) -> bool:
    """Whether a request can ever need this grant in a release: its resource is served, and a
    subresource only ever carries a verb of a request with a name (``RequestInfoFactory``: no
    name, no subresource), so never list/watch/deletecollection; a resource the release serves
    only some methods of (``bindings``: create) carries only the verbs of those methods."""
    group, resource, verb = pair
    methods = served.get((group, resource))
    if not methods:
        return False
    if "/" in resource and verb in ("list", "watch", "deletecollection"):
        return False
    needs = {"get": "GET", "list": "GET", "watch": "GET", "create": "POST", "update": "PUT",
             "patch": "PATCH", "delete": "DELETE", "deletecollection": "DELETE"}[verb]
    return needs in methods


def uncarried(api: ApiSpec) -> list[tuple[str, str, str]]:
    """Role grants that no operation of the release carries although a request could need them."""
    carried = {(op.rbac.api_group, op.rbac.resource, op.rbac.verb)
               for ops in api.operations.values() for op in ops}
    served: dict[tuple[str, str], set[str]] = {}
    for ops in api.operations.values():
        for op in ops:
            served.setdefault((op.rbac.api_group, op.rbac.resource), set()).add(op.method)
    return sorted(p for p in role_pairs() if reachable(p, served) and p not in carried)


@cache
def bundled(release: str) -> ApiSpec:
    return load_api(Release(release))[0]


# -- unit -----------------------------------------------------------------------------------------

LIST = Operation("GET", "/apis/apps/v1/namespaces/{namespace}/deployments", "list", "deployments", "",
                 "namespace", rbac_rule("GET", "/apis/apps/v1/namespaces/{namespace}/deployments"),
                 (RouteParam("namespace", "path", "string", True),
                  RouteParam("labelSelector", "query", "string"), RouteParam("watch", "query", "boolean")),
                 response="io.k8s.api.apps.v1.DeploymentList", python="AppsV1Api.list_namespaced_deployment",
                 python_args=("namespace",), kubectl="kubectl get deployments")


def test_watch_operation_of_a_list() -> None:
    watch = watch_operation(LIST)
    assert (watch.method, watch.path, watch.query) == ("GET", LIST.path, "watch=true")
    assert watch.key == "GET /apis/apps/v1/namespaces/{namespace}/deployments?watch=true" != LIST.key
    assert watch.rbac.to_dict() == {"apiGroups": ["apps"], "resources": ["deployments"], "verbs": ["watch"]}
    assert [p.name for p in watch.params] == ["namespace", "labelSelector"]
    assert python_call(watch) == "watch.Watch().stream(AppsV1Api().list_namespaced_deployment, namespace)"
    assert watch.kubectl == "kubectl get deployments --watch" and not watch.deprecated
    assert operation_anchor(watch) != operation_anchor(LIST)
    data = watch.to_dict()
    assert data["query"] == "watch=true" and data["python"] is None
    assert data["watchVia"] == "AppsV1Api.list_namespaced_deployment"
    assert data["response"] == "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"


@pytest.mark.integration
def test_role_check_can_fail() -> None:
    """The oracle below finds a grant nothing carries: drop the watch operations and it does."""
    api = bundled("1.31")
    assert uncarried(api) == []
    without = replace(api, operations={n: tuple(op for op in ops if op.rbac.verb != "watch")
                                       for n, ops in api.operations.items()})
    missing = uncarried(without)
    assert ("", "pods", "watch") in missing and ("apps", "deployments", "watch") in missing
    assert all(verb == "watch" for _, _, verb in missing)


def test_plain_response_of_a_document(tmp_path: Path) -> None:
    """A 200 response that is not a definition is named by its type and first media type (v2 and v3)."""
    v2 = {"swagger": "2.0", "paths": {"/api/v1/namespaces/{namespace}/pods/{name}/log": {"get": {
        "x-kubernetes-action": "get", "operationId": "readCoreV1NamespacedPodLog", "tags": ["core_v1"],
        "produces": ["text/plain", "application/json"],
        "responses": {"200": {"description": "OK", "schema": {"type": "string"}}}}}}}
    v3 = {"openapi": "3.0.0", "paths": {"/api/v1/namespaces/{namespace}/pods/{name}/log": {"get": {
        "x-kubernetes-action": "get", "operationId": "readCoreV1NamespacedPodLog", "tags": ["core_v1"],
        "responses": {"200": {"content": {"text/plain": {"schema": {"type": "string"}}}}}}}}}
    for doc in (v2, v3):
        (route,) = document_routes(doc)
        assert (route.response, route.response_type, route.response_media) == ("", "string", "text/plain")


# -- real releases ----------------------------------------------------------------------------------

def exported_operations(release: str, capsys: pytest.CaptureFixture[str]) -> list[tuple[str, dict[str, Any]]]:
    """(definition name, operation) of ``export --version RELEASE``, as a user reads it."""
    assert main(["export", "--version", release]) == 0
    data = json.loads(capsys.readouterr().out)
    return [(m["name"], o) for m in data["models"] for o in m.get("operations", ())]


@pytest.mark.integration
@pytest.mark.parametrize("release", ["1.25", "1.37"])
def test_export_has_a_watch_for_every_list(release: str, capsys: pytest.CaptureFixture[str]) -> None:
    exported = exported_operations(release, capsys)
    lists = [(name, o) for name, o in exported if o["action"] == "list" and not o.get("subresource")]
    assert len(lists) > 80
    watches = {(name, o["path"]): o for name, o in exported if o.get("query") == "watch=true"}
    for name, listing in lists:
        watch = watches[(name, listing["path"])]
        assert watch["method"] == "GET" and watch["action"] == "watch"
        assert watch["rbac"] == {**listing["rbac"], "verbs": ["watch"]}
        assert watch["watchVia"] == listing["python"] and watch["python"] is None
    assert len(watches) == len(lists)
    assert {name for name, _ in lists} >= {"io.k8s.api.core.v1.Pod", "io.k8s.api.apps.v1.Deployment"}
    # the pod log response is named: a string of text/plain
    pod = {o["path"]: o for name, o in exported if name == "io.k8s.api.core.v1.Pod" and o["method"] == "GET"}
    log = pod["/api/v1/namespaces/{namespace}/pods/{name}/log"]
    assert (log["response"], log["responseType"], log["responseMediaType"]) == (None, "string", "text/plain")
    exec_ = pod["/api/v1/namespaces/{namespace}/pods/{name}/exec"]
    assert (exec_["responseType"], exec_["responseMediaType"]) == ("string", "*/*")


@pytest.mark.integration
@pytest.mark.parametrize("release", ["1.25", "1.31", "1.37"])
def test_bootstrap_roles_carried_by_operations(release: str) -> None:
    """Every grant of view/edit/admin that a request to the release can need is an operation's rule:
    before the watch operations, 1.25 and 1.37 carried no ``watch`` at all."""
    api = bundled(release)
    assert uncarried(api) == []
    carried = {(op.rbac.api_group, op.rbac.resource, op.rbac.verb) for ops in api.operations.values()
               for op in ops}
    assert ("", "pods/log", "get") in carried and ("", "pods", "watch") in carried
    assert ("networking.k8s.io", "ingresses", "watch") in carried


@pytest.mark.integration
@pytest.mark.shared
def test_upstream_watch_and_log_response(shared: Path) -> None:
    """An upstream swagger (1.31): the watch of a list path besides the deprecated /watch/ paths,
    the log response as the document states it, and both on the page."""
    api, _ = load_api(Release("1.31", str(shared / "specs" / "swagger-1.31.json")))
    assert uncarried(api) == []
    pod = {op.key: op for op in api.operations["io.k8s.api.core.v1.Pod"]}
    watch = pod["GET /api/v1/namespaces/{namespace}/pods?watch=true"]
    assert python_call(watch) == "watch.Watch().stream(CoreV1Api().list_namespaced_pod, namespace)"
    assert pod["GET /api/v1/watch/namespaces/{namespace}/pods"].deprecated
    log = pod["GET /api/v1/namespaces/{namespace}/pods/{name}/log"]
    assert (log.response_type, log.response_media) == ("string", "text/plain")
    bundled_log = {op.key: op for op in bundled("1.31").operations["io.k8s.api.core.v1.Pod"]}[log.key]
    assert (bundled_log.response_type, bundled_log.response_media) == ("string", "text/plain")


def gadget_spec() -> dict[str, Any]:
    gvk = {"group": "example.org", "version": "v1", "kind": "Gadget"}
    base = "/apis/example.org/v1/namespaces/{namespace}/gadgets"

    def op(action: str, op_id: str, response: dict[str, Any], produces: list[str]) -> dict[str, Any]:
        return {"operationId": op_id, "tags": ["example_v1"], "x-kubernetes-action": action,
                "x-kubernetes-group-version-kind": gvk, "produces": produces,
                "responses": {"200": {"description": "OK", "schema": response}}}

    return {"swagger": "2.0", "info": {"title": "gadgets", "version": "x"},
            "paths": {base: {"get": op("list", "listExampleV1NamespacedGadget",
                                       {"$ref": "#/definitions/org.example.v1.Gadget"},
                                       ["application/json"])},
                      base + "/{name}/log": {"get": op("get", "readExampleV1NamespacedGadgetLog",
                                                       {"type": "string"}, ["text/plain"])}},
            "definitions": {"org.example.v1.Gadget": {
                "type": "object", "x-kubernetes-group-version-kind": [gvk],
                "properties": {"spec": {"type": "string"}}}}}


@pytest.mark.parametrize("page_format", ["gfm", "mkdocs"])
def test_page_rows_of_watch_and_plain_response(tmp_path: Path, page_format: str) -> None:
    spec = tmp_path / "gadgets.json"
    spec.write_text(json.dumps(gadget_spec()))
    site = generate([Release("1.0", str(spec))], page_format=page_format)
    page = next(text for path, text in site.pages.items() if "gadget" in path.lower() and "GET" in text)
    text = html.unescape(re.sub(r"<wbr>|</?span[^>]*>", "", page))  # tokens kept whole: k8s-nobr spans
    assert "/apis/example.org/v1/namespaces/{namespace}/gadgets?watch=true" in text
    assert "example.org · gadgets · watch" in text and "kubectl get gadgets --watch" in text
    assert "watch.Watch().stream(ExampleV1Api().list_namespaced_gadget)" in text
    assert "returns: string (text/plain)" in text
