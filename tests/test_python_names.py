"""Python client names: equal to what the official ``kubernetes`` client of each release defines
(every bundled release 1.25-1.37, each against its own client)."""

from __future__ import annotations

from typing import Any

import pytest
from clients import probe_all
from release_examples import RELEASES, release_api

from generator.examples.python_names import (
    CLIENT_RULES,
    LEGACY,
    PythonNames,
    attribute_name,
    class_names,
    client_rules,
)
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.sources import load_source

pytestmark = pytest.mark.integration

KNOWN_DRIFT = {
    ("1.31", "V1alpha3ResourceSliceList"): ({"list_meta": "V1ListMeta"}, {"metadata": "V1ListMeta"}),
}
"""(release, class) → (only in our names, only in the client). kubernetes-validate ships the 1.31.0
spec, whose ``ResourceSliceList`` still had the ``listMeta`` JSON name that a 1.31 patch release
renamed to ``metadata``; client 31.0.0 (and ``../shared/specs/swagger-1.31.json``) have the fix."""
_DISCOVERY = {f"V2{v}{kind}" for v in ("", "beta1") for kind in (
    "APIGroupDiscovery", "APIGroupDiscoveryList", "APIResourceDiscovery", "APISubresourceDiscovery",
    "APIVersionDiscovery")}
CLIENT_ONLY = {"1.36": _DISCOVERY, "1.37": _DISCOVERY | {"V1GroupVersionKind"}}
"""Classes a client has for definitions the release's OpenAPI does not publish (the aggregated
discovery types of apidiscovery.k8s.io; 37 also GroupVersionKind): no page of ours names them."""


@pytest.fixture(scope="session")
def client_types() -> dict[str, dict[str, Any]]:
    """Every client's classes, one subprocess per release (as many at once as there are cores)."""
    return probe_all(RELEASES, "types")


@pytest.mark.parametrize(("json_name", "attribute"), [
    ("reservedFor", "reserved_for"), ("podIPs", "pod_i_ps"), ("hostIP", "host_ip"),
    ("nonResourceURLs", "non_resource_ur_ls"), ("$ref", "ref"), ("$schema", "schema"),
    ("continue", "_continue"), ("from", "_from"), ("not", "_not"), ("exec", "_exec"),
    ("x-kubernetes-list-map-keys", "x_kubernetes_list_map_keys"), ("URL", "url"),
    ("qosClass", "qos_class"), ("clusterIPs", "cluster_i_ps"), ("tlsConfig", "tls_config"),
])
def test_attribute_names(json_name: str, attribute: str) -> None:
    assert attribute_name(json_name) == attribute == attribute_name(json_name, client_rules("1.35"))


@pytest.mark.parametrize(("json_name", "attribute"), [
    ("podIPs", "pod_ips"), ("nonResourceURLs", "non_resource_urls"), ("podCIDRs", "pod_cidrs"),
    ("serverAddressByClientCIDRs", "server_address_by_client_cidrs"), ("targetWWNs", "target_wwns"),
    ("hostIP", "host_ip"), ("IPFamily", "ip_family"), ("continue", "_continue"), ("$ref", "ref"),
])
def test_attribute_names_from_client_36(json_name: str, attribute: str) -> None:
    for release in ("1.36", "1.37", "1.40"):
        assert attribute_name(json_name, client_rules(release)) == attribute


def test_rules_by_client_release() -> None:
    assert client_rules("1.25") is client_rules("1.35") is LEGACY is client_rules("hostile")
    assert client_rules("1.36") is CLIENT_RULES[1] and client_rules("1.37") is CLIENT_RULES[2]
    assert client_rules("1.38") is CLIENT_RULES[2] and client_rules("1.36.2") is CLIENT_RULES[1]


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
    assert set(names.classes.values()) | CLIENT_ONLY.get(api.version, set()) == set(client), \
        f"{api.version}: classes differ from the client's"
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


@pytest.mark.parametrize("release", RELEASES)
def test_every_model_matches_its_release_client(release: str, client_types: dict[str, Any]) -> None:
    api = release_api(release)
    differences = _compare(api, client_types[release])
    expected = {cls: diff for (drift, cls), diff in KNOWN_DRIFT.items() if drift == release}
    assert differences == expected, release
    assert len(PythonNames(api).classes) > 500


def test_client_types_differ_between_client_releases() -> None:
    """The three generators' views of one field (what the release pages show)."""
    shown = {}
    for release in ("1.35", "1.36", "1.37"):
        api = release_api(release)
        names = PythonNames(api)
        secret = names.openapi_types(api.models["io.k8s.api.core.v1.Secret"])
        pod_status = names.openapi_types(api.models["io.k8s.api.core.v1.PodStatus"])
        shown[release] = (secret["data"], "pod_ips" in pod_status, pod_status.get("conditions"))
    assert shown == {"1.35": ("dict(str, str)", False, "list[V1PodCondition]"),
                     "1.36": ("dict[str, str]", True, "list[V1PodCondition]"),
                     "1.37": ("Dict[str, bytes]", True, "List[V1PodCondition]")}


@pytest.mark.shared
def test_upstream_specs_match_the_client_exactly(shared: Any, client_types: dict[str, Any]) -> None:
    specs = sorted(shared.glob("specs/swagger-1.*.json"))
    assert len(specs) >= 9
    for path in specs:
        release = path.stem.removeprefix("swagger-")
        api, _ = build_api(load_source(str(path)), release)
        assert _compare(api, client_types[release]) == {}, release
