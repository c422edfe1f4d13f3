"""Builder functions (issue 3): exactly k8s-libsonnet's function set, names, order and anchors."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.config import Release
from generator.libsonnet.builders import (
    MIXIN,
    NEW,
    WITH,
    BuilderFunction,
    BuilderIndex,
    BuilderObject,
    Slugger,
    argument_name,
    builder_index,
    camel_lower,
    function_name,
    slug,
)
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.sources import load_source
from generator.views.builder_section import builder_section
from generator.views.pages import model_page
from generator.views.site import plan_site

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "specs"
V1ALPHA3 = "io.k8s.api.resource.v1alpha3."
SEED_INDEX = re.compile(r"^( *)\* \[`((?:fn|obj) [^`]+)`\]\(#([^)]+)\)$")


def index_of(api: ApiSpec, name: str) -> BuilderIndex:
    index = builder_index(api.models[name], api)
    assert index is not None, name
    return index


def index_lines(index: BuilderIndex) -> list[tuple[int, str, str]]:
    """(depth, k8s-libsonnet's index text, anchor), as the upstream page lists them."""
    out = []
    for depth, entry in index.entries():
        label = f"fn {entry.signature}" if isinstance(entry, BuilderFunction) else entry.title
        out.append((depth, label, entry.anchor))
    return out


def names(index: BuilderIndex) -> set[str]:
    return {fn.dotted for fn in index.functions()}


# -- real specs: the upstream page and the rules of the issue -----------------------------------

@pytest.mark.shared
def test_131_resource_claim_status_equals_the_upstream_index(api_131, shared):
    seed = (shared / "seeds" / "002_c18ae758623d6d2a.txt").read_text(encoding="utf-8")
    upstream = [(len(m[1]) // 2, m[2], m[3]) for m in map(SEED_INDEX.match, seed.splitlines()) if m]
    assert len(upstream) == 13
    index = index_of(api_131, V1ALPHA3 + "ResourceClaimStatus")
    assert index_lines(index) == upstream
    assert index.library_path == "resource.v1alpha3.resourceClaimStatus"


@pytest.mark.shared
def test_131_resource_claim_status_entries_in_upstream_page_order(api_131, shared):
    """The rendered upstream page (seed 003) has one section per fn/obj, in index order."""
    seed = (shared / "seeds" / "003_7c06a5091ee9ebb2.txt").read_text(encoding="utf-8")
    titles = [line for line in seed.splitlines() if re.fullmatch(r"(fn|obj) [\w.]+", line)]
    index = index_of(api_131, V1ALPHA3 + "ResourceClaimStatus")
    assert [entry.title for _, entry in index.entries()] == titles
    fn = index.function("allocation.devices.withResults")
    assert fn is not None and fn.signature == "withResults(results)"
    assert fn.anchor == "fn-allocationdeviceswithresults"
    assert fn.target == ("allocation", "devices", "results")
    assert fn.owner == V1ALPHA3 + "DeviceAllocationResult"
    assert fn.field is not None and fn.field.description == "Results lists all allocated devices."


def test_132_v1beta1_resource_claim_status(api_132):
    index = index_of(api_132, "io.k8s.api.resource.v1beta1.ResourceClaimStatus")
    found = names(index)
    assert {"withDevices", "withDevicesMixin", "withReservedFor", "withReservedForMixin"} <= found
    assert "withDeallocationRequested" not in found
    assert "allocation.withController" not in found
    assert {"allocation.devices.withResults", "allocation.nodeSelector.withNodeSelectorTerms"} <= found
    assert index.function("withDevicesMixin").anchor == "fn-withdevicesmixin"  # type: ignore[union-attr]


def test_131_resource_claim_is_a_kind_with_new(api_131):
    index = index_of(api_131, V1ALPHA3 + "ResourceClaim")
    first = next(index.functions())
    assert (first.name, first.kind, first.signature, first.anchor) == ("new", NEW, "new(name)", "fn-new")
    assert index.gvk is not None and index.gvk.api_version == "resource.k8s.io/v1alpha3"
    assert index.gvk.kind == "ResourceClaim"
    found = names(index)
    assert not found & {"withKind", "withApiVersion", "withStatus"}
    assert "status" not in {obj.dotted for obj in index.objects()}
    assert {"metadata.withName", "metadata.withLabelsMixin", "spec.devices.withRequests"} <= found


def test_status_has_no_function_at_any_depth(api_131):
    index = index_of(api_131, "io.k8s.api.core.v1.PodCondition")
    assert "withStatus" not in names(index)
    assert {"withType", "withReason", "withLastTransitionTime"} <= names(index)
    for name in ("io.k8s.api.core.v1.Pod", "io.k8s.api.apps.v1.Deployment"):
        targets = [fn.target for fn in index_of(api_131, name).functions()]
        assert not [t for t in targets if "status" in t]


def test_maps_and_arrays_have_mixins_scalars_do_not(api_131):
    meta = index_of(api_131, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
    labels = meta.for_target(("labels",))
    assert [(fn.name, fn.kind) for fn in labels] == [("withLabels", WITH), ("withLabelsMixin", MIXIN)]
    port = index_of(api_131, "io.k8s.api.core.v1.ContainerPort")
    assert "withContainerPort" in names(port)
    assert "withContainerPortMixin" not in names(port)
    pod = index_of(api_131, "io.k8s.api.core.v1.Pod")
    assert {"spec.withContainers", "spec.withContainersMixin", "metadata.withLabelsMixin"} <= names(pod)
    assert "spec.withHostUsers" in names(pod)
    assert "spec.securityContext.withFsGroup" in names(pod)  # obj reached through $ref, recursively


def test_index_order_new_first_functions_then_objects_byte_order(api_131):
    pod = index_of(api_131, "io.k8s.api.core.v1.PodSpec")
    top = [m.name for m in pod.root.members]
    fns = [m.name for m in pod.root.members if isinstance(m, BuilderFunction)]
    objs = [m.name for m in pod.root.members if isinstance(m, BuilderObject)]
    assert top == fns + objs
    assert fns == sorted(fns) and objs == sorted(objs)
    assert fns.index("withHostUsers") < fns.index("withHostname")  # plain byte order


def test_coverage_rules(api_131):
    def covered(name: str) -> bool:
        return builder_index(api_131.models[name], api_131) is not None

    assert covered("io.k8s.api.core.v1.Pod")
    assert covered("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
    assert covered("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService")
    assert not covered("io.k8s.api.core.v1.PodList")
    assert not covered("io.k8s.apimachinery.pkg.apis.meta.v1.Status")
    for name in ("io.k8s.apimachinery.pkg.api.resource.Quantity",
                 "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
                 "io.k8s.apimachinery.pkg.runtime.RawExtension",
                 "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"):
        assert not covered(name)


def test_every_page_anchor_is_unique(api_131, api_132):
    for api in (api_131, api_132):
        for model in api.models.values():
            index = builder_index(model, api)
            if index is not None:
                anchors = [entry.anchor for _, entry in index.entries()]
                assert len(anchors) == len(set(anchors)), model.name


# -- the fixture spec: cycles, keywords, odd names, duplicate slugs --------------------------------

@pytest.fixture(scope="module")
def farm() -> ApiSpec:
    api, _ = build_api(load_source(str(FIXTURES / "builders-v2.json")), "9.9")
    return api


def test_names_arguments_and_keywords(farm):
    spec = index_of(farm, "io.k8s.api.farm.v1.BarnSpec")
    sigs = {fn.signature for fn in spec.functions() if not fn.path}
    assert {"withLocal(Local)", "withError(err)", "withFunction(Function)",
            "withX-Kubernetes-Foo(x_kubernetes_foo)", "withLeading(_leading)",
            "withDotted_name(dotted_name)", "withPort(port)"} <= sigs
    assert function_name("x-kubernetes-foo") == "withX-Kubernetes-Foo"
    # Go's strings.Title: a letter after any separator (ASCII ones by a regular expression,
    # others by Unicode category), digits and "_" are no separators
    assert [function_name(k) for k in ("a-b.c d", "9lives_x", "-lead", "éa-b", "x\u00a0y", "a:ω")] == [
        "withA-B_c D", "with9lives_x", "withLead", "withÉa-B", "withX\u00a0Y", "withA:Ω"]
    assert argument_name("local") == "Local" and argument_name("error") == "err"
    assert camel_lower("URLPath") == "urlPath" and camel_lower("hostIPs") == "hostIPs"


def test_types_decide_mixins(farm):
    spec = index_of(farm, "io.k8s.api.farm.v1.BarnSpec")
    mixins = {fn.name for fn in spec.functions() if fn.kind == MIXIN}
    assert mixins == {"withTagsMixin", "withExtraMixin", "withBlobMixin"}  # array, map, free-form $ref
    # quantity, int-or-string and JSONSchemaProps (never expanded): withX only
    assert {"withSize", "withPortNumber", "withSchema"} <= names(spec)
    assert "withApiVersion" not in names(spec) and "withStatus" not in names(spec)  # top level of BarnSpec
    barn = index_of(farm, "io.k8s.api.farm.v1.Barn")
    assert "spec.withApiVersion" in names(barn)  # apiVersion is only dropped at the top level
    assert "spec.withStatus" not in names(barn)


def test_cycles_terminate_and_stay_functions(farm):
    node = index_of(farm, "io.k8s.api.farm.v1.Node")
    assert index_lines(node) == [
        (0, "fn withNext(next)", "fn-withnext"),
        (0, "fn withValue(value)", "fn-withvalue"),
        (0, "obj edge", "obj-edge"),
        (1, "fn withTo(to)", "fn-edgewithto"),
        (1, "fn withWeight(weight)", "fn-edgewithweight"),
    ]
    barn = index_of(farm, "io.k8s.api.farm.v1.Barn")
    assert {"spec.node.withNext", "spec.node.edge.withTo"} <= names(barn)


def test_repeated_slugs_get_numbered(farm):
    barn = index_of(farm, "io.k8s.api.farm.v1.Barn")
    anchors = {entry.title: entry.anchor for _, entry in barn.entries()}
    assert anchors["obj spec.a.b"] == "obj-specab"
    assert anchors["obj spec.ab"] == "obj-specab-1"
    assert anchors["fn spec.a.b.withC"] == "fn-specabwithc"
    assert anchors["fn spec.ab.withC"] == "fn-specabwithc-1"
    slugger = Slugger()
    assert [slugger("fn a"), slugger("fn a"), slugger("fn a-1"), slugger("fn a")] == \
        ["fn-a", "fn-a-1", "fn-a-1-1", "fn-a-2"]
    assert slug("fn x.with\u2019Y (z)\u2013") == "fn-xwithy-z"


def test_kind_list_and_outside_definitions(farm):
    assert builder_index(farm.models["io.k8s.api.farm.v1.BarnList"], farm) is None
    assert builder_index(farm.models["io.example.api.farm.v1.Outside"], farm) is None
    barn = index_of(farm, "io.k8s.api.farm.v1.Barn")
    assert [fn.name for fn in barn.functions()][:1] == ["new"]
    assert "withKind" not in names(barn)
    assert barn.gvk is not None and barn.gvk.api_version == "farm.example.io/v1"


def test_hostile_names_make_safe_anchors_and_markdown(farm):
    barn = index_of(farm, "io.k8s.api.farm.v1.Barn")
    hostile = next(fn for fn in barn.functions() if fn.target == ("spec", 'a<b>"c'))
    assert hostile.anchor == "fn-specwithabc"
    page = generate([Release("9.9", str(FIXTURES / "builders-v2.json"))]).pages["9.9/farm/v1/barn.md"]
    assert "<b>" not in page and 'a<b>"c' not in page
    assert 'id="fn-specwithabc"' in page


# -- the page section ----------------------------------------------------------------------------

def test_section_links_fields_and_types(api_131):
    plan = plan_site(api_131)
    page = model_page(api_131.models[V1ALPHA3 + "ResourceClaimStatus"], api_131, plan)
    section = builder_section(page, api_131, plan)
    assert section is not None and section.call == "k.resource.v1alpha3.resourceClaimStatus"
    by_path = {e.json_path: e for e in section.entries}
    reserved = by_path["reservedFor"]
    assert [fn.name for fn in reserved.functions] == ["withReservedFor", "withReservedForMixin"]
    assert reserved.field_href == "#field-reservedfor" and reserved.direct
    assert reserved.type is not None and reserved.type.href == "resourceClaimConsumerReference.md"
    results = by_path["allocation.devices.results"]
    assert results.field_href == "deviceAllocationResult.md#field-results" and not results.direct
    assert results.field_url == "../deviceAllocationResult/#field-results"
    assert results.type_url == "../deviceRequestAllocationResult/"
    assert by_path["allocation"].kind == "obj"
    assert section.lines[-1].depth == 2 and section.lines[3].opens


def test_page_markdown_has_index_and_entries(default_pages):
    page = default_pages.pages["1.31/resource/v1alpha3/resourceClaimStatus.md"]
    assert ">allocation.<wbr>devices.<wbr>with<wbr>Results(results)</a>" in page  # breaks between words
    page = page.replace("<wbr>", "")
    assert "\n\n## Builder functions\n\n" in page
    assert '<a href="#fn-allocationdeviceswithresults">fn withResults(results)</a>' in page
    assert 'id="fn-allocationdeviceswithresults"' in page
    # raw HTML with published URLs; the page's own fields link their rows on this page
    href = "../deviceAllocationResult/#field-results"
    assert f'<a class="k8s-path" href="{href}">allocation.devices.results</a>' in page
    assert 'Sets <a class="k8s-path" href="#field-reservedfor">reservedFor</a>.' in page
    assert "at most 32 such reservations" in page.split("## Builder functions")[1]
    assert "## Builder functions" not in default_pages.pages["1.31/core/v1/podList.md"]


def test_obj_entries_describe_the_pages_own_field(default_pages, api_131):
    """``obj metadata`` is planned once per owner: each kind's entry shows its own field's
    description (RuntimeClass's starts "More info:", the first kind's "Standard object metadata"),
    whichever page was rendered first."""
    own = api_131.models["io.k8s.api.node.v1.RuntimeClass"].field("metadata")
    assert own is not None and own.description.startswith("More info:")
    builders = default_pages.pages["1.31/node/v1/runtimeClass.md"].split("## Builder functions")[1]
    entry = '<p>Functions for <a class="k8s-path" href="#field-metadata">metadata</a>'
    assert entry in builders
    assert builders.split(entry)[1].split("</p>", 1)[1].lstrip().startswith("<p>More info:")


# -- the built site: every index link lands on an element of the page --------------------------

class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.index_links: list[str] = []
        self._in_index = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if attr.get("id"):
            self.ids.append(attr["id"] or "")
        if tag == "details" and (self._in_index or "k8s-builder-index" in (attr.get("class") or "")):
            self._in_index += 1
        if self._in_index and tag == "a" and (attr.get("href") or "").startswith("#"):
            self.index_links.append((attr["href"] or "")[1:])

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and self._in_index:
            self._in_index -= 1


@pytest.mark.slow
def test_every_index_link_resolves_in_the_built_site(built_site, api_131, api_132):
    checked = 0
    for api in (api_131, api_132):
        plan = plan_site(api)
        for name, model in api.models.items():
            index = builder_index(model, api)
            html_file = built_site / plan.model_pages[name].removesuffix(".md") / "index.html"
            parser = _Anchors()
            parser.feed(html_file.read_text(encoding="utf-8"))
            if index is None or not len(index):
                assert not parser.index_links, name
                continue
            assert "builder-functions" in parser.ids, name
            expected = [entry.anchor for _, entry in index.entries()]
            assert parser.index_links == expected, name
            ids = set(parser.ids)
            assert len(parser.ids) == len(ids), f"duplicate ids on {name}"
            missing = [a for a in parser.index_links if a not in ids]
            assert not missing, (name, missing[:5])
            checked += len(expected)
    assert checked > 15_000
