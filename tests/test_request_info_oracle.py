"""The tests' RequestInfo oracle (``helpers.request_info``: the API server's ``NewRequestInfo``
written out again): what it derives for the server's own path forms, that the generator's
``request_info`` agrees with it on every route of every bundled release and every swagger path,
and that a wrong rule in the generator is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.request_info import UnresolvableRequest, new_request_info

from generator.model import operations
from generator.model.operations import request_info
from generator.sources.routes import bundled_routes

RELEASES = [f"1.{n}" for n in range(25, 38)]


@pytest.mark.parametrize(("method", "path", "query", "expected"), [
    # (resource request, group, version, namespace, resource, name, subresource, verb)
    ("GET", "/api/v1/namespaces/ns/pods/p", None, (True, "", "v1", "ns", "pods", "p", "", "get")),
    ("GET", "/api/v1/namespaces/ns/pods", None, (True, "", "v1", "ns", "pods", "", "", "list")),
    ("GET", "/api/v1/namespaces/ns/pods", {"watch": ["TRUE"]},
     (True, "", "v1", "ns", "pods", "", "", "watch")),
    ("GET", "/api/v1/pods", {"watch": ["False", "1"]}, (True, "", "v1", "", "pods", "", "", "list")),
    ("GET", "/api/v1/watch/namespaces/ns/pods/p", None, (True, "", "v1", "ns", "pods", "p", "", "watch")),
    ("DELETE", "/apis/apps/v1/namespaces/ns/deployments", None,
     (True, "apps", "v1", "ns", "deployments", "", "", "deletecollection")),
    ("PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/scale", None,
     (True, "apps", "v1", "ns", "deployments", "d", "scale", "patch")),
    ("GET", "/api/v1/proxy/namespaces/ns/pods/p/extra", None,
     (True, "", "v1", "ns", "pods", "p", "", "proxy")),
    ("GET", "/api/v1/namespaces/ns/status", None,
     (True, "", "v1", "ns", "namespaces", "ns", "status", "get")),
    ("PUT", "/api/v1/namespaces/ns/finalize", None,
     (True, "", "v1", "ns", "namespaces", "ns", "finalize", "update")),
    ("GET", "/api/v1/namespaces", None, (True, "", "v1", "", "namespaces", "", "", "list")),
    ("OPTIONS", "/api/v1/nodes/n", None, (True, "", "v1", "", "nodes", "n", "", "")),
    ("GET", "/apis/apps/v1", None, (False, "", "", "", "", "", "", "get")),
    ("POST", "/healthz/a/b", None, (False, "", "", "", "", "", "", "post")),
])
def test_oracle_follows_the_servers_rules(method: str, path: str, query: dict[str, list[str]] | None,
                                          expected: tuple[object, ...]) -> None:
    info = new_request_info(method, path, query)
    assert (info.is_resource_request, info.api_group, info.api_version, info.namespace, info.resource,
            info.name, info.subresource, info.verb) == expected
    with pytest.raises(UnresolvableRequest):
        new_request_info("GET", "/api/v1/watch")


def disagreements(routes: list[tuple[str, str]]) -> list[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    """Routes where the generator's ``request_info`` differs from the oracle's."""
    out = []
    for method, path in routes:
        ours = request_info(method, path)
        server = new_request_info(method, path)
        mine = (ours.api_group, ours.api_version, ours.namespace, ours.resource, ours.name,
                ours.subresource, ours.verb, str(ours.resource_request))
        theirs = (server.api_group, server.api_version, server.namespace, server.resource, server.name,
                  server.subresource, server.verb, str(server.is_resource_request))
        if mine != theirs:
            out.append((method, path, mine, theirs))
    return out


def bundled() -> list[tuple[str, str]]:
    return sorted({(r.method, r.path) for release in RELEASES for r in bundled_routes(release)})


def test_generator_agrees_on_every_bundled_route() -> None:
    routes = bundled()
    assert len(routes) > 1000
    assert disagreements(routes) == []


def test_oracle_catches_a_wrong_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator with a rule broken (no namespace subresources: ``namespaces/{name}/status``
    read as a ``status`` resource; ``watch`` no special verb: ``/watch/…`` read as a ``watch``
    resource) disagrees with the oracle."""
    monkeypatch.setattr(operations, "NAMESPACE_SUBRESOURCES", ())
    found = disagreements(bundled())
    assert ("GET", "/api/v1/namespaces/{name}/status") in {(m, p) for m, p, _, _ in found}
    monkeypatch.undo()
    monkeypatch.setattr(operations, "SPECIAL_VERBS", ("proxy",))
    found = disagreements(bundled())
    assert found and all("/watch/" in p for _, p, _, _ in found)


@pytest.mark.integration
@pytest.mark.shared
def test_generator_agrees_on_every_swagger_path(shared: Path) -> None:
    routes = []
    for release in ("1.28", "1.36"):
        doc = json.loads((shared / "specs" / f"swagger-{release}.json").read_text())
        routes += [(m.upper(), p) for p, item in doc["paths"].items() for m in item if m != "parameters"]
    assert len(routes) > 1500
    assert disagreements(routes) == []
