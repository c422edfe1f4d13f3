"""Builder functions of CRD kinds (issue 14): the index of the library k8s-gen generates from the
CRDs (the names and anchors of jsonnet-libs' gateway-api-libsonnet / cert-manager-libsonnet), the
builder section of CRD pages, and Jsonnet examples from those functions that evaluate, against a
library generated from our index in k8s-gen's shape, to exactly the YAML example."""

from __future__ import annotations

import copy
import html
import json
import re
from pathlib import Path
from typing import Any

import _jsonnet
import pytest
import yaml
from crd_fixtures import WIDGET_SCHEMA, dump, widget_crd
from helpers.paths import SHARED
from jsonnet_library import CrdLibrary, evaluate_crds

from generator.config import Release
from generator.examples.crd import crd_example
from generator.libsonnet.builders import MIXIN, WITH, BuilderObject, builder_index
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.sources import load_source

CRDS = SHARED / "crds"
SETS = ["gateway-api/v1.0.0", "gateway-api/v1.1.0", "gateway-api/v1.2.0", "cert-manager",
        "azure-alb-controller-1.9-crds.yaml"]
HTTPROUTE = "io.k8s.networking.gateway.v1.HTTPRoute"
META_FUNCTIONS = [
    "withAnnotations", "withAnnotationsMixin", "withClusterName", "withCreationTimestamp",
    "withDeletionGracePeriodSeconds", "withDeletionTimestamp", "withFinalizers", "withFinalizersMixin",
    "withGenerateName", "withGeneration", "withLabels", "withLabelsMixin", "withName", "withNamespace",
    "withOwnerReferences", "withOwnerReferencesMixin", "withResourceVersion", "withSelfLink", "withUid"]
"""k8s-gen's ObjectMeta functions under ``metadata`` of every CRD kind (19; no managedFields)."""


def _api(path: Path, label: str = "x") -> ApiSpec:
    return build_api(load_source(str(path)), label)[0]


def _index_lines(api: ApiSpec, name: str) -> list[str]:
    """The index as the library's docs list it: ``fn spec.withHostnames(hostnames) #anchor``."""
    index = builder_index(api.models[name], api)
    assert index is not None
    return [f"{'obj ' + e.dotted if isinstance(e, BuilderObject) else 'fn ' + e.dotted}"
            f"{'' if isinstance(e, BuilderObject) else '(' + e.arg + ')'} #{e.anchor}"
            for _, e in index.entries()]


@pytest.fixture(scope="module")
def gateway(shared: Path) -> ApiSpec:
    return _api(CRDS / "gateway-api" / "v1.2.0", "gateway-v1.2.0")


@pytest.mark.shared
def test_httproute_v1_functions_have_the_real_librarys_names_and_anchors(gateway: ApiSpec) -> None:
    index = builder_index(gateway.models[HTTPROUTE], gateway)
    assert index is not None and index.crd
    assert index.library_path == "gateway.v1.httpRoute"
    lines = _index_lines(gateway, HTTPROUTE)
    # gateway-api-libsonnet 1.2 (k8s-gen from Gateway API v1.2.0) lists 179 entries for httpRoute v1
    assert len(lines) == 179
    assert lines[:2] == ["fn new(name) #fn-new", "obj metadata #obj-metadata"]
    for line in ("fn spec.withHostnames(hostnames) #fn-specwithhostnames",
                 "fn spec.withHostnamesMixin(hostnames) #fn-specwithhostnamesmixin",
                 "fn spec.withRules(rules) #fn-specwithrules",
                 "obj spec.rules #obj-specrules",
                 "obj spec.rules.matches #obj-specrulesmatches",
                 "obj spec.rules.matches.path #obj-specrulesmatchespath",
                 "fn spec.rules.matches.path.withType(type) #fn-specrulesmatchespathwithtype",
                 "fn spec.rules.matches.path.withValue(value) #fn-specrulesmatchespathwithvalue",
                 "obj spec.rules.timeouts #obj-specrulestimeouts",
                 "fn spec.rules.timeouts.withBackendRequest(backendRequest) "
                 "#fn-specrulestimeoutswithbackendrequest"):
        assert line in lines, line
    assert [f.name for f in index.root.objects[0].functions] == META_FUNCTIONS
    names = {fn.dotted for fn in index.functions()}
    assert "withMetadata" not in names and "metadata.withManagedFields" not in names
    assert not any(n.startswith(("status", "withStatus", "withApiVersion", "withKind")) for n in names)
    path_type = index.function("spec.rules.matches.path.withType")
    assert path_type is not None and path_type.kind == WITH
    assert path_type.target == ("spec", "rules", "matches", "path", "type")
    assert path_type.writes == ("path", "type")  # one item of spec.rules[].matches[]
    rules = index.function("spec.withRulesMixin")
    assert rules is not None and rules.kind == MIXIN and rules.writes == ("spec", "rules")


@pytest.mark.shared
def test_library_paths_follow_k8s_gens_group_rule(shared: Path) -> None:
    cert = _api(CRDS / "cert-manager")
    paths = {builder_index(m, cert).library_path for m in cert.models.values() if m.crd is not None}
    assert paths == {"nogroup.v1.certificate", "nogroup.v1.certificateRequest", "nogroup.v1.issuer",
                     "nogroup.v1.clusterIssuer", "acme.v1.challenge", "acme.v1.order"}
    alb = _api(CRDS / "azure-alb-controller-1.9-crds.yaml")
    paths = {builder_index(m, alb).library_path for m in alb.models.values() if m.crd is not None}
    assert len(paths) == 9 and "alb.v1.applicationLoadBalancer" in paths


RULES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
            "port": {"x-kubernetes-int-or-string": True},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "routes": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"weight": {"type": "integer"}}}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            "grid": {"type": "array", "items": {"type": "array", "items": {
                "type": "object", "properties": {"x": {"type": "integer"}}}}},
            "URLPath": {"type": "string"},
            "local": {"type": "string"},
            "apiVersion": {"type": "string"},
            "status": {"type": "string"},
        }},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
    },
}
RULES_INDEX = [
    "fn new(name) #fn-new", "obj metadata #obj-metadata",
    *(f"fn metadata.{n}({n[4].lower() + n[5:].removesuffix('Mixin')}) #fn-metadata{n.lower()}"
      for n in META_FUNCTIONS),
    "obj spec #obj-spec",
    "fn spec.withApiVersion(apiVersion) #fn-specwithapiversion",
    "fn spec.withFree(free) #fn-specwithfree", "fn spec.withFreeMixin(free) #fn-specwithfreemixin",
    "fn spec.withGrid(grid) #fn-specwithgrid", "fn spec.withGridMixin(grid) #fn-specwithgridmixin",
    "fn spec.withLabels(labels) #fn-specwithlabels",
    "fn spec.withLabelsMixin(labels) #fn-specwithlabelsmixin",
    "fn spec.withLocal(Local) #fn-specwithlocal",
    "fn spec.withPort(port) #fn-specwithport",
    "fn spec.withRoutes(routes) #fn-specwithroutes",
    "fn spec.withRoutesMixin(routes) #fn-specwithroutesmixin",
    "fn spec.withUrlPath(urlPath) #fn-specwithurlpath",
]
"""What k8s-gen's rules give for RULES_SCHEMA: int-or-string has no Mixin, maps and free-form
objects get one and no obj (k8s-gen drops additionalProperties), an array of arrays no item obj,
``status`` nowhere, ``apiVersion`` below the root kept, names camel-lowered, keyword arguments
capitalised."""


def test_k8s_gen_rules_on_a_schema_written_for_them(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text(dump(widget_crd(schema=RULES_SCHEMA)), encoding="utf-8")
    api = _api(path)
    name = "com.example.v1.Widget"
    assert _index_lines(api, name) == RULES_INDEX
    # the check can fail: the widget schema's index is another one
    path.write_text(dump(widget_crd(schema=WIDGET_SCHEMA)), encoding="utf-8")
    widget = _index_lines(_api(path), name)
    assert widget != RULES_INDEX
    assert widget[-4:] == ["obj spec.parts #obj-specparts",
                           "fn spec.parts.withKind(kind) #fn-specpartswithkind",
                           "fn spec.parts.withName(name) #fn-specpartswithname",
                           "fn spec.parts.withPort(port) #fn-specpartswithport"]


@pytest.mark.shared
@pytest.mark.parametrize("crd_set", SETS)
def test_jsonnet_examples_evaluate_to_the_yaml_example(crd_set: str, shared: Path) -> None:
    api = _api(CRDS / crd_set)
    examples = {m.name: crd_example(m, api) for m in api.models.values() if m.crd is not None}
    assert examples and all(e is not None for e in examples.values())
    snippets = {name: e.example.jsonnet for name, e in examples.items()}  # type: ignore[union-attr]
    results = evaluate_crds(api, snippets)
    for name, example in examples.items():
        assert example is not None
        data = yaml.safe_load(example.example.yaml)
        assert results[name] == data == example.example.data, name
        index = builder_index(api.models[name], api)
        assert index is not None
        alias = index.library_path.rsplit(".", 1)[1]
        assert example.example.jsonnet.split("\n\n", 1)[1].startswith(f"{alias}.new('example')"), name


@pytest.mark.shared
def test_httproute_jsonnet_calls_item_functions(gateway: ApiSpec) -> None:
    example = crd_example(gateway.models[HTTPROUTE], gateway)
    assert example is not None
    snippet = example.example.jsonnet
    assert "local crds = import 'main.libsonnet';\nlocal httpRoute = crds.gateway.v1.httpRoute;\n" in snippet
    assert "httpRoute.metadata.withNamespace('default')" in snippet
    assert "httpRoute.spec.withRules([" in snippet
    assert "httpRoute.spec.rules.withMatches([" in snippet
    assert "httpRoute.spec.rules.matches.path.withType('PathPrefix')" in snippet
    assert "{" not in snippet.split("\n\n", 1)[1]  # every value comes from a function


def test_jsonnet_check_can_fail(tmp_path: Path) -> None:
    """The evaluation is a real check: item functions build one item, and a snippet that sets a
    value the example does not have evaluates to another object."""
    schema = copy.deepcopy(WIDGET_SCHEMA)
    schema["properties"]["spec"]["required"] = ["size", "parts"]
    schema["properties"]["spec"]["properties"]["parts"]["minItems"] = 1
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
    api = _api(path)
    model = api.models["com.example.v1.Widget"]
    example = crd_example(model, api)
    assert example is not None
    snippet = example.example.jsonnet
    assert "widget.spec.withParts([widget.spec.parts.withName('example')])" in snippet
    good = evaluate_crds(api, {"w": snippet})["w"]
    assert good == example.example.data
    wrong = snippet.replace("parts.withName('example')", "parts.withName('other')")
    assert evaluate_crds(api, {"w": wrong})["w"] != example.example.data
    item = "local crds = import 'main.libsonnet'; crds.example.v1.widget.spec.parts.withPort(80)"
    assert json.loads(_jsonnet.evaluate_snippet("x", item, import_callback=CrdLibrary(api))) == {"port": 80}
    with pytest.raises(RuntimeError):  # a function the index does not have
        evaluate_crds(api, {"w": snippet.replace("withParts(", "withPartz(")})


@pytest.mark.shared
def test_crd_page_has_the_builder_section(shared: Path) -> None:
    site = generate([Release("gateway-v1.2.0", str(CRDS / "gateway-api" / "v1.2.0"))])
    page = site.pages["gateway-v1.2.0/gateway.networking.k8s.io/v1/httpRoute.md"]
    assert "## Builder functions" in page
    assert "crds.gateway.v1.httpRoute.new(name)" in page
    for anchor in ("fn-specwithhostnames", "fn-specrulesmatchespathwithtype", "obj-specrulesmatches",
                   "fn-metadatawithlabels"):
        assert f'id="{anchor}"' in page and f'href="#{anchor}"' in page, anchor
    # a nested function links the row of its field in the field-path tree
    assert 'href="#field-spec.rules.matches.path.type"' in page
    assert "spec.rules&#91;&#93;.matches&#91;&#93;.path.type" in page.replace("<wbr>", "")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "local httpRoute = crds.gateway.v1.httpRoute;" in text
    assert "httpRoute.spec.rules.matches.path.withType('PathPrefix')" in text



@pytest.mark.shared
def test_huge_crd_kind_gets_the_compact_index_with_every_anchor(shared: Path) -> None:
    """cert-manager's ClusterIssuer (517 functions): the index carries every anchor itself,
    there is no per-function reference, and the page stays under 500 KB."""
    api = _api(CRDS / "cert-manager", "cm")
    site = generate([Release("cm", str(CRDS / "cert-manager"))])
    page = site.pages["cm/cert-manager.io/v1/clusterIssuer.md"]
    index = builder_index(api.models["io.cert-manager.v1.ClusterIssuer"], api)
    assert index is not None and index.library_path == "nogroup.v1.clusterIssuer" and len(index) > 500
    assert "k8s-builder-compact" in page and "### Builder function reference" not in page
    for _, entry in index.entries():
        assert page.count(f'id="{entry.anchor}"') == 1, entry.anchor
    assert '<li id="fn-specacmewithserver">withServer</li>' in page
    # each obj links its field's row, on the page of spec's tree (views.site.SPLIT_AT)
    assert '<li id="obj-specacme"><a href="../clusterIssuer/spec/#field-spec.acme">obj acme</a><ul>' in page
    assert 'id="field-spec.acme"' in site.pages["cm/cert-manager.io/v1/clusterIssuer/spec.md"]
    assert len(page.encode()) < 500_000
    # a kind under the limit keeps the full reference
    certificate = site.pages["cm/cert-manager.io/v1/certificate.md"]
    assert "### Builder function reference" in certificate and "k8s-builder-compact" not in certificate


@pytest.mark.integration
def test_a_huge_builder_index_moves_obj_groups_to_pages_of_their_own_every_anchor_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """argo-cd's ApplicationSet (8,852 functions, 1.31 MB of index on one page) in small: with
    tiny budgets the members of ``obj spec`` move to ``functions.spec.md`` and those of
    ``obj spec.parts`` below it to ``functions.spec.parts.md``; every line keeps its anchor on
    exactly one page, the kind's own functions stay (the search index links them there)."""
    from generator.views import builder_section, site

    monkeypatch.setattr(site, "COMPACT_AFTER", 0)
    monkeypatch.setattr(builder_section, "COMPACT_AFTER", 0)
    monkeypatch.setattr(site, "BUILDER_KEPT", 1)
    monkeypatch.setattr(site, "BUILDER_PAGE_AT", 1)
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    api = _api(path, "w1")
    index = builder_index(api.models["com.example.v1.Widget"], api)
    assert index is not None
    result = generate([Release("w1", str(path))])
    kind = "w1/example.com/v1/widget"
    pages = {p: t for p, t in result.pages.items() if p.startswith(kind)}
    assert {f"{kind}/functions.spec.md", f"{kind}/functions.spec.parts.md"} <= set(pages)
    for _, entry in index.entries():
        assert sum(t.count(f'id="{entry.anchor}"') for t in pages.values()) == 1, entry.anchor
    main = pages[f"{kind}.md"]
    assert all(f'id="{fn.anchor}"' in main for fn in index.root.functions)
    assert re.search(r'<li id="obj-spec"><a href="[^"]*">obj spec</a>: <a class="k8s-builder-page" '
                     r'href="\.\./widget/functions\.spec/">its \d+ functions</a></li>', main)
    spec = pages[f"{kind}/functions.spec.md"]
    assert spec.startswith("# Widget builder functions <code>spec</code>")
    assert 'href="../functions.spec.parts/">its' in spec
    nav = json.dumps(result.nav)
    assert '{"functions: spec": "w1/example.com/v1/widget/functions.spec.md"}' in nav
    gfm = generate([Release("w1", str(path))], page_format="gfm").pages
    assert "listed [on a page of their own](widget/functions.spec.md)" in gfm[f"{kind}.md"]
    assert gfm[f"{kind}/functions.spec.md"].startswith("# Widget builder functions `spec`")


def test_a_compact_builder_section_makes_its_entries_only_when_a_template_reads_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A huge CRD kind's compact section shows only its index in the shipped MkDocs templates:
    its per-function entries are made when a template first reads them (``--format gfm``, an
    override), and are then exactly the entries of the full reference."""
    from generator.views import builder_section
    from generator.views.pages import model_page
    from generator.views.site import plan_site

    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    api = _api(path, "w1")
    plan = plan_site(api)
    page = model_page(api.models["com.example.v1.Widget"], api, plan)
    full = builder_section.builder_section(page, api, plan)
    assert full is not None and not full.compact and isinstance(full.reference, list)
    monkeypatch.setattr(builder_section, "COMPACT_AFTER", 0)
    compact = builder_section.builder_section(page, api, plan)
    assert compact is not None and compact.compact and callable(compact.reference)
    assert "entries" not in compact.__dict__  # not made yet
    assert compact.lines == full.lines and compact.function_count == full.function_count
    assert len(full.entries) > 10 and {e.kind for e in full.entries} >= {"new", "obj", "field"}
    assert compact.entries == full.entries
    assert compact.entries is compact.entries  # made once


def test_a_crd_index_keeps_no_planning_data_of_its_inline_objects_nor_a_name_map_for_new(
        tmp_path: Path) -> None:
    """The memory of a huge CRD kind's index (issue 34 item 6): the planner keeps the planned
    level of shared definitions only (an inline object's is planned for its one index), and
    looking up ``new`` reads the root's members without naming every function; every lookup
    finds what the walk of the whole index finds first."""
    from generator.libsonnet.builders import BuilderFunction, planner_for

    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    api = _api(path, "w1")
    index = builder_index(api.models["com.example.v1.Widget"], api)
    assert index is not None
    levels = planner_for(api)._levels
    assert levels and not any(api.models[name].field_path for name, _ in levels if name in api.models)
    new = index.function("new")
    assert new is not None and new.kind == "new" and not index._by_dotted
    first: dict[str, BuilderFunction] = {}
    for fn in index.functions():
        first.setdefault(fn.dotted, fn)
    assert len(first) > 10 and any("." in name for name in first)
    for dotted, fn in first.items():
        assert index.function(dotted) is fn, dotted
    assert index.function("withNothing") is None and index.function("spec.withNothing") is None
