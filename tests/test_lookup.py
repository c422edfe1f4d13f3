"""Field paths, the search index's entries and line-break opportunities in identifiers (issue 15):
the data the site's script and Material's search read, checked on the real 1.31/1.32 models.
The browser tests (``test_site_browser.py``) check what a reader sees."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from helpers.paths import HOSTILE
from lunr_oracle import Search

from generator.config import Release
from generator.model.types import ApiSpec
from generator.pipeline.build import load_api
from generator.render.env import wbr
from generator.render.markup import inline
from generator.sitebuild.landing import alias_pages, site_url_of
from generator.views.lookup import FIELD_PATHS, field_path_box, field_paths, row_anchors
from generator.views.properties import property_rows
from generator.views.search import page_entries, reshape
from generator.views.site import plan_site


def resolve(data: dict, start: str, path: str) -> tuple[str, str]:
    """What ``site_src/assets/k8s-api-docs.js`` does with a path: (page, anchor) of its last field."""
    parts = [p for p in re.sub(r"\[[^\]]*\]", "", path).split(".") if p]
    page, model = start, data["models"][start]
    if parts[0] not in model["f"] and parts[0].lower() == model["k"].lower():
        parts = parts[1:]
    for i, name in enumerate(parts):
        anchor, target = model["f"][name]
        if i == len(parts) - 1:
            return page.split("#")[0], anchor  # a CRD's nested object: <page>#<section anchor>
        page, model = target, data["models"][target]
    raise AssertionError(path)


def test_field_paths_follow_references_across_pages(api_132: ApiSpec) -> None:
    data = field_paths(api_132, plan_site(api_132, ""))
    assert data["version"] == "1.32"
    deployment = data["models"]["apps/v1/deployment/"]
    assert deployment["k"] == "Deployment"
    assert deployment["f"]["spec"] == ["field-spec", "apps/v1/deploymentSpec/"]
    assert deployment["f"]["apiVersion"] == ["field-apiversion", None]
    for path in ("spec.template.spec.containers.image", "spec.template.spec.containers[].image",
                 "deployment.spec.template.spec.containers[0].image"):
        assert resolve(data, "apps/v1/deployment/", path) == ("core/v1/container/", "field-image")
    deep = "spec.jobTemplate.spec.template.spec.volumes.configMap.items.key"
    assert resolve(data, "batch/v1/cronJob/", deep) == ("core/v1/keyToPath/", "field-key")
    # Types without fields end the path: quantities, int-or-string, maps of strings.
    container = data["models"]["core/v1/container/"]["f"]
    assert container["resources"][1] == "core/v1/resourceRequirements/"
    assert data["models"]["core/v1/resourceRequirements/"]["f"]["limits"][1] is None


def test_field_paths_in_the_combined_site_are_below_the_release(api_132: ApiSpec) -> None:
    plan = plan_site(api_132)
    data = field_paths(api_132, plan)
    assert "apps/v1/deployment/" in data["models"]  # keys relative to 1.32/, where the file lives
    box = field_path_box(api_132.models["io.k8s.api.apps.v1.Deployment"], api_132, plan,
                         plan.page_of("io.k8s.api.apps.v1.Deployment") or "")
    assert box is not None and box.url == f"../../../{FIELD_PATHS}" and box.example == "spec.minReadySeconds"


def test_row_anchors_are_the_property_tables(api_132: ApiSpec) -> None:
    """The search entries and field paths name the anchors the property table writes."""
    plan = plan_site(api_132)
    for name, model in api_132.models.items():
        page = plan.page_of(name)
        if page:
            assert row_anchors(model) == [r.anchor for r in property_rows(model, api_132, plan, page)]


def test_field_path_rows_carry_the_anchors_of_the_shown_rows_clashes_included(tmp_path: Path) -> None:
    """``fieldpaths.json`` of a CRD kind is made from rows with their anchors only
    (``anchored_rows``, ``nested_sections(shown=False)``): the same anchors, in the same order,
    as the rows the page shows, also where names clash and get a digest."""
    from crd_fixtures import dump, widget_crd

    from generator.model.normalize import build_api
    from generator.sources import load_source
    from generator.views.crd import nested_sections
    from generator.views.properties import anchored_rows

    schema = copy.deepcopy(widget_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"])
    spec = schema["properties"]["spec"]["properties"]
    spec.update({"a b": {"type": "string"}, "a-b": {"type": "string"}, "a_b": {"type": "string"},
                 "a/b": {"type": "object", "properties": {"x y": {"type": "string"},
                                                          "x-y": {"type": "string"}}}})
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
    api = build_api(load_source(str(path)), "w1")[0]
    plan = plan_site(api)
    model = api.models["com.example.v1.Widget"]
    page = plan.page_of(model.name) or ""
    shown_anchors: set[str] = set()
    rows = property_rows(model, api, plan, page, shown_anchors)
    shown, _ = nested_sections(model, api, plan, page, shown_anchors)
    bare_anchors: set[str] = set()
    bare = anchored_rows(model, bare_anchors)
    keyed, _ = nested_sections(model, api, plan, page, bare_anchors, shown=False)
    assert [r.anchor for r in bare] == [r.anchor for r in rows]
    assert [(s.anchor, [(r.field.name, r.anchor) for r in s.rows]) for s in keyed] == [
        (s.anchor, [(r.field.name, r.anchor) for r in s.rows]) for s in shown]
    spec_rows = [r.anchor for s in shown if s.path == "spec" for r in s.rows]
    assert len([a for a in spec_rows if a.startswith("field-spec.a-b")]) == 3  # digests tell them apart
    assert len(set(spec_rows)) == len(spec_rows) and bare_anchors == shown_anchors
    assert all(not r.notes and not r.type.name for s in keyed for r in s.rows)


def test_field_paths_file_is_part_of_the_generated_release(default_pages) -> None:
    text = default_pages.pages[f"1.31/{FIELD_PATHS}"]
    assert json.loads(text)["models"]["resource/v1alpha3/resourceClaimStatus/"]["f"]["reservedFor"] == \
        ["field-reservedfor", "resource/v1alpha3/resourceClaimConsumerReference/"]
    assert len(text) < 400_000


def test_search_entries_titles_rows_functions_and_boosts(api_132: ApiSpec) -> None:
    entries = page_entries(api_132, plan_site(api_132))
    pod_spec = entries["1.32/core/v1/podSpec/"]
    assert pod_spec.group_label == "core/v1" and not pod_spec.is_kind
    row = next(f for f in pod_spec.fields if f.name == "terminationGracePeriodSeconds")
    assert (row.anchor, row.type) == ("field-terminationgraceperiodseconds", "integer (int64)")
    function = next(f for f in pod_spec.functions if f.name == "withContainers")
    assert function.anchor == "fn-withcontainers"
    assert function.call == "k.core.v1.podSpec.withContainers(containers)"
    index = {"config": {"separator": r"[\s\-]+"}, "docs": [
        {"location": "1.32/core/v1/podSpec/", "title": "PodSpec", "text": "<p>PodSpec is …</p>"},
        {"location": "1.32/core/v1/podSpec/#properties", "title": "Properties", "text": "FieldType…"},
        {"location": "1.32/core/v1/podSpec/#python", "title": "Python", "text": "client"},
        {"location": "1.32/core/v1/pod/", "title": "Pod", "text": "Pod pod pod pods"},
        {"location": "1.32/changes/#podspec", "title": "PodSpec", "text": "changed"},
    ]}
    docs = reshape(index, entries)["docs"]
    by_location = {d["location"]: d for d in docs}
    assert by_location["1.32/core/v1/podSpec/"]["title"] == "PodSpec · core/v1 · 1.32"
    assert "1.32/core/v1/podSpec/#properties" not in by_location
    field = by_location["1.32/core/v1/podSpec/#field-terminationgraceperiodseconds"]
    assert field["title"] == "terminationGracePeriodSeconds"
    assert field["text"].startswith("terminationGracePeriodSeconds — integer (int64) — Optional duration")
    assert "<" not in field["text"]  # one run of text: Material shows it whole
    assert by_location["1.32/core/v1/podSpec/#fn-withcontainers"]["title"] == "withContainers"
    # A page's entries come right after it (Material groups sections under the first entry).
    locations = [d["location"] for d in docs]
    assert locations.index("1.32/core/v1/podSpec/#field-activedeadlineseconds") == 1
    # Boosts: the shorter name a prefix query matches wins; rows and change sections weigh less.
    search = Search({"config": {**index["config"], "fields": {"title": {"boost": 1000}, "text": {}}},
                     "docs": docs})
    assert search.shown("pod")[0]["location"] == "1.32/core/v1/pod/"
    assert search.shown("podspec")[0]["location"] == "1.32/core/v1/podSpec/"


def test_search_entries_escape_spec_text(tmp_path: Path) -> None:
    api, _ = load_api(Release("x", str(HOSTILE)), lenient=True)
    entries = page_entries(api, plan_site(api, ""))
    docs = reshape({"docs": [{"location": page, "title": "t", "text": ""} for page in entries]},
                   entries)["docs"]
    assert len(docs) > len(entries)
    for doc in docs:
        for key in ("title", "text"):
            assert "<script" not in doc[key] and "<img" not in doc[key], doc


@pytest.mark.parametrize(("text", "html"), [
    ("terminationGracePeriodSeconds", "termination<wbr>Grace<wbr>Period<wbr>Seconds"),
    ("DRAControlPlaneController", "DRA<wbr>Control<wbr>Plane<wbr>Controller"),
    ("podIPs", "pod<wbr>IPs"),
    ("IPv4", "IPv4"),
    ("io.k8s.api.core.v1.Pod", "io.<wbr>k8s.<wbr>api.<wbr>core.<wbr>v1.<wbr>Pod"),
    ("AllocatedDeviceStatus", "Allocated<wbr>Device<wbr>Status"),
    ("pod_i_ps", "pod&#95;<wbr>i&#95;<wbr>ps"),
    ("<script>alert(1)</script>", "&#60;script&#62;alert(1)&#60;/<wbr>script&#62;"),
])
def test_wbr_breaks_identifiers_between_words_only(text: str, html: str) -> None:
    assert wbr(text) == html
    assert wbr(text).replace("<wbr>", "") == inline(text)


def test_alias_pages_and_site_url() -> None:
    pages = alias_pages(["index.html", "core/v1/pod/index.html", "about/index.html"], "1.32")
    assert sorted(pages) == ["about/index.html", "core/v1/pod/index.html", "index.html"]
    assert 'url=../../../../1.32/core/v1/pod/"' in pages["core/v1/pod/index.html"]
    assert 'location.replace("../1.32/" + location.search + location.hash)' in pages["index.html"]
    assert site_url_of("https://org.github.io/repo") == "https://org.github.io/repo/"
    assert site_url_of("http://localhost:8000/") == "http://localhost:8000/"
    for bad in ("org.github.io/repo", "javascript:alert(1)", "https://x.org/?a=b", "file:///tmp/"):
        with pytest.raises(ValueError):
            site_url_of(bad)


@pytest.mark.slow
def test_combined_site_search_results_can_be_told_apart(built_site: Path) -> None:
    """``mkdocs build`` (both releases in one index): same-named models differ by API version and
    release; the index stays small."""
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    titles = [d["title"] for d in index["docs"] if re.fullmatch(
        r"1\.3[12]/resource/v1(alpha3|beta1)/resourceClaimStatus/", d["location"])]
    assert sorted(titles) == ["ResourceClaimStatus · resource/v1alpha3 · 1.31",
                              "ResourceClaimStatus · resource/v1alpha3 · 1.32",
                              "ResourceClaimStatus · resource/v1beta1 · 1.32"]
    size = (built_site / "search" / "search_index.json").stat().st_size
    assert size < 2 * 5_000_000, size  # ≤ 5 MB per release


@pytest.mark.integration
@pytest.mark.shared
def test_crd_field_paths_reach_any_depth_on_the_page_that_shows_the_row(shared: Path) -> None:
    """Nested objects of CRD kinds are entries (issue 24 item 7: paths stopped at the top level),
    on the kind's page or on the sub-page a huge tree moved them to, with the anchors those
    pages' rows have; every anchor named is an id of its page."""
    from generator.pipeline.build import generate

    crds = shared / "crds"
    site = generate([Release("1.31", "", (str(crds / "cert-manager"), str(crds / "gateway-api" / "v1.2.0")))],
                    groups=["cert-manager.io", "gateway.networking.k8s.io"])
    data = json.loads(site.pages[f"1.31/{FIELD_PATHS}"])
    route = "gateway.networking.k8s.io/v1/httpRoute/"
    assert resolve(data, route, "spec.rules.backendRefs.port") == (route, "field-spec.rules.backendRefs.port")
    assert resolve(data, route, "httproute.spec.rules[].matches[].path.type") == (
        route, "field-spec.rules.matches.path.type")
    assert data["models"][route]["f"]["apiVersion"][0] == "field-apiVersion"  # as the row, case kept
    issuer = "cert-manager.io/v1/clusterIssuer/"
    deep = "spec.acme.solvers.http01.gatewayHTTPRoute.podTemplate.spec.affinity.nodeAffinity"
    assert resolve(data, issuer, deep) == (issuer + "spec/", "field-" + deep)  # on the sub-page
    # the ingress pod template repeats the gateway one (model.repeats): its paths lead to those rows
    via_ingress = deep.replace("gatewayHTTPRoute", "ingress")
    assert resolve(data, issuer, via_ingress) == (issuer + "spec/", "field-" + deep)
    ids: dict[str, set[str]] = {}
    for key, entry in data["models"].items():
        page = key.split("#")[0]
        if page not in ids:
            text = site.pages[f"1.31/{page.rstrip('/')}.md"]
            ids[page] = set(re.findall(r' id="([^"]+)"', text)) | set(
                re.findall(r"\{ #(\S+)(?: [^}]*)? \}", text))
        assert "#" not in key or key.split("#")[1] in ids[page], key
        for name, (anchor, target) in entry["f"].items():
            assert anchor in ids[page] or not key.startswith(("cert-manager", "gateway")), (key, name)
            assert target is None or target in data["models"], (key, name, target)
