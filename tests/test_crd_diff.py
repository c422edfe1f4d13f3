"""What changed between CRD releases: version status, storage version, CEL rules, fields."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from crd_fixtures import WIDGET_SCHEMA, dump, widget_crd
from helpers.paths import SHARED

from generator.analysis.crd_diff import CRD_CHANGE_KINDS, with_crd_changes
from generator.analysis.diff import CHANGE_KINDS, diff_apis
from generator.cli import main
from generator.config import Release
from generator.model.normalize import build_api
from generator.pipeline.build import generate
from generator.sources import load_source

GATEWAY = SHARED / "crds" / "gateway-api"


def crd_diff(tmp_path: Path, old: dict, new: dict) -> list[tuple[str, str, str, str, str | None, str | None]]:
    apis = []
    for label, crd in (("a", old), ("b", new)):
        path = tmp_path / f"{label}.yaml"
        path.write_text(dump(crd), encoding="utf-8")
        apis.append(build_api(load_source(str(path)), label)[0])
    diff = with_crd_changes(diff_apis(*apis), *apis)
    return [(c.change, c.severity, c.api_version, c.model + ("." + c.field if c.field else ""), c.old, c.new)
            for c in diff.changes()]


def test_crd_kinds_are_in_the_report_vocabulary() -> None:
    assert set(CRD_CHANGE_KINDS) <= set(CHANGE_KINDS)


def test_version_status_changes(tmp_path: Path) -> None:
    old = widget_crd(("v1", "v2"), "v1")
    new = copy.deepcopy(widget_crd(("v1", "v2"), "v2"))
    new["spec"]["versions"][0].update(served=False)
    new["spec"]["versions"][1].update(deprecated=True, deprecationWarning="use v3")
    changes = crd_diff(tmp_path, old, new)
    assert ("crd-version-not-served", "breaking", "v1", "Widget", "served", "not served") in changes
    assert ("crd-storage-version-changed", "warning", "v2", "Widget", "v1", "v2") in changes
    assert ("crd-version-deprecated", "warning", "v2", "Widget", None, "use v3") in changes


def test_cel_rules_added_changed_removed(tmp_path: Path) -> None:
    new_schema = copy.deepcopy(WIDGET_SCHEMA)
    spec = new_schema["properties"]["spec"]
    spec["properties"]["size"]["x-kubernetes-validations"] = [{"rule": "self % 2 == 1", "message": "odd"}]
    items = spec["properties"]["parts"]["items"]
    items["x-kubernetes-validations"] = [{"rule": "has(self.port)", "message": "Service parts need a port"}]
    changes = crd_diff(tmp_path, widget_crd(), widget_crd(schema=new_schema))
    assert ("validation-rule-added", "warning", "v1", "Widget.spec.size", None,
            "self % 2 == 1 (odd)") in changes
    assert ("validation-rule-changed", "warning", "v1", "Widget.spec.parts",
            "each item: self.kind != 'Service' || has(self.port)", "each item: has(self.port)") in changes
    back = crd_diff(tmp_path, widget_crd(schema=new_schema), widget_crd(schema=new_schema | {}))
    assert back == []
    removed = crd_diff(tmp_path, widget_crd(schema=new_schema), widget_crd())
    assert ("validation-rule-removed", "info", "v1", "Widget.spec.size", "self % 2 == 1 (odd)",
            None) in removed


def test_nested_field_added_is_one_change(tmp_path: Path) -> None:
    new_schema = copy.deepcopy(WIDGET_SCHEMA)
    new_schema["properties"]["spec"]["properties"]["parts"]["items"]["properties"]["timeouts"] = {
        "type": "object", "properties": {"request": {"type": "string"}}}
    changes = crd_diff(tmp_path, widget_crd(), widget_crd(schema=new_schema))
    assert [c[:4] for c in changes] == [("field-added", "info", "v1", "Widget.spec.parts[].timeouts")]


@pytest.mark.shared
def test_gateway_v1_0_to_v1_1(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(GATEWAY / "v1.0.0"), str(GATEWAY / "v1.1.0"), "--format", "json"]) == 0
    changes = json.loads(capsys.readouterr().out)["changes"]
    moves = {(c["model"], c["old"], c["new"]) for c in changes
             if c["change"] == "crd-storage-version-changed"}
    assert moves == {(k, "v1beta1", "v1") for k in ("GatewayClass", "Gateway", "HTTPRoute")}
    grant = [c for c in changes if c["change"] == "crd-version-not-served"]
    assert [(c["model"], c["apiVersion"], c["severity"]) for c in grant] == [
        ("ReferenceGrant", "v1alpha2", "breaking")]


@pytest.mark.shared
def test_gateway_v1_1_to_v1_2(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(GATEWAY / "v1.1.0"), str(GATEWAY / "v1.2.0")]) == 0
    out = capsys.readouterr().out
    assert "info     gateway.networking.k8s.io/v1 HTTPRoute.spec.rules[].timeouts: field added" in out
    assert "breaking" not in out.split("\n", 1)[1]


@pytest.mark.shared
def test_change_page_between_crd_releases(shared: Path) -> None:
    site = generate([Release("gateway-v1.0.0", str(GATEWAY / "v1.0.0")),
                     Release("gateway-v1.1.0", str(GATEWAY / "v1.1.0"))])
    page = site.pages["gateway-v1.1.0/changes.md"]
    assert "crd storage version changed" in page.lower() or "storage version changed" in page
    assert "ReferenceGrant" in page


@pytest.mark.shared
def test_field_since_notes_across_crd_releases(shared: Path) -> None:
    site = generate([Release("gateway-v1.1.0", str(GATEWAY / "v1.1.0")),
                     Release("gateway-v1.2.0", str(GATEWAY / "v1.2.0"))])
    page = site.pages["gateway-v1.2.0/gateway.networking.k8s.io/v1/httpRoute.md"]
    timeouts = page.split('<tr id="field-spec.rules.timeouts">')[1].split("</tr>")[0]
    assert '<span class="k8s-badge k8s-since">since gateway-v1.2.0</span>' in timeouts
    matches = page.split('<tr id="field-spec.rules.matches">')[1].split("</tr>")[0]
    assert "k8s-since" not in matches


@pytest.mark.shared
def test_crd_fields_combined_with_a_kubernetes_release_are_not_since_that_release(
        shared: Path) -> None:
    """History "all" knows the Kubernetes releases (1.25 to 1.37) but no CRD: a CRD set combined
    with 1.31 and 1.32 says nothing of when its fields came, so no field is 'since 1.31'; the
    built-in pages beside it keep their notes."""
    crds = (str(GATEWAY / "v1.2.0"),)
    site = generate([Release("1.31", "", crds), Release("1.32", "", crds)])
    for version in ("1.31", "1.32"):
        page = site.pages[f"{version}/gateway.networking.k8s.io/v1/httpRoute.md"]
        assert '<tr id="field-spec.rules.timeouts">' in page
        assert "k8s-since" not in page, version
    pod_spec = site.pages["1.32/core/v1/podSpec.md"]
    assert '<span class="k8s-badge k8s-since">since 1.26</span>' in pod_spec  # schedulingGates
