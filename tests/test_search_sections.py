"""The search plugin's sections without ``html.parser`` (``generator.mkdocs.search_sections``):
``split`` must give exactly the sections of Material's own ``Parser`` (title, text, id, whether
excluded), on real pages and on tricky markup, and must step aside for markup it cannot read
exactly as ``HTMLParser`` does."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO, need_shared
from material.plugins.search import plugin as material_search
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.mkdocs import search_index, search_sections
from generator.mkdocs.search_sections import split


def _material(content: str) -> list[tuple[Any, ...]]:
    return [(s.el.tag, "".join(s.title), "".join(s.text), s.id, s.is_excluded())
            for s in search_sections.material_sections(content)]


def _ours(content: str) -> list[tuple[Any, ...]] | None:
    found = split(content)
    if found is None:
        return None
    return [(s.tag, "".join(s.title), "".join(s.text), s.id, s.is_excluded()) for s in found]


@pytest.fixture(scope="module")
def real_build(tmp_path_factory: pytest.TempPathFactory) -> SimpleNamespace:
    """An in-process build of 1.32's core group as ``build-site`` lays a release out (release
    home, the hand-written page as ``about/``, change page, model pages): ``pages`` (URL → the
    content HTML the search plugin reads), its search index, the plugin's model page entries,
    the index file written."""
    need_shared()
    root = tmp_path_factory.mktemp("search-sections")
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(REPO / "site_src"),
              "site_dir": str(root / "site"),
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": "1.31"}, {"version": "1.32"}], "only": ["1.32"],
                  "groups": ["core"], "layout": "release", "cache_dir": str(root / "cache")}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    pages: dict[str, str] = {}
    fast_add_entry = search_sections.fast_add_entry

    def recording(index: Any, fallback: Any) -> Any:
        add = fast_add_entry(index, fallback)

        def add_entry_from_context(page: Any) -> None:
            pages[page.url] = page.content
            add(page)

        add_entry_from_context.fast = True  # type: ignore[attr-defined]
        return add_entry_from_context

    loaded = load_config(str(root / "mkdocs.yml"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search_sections, "fast_add_entry", recording)
        build(loaded)
    pages.pop("sample/", None)  # install's trial of search_sections.SAMPLE
    plugin = loaded.plugins["k8s-api-docs"]
    return SimpleNamespace(pages=pages, index=loaded.plugins["material/search"].search_index,
                           entries=plugin._search_pages(), reshaped=plugin._index_reshaped,
                           written=(root / "site/search/search_index.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def real_pages(real_build: SimpleNamespace) -> dict[str, str]:
    return dict(real_build.pages)


@pytest.mark.shared
def test_real_pages_split_as_material_splits_them(real_pages: dict[str, str]) -> None:
    """Every page of the build went through ``split`` (none left to Material's parser), with
    Material's sections; among them the pages a reader searches most."""
    for url in ("", "about/", "changes/", "core/v1/", "core/v1/pod/", "core/v1/podSpec/",
                "core/v1/objectReference/"):
        assert url in real_pages, sorted(real_pages)[:20]
    assert len(real_pages) > 150
    for url, content in real_pages.items():
        ours = _ours(content)
        assert ours is not None, url
        assert ours == _material(content), url
    pod = dict((s[3], s) for s in _ours(real_pages["core/v1/pod/"]) or [])
    assert pod[None][1] == "Pod" and "collection of containers" in pod[None][2]
    assert pod["example"][4] and not pod["python"][4]



TRICKY = {
    "entities": '<h1 id="t">A &amp; B &lt;c&gt; &#x41;&#65; &copy; &notit; &amp</h1>\n'
                "<p>x &nbsp; y&gt;z &#10; end</p>",
    "entities in attributes": '<h2 id="a&amp;b">T<a class="head&#108;erlink" href="#a&amp;b">'
                              "&para;</a></h2><p>after</p>",
    "nested headings": '<p>preface</p><div><h2 id="x">X</h2><p>a</p></div><p>b</p>\n'
                       '<section><div><h3 id="y">Y <code>c</code></h3>\n<p>in</p></div>'
                       "</section><ul><li><h4 id=\"z\">Z</h4>deep</li><li>up</li></ul>",
    "first heading not h1": '<h2 id="only">Only</h2><p>text</p>',
    "first heading nested": '<div><h2 id="a">A</h2></div><p>after</p>',
    "heading inside heading": '<h2 id="a">A <h3 id="b">B</h3> tail</h2><p>p</p>'
                              '<h2 id="c">C <span><h3 id="d">D</h3></span> tail</h2><p>q</p>',
    "heading without id": "<h1>No id</h1><p>x</p><h2 id=\"with\">With</h2>",
    "data-search-exclude": '<h1 id="p">P</h1><h2 data-search-exclude id="ex">Ex</h2><p>hidden'
                           '</p><h2 id="in">In</h2><div data-search-exclude><div>gone</div>'
                           'shown</div><p data-search-exclude="">x</p><p>kept</p>',
    "nested skips": '<object><div data-search-exclude>a</div>b</object>c<div data-search-exclude>'
                    '<p data-search-exclude>x</p>y</div>z',
    "headerlink anchors": '<h1 id="h">Head <em>em</em><a class="headerlink" href="#h" '
                          'title="Permanent link"><span>&para;</span></a> after</h1>'
                          '<p><a class="headerlink" href="#h">&para;</a> in text</p>',
    "pre whitespace": '<h1 id="c">C</h1><div class="highlight"><pre><span></span><code>a\n\n'
                      '  b\t<span class="s">"x"</span>\n   \n</code></pre></div>\n\n \n<p>x</p>'
                      "<pre>y\n<span>  </span>\n<span>\n</span></pre>",
    "whitespace runs": "<p>a\n b</p>\n\n<p>\n</p>  <p> </p>\t<ul>\n<li>one\n</li>\n<li> </li>"
                       "</ul>\r\n<p>\xa0</p>  x  \n  y",
    "empty kept elements": "<p></p><code></code><p><code> </code>x</p><ol><li></li></ol>"
                           "<sub>1</sub><sup> </sup>",
    "void tags": "<p>a<wbr>b<br>c<br/>d<br />e<img src=\"x.png\" alt='y'><hr>f</p>"
                 '<input type="checkbox" checked disabled><p>g</p>',
    "comments": "<p>a<!-- one -->b</p><!-- k8s-api-docs:block 3 --><!-- <p>not</p> -->"
                "<p>c<!-- --></p>",
    "attribute forms": "<div class='single' data-x=\"\" hidden><a class=\"x\" class=\"headerlink\""
                       ' href="#">link?</a>text</div>\n<div\n  class="multi"\n\tid="m"\n>m</div>',
    "markup in text": "<p>a > b, c >= d; x -> y</p>",
    "unknown and custom tags": '<my-el data-a="1"><svg viewbox="0 0 1 1"><path d="M0 0">'
                               "</path></svg>text</my-el><details><summary>S</summary>D</details>",
    "stray and crossed end tags": "</div><p>a<em>b</p>c</em></p></span><li>d</li></ul>e",
    "skipped elements": '<object data="x"><p>obj</p></object><div class="linenodiv"><pre>1\n2'
                        "</pre></div><p>after</p>",
    "table": "<table><thead><tr><th>A</th></tr></thead><tbody><tr><td><code>x</code></td>"
             "<td>y<br>z</td></tr></tbody></table>",
    "empty": "",
    "only text": "plain text &amp; more\n",
}


@pytest.mark.parametrize("content", TRICKY.values(), ids=TRICKY.keys())
def test_tricky_markup_splits_as_material_splits_it(content: str) -> None:
    ours = _ours(content)
    assert ours is not None
    assert ours == _material(content)


def test_sections_keep_material_depths_and_attributes() -> None:
    content = TRICKY["nested headings"]
    ours, theirs = split(content), search_sections.material_sections(content)
    assert ours is not None
    assert [(s.depth, s.attrs) for s in ours] == [(s.depth, s.el.attrs) for s in theirs]


UNSUPPORTED = {
    "script": '<p>a</p><script>var p = "<p>";</script><p>b</p>',
    "style": "<style>p > a { color: red }</style><p>x</p>",
    "textarea": "<textarea><p>raw</p></textarea>",
    "cdata": "<p>a<![CDATA[x<y]]>b</p>",
    "doctype": "<!DOCTYPE html><p>x</p>",
    "processing instruction": "<?xml version='1.0'?><p>x</p>",
    "lone <": "<p>a < b</p>",
    "< at the end": "<p>a</p><",
    "unclosed tag": "<p>a</p><p class=\"x\"",
    "unquoted attribute": "<a href=x>y</a>",
    "> in an attribute": '<a title="a>b" href="#">y</a>',
    "upper case": "<P>x</P>",
    "self-closing non-void": '<div class="x"/><p>y</p>',
    "comment with --": "<!-- a -- b --><p>x</p>",
    "odd end tag": "<p>x</p ><p>y</p>",
    "attributes without space": '<a href="x"title="y">z</a>',
    "closing what the parser never opened": "<div data-search-exclude><li><div></div></li></div>",
}


@pytest.mark.parametrize("content", UNSUPPORTED.values(), ids=UNSUPPORTED.keys())
def test_markup_it_cannot_read_exactly_goes_to_material(content: str) -> None:
    assert split(content) is None


def _page(content: str) -> SimpleNamespace:
    return SimpleNamespace(meta={}, content=content, toc=[], url="x/", title="X")


@pytest.mark.parametrize("content", [UNSUPPORTED["script"], UNSUPPORTED["upper case"],
                                     TRICKY["data-search-exclude"]])
def test_index_entries_equal_material_and_the_fallback_takes_the_rest(content: str) -> None:
    expected = material_search.SearchIndex()
    expected.add_entry_from_context(_page(content))
    index = material_search.SearchIndex()
    fallen_back: list[str] = []

    def fallback(page: Any) -> None:
        fallen_back.append(page.url)
        material_search.SearchIndex.add_entry_from_context(index, page)

    search_sections.fast_add_entry(index, fallback)(_page(content))
    assert index.entries == expected.entries and expected.entries
    assert fallen_back == ([] if split(content) is not None else ["x/"])


def test_a_page_the_parser_fails_on_fails_alike() -> None:
    content = UNSUPPORTED["closing what the parser never opened"]
    with pytest.raises(ValueError):
        search_sections.material_sections(content)
    index = material_search.SearchIndex()
    with pytest.raises(ValueError):
        search_sections.fast_add_entry(index, index.add_entry_from_context)(_page(content))


def _search_plugins() -> dict[str, Any]:
    plugin = material_search.SearchPlugin()
    plugin.search_index = material_search.SearchIndex()
    return {"material/search": plugin, "other": object()}


def test_installed_on_the_material_this_project_uses() -> None:
    """Fails when a Material release changed its search parser: compare its ``Parser`` with
    ``split``, adapt ``split``, then update ``MATERIAL_PARSER_DIGEST``."""
    assert search_sections.material_digest() == search_sections.MATERIAL_PARSER_DIGEST
    assert search_sections.source_digest() == search_sections.MATERIAL_PARSER_DIGEST
    assert search_sections._file_digest() in search_sections.KNOWN_FILES
    assert search_sections.compatible()
    plugins = _search_plugins()
    assert search_sections.install(plugins)
    add = plugins["material/search"].search_index.add_entry_from_context
    assert getattr(add, "fast", False)
    assert not search_sections.install(plugins)  # not wrapped twice
    assert plugins["material/search"].search_index.add_entry_from_context is add


def test_another_material_parser_keeps_material_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search_sections, "MATERIAL_PARSER_DIGEST", "0" * 64)
    plugins = _search_plugins()
    assert not search_sections.install(plugins)
    assert not getattr(plugins["material/search"].search_index.add_entry_from_context, "fast",
                       False)


def test_a_parser_that_splits_otherwise_keeps_material_parsing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Even with the same source, a sample page split otherwise (another ``HTMLParser``, say)
    keeps Material's parser."""
    handle_data = material_search.Parser.handle_data
    monkeypatch.setattr(material_search.Parser, "handle_data",
                        lambda self, data: handle_data(self, data.upper()))
    assert search_sections.material_digest() == search_sections.MATERIAL_PARSER_DIGEST
    assert not search_sections.compatible()


@pytest.mark.shared
def test_the_index_material_writes_is_the_reshaped_one(real_build: SimpleNamespace) -> None:
    """Material's search plugin wrote the reshaped index from its entries in memory: the text
    of reshaping what Material's own ``generate_search_index`` writes."""
    assert real_build.reshaped
    own = material_search.SearchIndex.generate_search_index(real_build.index, None)
    expected = search_index.index_text(json.loads(own), real_build.entries)
    assert real_build.written == expected
    assert len(real_build.index.entries) > 500 and '"boost":' in expected


def _search_plugin(entries: list[dict[str, Any]]) -> tuple[Any, Any]:
    plugin = material_search.SearchPlugin()
    plugin.search_index = material_search.SearchIndex(
        lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={"title": {"boost": 1.0}})
    plugin.search_index.entries.extend(entries)
    return plugin, material_search.SearchIndex.generate_search_index


ENTRIES = [{"location": "", "title": "Home", "text": "<p>x</p>"},
           {"location": "a/#b", "title": "B &amp; c", "text": "é"}]


@pytest.mark.parametrize("entries", [ENTRIES, [*ENTRIES, {"location": "c/", "title": ("C",),
                                                          "text": 1.5}]],
                         ids=["plain", "tuple and float (written by JSON otherwise)"])
def test_installed_index_writes_what_reshaping_material_s_text_writes(
        entries: list[dict[str, Any]]) -> None:
    plugin, own = _search_plugin(entries)
    assert search_index.install({"material/search": plugin}, dict)
    expected = search_index.index_text(json.loads(own(plugin.search_index, None)), {})
    assert plugin.search_index.generate_search_index(None) == expected
    assert not search_index.install({"material/search": plugin}, dict)  # not wrapped twice


def test_a_material_writing_its_index_otherwise_is_not_installed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails over to reshaping the file Material wrote when its ``generate_search_index``
    writes anything but its config keys and entries."""
    plugin, own = _search_plugin(ENTRIES)
    monkeypatch.setattr(material_search.SearchIndex, "generate_search_index",
                        lambda self, prev: own(self, prev).replace('"docs"', '"extra":1,"docs"'))
    assert not search_index.install({"material/search": plugin}, dict)
    assert not getattr(plugin.search_index.generate_search_index, "reshaped", False)


def test_an_unknown_material_file_is_digested_by_its_source(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file ``KNOWN_FILES`` does not know (another release, a local edit): the digest of the
    parts ``split`` copies decides, read from the source."""
    monkeypatch.setattr(search_sections, "KNOWN_FILES", {"0" * 64: "1" * 64})
    search_sections.material_digest.cache_clear()
    try:
        assert search_sections.material_digest() == search_sections.source_digest() == \
            search_sections.MATERIAL_PARSER_DIGEST
        monkeypatch.setattr(search_sections, "source_digest", lambda: "2" * 64)
        search_sections.material_digest.cache_clear()
        assert search_sections.material_digest() == "2" * 64
        assert not search_sections.compatible()
    finally:
        search_sections.material_digest.cache_clear()
