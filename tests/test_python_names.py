"""Python client names: equal to what the official ``kubernetes`` client of each release defines."""

from __future__ import annotations

from typing import Any

import pytest
from clients import probe

from generator.examples.python_names import PythonNames, attribute_name, class_names
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.sources import load_source

KNOWN_DRIFT = {
    ("1.31", "V1alpha3ResourceSliceList"): ({"list_meta": "V1ListMeta"}, {"metadata": "V1ListMeta"}),
}
"""(release, class) → (only in our names, only in the client). kubernetes-validate ships the 1.31.0
spec, whose ``ResourceSliceList`` still had the ``listMeta`` JSON name that a 1.31 patch release
renamed to ``metadata``; client 31.0.0 (and ``../shared/specs/swagger-1.31.json``) have the fix."""


@pytest.fixture(scope="session")
def client_types() -> dict[str, dict[str, Any]]:
    return {release: probe(release, "types") for release in ("1.31", "1.32")}


@pytest.mark.parametrize(("json_name", "attribute"), [
    ("reservedFor", "reserved_for"), ("podIPs", "pod_i_ps"), ("hostIP", "host_ip"),
    ("nonResourceURLs", "non_resource_ur_ls"), ("$ref", "ref"), ("$schema", "schema"),
    ("continue", "_continue"), ("from", "_from"), ("not", "_not"), ("exec", "_exec"),
    ("x-kubernetes-list-map-keys", "x_kubernetes_list_map_keys"), ("URL", "url"),
    ("qosClass", "qos_class"), ("clusterIPs", "cluster_i_ps"), ("tlsConfig", "tls_config"),
])
def test_attribute_names(json_name: str, attribute: str) -> None:
    assert attribute_name(json_name) == attribute


def test_colliding_definitions_take_three_segments() -> None:
    names = class_names(["io.k8s.api.core.v1.Event", "io.k8s.api.events.v1.Event",
                         "io.k8s.api.core.v1.Pod", "io.k8s.apimachinery.pkg.version.Info"])
    assert names == {"io.k8s.api.core.v1.Event": "core.v1.Event",
                     "io.k8s.api.events.v1.Event": "events.v1.Event",
                     "io.k8s.api.core.v1.Pod": "v1.Pod",
                     "io.k8s.apimachinery.pkg.version.Info": "version.Info"}


def test_real_spec_names(api_131: ApiSpec, api_132: ApiSpec) -> None:
    names = PythonNames(api_131)
    assert names.class_name("io.k8s.api.resource.v1alpha3.ResourceClaimStatus") == \
        "V1alpha3ResourceClaimStatus"
    assert names.class_name("io.k8s.apimachinery.pkg.version.Info") == "VersionInfo"
    for pair in (("core", "discovery", "EndpointPort"), ("core", "events", "Event"),
                 ("flowcontrol", "rbac", "Subject")):
        a, b, kind = pair
        found = {c for c in names.classes.values() if c.endswith("V1" + kind)}
        assert {f"{a.capitalize()}V1{kind}", f"{b.capitalize()}V1{kind}"} <= found
    for scalar in ("api.resource.Quantity", "apis.meta.v1.Time", "apis.meta.v1.MicroTime",
                   "util.intstr.IntOrString", "runtime.RawExtension", "apis.meta.v1.FieldsV1"):
        assert names.class_name("io.k8s.apimachinery.pkg." + scalar) is None
    status = api_131.models["io.k8s.api.resource.v1alpha3.ResourceClaimStatus"]
    assert names.openapi_types(status) == {
        "allocation": "V1alpha3AllocationResult", "deallocation_requested": "bool",
        "reserved_for": "list[V1alpha3ResourceClaimConsumerReference]"}
    pod_status = PythonNames(api_132).openapi_types(api_132.models["io.k8s.api.core.v1.PodStatus"])
    assert pod_status["pod_i_ps"] == "list[V1PodIP]" and pod_status["start_time"] == "datetime"


def _compare(api: ApiSpec, client: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every class we name exists with our attributes and types; returns the differences."""
    names = PythonNames(api)
    assert set(names.classes.values()) == set(client), "classes differ from the client's"
    differences = {}
    for definition, cls in names.classes.items():
        model = api.models[definition]
        ours = names.openapi_types(model)
        attribute_map = {a.name: a.field.name for a in names.attributes(model)}
        if ours != client[cls]["types"] or attribute_map != client[cls]["map"]:
            theirs = client[cls]["types"]
            differences[cls] = (
                {k: v for k, v in ours.items() if theirs.get(k) != v},
                {k: v for k, v in theirs.items() if ours.get(k) != v},
            )
    return differences


def test_every_model_matches_the_client(api_131: ApiSpec, api_132: ApiSpec,
                                        client_types: dict[str, Any]) -> None:
    for api in (api_131, api_132):
        differences = _compare(api, client_types[api.version])
        expected = {cls: diff for (release, cls), diff in KNOWN_DRIFT.items() if release == api.version}
        assert differences == expected, api.version


@pytest.mark.shared
def test_upstream_specs_match_the_client_exactly(shared: Any, client_types: dict[str, Any]) -> None:
    for release in ("1.31", "1.32"):
        api, _ = build_api(load_source(str(shared / "specs" / f"swagger-{release}.json")), release)
        assert _compare(api, client_types[release]) == {}, release
