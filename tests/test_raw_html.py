"""Model pages are HTML between Markdown headings: the marked raw blocks, what the plugin does
with them, and what the built site and its search index contain."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import markdown
import pytest
from helpers.sites import build_log

from generator.render import raw_html
from generator.render.highlight import highlight
from generator.render.pages import tidy
from generator.render.raw_html import CLOSE, OPEN, OPEN_SEARCH, lift, raw_block, restore
from generator.views.nav import RANGE_SIZE, SPLIT_AFTER, alphabetical_ranges

PAGE = "1.31/resource/v1alpha3/resourceClaimStatus.md"


def test_tidy_collapses_blank_lines_except_inside_pre() -> None:
    snippet = highlight("a = 1\n\n\n\nb = 2\n", "python")
    text = f"# T\n\n\n\nintro\n\n\n{snippet}\n\n\n\nend\n\n"
    assert tidy(text) == f"# T\n\nintro\n\n{snippet}\n\nend\n"
    assert "\n\n\n\n" in snippet
    assert tidy("<pre>never closed\n\n\n") == "<pre>never closed\n"


def test_lift_and_restore_round_trip() -> None:
    text = ("# Title\n" + raw_block("<p>kept</p>") + "## Section\n"
            + raw_block("<div>\n<p>late</p>\n</div>", search=False) + "end\n")
    assert OPEN_SEARCH in text and OPEN in text and text.count(CLOSE) == 2
    lifted, blocks = lift(text)
    assert "<p>" not in lifted and "# Title" in lifted and "## Section" in lifted
    assert [(b.html, b.search) for b in blocks] == [("<p>kept</p>", True),
                                                   ("<div>\n<p>late</p>\n</div>", False)]
    html = markdown.markdown(lifted)
    content = restore(html, blocks, search=True)
    assert "<p>kept</p>" in content and "<p>late</p>" not in content
    assert "<p>late</p>" in restore(content, blocks, search=False)
    assert lift("# no blocks\n") == ("# no blocks\n", [])


def test_pages_render_the_same_without_the_plugin(default_pages) -> None:
    """The marked blocks are plain raw HTML: Python-Markdown alone passes them through."""
    page = default_pages.pages[PAGE]
    html = markdown.markdown(page, extensions=["attr_list", "toc"])
    _, blocks = lift(page)
    assert len(blocks) >= 6
    for block in blocks:
        assert block.html in html
    assert '<h2 id="properties">Properties</h2>' in html


def test_spec_text_cannot_forge_a_marker(default_pages) -> None:
    for text in default_pages.pages.values():
        _, blocks = lift(text)
        assert all("k8s-api-docs:" not in b.html for b in blocks)


def test_highlight_escapes_unknown_languages() -> None:
    assert "&lt;script&gt;" in highlight("<script>", "no-such-language")
    start = '<div class="language-yaml highlight"><pre><span></span><code>'
    assert highlight("a: 1\n", "yaml").startswith(start)


def test_nav_splits_big_api_versions_alphabetically(default_pages) -> None:
    nav = default_pages.nav[0]["Kubernetes 1.31"]
    core = next(item["core"] for item in nav if isinstance(item, dict) and "core" in item)
    v1 = next(item["v1"] for item in core if isinstance(item, dict) and "v1" in item)
    assert v1[0] == "1.31/core/v1/index.md"
    ranges = v1[1:]
    titles = [next(iter(r)) for r in ranges]
    assert titles[0].startswith("A\u2013") and len(titles) >= 5
    members = [m for r in ranges for m in next(iter(r.values()))]
    pages = [p for p in default_pages.pages if p.startswith("1.31/core/v1/") and not p.endswith("index.md")]
    assert len(pages) > SPLIT_AFTER
    assert sorted(next(iter(m.values())) for m in members) == sorted(pages)
    assert all(len(next(iter(r.values()))) <= RANGE_SIZE for r in ranges)
    resource = next(item["resource"] for item in nav if isinstance(item, dict) and "resource" in item)
    v1alpha3 = next(item["v1alpha3"] for item in resource if isinstance(item, dict) and "v1alpha3" in item)
    assert {"ResourceClaimStatus": PAGE} in v1alpha3  # small API versions stay one list


def test_alphabetical_ranges_keep_a_big_letter_whole() -> None:
    items = [{f"P{i:03}": f"p{i}.md"} for i in range(50)] + [{"Alpha": "a.md"}, {"Zed": "z.md"}]
    ranges = alphabetical_ranges(items)
    assert [next(iter(r)) for r in ranges] == ["A", "P", "Z"]
    assert len(ranges[1]["P"]) == 50


@pytest.mark.slow
def test_built_site_blocks_restored_and_search_scoped(built_site: Path) -> None:
    html = (built_site / "1.31/resource/v1alpha3/resourceClaimStatus/index.html").read_text()
    assert "k8s-api-docs:" not in html
    assert '<tr id="field-reservedfor"><td><a class="k8s-field-link" href="#field-reservedfor"' in html
    assert '<code>reserved<wbr>For</code></td>' in html
    assert 'class="tabbed-set tabbed-alternate k8s-example"' in html
    assert 'id="fn-withreservedfor"' in html
    index = json.loads((built_site / "search/search_index.json").read_text())
    docs = {d["location"]: d["text"] for d in index["docs"]}
    section = "1.31/resource/v1alpha3/resourceClaimStatus/"
    # the property table is one search entry per row (generator/views/search.py)
    assert section + "#properties" not in docs
    assert docs[section + "#field-deallocationrequested"].startswith("deallocationRequested — boolean")
    assert "client.V1alpha3ResourceClaimStatus" in docs[section + "#python"]
    assert "deallocation_requested" not in docs[section + "#python"]  # the table repeats the properties
    assert section + "#example" not in docs and section + "#builder-function-reference" not in docs
    assert "withReservedFor" not in docs[section + "#builder-functions"]
    assert not any("k8s-api-docs:" in text for text in docs.values())
    # MkDocs checks links to other pages' anchors; those in the raw blocks count (plugin)
    assert "#field-devices" in (built_site / "1.32/changes/index.html").read_text()
    assert "does not contain an anchor" not in build_log(built_site)


def test_lift_finds_what_the_block_pattern_finds() -> None:
    """``lift`` searches strings for speed; it must take exactly the blocks ``_BLOCK`` matches."""
    def by_pattern(markdown: str) -> tuple[str, list[raw_html.RawBlock]]:
        blocks: list[raw_html.RawBlock] = []

        def take(match: Any) -> str:
            blocks.append(raw_html.RawBlock(match.group(2), bool(match.group(1))))
            return f"<!-- k8s-api-docs:block {len(blocks) - 1} -->"

        if CLOSE not in markdown:
            return markdown, []
        return raw_html._BLOCK.sub(take, markdown), blocks

    o, s, c = OPEN, OPEN_SEARCH, CLOSE
    pieces = [o, s, c, "\n", "x", " ", "<!-- k8s-api-docs:html", o + "\n", "\n" + c]
    rng = random.Random(15)
    cases = [f"{o}\n\n{c}", f"{o}\nx\n{c}x\n{c}\n", f"a{o}\nx\n{c}\n", f"{s}\n{o}\ny\n{c}\n"]
    cases += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 9))) for _ in range(20000)]
    for case in cases:
        assert lift(case) == by_pattern(case), case


def _ids_by_pattern(blocks: list[raw_html.RawBlock]) -> set[str]:
    return {found for block in blocks for found in raw_html._ID.findall(block.html)}


def test_element_ids_of_real_pages_are_the_pattern_s(default_pages) -> None:
    found = 0
    for text in default_pages.pages.values():
        _, blocks = lift(text)
        ids = raw_html.element_ids(blocks)
        assert ids == _ids_by_pattern(blocks)
        found += len(ids)
    assert found > 20_000


@pytest.mark.parametrize("html", [
    '<p id="a">x</p><td\tid="tab"></td><td\nid="newline"></td><b\xa0id="nbsp">',
    '<a data-id="no" id="yes">', '<a xid="a id="b" id="c">', 'id="start" <p id="">',
    '<p  id="two spaces">', "<p id='single'>", '<p id="unclosed>',
])
def test_element_ids_of_other_markup_are_the_pattern_s(html: str) -> None:
    blocks = [raw_html.RawBlock(html, True), raw_html.RawBlock('<p id="z">', False)]
    assert raw_html.element_ids(blocks) == _ids_by_pattern(blocks)


def test_restore_of_real_pages_is_restoring_one_by_one(default_pages) -> None:
    """Both passes (search blocks into the content, the others into the finished page) of every
    generated page, as replacing each placeholder in turn does."""
    from generator.mkdocs.headings_page import render_headings

    restored = 0
    for text in default_pages.pages.values():
        lifted, blocks = lift(text)
        rendered = render_headings(lifted)
        html = rendered.html if rendered else markdown.markdown(lifted)
        for search in (True, False):
            expected = raw_html.restore_one_by_one(html, blocks, search=search)
            assert restore(html, blocks, search=search) == expected
            html = expected
        restored += "k8s-api-docs:block" not in html and bool(blocks)
    assert restored > 1300


_P = raw_html._placeholder


@pytest.mark.parametrize(("html", "blocks"), [
    (f"a{_P(1)}b{_P(0)}c{_P(1)}d{_P(7)}{_P(0)}", ["<p>0</p>", "<p>1</p>"]),
    (f"{_P(0)}{_P(1)}", [f"<p>{_P(1)}</p>", "<b>1</b>"]),  # a block holding a placeholder
    (f"{_P(0)}docs:block 1 -->", ["<p><!-- k8s-api-", "<b>1</b>"]),  # a block starting one
    (f"<!-- k8s-api-docs:block 1{_P(0)}", [" -->", "<b>1</b>"]),  # a block ending one
    (f"x{_P(0)}y", [""]),
    (f"x{_P(0)}y{_P(1)}", ["<p>ok</p>", "<p>search: False</p>"]),
    (f"{_P(0)}{_P(0).replace('0', '00')}", ["<p>0</p>"]),
])
def test_restore_of_odd_pages_is_restoring_one_by_one(html: str, blocks: list[str]) -> None:
    raw = [raw_html.RawBlock(text, "False" not in text) for text in blocks]
    for search in (True, False):
        assert restore(html, raw, search=search) == \
            raw_html.restore_one_by_one(html, raw, search=search)
