"""Spec text is inert in Markdown and HTML; page paths are safe and stable."""

from __future__ import annotations

import markdown

from generator.analysis.gates import feature_gates
from generator.model.gvk import package_group_version
from generator.model.ordering import api_version_sort_key
from generator.render import markup
from generator.views.site import relative, safe_segment

MD = ["tables", "attr_list", "md_in_html"]


def render(text: str) -> str:
    return markdown.markdown(text, extensions=MD)


def test_cell_keeps_one_row_and_no_html():
    hostile = "a | b\n\n<script>alert(1)</script> *em* `x|y` [l](javascript:alert(1)) <img onerror=1>"
    html = render(f"| A | B |\n| --- | --- |\n| {markup.cell(hostile)} | z |\n")
    assert html.count("<tr>") == 2 and html.count("<td>") == 2
    assert "<script" not in html and "<img" not in html and "<em>" not in html
    assert 'href="javascript' not in html
    assert "<code>x&#124;y</code>" in html


def test_block_keeps_paragraphs_lists_and_http_links_only():
    text = "First para.\n\n- one\n- two\n\n# not a heading\n---\n    not code\nsee https://k8s.io/docs."
    html = render(markup.block(text))
    assert "<h1>" not in html and "<hr" not in html and "<pre>" not in html
    assert "<li>one</li>" in html and "<p>First para.</p>" in html
    assert '<a href="https://k8s.io/docs">https://k8s.io/docs</a>.' in html


def test_inline_and_code_are_inert():
    assert "<" not in markup.inline("<b>x</b>").replace("&#60;", "")
    assert render(markup.code("a|b<c>")) == "<p><code>a&#124;b&#60;c&#62;</code></p>"


def test_feature_gates():
    gates = feature_gates("This is an alpha field and requires enabling the DRAControlPlaneController "
                          "feature gate.")
    assert [(g.name, g.stage) for g in gates] == [("DRAControlPlaneController", "alpha")]
    assert feature_gates("The feature is great.") == ()


def test_group_version_from_definition_names():
    assert package_group_version("io.k8s.api.resource.v1alpha3.ResourceClaim") == ("resource", "v1alpha3")
    assert package_group_version("io.k8s.api.core.v1.Pod") == ("core", "v1")
    assert package_group_version("io.k8s.apimachinery.pkg.apis.meta.v1.Time") == ("meta", "v1")
    assert package_group_version(
        "io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService") == ("apiregistration", "v1")
    assert package_group_version("io.k8s.apimachinery.pkg.version.Info") == ("common", "")
    order = sorted(["v1alpha1", "v1beta1", "v1", "v2", "v1beta2"], key=api_version_sort_key)
    assert order == ["v2", "v1", "v1beta2", "v1beta1", "v1alpha1"]


def test_paths_are_safe_and_relative_links_work():
    assert safe_segment("resourceClaim") == "resourceClaim"
    for hostile in ("..", "../x", "a/b", "a\\b", "x\x00y", "<script>", "é" * 10):
        seg = safe_segment(hostile)
        assert "/" not in seg and "\\" not in seg and seg not in (".", "..") and seg.isascii()
    assert safe_segment("a/b") != safe_segment("a\\b")
    assert relative("1.31/core/v1/pod.md", "1.31/common/quantity.md") == "../../common/quantity.md"
    assert relative("1.31/index.md", "1.31/core/index.md") == "core/index.md"
