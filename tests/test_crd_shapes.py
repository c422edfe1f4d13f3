"""CRD objects that copy a Kubernetes type inline link to that type's page of the combined
release (``model.shapes``): same property names and types, a minimum size, one match only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from crd_fixtures import WIDGET_SCHEMA, widget_crd
from helpers.paths import SHARED

from generator.config import Release
from generator.model.shapes import MIN_PROPERTIES, same_shapes
from generator.model.types import ApiSpec
from generator.pipeline.build import generate, load_api

CRDS = SHARED / "crds"
V1 = "io.k8s.api.core.v1."
META = "io.k8s.apimachinery.pkg.apis.meta.v1."
POD_SPEC = "io.cert-manager.v1.Issuer#spec.acme.solvers[].http01.ingress.podTemplate.spec"
HTTPROUTE = "io.k8s.networking.gateway.v1.HTTPRoute#"
GATEWAY = "io.k8s.networking.gateway.v1.Gateway#"


@pytest.fixture(scope="module")
def combined(shared: Path) -> ApiSpec:
    api, _ = load_api(Release("1.31", "", (str(CRDS / "cert-manager"), str(CRDS / "gateway-api" / "v1.2.0"))))
    return api


@pytest.mark.shared
def test_real_crds_link_the_core_types_they_copy(combined: ApiSpec) -> None:
    same = {n: m.same_shape for n, m in combined.models.items() if m.same_shape}
    assert same[f"{POD_SPEC}.tolerations[]"] == V1 + "Toleration"
    assert same[f"{POD_SPEC}.affinity"] == V1 + "Affinity"
    assert same[f"{POD_SPEC}.affinity.nodeAffinity"] == V1 + "NodeAffinity"
    assert same[f"{POD_SPEC}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[]"] \
        == V1 + "WeightedPodAffinityTerm"
    assert same[f"{POD_SPEC}.securityContext.seLinuxOptions"] == V1 + "SELinuxOptions"
    assert same[f"{GATEWAY}spec.listeners[].allowedRoutes.namespaces.selector"] == META + "LabelSelector"
    # meta/v1 Condition, not apiserverinternal StorageVersionCondition (same fields, fewer required)
    assert same[f"{HTTPROUTE}status.parents[].conditions[]"] == META + "Condition"
    assert same[f"{GATEWAY}status.conditions[]"] == META + "Condition"


@pytest.mark.shared
def test_real_near_misses_do_not_link(combined: ApiSpec) -> None:
    models = combined.models
    # cert-manager's pod security context lacks appArmorProfile, windowsOptions…: not PodSecurityContext
    assert {f.name for f in models[f"{POD_SPEC}.securityContext"].fields} < {
        f.name for f in models[V1 + "PodSecurityContext"].fields}
    assert models[f"{POD_SPEC}.securityContext"].same_shape == ""
    # {limits, requests}: ResourceRequirements also has claims; VolumeResourceRequirements is too small
    assert models[f"{POD_SPEC}.resources"].same_shape == ""
    # {name} is LocalObjectReference's shape, and too small to say so
    assert [f.name for f in models[f"{POD_SPEC}.imagePullSecrets[]"].fields] == ["name"]
    assert models[f"{POD_SPEC}.imagePullSecrets[]"].same_shape == ""
    # the Gateway API's own objects copy no Kubernetes type
    assert models[f"{HTTPROUTE}spec.rules[].matches[]"].same_shape == ""


@pytest.mark.shared
def test_the_page_links_the_core_types_page(shared: Path) -> None:
    site = generate([Release("1.31", "", (str(CRDS / "cert-manager"),))],
                    groups=["cert-manager.io", "core"])
    page = site.pages["1.31/cert-manager.io/v1/issuer/spec.md"]  # spec's tree: its own page
    link = ('<span class="k8s-same">same shape as core/v1 '
            '<a href="../../../../core/v1/toleration/">Toleration</a></span>')
    # the ingress pod template repeats the gateway one (model.repeats): the rows are shown there
    row = re.search(r'<tr id="field-spec\.acme\.solvers\.http01\.gatewayHTTPRoute\.podTemplate\.spec'
                    r'\.tolerations">.*?</tr>', page)
    assert row and link in row.group(0)
    section = re.search(r'(?:\{ #|<section class="k8s-nested" id=")[^ ]*gatewayHTTPRoute\.podTemplate\.spec\.'
                        r'tolerations(?: [^}]*\}|">).*?</p>', page, re.S)  # a heading or a section
    assert section and link in section.group(0)
    assert "1.31/core/v1/toleration.md" in site.pages


TOLERATION: dict[str, Any] = {"type": "object", "properties": {
    "effect": {"type": "string"}, "key": {"type": "string"}, "operator": {"type": "string"},
    "tolerationSeconds": {"type": "integer", "format": "int64"}, "value": {"type": "string"}}}
CONDITION: dict[str, Any] = {"type": "object", "properties": {
    "lastTransitionTime": {"type": "string", "format": "date-time"}, "message": {"type": "string"},
    "observedGeneration": {"type": "integer"}, "reason": {"type": "string"},
    "status": {"type": "string"}, "type": {"type": "string"}}}


def _widget(tmp_path: Path, spec: dict[str, Any]) -> ApiSpec:
    schema = {**WIDGET_SCHEMA, "properties": {**WIDGET_SCHEMA["properties"],
                                              "spec": {"type": "object", "properties": spec}}}
    path = tmp_path / "widget.json"  # JSON: YAML would write the shared dicts as aliases
    path.write_text(json.dumps(widget_crd(schema=schema)), encoding="utf-8")
    api, _ = load_api(Release("1.31", "", (str(path),)))
    return api


def _same(api: ApiSpec, field: str) -> str:
    return api.models[f"com.example.v1.Widget#spec.{field}"].same_shape


def test_exact_copy_links_and_a_near_miss_does_not(tmp_path: Path) -> None:
    renamed = {**TOLERATION, "properties": {**TOLERATION["properties"]}}
    renamed["properties"]["seconds"] = renamed["properties"].pop("tolerationSeconds")
    retyped = {**TOLERATION, "properties": {**TOLERATION["properties"],
                                            "tolerationSeconds": {"type": "string"}}}
    extra = {**TOLERATION, "properties": {**TOLERATION["properties"], "note": {"type": "string"}}}
    api = _widget(tmp_path, {
        "exact": {**TOLERATION, "description": "Its own words.", "required": ["key"]},
        "renamed": renamed, "retyped": retyped, "extra": extra,
        "list": {"type": "array", "items": TOLERATION},
    })
    assert _same(api, "exact") == V1 + "Toleration"  # descriptions and required do not count
    assert _same(api, "list[]") == V1 + "Toleration"
    assert _same(api, "renamed") == _same(api, "retyped") == _same(api, "extra") == ""


def test_small_wrapper_and_ambiguous_shapes_do_not_link(tmp_path: Path) -> None:
    api = _widget(tmp_path, {
        "ref": {"type": "object", "properties": {"name": {"type": "string"}}},  # LocalObjectReference
        "wrapper": {"type": "object", "properties": {"conditions": {"type": "array", "items": {
            **CONDITION, "required": ["lastTransitionTime", "message", "reason", "status", "type"]}}}},
        "unsure": CONDITION,  # Condition or StorageVersionCondition: same fields, no required
        "storage": {**CONDITION, "required": ["message", "reason", "status", "type"]},
    })
    assert _same(api, "ref") == ""
    assert _same(api, "wrapper") == ""  # one property: ServiceCIDRStatus's shape, but a wrapper
    assert _same(api, "wrapper.conditions[]") == META + "Condition"
    assert _same(api, "unsure") == ""
    assert _same(api, "storage") == "io.k8s.api.apiserverinternal.v1alpha1.StorageVersionCondition"


def test_minimum_counts_properties_at_every_depth(api_131: ApiSpec) -> None:
    assert MIN_PROPERTIES == 4
    assert same_shapes(api_131.models) == {}  # definitions only: nothing is nested


def test_crd_only_release_links_nothing_and_exports_the_link(tmp_path: Path) -> None:
    api = _widget(tmp_path, {"t": TOLERATION})
    exported = api.models["com.example.v1.Widget#spec.t"].to_dict()
    assert exported["sameShape"] == V1 + "Toleration"
    path = tmp_path / "only.json"
    path.write_text(json.dumps(widget_crd(schema={**WIDGET_SCHEMA, "properties": {
        **WIDGET_SCHEMA["properties"], "spec": {"type": "object", "properties": {"t": TOLERATION}}}})),
        encoding="utf-8")
    alone, _ = load_api(Release("widgets", str(path)))
    assert not any(m.same_shape for m in alone.models.values())
