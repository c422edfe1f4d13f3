"""CRD kind pages: header, versions, printer columns, field-path tree with anchors, all notes;
kind indexes per group; a CRD set as its own release and combined with a Kubernetes release."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

import pytest
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED

from generator.config import Release, VersionsOptions
from generator.pipeline.build import generate

CRDS = SHARED / "crds"
GATEWAY = "gateway-v1.2.0"
V1 = f"{GATEWAY}/gateway.networking.k8s.io/v1/httpRoute.md"
V1BETA1 = f"{GATEWAY}/gateway.networking.k8s.io/v1beta1/httpRoute.md"


def row(page: str, anchor: str) -> str:
    """The property-table row with id ``anchor`` (fails when absent)."""
    match = re.search(rf'<tr id="{re.escape(anchor)}">.*?</tr>', page)
    assert match, f"no row {anchor}"
    return match.group(0)


@pytest.fixture(scope="module")
def gateway_pages(shared: Path) -> dict[str, str]:
    site = generate([Release(GATEWAY, str(CRDS / "gateway-api" / "v1.2.0"))])
    return site.pages


@pytest.mark.shared
def test_httproute_pages_per_version(gateway_pages: dict[str, str]) -> None:
    assert V1 in gateway_pages and V1BETA1 in gateway_pages
    page = gateway_pages[V1]
    assert page.startswith("# HTTPRoute\n")
    assert "scope <strong>Namespaced</strong>" in page
    assert ('<code>v1</code>: <span class="k8s-badge k8s-served">served</span> '
            '<span class="k8s-badge k8s-storage">storage version</span>') in page
    assert "<strong>v1</strong> <small>(served, storage)</small>" in page
    assert '<a href="../../v1beta1/httpRoute/">v1beta1</a> <small>(served)</small>' in page
    beta = gateway_pages[V1BETA1]
    assert '<span class="k8s-badge k8s-storage">' not in beta.split("## Properties")[0].split(
        "This version")[1].split("</tr>")[0]


@pytest.mark.shared
def test_field_path_tree_with_enum_default_and_cel(gateway_pages: dict[str, str]) -> None:
    page = gateway_pages[V1]
    path_type = row(page, "field-spec.rules.matches.path.type")
    assert "enum: <code>Exact</code>, <code>PathPrefix</code>, <code>RegularExpression</code>" in path_type
    assert "default: <code>PathPrefix</code>" in path_type
    # the section of the nested object, linking to its parent section
    section = page.split('<section class="k8s-nested" id="object-spec.rules.matches.path">')[1]
    assert section.split("</section>")[0].count('<tr id="field-spec.rules.matches.path.') == 2
    assert ('in <a href="#object-spec.rules.matches">'
            '<code>spec.<wbr>rules&#91;&#93;.<wbr>matches&#91;&#93;</code></a>') in section
    # the CEL rule's message is on the field it validates (the items of backendRefs)
    refs = row(page, "field-spec.rules.backendRefs")
    assert "validation of each item:" in refs and "Must have port for Service reference" in refs
    # types of nested objects link to their sections
    assert '<a href="../httpRoute/#object-spec.rules.matches.path">object</a>' in row(
        page, "field-spec.rules.matches.path")
    anchors = re.findall(r' id="([^"]+)"', page)
    assert len(anchors) == len(set(anchors))


@pytest.mark.shared
def test_printer_columns_table(gateway_pages: dict[str, str]) -> None:
    columns = gateway_pages[V1].split("## Printer columns")[1].split("##")[0]
    assert "<tr><td>Hostnames</td><td>string</td><td><code>.spec.hostnames</code></td>" in columns
    assert "<tr><td>Age</td><td>date</td>" in columns


@pytest.mark.shared
def test_group_index_lists_kinds_and_home_lists_crds(gateway_pages: dict[str, str]) -> None:
    home = gateway_pages[f"{GATEWAY}/index.md"]
    assert home.startswith(f"# {GATEWAY} custom resources")
    group = gateway_pages[f"{GATEWAY}/gateway.networking.k8s.io/index.md"]
    for kind in ("GRPCRoute", "Gateway", "GatewayClass", "HTTPRoute", "ReferenceGrant"):
        assert f">{kind}</a>" in group
    assert '<span class="k8s-badge k8s-crd">CRD</span>' in group


def test_widget_page_notes_and_wide_column(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(("v1", "v2"), "v2")), encoding="utf-8")
    pages = generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False)).pages
    page = pages["w1/example.com/v2/widget.md"]
    assert "<code>wd</code>" in page and "<code>toys</code>" in page
    assert "<tr><td>Colour <small>(<code>-o wide</code>)</small></td>" in page
    size = row(page, "field-spec.size")
    assert "minimum: <code>1</code>" in size and "maximum: <code>10</code>" in size
    assert "<strong>required</strong>" in size and "default: <code>3</code>" in size
    name = row(page, "field-spec.parts.name")
    assert "maxLength: <code>12</code><br>pattern: <code>&#94;&#91;a-z&#93;&#43;$</code>" in name
    assert "message: Service parts need a port" in row(page, "field-spec.parts")
    assert "preserves unknown fields" in row(page, "field-status")
    assert "w1/example.com/v1/widget.md" in pages


def test_hostile_crd_names_stay_inside_the_site(tmp_path: Path) -> None:
    crd = widget_crd(group="evil.example.com", kind="Wid<script>get")
    crd["spec"]["versions"][0]["name"] = "v1"
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    schema["properties"]["spec"]["properties"]["../../x<img src=x>"] = {
        "type": "object", "properties": {"a": {"type": "string", "description": "<script>alert(1)</script>"}}}
    path = tmp_path / "evil.yaml"
    path.write_text(dump(crd), encoding="utf-8")
    pages = generate([Release("e", str(path))], versions=VersionsOptions(enabled=False)).pages
    for name, text in pages.items():
        assert name.startswith("e/") and ".." not in name.split("/")
        assert "<script>" not in text and "<img" not in text


@pytest.mark.shared
def test_crds_combined_with_a_kubernetes_release(shared: Path) -> None:
    site = generate([Release("1.31", "", (str(CRDS / "cert-manager"),))], groups=["cert-manager.io"],
                    versions=VersionsOptions(enabled=False))
    page = site.pages["1.31/cert-manager.io/v1/certificate.md"]
    metadata = row(page, "field-metadata").replace("<wbr>", "")
    assert '<a href="../../../meta/v1/objectMeta/">ObjectMeta</a>' in metadata
    assert "<tr><th>Short names</th><td><code>cert</code>, <code>certs</code></td></tr>" in page
    assert "1.31/core/v1/pod.md" not in site.pages  # the group filter still works


def test_a_huge_tree_keeps_every_section_and_splits_as_deep_as_it_needs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No cap on sections (there was MAX_SECTIONS: 400 a kind, the rest "not shown"): with tiny
    page budgets every object still has its section, each on exactly one page."""
    from generator.views import site

    monkeypatch.setattr(site, "SPLIT_AT", 1)
    monkeypatch.setattr(site, "SUBPAGE_SPLIT_AT", 1)
    monkeypatch.setattr(site, "_SPLIT_MIN", 10**9)  # only "the page needs the room" moves them
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    site_ = generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False))
    widget = {p: t for p, t in site_.pages.items() if "/widget" in p}
    assert sorted(widget) == ["w1/example.com/v1/widget.md", "w1/example.com/v1/widget/spec.md",
                              "w1/example.com/v1/widget/spec.parts.md"]
    sections = [i for t in widget.values() for i in section_ids(t)]
    assert sorted(sections) == ["object-spec", "object-spec.parts"]
    assert "not shown" not in "".join(widget.values())
    # the sub-pages are in the nav, under their kind
    kind = "w1/example.com/v1/widget"
    assert {"Widget": [{"Widget": f"{kind}.md"}, {"spec": f"{kind}/spec.md"},
                       {"spec.parts": f"{kind}/spec.parts.md"}]} in json_walk(site_.nav)


SECTION_ID = re.compile(r'<section class="k8s-nested" id="([^"]+)"'
                        r'|^#{3,6} .* \{ #(object-[^ ]+)(?: [^}]*)? \}$', re.M)
"""A nested object's section: on the kind's page a ``<section>``, on a sub-page a heading."""


def section_ids(text: str) -> list[str]:
    return [a or b for a, b in SECTION_ID.findall(text)]


def json_walk(item: Any) -> list[Any]:
    """Every dict and list nested in ``item`` (a nav)."""
    out: list[Any] = []
    stack = [item]
    while stack:
        value = stack.pop()
        out.append(value)
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return out


def test_a_huge_crd_tree_moves_its_top_level_objects_to_pages_of_their_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.views import site

    monkeypatch.setattr(site, "SPLIT_AT", 1)  # every tree is "huge"; spec's stays on one sub-page
    monkeypatch.setattr(site, "_SPLIT_MIN", 0)
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    for page_format in ("mkdocs", "gfm"):
        pages = generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False),
                         page_format=page_format).pages
        assert sorted(p for p in pages if "/widget" in p) == [
            "w1/example.com/v1/widget.md", "w1/example.com/v1/widget/spec.md"]
    main, spec = (generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False)).pages[p]
                  for p in ("w1/example.com/v1/widget.md", "w1/example.com/v1/widget/spec.md"))
    # the kind's page links each moved row and section to its new page; anchors keep their names
    assert '<a href="../widget/spec/#object-spec">object</a>' in row(main, "field-spec")
    assert 'href="../widget/spec/#field-spec.parts.port"' in main  # the builder index
    assert 'id="object-spec' not in main and 'id="field-spec.size"' not in main
    assert '<a href="../widget/spec/"><code>spec</code></a> (2 objects) is on a page of its own' in main
    # the sub-page: every section under spec, its parent links back to the kind's page
    assert spec.startswith("# Widget <code>spec</code>")
    assert section_ids(spec) == ["object-spec", "object-spec.parts"]
    # each section under a heading of its own (the table of contents), the kind's field-path box
    # (nested as the tree, labelled with the path after the section above: views.crd.toc_headings)
    assert "\n### <code>spec</code> { #object-spec }\n" in spec
    assert ("\n#### <code>spec.<wbr>parts&#91;&#93;</code> "
            '{ #object-spec.parts data-toc-label="parts[]" }\n') in spec
    assert 'data-start="example.com/v1/widget/"' in spec
    assert 'in <a href="../#properties"><code>Widget</code></a>' in spec
    assert 'in <a href="#object-spec"><code>spec</code></a>' in spec
    assert "Service parts need a port" in row(spec, "field-spec.parts")


@pytest.mark.shared
def test_cert_manager_issuers_split_their_tree_and_every_anchor_stays(shared: Path) -> None:
    site = generate([Release("1.31", "", (str(CRDS / "cert-manager"),))],
                    groups=["cert-manager.io", "acme.cert-manager.io"])
    crd_pages = {p: t for p, t in site.pages.items() if "cert-manager.io/" in p}
    # was 470 KB (~506 KB HTML) in one page; spec's tree (~423 KB) now splits again: spec.acme
    assert max(len(t.encode()) for t in crd_pages.values()) < 440_000
    issuer = {p: t for p, t in crd_pages.items() if p.startswith("1.31/cert-manager.io/v1/clusterIssuer")}
    # the solvers' ingress pod template repeats the gateway one exactly: shown once (model.repeats),
    # so spec's tree (154 sections before) fits one sub-page again
    assert sorted(issuer) == ["1.31/cert-manager.io/v1/clusterIssuer.md",
                              "1.31/cert-manager.io/v1/clusterIssuer/spec.md"]
    ids = [i for t in issuer.values()
           for i in re.findall(r' id="((?:object|field)-[^"]+)"|^#+ .* \{ #(object-[^ ]+)(?: [^}]*)? \}$',
                                 t, re.M)]
    ids = [a or b for a, b in ids]
    assert len(ids) == len(set(ids)) and len([i for i in ids if i.startswith("object-")]) == 100
    assert "field-spec.acme.solvers.http01.gatewayHTTPRoute.podTemplate.spec.affinity.nodeAffinity" in ids
    assert "field-spec.acme.solvers.http01.ingress.podTemplate.spec.affinity.nodeAffinity" not in ids
    spec = issuer["1.31/cert-manager.io/v1/clusterIssuer/spec.md"]
    repeat = re.search(r'<p class="k8s-repeat" data-path="spec.acme.solvers\[\].http01.ingress.podTemplate" '
                       r'data-first="[^"]*">The same fields as <a href="([^"]*)">', spec)
    assert repeat and repeat.group(1) == "#object-spec.acme.solvers.http01.gatewayHTTPRoute.podTemplate"
    # every link into the tree (raw HTML: published directory URLs) names a page and an id that exist
    for page, text in issuer.items():
        for href, anchor in re.findall(r'href="([^"#]*)#((?:object|field)-[^"]+)"', text):
            target = posixpath.normpath(posixpath.join(page[:-3], href)) + ".md" if href else page
            text = issuer.get(target, "")
            assert f' id="{anchor}"' in text or re.search(
                rf" \{{ #{re.escape(anchor)}(?: [^}}]*)? \}}\n", text), (page, href, anchor)


@pytest.mark.shared
def test_nested_rows_have_the_link_and_word_breaks_of_property_rows(shared: Path) -> None:
    site = generate([Release("1.31", "", (str(CRDS / "cert-manager"),))], groups=["cert-manager.io"])
    page = site.pages["1.31/cert-manager.io/v1/clusterIssuer/spec.md"]
    row = re.search(r'<tr id="field-spec\.acme\.disableAccountKeyGeneration">.*?</tr>', page)
    assert row and ('<a class="k8s-field-link" href="#field-spec.acme.disableAccountKeyGeneration" '
                    'aria-label="Link to this field">#</a>') in row.group(0)
    assert "<code>disable<wbr>Account<wbr>Key<wbr>Generation</code>" in row.group(0)


@pytest.mark.integration
def test_crd_lifetime_counts_only_the_sites_releases() -> None:
    """A CRD combined with Kubernetes 1.31 read "exists in 1.31 … (releases known: 1.25 to 1.37)":
    the bundled Kubernetes releases say nothing about a CRD set."""
    fixture = Path(__file__).parent / "fixtures" / "crds" / "kubectl-scalars.yaml"
    page = generate([Release("1.31", "", (str(fixture),))], groups=["example.com"]).pages[
        "1.31/example.com/v1/matcher.md"]
    line = re.search(r'<p class="k8s-versions">Matcher v1 exists.*?</p>', page)
    assert line is not None and "releases known" not in line.group(0)
    assert ("Matcher v1 exists in 1.31; in any API version in 1.31 (this site's releases: 1.31; "
            "a custom resource is known only in the releases its CRDs were read with)") in line.group(0)


# -- descriptions as written, links with targets (issue 34 item 3) ---------------------------

READING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {  # no apiVersion, kind or metadata: k8s-gen still has metadata functions
        "spec": {"type": "object", "properties": {
            "mode": {"type": "string", "description": "How it runs.\nPossible values are:\n"
                                                      "- `Fast`: no checks\n- Slow\n\nThe default is Slow."},
            "labels": {"type": "array", "description": "Label names.",
                       "items": {"type": "string", "description": "LabelName is a valid label name."}},
            "elements": {"type": "array", "items": {"x-kubernetes-preserve-unknown-fields": True}},
            "data": {"type": "object",
                     "additionalProperties": {"x-kubernetes-preserve-unknown-fields": True}},
        }},
    },
}


def test_descriptions_as_written_item_descriptions_any_types_and_links_with_targets(
        tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=READING_SCHEMA)), encoding="utf-8")
    page = generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False)).pages[
        "w1/example.com/v1/widget.md"]
    assert ("<td><p>How it runs. Possible values are:</p><ul><li><code>Fast</code>: no checks</li>"
            "<li>Slow</li></ul><p>The default is Slow.</p></td>") in row(page, "field-spec.mode")
    assert ('<td>Label names.<div class="k8s-item-description"><em>each item:</em> LabelName is a '
            "valid label name.</div></td>") in row(page, "field-spec.labels")
    assert "<td>&#91;&#93;any</td>" in row(page, "field-spec.elements")
    assert "<td>map&#91;string&#93;any</td>" in row(page, "field-spec.data")
    # every link to a row, section or function of this page has its target (the builder index's
    # metadata functions linked #field-metadata, a row this schema does not have)
    ids = set(re.findall(r' id="([^"]+)"', page))
    links = set(re.findall(r'href="#((?:field|object|obj|fn)-[^"]+)"', page))
    assert links and links <= ids, sorted(links - ids)
    assert 'id="fn-metadatawithname"' in page
