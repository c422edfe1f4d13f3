"""Operations of kinds (issue 25): RBAC derivation, Python calls checked against the official
clients' generated source, pages, export, diff and the shipped offline data."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers.paths import need_installed
from helpers.request_info import new_request_info

from generator.analysis.diff import CHANGE_KINDS, diff_apis
from generator.config import Release
from generator.model.operation_types import Operation
from generator.model.operations import rbac_rule, request_info
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.pipeline.load import load_api
from generator.sources.routes import decode_ranges, encode_ranges, python_name
from generator.views.operations_section import python_call

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
SCRIPT = REPO / "scripts" / "operations_data.py"
RELEASES = [f"1.{n}" for n in range(25, 38)]


@cache
def data_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("operations_data", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["operations_data"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def need_clients() -> None:
    need_installed(REPO / ".cache" / "clients" / "31", "the official Python clients")  # CI: fails


# -- RBAC derivation (RequestInfoFactory) ---------------------------------------------------------

ACTION_VERBS = {"get": "get", "list": "list", "watch": "watch", "watchlist": "watch", "put": "update",
                "post": "create", "patch": "patch", "delete": "delete",
                "deletecollection": "deletecollection"}
METHOD_VERBS = {"GET": "get", "HEAD": "get", "POST": "create", "PUT": "update", "PATCH": "patch",
                "DELETE": "delete", "OPTIONS": ""}


def expected_verb(action: str, method: str) -> str:
    """An independent oracle: the spec's ``x-kubernetes-action`` says the verb, except connect,
    whose verb is its HTTP method's."""
    return METHOD_VERBS[method] if action == "connect" else ACTION_VERBS[action]


@pytest.mark.parametrize(("method", "path", "query", "expected"), [
    ("GET", "/api/v1/namespaces/{namespace}/pods/{name}", None, ("", "pods", "", "get")),
    ("GET", "/api/v1/namespaces/{namespace}/pods", None, ("", "pods", "", "list")),
    ("GET", "/api/v1/namespaces/{namespace}/pods", {"watch": "true"}, ("", "pods", "", "watch")),
    ("GET", "/api/v1/namespaces/{namespace}/pods", {"watch": "0"}, ("", "pods", "", "list")),
    ("GET", "/api/v1/watch/namespaces/{namespace}/pods/{name}", None, ("", "pods", "", "watch")),
    ("GET", "/api/v1/watch/pods", None, ("", "pods", "", "watch")),
    ("DELETE", "/apis/apps/v1/namespaces/{namespace}/deployments", None,
     ("apps", "deployments", "", "deletecollection")),
    ("PATCH", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale", None,
     ("apps", "deployments", "scale", "patch")),
    ("POST", "/api/v1/namespaces/{namespace}/pods/{name}/eviction", None, ("", "pods", "eviction", "create")),
    ("GET", "/api/v1/namespaces/{namespace}/pods/{name}/exec", None, ("", "pods", "exec", "get")),
    ("POST", "/api/v1/namespaces/{namespace}/pods/{name}/exec", None, ("", "pods", "exec", "create")),
    ("HEAD", "/api/v1/nodes/{name}/proxy/{path}", None, ("", "nodes", "proxy", "get")),
    ("OPTIONS", "/api/v1/nodes/{name}/proxy", None, ("", "nodes", "proxy", "")),
    ("PUT", "/api/v1/namespaces/{name}/finalize", None, ("", "namespaces", "finalize", "update")),
    ("GET", "/api/v1/namespaces/{name}/status", None, ("", "namespaces", "status", "get")),
    ("GET", "/api/v1/namespaces/{name}", None, ("", "namespaces", "", "get")),
    ("POST", "/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token", None,
     ("", "serviceaccounts", "token", "create")),
    ("PUT", "/apis/certificates.k8s.io/v1/certificatesigningrequests/{name}/approval", None,
     ("certificates.k8s.io", "certificatesigningrequests", "approval", "update")),
])
def test_request_info(method: str, path: str, query: dict[str, str] | None,
                      expected: tuple[str, str, str, str]) -> None:
    info = request_info(method, path, query)
    assert (info.api_group, info.resource, info.subresource, info.verb) == expected


def test_non_resource_paths() -> None:
    assert not request_info("GET", "/apis/apps/v1").resource_request
    assert not request_info("GET", "/healthz/ping/x").resource_request


def test_rbac_oracle_catches_a_wrong_rule() -> None:
    """The page/export check below compares with ``expected_verb``: a wrong rule fails it."""
    exec_rule = rbac_rule("POST", "/api/v1/namespaces/{namespace}/pods/{name}/exec")
    assert exec_rule.verb == expected_verb("connect", "POST")
    wrong = rbac_rule("GET", "/api/v1/namespaces/{namespace}/pods")  # a list, not a get
    assert wrong.verb != expected_verb("get", "GET")


def test_python_names_and_ranges() -> None:
    assert python_name("readCoreV1NamespacedPod", "core_v1") == "CoreV1Api.read_namespaced_pod"
    assert python_name("connectCoreV1GetNamespacedPodExec", "core_v1") == \
        "CoreV1Api.connect_get_namespaced_pod_exec"
    assert python_name("patchRbacAuthorizationV1ClusterRole", "rbacAuthorization_v1") == \
        "RbacAuthorizationV1Api.patch_cluster_role"
    assert python_name("listFlowcontrolApiserverV1FlowSchema", "flowcontrolApiserver_v1") == \
        "FlowcontrolApiserverV1Api.list_flow_schema"
    assert decode_ranges(encode_ranges([0, 1, 2, 5, 7, 8])) == [0, 1, 2, 5, 7, 8]


# -- real releases ----------------------------------------------------------------------------------

def swagger_operations(path: Path) -> list[dict[str, Any]]:
    """Every operation with an ``x-kubernetes-action`` in a swagger file, read independently."""
    doc = json.loads(path.read_text())
    out = []
    for route, item in doc["paths"].items():
        for method, op in item.items():
            if method != "parameters" and "x-kubernetes-action" in op:
                out.append({"method": method.upper(), "path": route, "action": op["x-kubernetes-action"],
                            "operationId": op["operationId"], "tag": op["tags"][0]})
    return out


def check_release(api: ApiSpec, swagger: Path, pages: dict[str, str], page_of: dict[str, str]) -> None:
    ops_by_key = {op.key: (name, op) for name, ops in api.operations.items() for op in ops}
    exported = {(o["method"], o["path"]): o for m in api.to_dict()["models"] for o in m.get("operations", ())
                if not o.get("query")}  # a watch (?watch=true) shares its list's path
    expected = swagger_operations(swagger)
    assert len(expected) > 800
    for entry in expected:
        key = f"{entry['method']} {entry['path']}"
        info = new_request_info(entry["method"], entry["path"])  # the API server's rules (helper)
        assert key in ops_by_key, key
        name, op = ops_by_key[key]
        model = api.models[name]
        # the kind whose resource the path addresses (subresources included)
        assert op.resource == info.resource and op.rbac.api_group == info.api_group
        assert any(g.group == info.api_group and g.version == info.api_version for g in model.gvks), key
        # on the kind's page, and in export
        assert f"{entry['method']} {entry['path']}" in pages[page_of[name]], (key, page_of[name])
        assert (entry["method"], entry["path"]) in exported, key
        verb = expected_verb(entry["action"], entry["method"])
        assert exported[(entry["method"], entry["path"])]["rbac"]["verbs"] == ([verb] if verb else [])
        assert op.rbac.verb == verb, key
        group = info.api_group or '""'
        if verb:  # the row's RBAC cell: API group, resource (with subresource), verb
            resource = info.resource + (f"/{info.subresource}" if info.subresource else "")
            assert f"{group} · {resource} · {verb}" in pages[page_of[name]], key
        if entry["action"] in ("watch", "watchlist"):
            assert op.python == "" and exported[(entry["method"], entry["path"])]["python"] is None
            assert op.watch_via and "watch.Watch().stream(" in python_call(op)
        else:
            assert op.python == python_name(entry["operationId"], entry["tag"]) != ""


@pytest.mark.integration
@pytest.mark.shared
@pytest.mark.parametrize(("release", "source"), [("1.31", "upstream"), ("1.32", "bundled")])
def test_every_swagger_operation_on_page_and_export(shared: Path, release: str, source: str) -> None:
    swagger = shared / "specs" / f"swagger-{release}.json"
    spec = str(swagger) if source == "upstream" else ""
    site = generate([Release(release, spec)], page_format="gfm")
    api = site.apis[0]
    plan = site.plans[0]
    page_of = {name: f"{release}/{path}" if not path.startswith(release) else path
               for name, path in plan.model_pages.items()}
    pages = {p: t for p, t in site.pages.items()}
    if not any(p in pages for p in page_of.values()):
        page_of = {name: path for name, path in plan.model_pages.items()}
    check_release(api, swagger, pages, page_of)
    # the provenance is on the page
    assert "upstream swagger.json of v1.32.0" in api.operations_from or source == "upstream"


def client_check(api: ApiSpec, major: str) -> int:
    """Every Python name of a release exists in its client and sends the same request."""
    methods = data_script().client_methods(major)
    checked = 0
    for ops in api.operations.values():
        for op in ops:
            if op.python.startswith("CustomObjectsApi."):
                continue
            if op.python:
                method = methods[op.python]
                assert (method.http_method, method.path) == (op.method, op.path), op.python
                assert method.required == op.python_args, op.python
                checked += 1
            elif op.query:  # the watch of a list path streams the list method of that path
                listing = methods[op.watch_via]
                assert (listing.http_method, listing.path) == (op.method, op.path), op.key
                assert listing.required == op.python_args and op.rbac.verb == "watch", op.key
            else:
                assert op.deprecated and op.watch_via, op.key
                listing = methods[op.watch_via]
                plain = op.path.replace("/watch/", "/", 1)
                assert listing.path == (plain.rsplit("/", 1)[0] if op.watch_single else plain)
                assert listing.http_method == "GET"
                assert listing.required == op.python_args, op.key
                assert op.watch_via.split(".", 1)[1] not in {"watch", "stream"}
    return checked


@pytest.mark.integration
@pytest.mark.shared
@pytest.mark.parametrize("release", RELEASES)
def test_python_names_against_own_client(release: str) -> None:
    need_clients()
    api, _ = load_api(Release(release))
    assert api.operations, release
    assert client_check(api, release.split(".")[1]) > 500


@pytest.mark.integration
@pytest.mark.shared
def test_upstream_python_names_against_client(shared: Path) -> None:
    need_clients()
    api, _ = load_api(Release("1.31", str(shared / "specs" / "swagger-1.31.json")))
    assert client_check(api, "31") > 600
    pod = {op.key: op for op in api.operations["io.k8s.api.core.v1.Pod"]}
    assert python_call(pod["GET /api/v1/namespaces/{namespace}/pods/{name}"]) == \
        "CoreV1Api().read_namespaced_pod(name, namespace)"
    assert python_call(pod["GET /api/v1/watch/namespaces/{namespace}/pods"]) == \
        "watch.Watch().stream(CoreV1Api().list_namespaced_pod, namespace)"
    scale = {op.key: op for op in api.operations["io.k8s.api.apps.v1.Deployment"]}
    patch = scale["PATCH /apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"]
    assert patch.body == "io.k8s.apimachinery.pkg.apis.meta.v1.Patch" or patch.body == ""
    assert patch.rbac.to_dict() == {"apiGroups": ["apps"], "resources": ["deployments/scale"],
                                    "verbs": ["patch"]}
    evict = pod["POST /api/v1/namespaces/{namespace}/pods/{name}/eviction"]
    assert evict.body == "io.k8s.api.policy.v1.Eviction" and evict.rbac.resource == "pods/eviction"


@pytest.mark.integration
@pytest.mark.shared
def test_crd_operations(shared: Path) -> None:
    need_clients()
    api, _ = load_api(Release("1.31", crds=(str(shared / "crds" / "cert-manager"),)))
    methods = data_script().client_methods("31")
    certificate = next(n for n, m in api.models.items()
                       if m.crd and m.crd.kind == "Certificate" and m.crd.group == "cert-manager.io")
    cluster_issuer = next(n for n, m in api.models.items()
                          if m.crd and m.crd.kind == "ClusterIssuer" and m.crd.group == "cert-manager.io")
    for name, namespaced in ((certificate, True), (cluster_issuer, False)):
        crd = api.models[name].crd
        assert crd is not None
        ops = api.operations[name]
        keys = {op.key for op in ops}
        base = f"/apis/cert-manager.io/{crd.version}"
        if namespaced:
            assert f"GET {base}/namespaces/{{namespace}}/certificates/{{name}}" in keys
            assert f"GET {base}/certificates" in keys  # all namespaces
            assert f"PATCH {base}/namespaces/{{namespace}}/certificates/{{name}}/status" in keys
        else:
            assert f"GET {base}/clusterissuers/{{name}}" in keys
            assert not any("{namespace}" in k for k in keys)
        assert any(op.subresource == "status" for op in ops) == crd.status_subresource
        for op in ops:
            if op.query:  # the watch: the list method, streamed
                assert op.query == "watch=true" and op.rbac.verb == "watch"
                assert op.watch_via.startswith("CustomObjectsApi.list_") and not op.python
                method_name = op.watch_via.split(".", 1)[1]
                assert python_call(op).startswith(f"watch.Watch().stream(CustomObjectsApi().{method_name}")
                continue
            assert op.python.startswith("CustomObjectsApi.")
            method = methods[op.python]
            values = {"group": "cert-manager.io", "version": crd.version, "plural": crd.plural,
                      "resource_plural": crd.plural, "namespace": "{namespace}", "name": "{name}"}
            assert method.path.format(**values) == op.path and method.http_method == op.method
            assert len(method.required) == len(op.python_args)
            assert op.rbac.api_group == "cert-manager.io"
            assert op.rbac.resource == crd.plural + (f"/{op.subresource}" if op.subresource else "")
        call = python_call(next(op for op in ops if op.method == "GET" and op.path.endswith("{name}")))
        assert call.startswith("CustomObjectsApi().get_") and "'cert-manager.io'" in call


# -- diff -----------------------------------------------------------------------------------------

def gadget_spec(subresources: list[str]) -> dict[str, Any]:
    gvk = [{"group": "example.org", "version": "v1", "kind": "Gadget"}]
    base = "/apis/example.org/v1/namespaces/{namespace}/gadgets"
    paths: dict[str, Any] = {
        base + "/{name}": {"get": {"operationId": "readExampleV1NamespacedGadget", "tags": ["example_v1"],
                                   "x-kubernetes-action": "get", "x-kubernetes-group-version-kind": gvk[0],
                                   "parameters": [{"name": "name", "in": "path", "required": True,
                                                   "type": "string"},
                                                  {"name": "namespace", "in": "path", "required": True,
                                                   "type": "string"}]}},
    }
    for sub in subresources:
        paths[f"{base}/{{name}}/{sub}"] = {"put": {
            "operationId": f"replaceExampleV1NamespacedGadget{sub.title()}", "tags": ["example_v1"],
            "x-kubernetes-action": "put", "x-kubernetes-group-version-kind": gvk[0]}}
    return {"swagger": "2.0", "info": {"title": "gadgets", "version": "x"}, "paths": paths,
            "definitions": {"org.example.v1.Gadget": {
                "type": "object", "x-kubernetes-group-version-kind": gvk,
                "properties": {"spec": {"type": "string"}}}}}


def test_diff_subresource_added_and_removed(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(gadget_spec(["scale"])))
    new.write_text(json.dumps(gadget_spec(["status"])))
    before, _ = load_api(Release("1.0", str(old)))
    after, _ = load_api(Release("1.1", str(new)))
    changes = [c for m in diff_apis(before, after).models for c in m.changes]
    found = {(c.change, c.severity, c.old, c.new) for c in changes}
    assert ("subresource-added", "info", None, "gadgets/status") in found
    assert ("subresource-removed", "breaking", "gadgets/scale", None) in found
    # the operations of a subresource that came or went are not repeated one by one
    assert not any(c.change.startswith("operation-") for c in changes)
    counts = diff_apis(before, after).counts()  # the change page's summary table counts them
    assert counts["subresource-added"]["info"] == 1 and counts["subresource-removed"]["breaking"] == 1
    assert {"operation-added", "subresource-removed"} <= set(CHANGE_KINDS)
    same = diff_apis(before, before).models
    assert not any(c.change.startswith(("operation-", "subresource-")) for m in same for c in m.changes)


def test_operation_export_shape() -> None:
    op = Operation("GET", "/api/v1/namespaces/{namespace}/pods/{name}", "get", "pods", "", "namespace",
                   rbac_rule("GET", "/api/v1/namespaces/{namespace}/pods/{name}"),
                   python="CoreV1Api.read_namespaced_pod", python_args=("name", "namespace"))
    data = op.to_dict()
    assert data["python"] == "CoreV1Api.read_namespaced_pod"
    assert data["rbac"] == {"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}


# -- the shipped data -----------------------------------------------------------------------------

@pytest.mark.integration
@pytest.mark.shared
def test_offline_data_regenerates_byte_identically(shared: Path) -> None:
    need_clients()
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True,
                            check=False, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.integration
@pytest.mark.shared
def test_client_cross_check_matches_swagger(shared: Path) -> None:
    """The client-derived routes (how 1.25-1.27 and 1.37 are made) equal the swagger's for a
    release that has both, except the /watch/ paths the client lacks: the cross-check keeps
    exactly what the release serves."""
    need_clients()
    script = data_script()
    from generator.sources.routes import document_routes

    swagger = document_routes(json.loads((shared / "specs" / "swagger-1.31.json").read_text()))
    client = script.client_routes("31", "1.31")
    assert {(r.method, r.path, r.python) for r in client} == \
        {(r.method, r.path, r.python) for r in swagger if r.python}
