"""The model of CRDs: nested objects as first-class models named by field path; CRD metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED

from generator.model.normalize import build_api
from generator.sources import load_source

CRDS = SHARED / "crds"


def widget_api(tmp_path: Path):
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(("v1", "v2"), "v2")), encoding="utf-8")
    api, _ = build_api(load_source(str(path)), "w1")
    return api


def test_nested_objects_are_models_named_by_field_path(tmp_path: Path) -> None:
    api = widget_api(tmp_path)
    root = api.models["com.example.v2.Widget"]
    assert (root.group, root.api_version, root.kind, root.field_path) == ("example.com", "v2", "Widget", "")
    spec_type = root.field("spec").type
    assert spec_type.kind == "ref" and spec_type.ref == "com.example.v2.Widget#spec"
    parts = api.models["com.example.v2.Widget#spec.parts[]"]
    assert (parts.field_path, parts.parent, parts.root) == (
        "spec.parts[]", "com.example.v2.Widget#spec", "com.example.v2.Widget")
    assert parts.kind == "Widget.spec.parts[]" and not parts.is_kind
    assert parts.pointer == ("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/parts/items")
    name = parts.field("name")
    assert name.required and dict(name.constraints) == {"pattern": "^[a-z]+$", "maxLength": 12}
    kind = parts.field("kind")
    assert kind.enum == ("Service", "Other") and kind.default == "Service"
    rule = dict(api.models["com.example.v2.Widget#spec"].field("parts").item_validations[0])
    assert rule["message"] == "Service parts need a port"
    assert dict(parts.validations[0])["rule"] == "self.kind != 'Service' || has(self.port)"
    # nested objects are not index entries: the tree lists the kinds only
    assert [m.kind for m in api.tree["example.com"]["v2"]] == ["Widget"]


def test_crd_metadata_is_model_data(tmp_path: Path) -> None:
    api = widget_api(tmp_path)
    crd = api.models["com.example.v2.Widget"].crd
    assert crd is not None and crd.storage and crd.served and crd.scope == "Namespaced"
    assert [c.name for c in crd.printer_columns] == ["Size", "Colour"]
    assert crd.printer_columns[1].priority == 1 and crd.status_subresource
    assert [(v.name, v.storage) for v in crd.versions] == [("v1", False), ("v2", True)]
    exported = json.loads(json.dumps(api.to_dict()))
    model = next(m for m in exported["models"] if m["name"] == "com.example.v2.Widget")
    assert model["crd"]["shortNames"] == ["wd"] and model["crd"]["scope"] == "Namespaced"
    nested = next(m for m in exported["models"] if m["name"] == "com.example.v2.Widget#spec.parts[]")
    assert nested["fieldPath"] == "spec.parts[]" and nested["root"] == "com.example.v2.Widget"
    assert exported["format"] == "crd"


def test_metadata_is_object_meta_only_when_the_source_has_it(tmp_path: Path, api_131) -> None:
    from generator.sources import merge_documents

    api = widget_api(tmp_path)
    assert api.models["com.example.v2.Widget"].field("metadata").type.kind == "object"
    merged = merge_documents(load_source("kubernetes-validate:1.31"), [load_source(str(tmp_path / "w.yaml"))])
    combined, _ = build_api(merged, "1.31")
    meta = combined.models["com.example.v2.Widget"].field("metadata").type
    assert meta.ref == "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"


@pytest.mark.shared
def test_gateway_httproute_model(shared: Path) -> None:
    api, _ = build_api(load_source(str(CRDS / "gateway-api" / "v1.2.0")), "gateway-v1.2.0")
    path = api.models["io.k8s.networking.gateway.v1.HTTPRoute#spec.rules[].matches[].path"]
    kind = path.field("type")
    assert kind.enum == ("Exact", "PathPrefix", "RegularExpression") and kind.default == "PathPrefix"
    refs = api.models["io.k8s.networking.gateway.v1.HTTPRoute#spec.rules[]"].field("backendRefs")
    assert "Must have port for Service reference" in [dict(r)["message"] for r in refs.item_validations]
    root = api.models["io.k8s.networking.gateway.v1.HTTPRoute"]
    assert root.crd.storage and root.crd.scope == "Namespaced"
    assert "Hostnames" in [c.name for c in root.crd.printer_columns]
    assert not api.models["io.k8s.networking.gateway.v1beta1.HTTPRoute"].crd.storage


def test_inline_objects_of_any_source_are_nested_models(tmp_path: Path) -> None:
    """A CRD schema wrapped into a swagger file by hand no longer collapses to ``object``."""
    swagger = {"swagger": "2.0", "definitions": {"com.example.v1.Widget": {
        "type": "object", "properties": {"spec": {"type": "object", "properties": {
            "size": {"type": "integer"}}}}}}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(swagger), encoding="utf-8")
    api, _ = build_api(load_source(str(path)), "x")
    spec = api.models["com.example.v1.Widget#spec"]
    assert (spec.group, spec.api_version, spec.field("size").type.type) == ("example", "v1", "integer")
    assert api.models["com.example.v1.Widget"].field("spec").type.ref == spec.name


def test_a_field_with_only_plain_keys_is_the_field_the_full_reading_makes(tmp_path: Path) -> None:
    """Most fields' schemas hold only keys that make no field attribute but the type, the
    description and the item facts; those fields take a shorter path in ``normalize``: the same
    ``Field`` as when a key outside that set sends the schema through the full reading."""
    import copy

    from generator.model.normalize import _PLAIN_FIELD_KEYS

    plain = {
        "name": {"type": "string", "description": "A name.", "title": "Name"},
        "count": {"type": "integer", "format": "int32"},
        "tags": {"type": "array", "description": "Tags.",
                 "items": {"type": "string", "description": "A tag."}},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "port": {"x-kubernetes-int-or-string": True, "description": "A port."},
        "child": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}},
        "rows": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "boolean"}}}},
    }
    assert all(_PLAIN_FIELD_KEYS.issuperset(s) for s in plain.values())
    full = {name: {**copy.deepcopy(s), "x-not-a-field-key": True} for name, s in plain.items()}
    fields = {}
    for label, properties in (("plain", plain), ("full", full)):
        schema = copy.deepcopy(widget_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"])
        schema["properties"]["spec"] = {"type": "object", "required": ["name"], "properties": properties}
        path = tmp_path / f"{label}.yaml"
        path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
        api, _ = build_api(load_source(str(path)), "w1")
        fields[label] = api.models["com.example.v1.Widget#spec"].fields
    assert len(fields["plain"]) == len(plain) and fields["plain"] == fields["full"]
    assert fields["plain"][0].elements == () and any(f.elements for f in fields["plain"])
