"""Every source format yields the same normalized model."""

from __future__ import annotations

import gzip
import json

import pytest
import yaml
from helpers.paths import FIXTURES, SPECS, need_shared

from generator.config import Release
from generator.model.normalize import build_api
from generator.pipeline.build import generate
from generator.sources import load_source
from generator.sources.jsonschema_pkg import available_versions
from generator.sources.known_differences import COMPARED_RELEASES, KNOWN_DIFFERENCES

pytestmark = pytest.mark.integration

ZOO = FIXTURES / "specs" / "zoo-v2.json"

ASPECTS = {"required": "required", "description": "description"}
"""Field keys of ``Field.to_dict`` → aspect names in ``known_differences``."""


def data_differences(kv, upstream) -> set[tuple[str, str, str]]:
    """(definition, field, aspect) wherever the normalized models differ: every model key and
    every key of every field (a field only one side has is a ``field name`` difference, named
    by the upstream field)."""
    assert set(kv.models) == set(upstream.models)
    out = set()
    for name in kv.models:
        x, y = kv.models[name].to_dict(), upstream.models[name].to_dict()
        out |= {(name, "", key) for key in x if key not in ("fields", "referrers") and x[key] != y[key]}
        if x["referrers"] != y["referrers"]:
            out.add((name, "", "referrers"))
        kv_fields = {f["name"]: f for f in x["fields"]}
        up_fields = {f["name"]: f for f in y["fields"]}
        out |= {(name, field, "field name") for field in up_fields.keys() - kv_fields.keys()}
        out |= {(name, field, "field name (bundled only)")
                for field in kv_fields.keys() - up_fields.keys()}
        for field in kv_fields.keys() & up_fields.keys():
            f, g = kv_fields[field], up_fields[field]
            out |= {(name, field, ASPECTS.get(key, key)) for key in f.keys() | g.keys()
                    if f.get(key) != g.get(key)}
    return out


@pytest.mark.shared
@pytest.mark.parametrize("version", COMPARED_RELEASES)
def test_kubernetes_validate_equals_swagger_but_for_known_differences(version):
    """Every difference of the bundled data from upstream is listed (docs/sources.md "Known differences
    between sources"); ``diff`` reports the ones that can change its result."""
    need_shared()
    kv, _ = build_api(load_source(f"kubernetes-validate:{version}"), version)
    upstream, _ = build_api(load_source(str(SPECS / f"swagger-{version}.json")), version)
    known = {(d.definition, d.field, d.aspect) for d in KNOWN_DIFFERENCES[version]}
    found = data_differences(kv, upstream)
    # a renamed field is one difference: the upstream name is listed, the bundled one follows
    found = {d for d in found if not d[2].endswith("(bundled only)")}
    assert found == known
    # the bundled values the list states are true
    for d in KNOWN_DIFFERENCES[version]:
        if d.aspect == "required":
            field = kv.models[d.definition].field(d.field)
            assert field is not None and field.required == d.bundled.startswith("required")
        if d.aspect == "field name":
            assert kv.models[d.definition].field(d.bundled) is not None


def test_known_differences_cover_every_compared_release():
    assert set(KNOWN_DIFFERENCES) == set(COMPARED_RELEASES)
    assert tuple(f"1.{n}" for n in range(28, 37)) == COMPARED_RELEASES


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


def test_docs_list_every_known_difference():
    text = (FIXTURES.parent.parent / "docs" / "sources.md").read_text(encoding="utf-8")
    section = text.split("## Known differences between sources", 1)[1].split("\n## ", 1)[0]
    for release, differences in KNOWN_DIFFERENCES.items():
        assert release in section
        for d in differences:
            assert d.definition.rsplit(".", 1)[-1] in section, d
            assert not d.field or f"`{d.field}`" in section or f".{d.field}`" in section, d
