"""Material's page rendered once per group of sibling pages and reused as a skeleton
(``generator.mkdocs.page_cache``): the built site must be byte for byte the one the theme renders
page by page, and the cache must step aside where it cannot be sure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jinja2
import pytest
from conftest import FIXTURES, HOSTILE, REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.structure.toc import AnchorLink

from generator.mkdocs import nav_cache, page_cache, plugin
from generator.mkdocs.page_cache import PageCache, _head_patterns, _replace, _toc_shape

FARM = FIXTURES / "specs" / "builders-v2.json"
FOOTER = "partials/footer.html"
PAGE_URL_FOOTER = "<footer>{{ page.url }}</footer>\n"
"""An override that makes every page differ where the skeleton expects the same text."""


def _build(root: Path, name: str, source: Path, custom_dir: Path | None = None) -> dict[str, bytes]:
    """``mkdocs build`` of one release from ``source`` (the repository's theme and hand-written
    pages) into ``root / name``; its files but the compressed copies."""
    theme: dict[str, Any] = {"name": "material"}
    if custom_dir is not None:
        theme["custom_dir"] = str(custom_dir)
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(root / "docs"),
              "site_dir": str(root / name), "site_url": "https://example.org/k8s/x/",
              **({"theme": theme} if custom_dir is not None else {}),
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": "x", "source": str(source)}],
                  "cache_dir": str(root / f"cache-{name}")}}]}
    (root / f"{name}.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    build(load_config(str(root / f"{name}.yml")))
    site = root / name
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"}


def _sites(root: Path, source: Path, custom_dir: Path | None = None, force: bool = False,
           ) -> tuple[dict[str, bytes], dict[str, bytes], list[PageCache]]:
    """The site built with the page cache (``force``: installed even with ``custom_dir``) and
    without either cache; the page caches installed."""
    shutil.copytree(REPO / "site_src", root / "docs")
    caches: list[PageCache] = []
    install_nav, install_page = nav_cache.install, page_cache.install

    def recording(env: Any, nav: Any) -> PageCache:
        caches.append(install_page(env, nav))
        return caches[-1]

    def nav_and_page(env: Any, **options: Any) -> Any:
        nav = install_nav(env, **options)
        recording(env, nav)
        return nav

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin.page_cache, "install", recording)
        if force:
            patch.setattr(plugin.nav_cache, "install", nav_and_page)
        cached = _build(root, "cached", source, custom_dir)
        patch.setattr(plugin.page_cache, "install", lambda env, nav: None)
        patch.setattr(plugin.nav_cache, "install", lambda env, **_: None)
        plain = _build(root, "plain", source, custom_dir)
    return cached, plain, caches


def _same(cached: dict[str, bytes], plain: dict[str, bytes]) -> None:
    assert sorted(cached) == sorted(plain)
    assert len([p for p in cached if p.endswith(".html")]) > 10
    assert [p for p in plain if cached[p] != plain[p]] == []


def test_pages_from_the_skeleton_are_the_themes_byte_for_byte(tmp_path: Path) -> None:
    cached, plain, caches = _sites(tmp_path, FARM)
    _same(cached, plain)
    assert len(caches) == 1 and caches[0].enabled
    cache = caches[0]
    # refused: the site's last page (no ``next`` link, its skeleton's page has one)
    assert cache.hits > cache.misses + cache.refused and cache.misses > 0
    assert cache.verify == 0  # the first pages from a skeleton were compared with the theme's


def test_titles_with_html_characters_are_rendered_by_the_theme(tmp_path: Path) -> None:
    cached, plain, caches = _sites(tmp_path, HOSTILE)
    _same(cached, plain)
    cache = caches[0]
    assert cache.enabled and cache.hits > 0
    assert cache.refused > 0  # e.g. the page titled <script>alert('PWNED')</script>
    assert any(b"&lt;script&gt;alert" in page or b"<script>alert" in page
               for path, page in cached.items() if path.endswith(".html"))


def test_no_skeleton_with_templates_of_ones_own(tmp_path: Path) -> None:
    """``custom_dir`` overrides: the page cache is not installed (the nav cache still is)."""
    (tmp_path / "overrides" / "partials").mkdir(parents=True)
    (tmp_path / "overrides" / FOOTER).write_text(PAGE_URL_FOOTER, encoding="utf-8")
    cached, plain, caches = _sites(tmp_path, FARM, tmp_path / "overrides")
    _same(cached, plain)
    assert caches == []
    assert b"<footer>x/farm/v1/barn/</footer>" in cached["x/farm/v1/barn/index.html"]


def test_a_skeleton_that_differs_from_the_theme_turns_the_cache_off(tmp_path: Path) -> None:
    """Installed anyway over an override that puts the page's URL into the footer: the first
    page from a skeleton differs from the theme's, and every page is rendered in full."""
    (tmp_path / "overrides" / "partials").mkdir(parents=True)
    (tmp_path / "overrides" / FOOTER).write_text(PAGE_URL_FOOTER, encoding="utf-8")
    cached, plain, caches = _sites(tmp_path, FARM, tmp_path / "overrides", force=True)
    _same(cached, plain)
    assert len(caches) == 1 and not caches[0].enabled and caches[0].hits == 0


def test_section_index_pages_and_sections_share_a_skeleton_per_depth(tmp_path: Path) -> None:
    """One full render per URL depth and kind: section index pages (``farm/``, ``meta/``) and the
    first pages of other sections come from a skeleton cut from another section's page, the
    first such page compared with the theme's."""
    cached, plain, caches = _sites(tmp_path, FARM)
    _same(cached, plain)
    cache = caches[0]
    assert cache.enabled and cache.misses == len(cache.groups)
    assert cache.groups[True, 2] is not None  # x/farm/, x/meta/, …: one index page in full
    assert ((True, 2), False) in cache.verified  # the first from another section, compared
    index_pages = [p for p in cached if p.count("/") == 2 and p.endswith("/index.html")]
    assert len(index_pages) > 2


PARENT_FOOTER = ("<footer>{{ page.parent.parent.title if page and not page.is_index and page.parent "
                 "and page.parent.parent }}</footer>\n")
"""An override alike for the pages of one section (and every index page), different between the
API versions of two groups (``farm/v1/``, ``meta/v1/``)."""


def test_a_skeleton_that_differs_in_another_section_turns_the_cache_off(tmp_path: Path) -> None:
    """Installed anyway over an override that puts the page's section into the footer: the
    pages of the skeleton's own section agree with the theme, the first page of another section
    does not, and every page is rendered in full."""
    (tmp_path / "overrides" / "partials").mkdir(parents=True)
    (tmp_path / "overrides" / FOOTER).write_text(PARENT_FOOTER, encoding="utf-8")
    cached, plain, caches = _sites(tmp_path, FARM, tmp_path / "overrides", force=True)
    _same(cached, plain)
    assert b"<footer>farm</footer>" in cached["x/farm/v1/barn/index.html"]
    assert len(caches) == 1 and not caches[0].enabled


def test_head_values_are_replaced_only_where_found_once() -> None:
    old = {"title": "Barn", "canonical": None, "prev": "../", "next": None, "skip": "#barn"}
    new = {**old, "title": "Stall", "prev": "../barn/", "skip": "#stall"}
    head = '<link rel="prev" href="../">\n<title>Barn - Site</title>\n<a href="#barn" class="md-skip">'
    patterns = _head_patterns(old, new)
    assert patterns is not None
    # the header's topic is missing from this head: no page from it
    assert _replace(head, patterns) is None
    assert _replace(head, [p for p in patterns if "title>" in p[0] or "rel=" in p[0]]) == (
        '<link rel="prev" href="../barn/">\n<title>Stall - Site</title>\n<a href="#barn" class="md-skip">')
    assert _head_patterns(old, {**new, "next": "../loft/"}) is None  # a link only one page has
    assert _replace(head + head, [('<title>Barn - ', '<title>Stall - ')]) is None


def test_tables_of_contents_are_shared_by_what_the_theme_reads_of_them() -> None:
    """Pages whose sections have the same titles and anchors share one rendered table of
    contents; the page's own level-1 heading is not part of it (Material shows its children)."""
    def page(title: str, typeset: Any = None) -> Any:
        top = AnchorLink(title, title.lower(), 1)
        top.children = [AnchorLink("Properties", "properties", 2), AnchorLink("Example", "example", 2)]
        top.children[1].children = [AnchorLink("YAML", "yaml", 3)]
        if typeset is not None:
            top.children[0].typeset = typeset  # type: ignore[attr-defined]
        return type("Page", (), {"toc": [top]})()

    assert _toc_shape(page("Pod")) == _toc_shape(page("Service")) is not None
    assert _toc_shape(page("Pod", typeset={"title": "<code>x</code>"})) is None
    flat = type("Page", (), {"toc": [AnchorLink("A", "a", 2)]})()
    assert _toc_shape(flat) != _toc_shape(type("Page", (), {"toc": []})())


@pytest.mark.parametrize("title", ["<script>alert('PWNED')</script>", "A &amp; B", 'Say "hi"',
                                   "Two  spaces", ""])
def test_pages_whose_values_the_theme_could_filter_get_no_skeleton(title: str) -> None:
    """A title ``striptags`` or escaping would change (or no title) is refused, so the page is
    rendered by the theme; a plain one is taken as it is."""
    env = jinja2.Environment()
    env.filters["url"] = lambda context, value: value
    cache = PageCache(env, None)  # type: ignore[arg-type]

    def page(title: str) -> Any:
        return type("Page", (), {"title": title, "canonical_url": None, "previous_page": None,
                                 "next_page": None, "toc": []})()

    assert cache._values({"page": page(title)}) is None
    assert cache._values({"page": page("ResourceClaimStatus")}) == {
        "title": "ResourceClaimStatus", "canonical": None, "prev": None, "next": None, "skip": None}
