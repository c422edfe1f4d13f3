"""Every source format yields the same normalized model."""

from __future__ import annotations

import gzip
import json

import pytest
import yaml
from conftest import FIXTURES, SPECS, need_shared

from generator.build.pipeline import generate
from generator.config import Release
from generator.model.normalize import build_api
from generator.sources import load_source
from generator.sources.jsonschema_pkg import available_versions

ZOO = FIXTURES / "specs" / "zoo-v2.json"

# Known differences between kubernetes-validate and the upstream swagger.json of the same release
# (also listed in README "Sources"). Keys: (model, what) → why.
KNOWN_DIFFERENCES = {
    "1.31": {
        ("io.k8s.apimachinery.pkg.api.resource.Quantity", "description"): "kv strips it",
        ("io.k8s.apimachinery.pkg.util.intstr.IntOrString", "description"): "kv strips it",
        ("io.k8s.api.resource.v1alpha3.ResourceSliceList", "fields"): "kv names ListMeta `listMeta`",
    },
    "1.32": {
        ("io.k8s.apimachinery.pkg.api.resource.Quantity", "description"): "kv strips it",
        ("io.k8s.apimachinery.pkg.util.intstr.IntOrString", "description"): "kv strips it",
        ("io.k8s.api.resource.v1alpha3.ResourceClaimStatus", "fields"): "kv: reservedFor says 32, not 256",
        ("io.k8s.api.resource.v1beta1.ResourceClaimStatus", "fields"): "kv: reservedFor says 32, not 256",
    },
}


def model_differences(a, b) -> set[tuple[str, str]]:
    assert set(a.models) == set(b.models)
    out = set()
    for name in a.models:
        x, y = a.models[name].to_dict(), b.models[name].to_dict()
        out |= {(name, key) for key in x if x[key] != y[key]}
    return out


@pytest.mark.shared
@pytest.mark.parametrize("version", ["1.31", "1.32"])
def test_kubernetes_validate_equals_swagger(version):
    need_shared()
    kv, _ = build_api(load_source(f"kubernetes-validate:{version}"), version)
    v2, _ = build_api(load_source(str(SPECS / f"swagger-{version}.json")), version)
    assert model_differences(kv, v2) == set(KNOWN_DIFFERENCES[version])


def test_kubernetes_validate_versions_and_dialect(api_131):
    assert available_versions()[0] == "1.25" and "1.37" in available_versions()
    claim = api_131.models["io.k8s.api.resource.v1alpha3.ResourceClaim"]
    assert claim.field("apiVersion").enum == () and claim.field("kind").enum == ()
    assert [g.api_version for g in claim.gvks] == ["resource.k8s.io/v1alpha3"]
    port = api_131.models["io.k8s.api.core.v1.ServicePort"].field("targetPort")
    assert port.type.kind == "int-or-string"
    limits = api_131.models["io.k8s.api.core.v1.ResourceRequirements"].field("limits")
    assert limits.type.kind == "map" and limits.type.items.kind == "quantity"
    assert api_131.models["io.k8s.apimachinery.pkg.apis.meta.v1.Time"].scalar.format == "date-time"


def _node_view(api):
    return {
        name: [(f.name, f.type, f.required, f.description) for f in m.fields]
        for name, m in api.models.items() if name.startswith("io.k8s.api.node.v1.")
    }


@pytest.mark.shared
def test_v3_node_equals_v2(shared):
    v3, diagnostics = build_api(load_source(str(SPECS / "v3/apis__node.k8s.io__v1_openapi.json")), "1.31")
    v2, _ = build_api(load_source(str(SPECS / "swagger-1.31.json")), "1.31")
    assert diagnostics == []
    assert _node_view(v3) == _node_view(v2)
    assert len(_node_view(v3)) == 4
    # v3 carries defaults v2 lacks; they are kept.
    handler = v3.models["io.k8s.api.node.v1.RuntimeClass"].field("handler")
    assert handler.has_default and handler.default == ""
    assert not v2.models["io.k8s.api.node.v1.RuntimeClass"].field("handler").has_default


@pytest.mark.shared
def test_v3_resource_v1beta1_snapshot_renders_clean(shared, tmp_path):
    path = SPECS / "v3/apis__resource.k8s.io__v1beta1_openapi.json"
    site = generate([Release("snapshot", str(path))])
    assert site.diagnostics == []
    request = site.pages["snapshot/resource/v1beta1/deviceRequest.md"]
    assert "<code>firstAvailable</code>" in request


@pytest.mark.shared
def test_v3_directory_merges_documents(shared, tmp_path):
    for name in ("apis__node.k8s.io__v1_openapi.json", "apis__coordination.k8s.io__v1_openapi.json"):
        (tmp_path / name).write_bytes((SPECS / "v3" / name).read_bytes())
    api, _ = build_api(load_source(str(tmp_path)), "dir")
    assert "io.k8s.api.node.v1.RuntimeClass" in api.models
    lease = api.models["io.k8s.api.coordination.v1.LeaseSpec"]
    assert lease.field("preferredHolder") is None  # that snapshot predates 1.31


def test_fixture_v2_gz_and_yaml_agree(tmp_path):
    document = json.loads(ZOO.read_text())
    (tmp_path / "zoo.json.gz").write_bytes(gzip.compress(ZOO.read_bytes()))
    (tmp_path / "zoo.yaml").write_text(yaml.safe_dump(document))
    plain, _ = build_api(load_source(str(ZOO)), "t")
    for other in ("zoo.json.gz", "zoo.yaml"):
        api, _ = build_api(load_source(str(tmp_path / other)), "t")
        assert [m.to_dict() for m in api.models.values()] == [m.to_dict() for m in plain.models.values()]


def test_fixture_normalized_fields():
    api, _ = build_api(load_source(str(ZOO)), "t")
    spec = api.models["io.example.api.zoo.v1.EnclosureSpec"]
    assert spec.group == "zoo" and spec.api_version == "v1"
    animals = spec.field("animals")
    assert animals.type.kind == "array" and animals.type.items.ref == "io.example.api.zoo.v1.Animal"
    assert (animals.list_type, animals.list_map_keys) == ("map", ("name",))
    assert (animals.patch_strategy, animals.patch_merge_key) == ("merge", "name")
    habitat = spec.field("habitat")
    assert habitat.enum == ("desert", "forest") and habitat.default == "forest"
    assert spec.field("door").type.kind == "int-or-string"
    assert spec.field("feeding").type.kind == "map"
    assert spec.field("metadata") is None
    animal = api.models["io.example.api.zoo.v1.Animal"]
    assert animal.field("parent").type.ref == animal.name  # a cycle is fine
    assert animal.field("parent").description == "Its parent (recursion)."
    assert api.models["io.example.api.zoo.v1.EnclosureList"].is_list is False  # other ListMeta name
    assert api.models["io.example.api.zoo.v1.Enclosure"].is_kind
    assert set(api.models["io.example.api.zoo.v1.EnclosureSpec"].referrers) == {
        "io.example.api.zoo.v1.Enclosure"}
    assert api.models["io.example.apimachinery.pkg.apis.meta.v1.Time"].group == "meta"
    assert api.models["io.example.apimachinery.pkg.api.resource.Quantity"].group == "common"
