"""Material's page rendered once per group of pages and reused as a skeleton
(``generator.mkdocs.page_cache``): the built site must be byte for byte the one the theme renders
page by page, pages must come from skeletons, and the cache must step aside (and say so once)
where it cannot be sure. CI also runs this file with the newest Material the pins allow
(``tests/newest_allowed.sh``)."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from typing import Any

import jinja2
import material
import pytest
from helpers.paths import FIXTURES, HOSTILE, REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.structure.toc import AnchorLink

from generator.mkdocs import accelerators, page_cache, plugin
from generator.mkdocs.page_cache import HEAD, PageCache, _toc_shape

FARM = FIXTURES / "specs" / "builders-v2.json"
WITHOUT = ",".join(name for name in accelerators.NAMES if name != "page_cache")
"""The other accelerators: the plain build differs from the cached one only by the page cache."""


def _build(root: Path, name: str, plugin_options: dict[str, Any], env: str,
           overrides: Path | None = None) -> dict[str, bytes]:
    """``mkdocs build`` (the repository's theme and hand-written pages) into ``root / name`` with
    ``K8S_API_DOCS_ACCELERATORS=env``; its files but the compressed copies."""
    extra: dict[str, Any] = {}
    if overrides is not None:
        extra["theme"] = {"name": "material", "custom_dir": str(overrides)}
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(root / "docs"),
              "site_dir": str(root / name), "site_url": "https://example.org/k8s/x/", **extra,
              "plugins": ["search", {"k8s-api-docs": {
                  **plugin_options, "cache_dir": str(root / f"cache-{name}")}}]}
    (root / f"{name}.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(accelerators.ENV, env)
        build(load_config(str(root / f"{name}.yml")))
    site = root / name
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"}


def _sites(root: Path, options: dict[str, Any], overrides: Path | None = None,
           on: str = "all", off: str = WITHOUT,
           ) -> tuple[dict[str, bytes], dict[str, bytes], list[PageCache]]:
    """The site built with the accelerators ``on`` (the page cache installed even with
    ``overrides``) and ``off``, every file alike; the page caches installed."""
    shutil.copytree(REPO / "site_src", root / "docs")
    caches: list[PageCache] = []
    install = page_cache.install

    def recording(env: Any, nav: Any) -> PageCache:
        caches.append(install(env, nav))
        return caches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin.page_cache, "install", recording)
        if overrides is not None:  # the plugin installs no page cache over templates of one's own
            patch.setattr(plugin.K8sApiDocsPlugin, "on_env", _forced_on_env)
        cached = _build(root, "cached", options, on, overrides)
    plain = _build(root, "plain", options, off, overrides)
    assert sorted(cached) == sorted(plain)
    assert len([p for p in cached if p.endswith(".html")]) > 10
    assert [p for p in plain if cached[p] != plain[p]] == []
    return cached, plain, caches


def _forced_on_env(self: Any, env: Any, *, config: Any, files: Any) -> Any:
    from generator.mkdocs import nav_cache

    page_cache.install(env, nav_cache.install(env))
    return env


@pytest.fixture(autouse=True)
def _fresh_log(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accelerators, "_said", set())


@pytest.mark.integration
@pytest.mark.parametrize(("on", "off"), [("all", WITHOUT), ("page_cache", "none")])
def test_pages_from_skeletons_are_the_themes_byte_for_byte(tmp_path: Path, on: str, off: str,
                                                          ) -> None:
    """The fixture spec, with the other accelerators and alone (the theme's navigation): nearly
    every page from a skeleton (section index pages and the first pages of other sections too),
    each skeleton compared in and outside its section."""
    _, _, caches = _sites(tmp_path, {"versions": [{"version": "x", "source": str(FARM)}]},
                          on=on, off=off)
    assert len(caches) == 1 and caches[0].enabled
    cache = caches[0]
    assert cache.hits > 2 * (cache.misses + cache.refused) and cache.misses == len(cache.groups)
    assert cache.verify == 0 and ((True, 2), False) in cache.verified


@pytest.mark.integration
@pytest.mark.parametrize("layout", [{"only": ["1.32"], "layout": "release"}, {}])
def test_a_real_release_comes_from_skeletons(tmp_path: Path, layout: dict[str, Any]) -> None:
    """Two real releases (apps and resource groups), per-release and combined layout."""
    _, _, caches = _sites(tmp_path, {"versions": [{"version": "1.31"}, {"version": "1.32"}],
                                     "groups": ["resource", "apps"], **layout})
    assert len(caches) == 1 and caches[0].enabled
    assert caches[0].hits > 10 * caches[0].misses > 0


@pytest.mark.integration
def test_titles_with_html_characters_are_rendered_by_the_theme(tmp_path: Path) -> None:
    cached, _, caches = _sites(tmp_path, {"versions": [{"version": "x", "source": str(HOSTILE)}],
                                          "lenient": True})
    assert caches[0].enabled and caches[0].hits > 0
    assert caches[0].refused > 0  # e.g. the page titled <script>alert('PWNED')</script>
    assert any(b"&lt;script&gt;alert" in page for page in cached.values())


FOOTER = "partials/footer.html"


@pytest.mark.integration
@pytest.mark.parametrize(("footer", "why"), [
    ("<footer>{{ page.url }}</footer>\n", "from a skeleton differs from the theme's"),
    ("<footer>{{ page.parent.parent.title if page and not page.is_index and page.parent "
     "and page.parent.parent }}</footer>\n", "from a skeleton differs from the theme's"),
    ('{{ super() if super else "" }}', "head or header markup for the title not found"),
])
def test_when_the_page_is_not_as_expected_the_cache_turns_off_and_says_so_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, footer: str, why: str) -> None:
    """Installed anyway over overrides: a footer with the page's URL (the first page from a
    skeleton differs), one with its section (the first page of another section differs), and a
    header whose markup around the title is not Material's (no skeleton can be cut)."""
    (tmp_path / "overrides" / "partials").mkdir(parents=True)
    if "super" in footer:  # the header topic on one line: the title is not where HEAD says
        header = (Path(material.__file__).parent / "templates" / "partials" / "header.html"
                  ).read_text(encoding="utf-8")
        header = header.replace('<span class="md-ellipsis">\n            {% if page.meta',
                                '<span class="md-ellipsis">{% if page.meta')
        assert header.count("md-ellipsis\">{% if") == 1
        (tmp_path / "overrides" / "partials" / "header.html").write_text(header, encoding="utf-8")
    else:
        (tmp_path / "overrides" / FOOTER).write_text(footer, encoding="utf-8")
    caplog.set_level(logging.INFO)
    _, _, caches = _sites(tmp_path, {"versions": [{"version": "x", "source": str(FARM)}]},
                          tmp_path / "overrides")
    said = [r.getMessage() for r in caplog.records if "page_cache off" in r.getMessage()]
    assert len(caches) == 1 and not caches[0].enabled
    assert len(said) == 1 and why in said[0], said


def test_values_go_where_the_theme_writes_them() -> None:
    """A skeleton's head with other values: each of ``HEAD``'s places gets the page's own."""
    old = {"title": "Barn", "canonical": "https://x/barn/", "prev": "../", "next": None,
           "skip": "#barn"}
    new = {**old, "title": "Stall", "canonical": "https://x/stall/", "skip": "#stall"}
    head = "|".join(shape.format(old[name]) for name, shapes in HEAD.items() for shape in shapes
                    if old[name] is not None)
    env = jinja2.Environment()
    cache = PageCache(env, None)  # type: ignore[arg-type]
    skeleton = page_cache.Skeleton([head], [], old, None)
    page = type("Page", (), {"toc": []})()
    expected = "|".join(shape.format(new[name]) for name, shapes in HEAD.items()
                        for shape in shapes if new[name] is not None)
    assert cache._from(skeleton, {"page": page}, new) == expected


def test_tables_of_contents_are_shared_by_what_the_theme_reads_of_them() -> None:
    """Pages whose sections have the same titles and anchors share one rendered table of
    contents; the page's own level-1 heading is not part of it (Material shows its children)."""
    def page(title: str, typeset: Any = None) -> list[AnchorLink]:
        top = AnchorLink(title, title.lower(), 1)
        top.children = [AnchorLink("Properties", "properties", 2), AnchorLink("Example", "example", 2)]
        top.children[1].children = [AnchorLink("YAML", "yaml", 3)]
        if typeset is not None:
            top.children[0].typeset = typeset  # type: ignore[attr-defined]
        return [top]

    assert _toc_shape(page("Pod"), True) == _toc_shape(page("Service"), True) is not None
    assert _toc_shape(page("Pod", typeset={"title": "<code>x</code>"}), True) is None
    assert _toc_shape([AnchorLink("A", "a", 2)], True) != _toc_shape([], True)


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
