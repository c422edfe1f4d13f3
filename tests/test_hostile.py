"""Hostile names and text (``fixtures/hostile/hostile.json``): safe distinct file names inside the
output directory, stable across runs, and built HTML with nothing the spec injected."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from helpers.paths import HOSTILE

from generator.cli import main
from generator.config import Release
from generator.model.normalize import build_api
from generator.output.writer import MANAGED_MARKER, check_relative
from generator.pipeline.build import generate
from generator.sources import load_source
from generator.views.properties import property_rows
from generator.views.site import plan_site

P = "com.example.hostile.v1."
SAFE_SEGMENT = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,92}$")  # ≤ 80 + digest + .md


@pytest.fixture(scope="module")
def hostile_api():  # type: ignore[no-untyped-def]
    api, diagnostics = build_api(load_source(str(HOSTILE)), "x")
    assert diagnostics == []
    return api


def test_every_page_path_is_safe_and_distinct(hostile_api) -> None:  # type: ignore[no-untyped-def]
    plan = plan_site(hostile_api)
    paths = list(plan.model_pages.values())
    site = generate([Release("x", str(HOSTILE))])
    assert set(paths) <= set(site.pages)
    for path in site.pages:
        check_relative(path)
        assert all(SAFE_SEGMENT.match(seg) for seg in path.split("/")), path
    lowered = [p.lower() for p in site.pages]
    assert len(set(lowered)) == len(lowered)
    # With directory URLs x.md and x/index.md are the same URL: no page may shadow a directory.
    urls = [p.lower().removesuffix(".md").removesuffix("/index") for p in site.pages]
    assert len(set(urls)) == len(urls)


def test_hostile_names_get_readable_digest_suffixed_pages(hostile_api) -> None:  # type: ignore[no-untyped-def]
    plan = plan_site(hostile_api)
    page = plan.model_pages
    group = plan.group_dir("hostile")
    assert plan.group_dir("Hostile") == "x/Hostile"  # sorts first, keeps its name
    assert re.fullmatch(r"x/hostile-[0-9a-f]{8}", group)  # differs only by case: digest
    assert page[P + "Pod"] == f"{group}/v1/pod.md"
    assert re.fullmatch(rf"{group}/v1/pod-[0-9a-f]{{8}}\.md", page[P + "pod"])
    assert re.fullmatch(rf"{group}/v1/od-[0-9a-f]{{8}}\.md", page[P + "\u03a1od"])  # Greek Rho
    assert re.fullmatch(rf"{group}/v1/index-[0-9a-f]{{8}}\.md", page[P + "Index"])
    assert re.fullmatch(rf"{group}/v1/con-[0-9a-f]{{8}}\.md", page[P + "CON"])  # camelLower: a whole acronym
    assert re.fullmatch(rf"{group}/v1/nul-Byte-[0-9a-f]{{8}}\.md", page[P + "Nul\x00Byte"])
    assert re.fullmatch(rf"{group}/v1/script-alert-PWNED-script-[0-9a-f]{{8}}\.md",
                        page[P + "<script>alert('PWNED')</script>"])
    long_page = page[P + "Long" * 2500]
    assert re.fullmatch(rf"{group}/v1/(Long){{20}}-[0-9a-f]{{8}}\.md", long_page.replace("/long", "/Long"))
    assert page[P + "A B"] != page[P + "A?B"]
    assert re.fullmatch(r"x/common/windows-system32-evil-[0-9a-f]{8}\.md",
                        page["..\\..\\windows\\system32\\evil"])
    assert page["com.example.common.v1.Thing"] == "x/common/v1/thing.md"
    assert re.fullmatch(r"x/common/v1-[0-9a-f]{8}\.md", page["com.example.v1"])  # not common/v1/
    assert re.fullmatch(r"x/changes-[0-9a-f]{8}", plan.group_dir("changes"))  # x/changes.md is taken


def test_field_anchors_are_unique_and_safe(hostile_api) -> None:  # type: ignore[no-untyped-def]
    plan = plan_site(hostile_api)
    model = hostile_api.models[P + "Widget"]
    rows = property_rows(model, hostile_api, plan, plan.model_pages[model.name])
    anchors = [row.anchor for row in rows]
    assert len(set(anchors)) == len(anchors) == len(model.fields)
    assert all(re.fullmatch(r"field-[a-z0-9-]{1,80}(-[0-9a-f]{8})?", a) for a in anchors), anchors
    by_name = {row.field.name: row.anchor for row in rows}
    assert by_name["a-b"] == "field-a-b"  # sorts first, keeps the plain anchor
    assert by_name["a_b"] != by_name["a/b"] != by_name["a\\b"] != "field-a-b"


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_generate_writes_only_inside_out_dir_and_is_stable(tmp_path: Path) -> None:
    out = tmp_path / "area" / "out"
    args = ["generate", "--version", "x", "--source", str(HOSTILE), "-q", "--out", str(out)]
    assert main(args) == 0
    first = _tree(out)
    assert main(args) == 0
    assert _tree(out) == first
    assert sorted(p.name for p in (tmp_path / "area").iterdir()) == ["out"]  # nothing beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["area"]
    site = generate([Release("x", str(HOSTILE))])
    assert sorted(first) == sorted([*site.pages, MANAGED_MARKER])
    for path in first:
        assert (out / path).resolve().is_relative_to(out.resolve())


# -- the built HTML ----------------------------------------------------------------------------

FORBIDDEN_TAGS = frozenset({"iframe", "img", "object", "embed", "frame", "frameset", "base", "b", "i",
                            "marquee", "math", "template", "video", "audio", "textarea", "select",
                            "blockquote"})
BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
URL_ATTRS = frozenset({"href", "src", "action", "formaction", "xlink:href", "srcset", "poster"})


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: str = ""


@dataclass
class PageScan(HTMLParser):
    """Every element with its attributes; text of headings, scripts, pre and table rows."""

    elements: list[Element] = field(default_factory=list)
    text: str = ""
    """All text of the page, entities decoded."""
    _open: list[Element] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.elements.append(element)
        if tag in ("script", "style", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "title"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i].tag == tag:
                del self._open[i]
                break

    def handle_data(self, data: str) -> None:
        self.text += data
        for element in self._open:
            element.text += data


def _scans(site: Path) -> Iterator[tuple[Path, PageScan]]:
    for path in sorted(site.rglob("*.html")):
        scan = PageScan()
        scan.feed(path.read_text(encoding="utf-8"))
        yield path, scan


def _search_index_scans(site: Path) -> Iterator[tuple[str, PageScan]]:
    """Material renders search titles and texts as HTML: scan them like pages."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    for doc in index["docs"]:
        scan = PageScan()
        scan.feed(doc["title"] + " " + doc["text"])
        yield f"search:{doc['location']}", scan


def test_built_html_has_no_injected_elements_or_attributes(hostile_site: Path) -> None:
    pages = 0
    scans = [(str(p.relative_to(hostile_site)), scan) for p, scan in _scans(hostile_site)]
    for where, scan in [*scans, *_search_index_scans(hostile_site)]:
        pages += 1
        for el in scan.elements:
            assert el.tag not in FORBIDDEN_TAGS, (where, el)
            for name, value in el.attrs.items():
                assert not name.startswith("on"), (where, el)
                if name in URL_ATTRS and value:
                    squeezed = re.sub(r"[\x00-\x20]", "", value).lower()
                    assert not squeezed.startswith(BAD_SCHEMES), (where, el)
                if name not in ("href", "id"):  # hrefs and ids hold safe page names and slugs
                    assert "PWNED" not in (value or ""), (where, el)
            if el.tag == "script":
                src = el.attrs.get("src")
                assert src is None or re.fullmatch(
                    r"(\.\./)*/?assets/(javascripts/[\w.]+|k8s-api-docs)\.js", src), el  # Material's, ours
                assert "PWNED" not in el.text and "alert(" not in el.text, (where, el)
            if el.tag == "style":
                assert "PWNED" not in el.text and "display:none" not in el.text, (where, el)
    assert pages >= 40


def test_hostile_description_stays_text_in_one_paragraph_flow(hostile_site: Path) -> None:
    widget = next(hostile_site.glob("x/hostile-*/v1/widget/index.html"))
    scan = PageScan()
    scan.feed(widget.read_text(encoding="utf-8"))
    headings = [el.text.strip().rstrip("¶") for el in scan.elements if el.tag in ("h1", "h2", "h3")]
    assert headings == ["Widget", "Properties", "Python", "Example"]  # Python, Example: issue 4
    pres = [el.text for el in scan.elements if el.tag == "pre"]
    assert pres[0].startswith("apiVersion:")  # the GVK block
    # then only the Example tabs (the sample as YAML and Python); no code injected
    assert len(pres) == 3 and len(yaml.safe_load(pres[1])) == 15
    assert pres[2].startswith(("from kubernetes import client", "import datetime"))
    assert '"hostile.example.com\\"</code><script>' in pres[0]  # shown as a YAML string, inert
    rows = [el for el in scan.elements if el.tag == "tr"]
    cells_per_row = []
    for el in scan.elements:
        if el.tag == "tr":
            cells_per_row.append(0)
        elif el.tag in ("td", "th"):
            cells_per_row[-1] += 1
    # property table and Python table: header + one row per field each
    assert cells_per_row == [4] * 16 + [3] * 16 and len(rows) == 2 * (1 + 15)
    # The hostile markup is shown as the text it is.
    assert "Plain start. <script>alert('PWNED')</script>" in scan.text
    assert "[click me](javascript:alert('PWNED'))" in scan.text
    assert "<a href=\"javascript:alert('PWNED')\">anchor</a>" in scan.text
    assert "{: onclick=\"alert('PWNED')\" }" in scan.text
    links = [el.attrs.get("href") for el in scan.elements if el.tag == "a"]
    assert "https://evil.example/" in links  # http(s) URLs become links; nothing else does


def test_page_titles_and_nav_are_plain_text(hostile_site: Path) -> None:
    page = next(hostile_site.glob("x/hostile-*/v1/script-alert-PWNED-script-*/index.html"))
    scan = PageScan()
    scan.feed(page.read_text(encoding="utf-8"))
    title = next(el.text for el in scan.elements if el.tag == "title")
    assert "<" not in title and "script" in title
