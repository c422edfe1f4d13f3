"""CRD manifests as sources: detection by content, all input shapes, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED

from generator.cli import main
from generator.errors import Level, SpecError
from generator.sources import load_source, source_digest

CRDS = SHARED / "crds"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_one_crd_yaml_file_is_detected_by_content(tmp_path: Path) -> None:
    doc = load_source(str(write(tmp_path / "w.yaml", dump(widget_crd(("v1", "v2"), "v2")))))
    assert doc.format == "crd"
    assert sorted(doc.definitions) == ["com.example.v1.Widget", "com.example.v2.Widget"]
    meta = doc.crds["com.example.v2.Widget"]
    assert (meta["group"], meta["kind"], meta["plural"], meta["scope"]) == (
        "example.com", "Widget", "widgets", "Namespaced")
    assert meta["storage"] and not doc.crds["com.example.v1.Widget"]["storage"]
    assert meta["shortNames"] == ["wd"] and meta["categories"] == ["toys"]
    assert [c["name"] for c in meta["printerColumns"]] == ["Size", "Colour"]
    assert doc.pointer_of("com.example.v1.Widget") == "/spec/versions/0/schema/openAPIV3Schema"


def test_json_crd_and_crd_list(tmp_path: Path) -> None:
    one = load_source(str(write(tmp_path / "w.json", json.dumps(widget_crd()))))
    assert list(one.definitions) == ["com.example.v1.Widget"]
    listed = {"apiVersion": "v1", "kind": "List",
              "items": [widget_crd(), widget_crd(kind="Gadget")]}
    many = load_source(str(write(tmp_path / "l.json", json.dumps(listed))))
    assert sorted(many.definitions) == ["com.example.v1.Gadget", "com.example.v1.Widget"]
    assert many.pointer_of("com.example.v1.Gadget") == "/items/1/spec/versions/0/schema/openAPIV3Schema"


def test_v1beta1_crd_with_spec_validation(tmp_path: Path) -> None:
    crd = widget_crd()
    version = crd["spec"]["versions"][0]
    crd["apiVersion"] = "apiextensions.k8s.io/v1beta1"
    crd["spec"]["validation"] = version.pop("schema")
    crd["spec"]["additionalPrinterColumns"] = [
        {"name": "Size", "type": "integer", "JSONPath": ".spec.size"}]
    del version["additionalPrinterColumns"]
    doc = load_source(str(write(tmp_path / "old.yaml", dump(crd))))
    assert doc.pointer_of("com.example.v1.Widget") == "/spec/validation/openAPIV3Schema"
    assert doc.crds["com.example.v1.Widget"]["printerColumns"][0]["jsonPath"] == ".spec.size"
    assert "spec" in doc.definitions["com.example.v1.Widget"]["properties"]


def test_non_crd_documents_are_skipped_with_one_info_each(tmp_path: Path) -> None:
    policy = {"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
              "metadata": {"name": "p"}}
    path = write(tmp_path / "set" / "all.yaml", dump(policy, widget_crd()))
    write(tmp_path / "set" / "nested" / "kustomization.yaml",
          "resources:\n- all.yaml\n")
    doc = load_source(str(tmp_path / "set"))
    assert list(doc.definitions) == ["com.example.v1.Widget"]
    infos = [str(d) for d in doc.diagnostics]
    assert infos == [
        f"info: {path} (document 1): skipped: a ValidatingAdmissionPolicy "
        "(admissionregistration.k8s.io/v1) is not a CustomResourceDefinition",
        f"info: {tmp_path / 'set/nested/kustomization.yaml'}: skipped: an object without kind "
        "is not a CustomResourceDefinition",
    ]
    assert all(d.level is Level.INFO for d in doc.diagnostics)


def test_directory_digest_matches_loaded_digest(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", dump(widget_crd()))
    write(tmp_path / "b" / "c.yml", dump(widget_crd(kind="Gadget")))
    assert load_source(str(tmp_path)).sha256 == source_digest(str(tmp_path))


def test_url_source_uses_the_fetch_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator import sources

    body = write(tmp_path / "cached", dump(widget_crd(), widget_crd(kind="Gadget")))
    monkeypatch.setattr(sources, "fetch", lambda url, *a, **k: body)
    doc = sources.load_source("https://example.com/crds.yaml")
    assert doc.origin == "https://example.com/crds.yaml"
    assert sorted(doc.definitions) == ["com.example.v1.Gadget", "com.example.v1.Widget"]
    monkeypatch.setattr(sources, "fetch", lambda url, *a, **k: write(
        tmp_path / "cached2", json.dumps(widget_crd())))
    assert list(sources.load_source("https://example.com/crd").definitions) == ["com.example.v1.Widget"]


# -- bad input: one line naming file, document and JSON pointer, exit 2 ----------------------

def _no_schema(path: Path) -> str:
    crd = widget_crd()
    del crd["spec"]["versions"][0]["schema"]
    write(path, dump({"kind": "ConfigMap", "apiVersion": "v1"}, crd))
    return (f"{path} (document 2)#/spec/versions/0/schema/openAPIV3Schema: "
            "CRD version 'v1' has no schema (openAPIV3Schema): nothing to document")


def _two_crds(path: Path) -> str:
    write(path / "a.yaml", dump(widget_crd()))
    write(path / "b.yaml", dump(widget_crd(("v2",), "v2")))
    return (f"{path / 'b.yaml'}#/spec/names/kind: two CRDs define kind 'Widget' in group "
            f"'example.com': {path / 'a.yaml'} and {path / 'b.yaml'}")


def _version_twice(path: Path) -> str:
    write(path, dump(widget_crd(("v1", "v2", "v1"))))
    return f"{path}#/spec/versions/2/name: version 'v1' is listed twice (also at /spec/versions/0)"


def _helm(path: Path) -> str:
    write(path, dump(widget_crd()).replace("name: widgets.example.com",
                                           "name: '{{ .Values.prefix }}widgets.example.com'"))
    return (f"{path}#/metadata/name: Helm template syntax {{{{ … }}}}: render the chart first "
            "(helm template), then document its output")


def _helm_unparsable(path: Path) -> str:
    write(path, "{{- if .Values.crds }}\n" + dump(widget_crd()) + "{{- end }}\n")
    return (f"{path}: Helm template syntax {{{{ … }}}} at line 1: render the chart first "
            "(helm template), then document its output")


def _ref(path: Path) -> str:
    crd = widget_crd()
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"][
        "size"] = {"$ref": "#/definitions/Size"}
    write(path, dump(crd))
    return (f"{path}#/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/size/$ref: "
            "$ref is not allowed in a CRD schema (schemas must be inline)")


def _deep(path: Path) -> str:
    schema: dict = {"type": "string"}
    for _ in range(70):
        schema = {"type": "object", "properties": {"a": schema}}
    write(path, dump(widget_crd(schema=schema)))
    at = "/spec/versions/0/schema/openAPIV3Schema" + "/properties/a" * 65
    from generator.errors import Location

    return f"{Location(str(path), at)}: schema nested deeper than 64 levels"


BAD = {"no-schema.yaml": _no_schema, "two-crds": _two_crds, "version-twice.yaml": _version_twice,
       "helm.yaml": _helm, "helm-raw.yaml": _helm_unparsable, "ref.yaml": _ref, "deep.yaml": _deep}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_crd_input_gives_one_located_line_and_exit_2(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = BAD[case](tmp_path / case)
    out = tmp_path / "out"
    assert main(["generate", "--version", "x", "--source", str(tmp_path / case), "--out", str(out),
                 "-q"]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"error: {expected}\n"
    assert not out.exists()


def test_two_crds_in_one_file_name_their_documents(tmp_path: Path) -> None:
    path = write(tmp_path / "x.yaml", dump(widget_crd(), widget_crd(("v2",), "v2")))
    with pytest.raises(SpecError) as err:
        load_source(str(path))
    assert str(err.value) == (f"{path} (document 2)#/spec/names/kind: two CRDs define kind 'Widget' in "
                              f"group 'example.com': {path} (document 1) and {path} (document 2)")


def test_yaml_aliases_in_a_crd_file_load_as_kubectl_loads_them(tmp_path: Path) -> None:
    """kubectl (go-yaml v2) expands aliases and applies merge keys; "billion laughs" is refused
    by go-yaml's alias ratio, at its line."""
    crd = dump(widget_crd()).replace("    served: true\n", "    served: &on true\n", 1)
    crd = crd.replace("    storage: true\n", "    storage: *on\n", 1)
    assert "&on" in crd and "*on" in crd
    path = write(tmp_path / "a.yaml", crd)
    assert load_source(str(path)).crds["com.example.v1.Widget"]["versions"][0]["storage"] is True
    laughs = "a: &a [" + ", ".join(["x"] * 9) + "]\n" + "".join(
        f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True))
    path = write(tmp_path / "l.yaml", "kind: CustomResourceDefinition\n" + laughs)
    with pytest.raises(SpecError, match=r"line 5, column \d+: document contains excessive aliasing"):
        load_source(str(path))


# -- real CRD sets ---------------------------------------------------------------------------

@pytest.mark.shared
def test_real_crd_sets_load(shared: Path) -> None:
    gateway = load_source(str(CRDS / "gateway-api" / "v1.2.0"))
    assert sorted(gateway.definitions) == [
        "io.k8s.networking.gateway.v1.GRPCRoute", "io.k8s.networking.gateway.v1.Gateway",
        "io.k8s.networking.gateway.v1.GatewayClass", "io.k8s.networking.gateway.v1.HTTPRoute",
        "io.k8s.networking.gateway.v1beta1.Gateway", "io.k8s.networking.gateway.v1beta1.GatewayClass",
        "io.k8s.networking.gateway.v1beta1.HTTPRoute", "io.k8s.networking.gateway.v1beta1.ReferenceGrant"]
    azure = load_source(str(CRDS / "azure-alb-controller-1.9-crds.yaml"))
    assert len({m["kind"] for m in azure.crds.values()}) == 9
    cert = load_source(str(CRDS / "cert-manager"))
    certificate = cert.crds["io.cert-manager.v1.Certificate"]
    assert certificate["shortNames"] == ["cert", "certs"]
    assert {m["group"] for m in cert.crds.values()} == {"cert-manager.io", "acme.cert-manager.io"}
