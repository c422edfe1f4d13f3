"""Spec text is inert in Markdown and HTML; page paths are safe and stable."""

from __future__ import annotations

from html.parser import HTMLParser

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


# -- descriptions as written (issue 34 item 3) ------------------------------------------------

class _Tags(HTMLParser):
    """Every start tag and its attributes, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(html)
    return parser.tags


def test_description_renders_lists_paragraphs_and_code_spans():
    text = ("Possible values are:\n- UsageBasedAdmissionFairSharing\n- NoAdmissionFairSharing\n"
            "  which waits\n\nSteps:\n1. read `spec.x`\n2. write\n\n2019. was a year")
    assert markup.description(text) == (
        "<p>Possible values are:</p><ul><li>UsageBasedAdmissionFairSharing</li>"
        "<li>NoAdmissionFairSharing which waits</li></ul><p>Steps:</p><ol><li>read <code>spec.x</code>"
        "</li><li>write</li></ol><p>2019. was a year</p>")
    # one paragraph (wrapped comment lines): bare text, as a cell always was
    assert markup.description("A line\nwrapped `here`.") == "A line wrapped <code>here</code>."
    assert markup.description("") == ""
    # a dash inside running text or a negative number starts no list
    assert "<li>" not in markup.description("Use -1 for none - or leave it\n-1 means unlimited")
    assert markup.html_block("Lead:\n* a\n* b") == "<p>Lead:</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>"


HOSTILE = [
    "<script>alert(1)</script>\n- <img src=x onerror=alert(1)>\n- [x](javascript:alert(1))",
    "1. [a](javascript:alert(1))\n2. <a href=\"javascript:alert(1)\">b</a>\n\n<iframe src=//evil>",
    "- `</code><script>alert(1)</script>`\n- [t](data:text/html,<script>alert(1)</script>)",
    "&lt;script&gt; &#60;b&#62; <!-- comment --> <style>*{}</style> JAVASCRIPT:alert(1)",
    "- [ok](https://example.com/a?b=<c>) and https://example.com/\"onmouseover=alert(1)",
    "* nested\n  - <svg onload=alert(1)>\n\n<details open ontoggle=alert(1)>",
]


def test_description_of_hostile_text_has_only_our_tags_and_http_links():
    for text in HOSTILE:
        for render_ in (markup.description, markup.html_block):
            html = render_(text)
            tags = _tags(html)
            assert {t for t, _ in tags} <= {"p", "ul", "ol", "li", "code", "a"}, (text, html)
            for tag, attrs in tags:
                assert set(attrs) <= ({"href"} if tag == "a" else set()), (text, html)
                if tag == "a":
                    assert str(attrs["href"]).startswith(("http://", "https://")), (text, html)
            assert 'href="javascript' not in html.lower() and 'href="data' not in html.lower()
            assert "<script" not in html and "<!--" not in html and "<img" not in html


def test_description_lists_survive_markdown_as_raw_html():
    """The cell is raw HTML: Markdown (md_in_html) leaves its tags and escapes as they are."""
    html = render("<table><tr><td>" + markup.description("Values:\n- `a|b`\n- *b*") + "</td></tr></table>")
    assert "<ul><li><code>a&#124;b</code></li><li>&#42;b&#42;</li></ul>" in html
