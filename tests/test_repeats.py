"""Nested objects that repeat an earlier one exactly (``model.repeats``): found in page order,
only when every shown fact is equal at every depth, and shown once on the page (a reference, no
table, nothing under it), with field paths and builder links leading to the rows of the first."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from crd_fixtures import dump, widget_crd

from generator.model.normalize import build_api
from generator.model.repeats import MIN_PROPERTIES, repeated_subtrees, shown_under
from generator.model.types import ApiSpec
from generator.sources import load_source

ROOT = "com.example.v1.Widget#"
PORT: dict[str, Any] = {
    "type": "object", "description": "Where to listen.", "required": ["port"],
    "properties": {
        "port": {"type": "integer", "format": "int32", "minimum": 1, "description": "The port."},
        "protocol": {"type": "string", "enum": ["TCP", "UDP"], "default": "TCP"},
        "tls": {"type": "object", "description": "TLS settings.", "properties": {
            "secret": {"type": "string", "description": "Secret name."},
            "versions": {"type": "array", "items": {"type": "string"}}}},
    },
}


def _api(tmp_path: Path, spec: dict[str, Any]) -> ApiSpec:
    schema = {"type": "object", "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                                               "metadata": {"type": "object"}, "spec": spec}}
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
    api, _ = build_api(load_source(str(path)), "w")
    return api


def _spec(**listeners: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": dict(listeners)}


def test_an_exact_copy_repeats_the_first_in_field_order(tmp_path: Path) -> None:
    api = _api(tmp_path, _spec(public=copy.deepcopy(PORT), admin=copy.deepcopy(PORT),
                               extra={"type": "array", "items": copy.deepcopy(PORT)}))
    # the first in the order the page shows them (its rows' order: admin, extra, public)
    assert [f.name for f in api.models[f"{ROOT}spec"].fields] == ["admin", "extra", "public"]
    assert repeated_subtrees(api.models) == {f"{ROOT}spec.public": f"{ROOT}spec.admin",
                                             f"{ROOT}spec.extra[]": f"{ROOT}spec.admin"}
    assert api.models[f"{ROOT}spec.public"].same_as == f"{ROOT}spec.admin"
    assert api.models[f"{ROOT}spec.public.tls"].same_as == ""  # under a repeat: not compared again
    assert api.models[f"{ROOT}spec.admin"].same_as == ""
    # fields under a repeat are shown under the first, at the same place
    assert shown_under(api.models, f"{ROOT}spec.public.tls") == f"{ROOT}spec.admin.tls"
    assert shown_under(api.models, f"{ROOT}spec.extra[].tls") == f"{ROOT}spec.admin.tls"
    assert shown_under(api.models, f"{ROOT}spec.admin.tls") == f"{ROOT}spec.admin.tls"


@pytest.mark.parametrize("change", [
    lambda s: s["properties"]["tls"]["properties"]["secret"].update(description="Another."),
    lambda s: s["properties"]["protocol"].update(enum=["TCP", "UDP", "SCTP"]),
    lambda s: s["properties"]["protocol"].update(default="UDP"),
    lambda s: s["properties"]["port"].update(minimum=2),
    lambda s: s.update(required=["port", "protocol"]),
    lambda s: s.update(description="Where else to listen."),
    lambda s: s["properties"]["tls"]["properties"]["versions"]["items"].update(type="integer"),
    lambda s: s.update({"x-kubernetes-validations": [{"rule": "self.port > 1"}]}),
])
def test_any_shown_difference_at_any_depth_is_no_repeat(tmp_path: Path, change: Any) -> None:
    other = copy.deepcopy(PORT)
    change(other)
    api = _api(tmp_path, _spec(public=copy.deepcopy(PORT), admin=other))
    assert repeated_subtrees(api.models) == {}


def test_a_small_object_is_not_worth_a_reference(tmp_path: Path) -> None:
    small = {"type": "object", "properties": {"name": {"type": "string"}}}
    assert MIN_PROPERTIES > 1
    api = _api(tmp_path, _spec(a=copy.deepcopy(small), b=copy.deepcopy(small)))
    assert repeated_subtrees(api.models) == {}


@pytest.mark.integration
def test_the_page_shows_a_repeat_once_and_every_link_finds_its_row(tmp_path: Path) -> None:
    from generator.config import Release
    from generator.pipeline.build import generate

    schema = {"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": _spec(public=copy.deepcopy(PORT), admin=copy.deepcopy(PORT))}}
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
    site = generate([Release("w", str(path))])
    page = site.pages["w/example.com/v1/widget.md"]
    section = re.search(r'<section class="k8s-nested" id="object-spec.public">.*?</section>', page, re.S)
    assert section is not None and "<table>" not in section.group(0)
    assert ('<p class="k8s-repeat" data-path="spec.public" data-first="spec.admin">The same fields as '
            '<a href="#object-spec.admin">' in section.group(0))
    assert 'id="object-spec.public.tls"' not in page and 'id="object-spec.admin.tls"' in page
    ids = set(re.findall(r' id="([^"]+)"', page))
    for anchor in re.findall(r'href="#((?:field|object)-[^"]+)"', page):
        assert anchor in ids, anchor  # builder index entries under the repeat link the first's rows
    assert "fn-specpublictlswithsecret" in ids  # the builder index keeps every function
    paths = json.loads(site.pages["w/fieldpaths.json"])["models"]
    public = paths["example.com/v1/widget/#object-spec.public"]["f"]
    assert public == paths["example.com/v1/widget/#object-spec.admin"]["f"]
