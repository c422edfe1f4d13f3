"""Material's navigation rendered once per group of sibling pages (``generator.mkdocs.nav_cache``),
and the rest of the page from a skeleton (``page_cache``): the built site must be byte for byte
the one the theme renders page by page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import pytest
from conftest import REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.mkdocs import nav_cache, plugin
from generator.mkdocs.nav_cache import NavCache, _nested_urls

LAYOUTS = {
    "release": {"only": ["1.32"], "layout": "release"},  # a release site of build-site
    "combined": {},  # the default mkdocs build: both releases as folders of one site
}


def _build(root: Path, name: str, layout: str) -> Path:
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(root / "docs"),
              "site_dir": str(root / name), "site_url": "https://example.org/k8s/1.32/",
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": "1.31"}, {"version": "1.32"}], **LAYOUTS[layout],
                  "groups": ["resource", "apps"], "cache_dir": str(root / f"cache-{name}")}}]}
    (root / f"{name}.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    build(load_config(str(root / f"{name}.yml")))
    return root / name


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"}


@pytest.fixture(scope="module", params=sorted(LAYOUTS))
def sites(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
          ) -> tuple[dict[str, bytes], dict[str, bytes], list[NavCache]]:
    root = tmp_path_factory.mktemp("nav-cache")
    shutil.copytree(REPO / "site_src", root / "docs")
    caches: list[NavCache] = []
    install = nav_cache.install

    def recording(env: Any) -> NavCache:
        caches.append(install(env))
        return caches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin.nav_cache, "install", recording)
        cached = _files(_build(root, "cached", request.param))
        patch.setattr(plugin.nav_cache, "install", lambda env: None)
        patch.setattr(plugin.page_cache, "install", lambda env, nav: None)
        plain = _files(_build(root, "plain", request.param))
    return cached, plain, caches


def test_cached_navigation_is_the_themes_byte_for_byte(sites: Any) -> None:
    cached, plain, _ = sites
    assert sorted(cached) == sorted(plain)
    assert len([p for p in cached if p.endswith(".html")]) > 50
    assert [p for p in plain if cached[p] != plain[p]] == []


def test_the_cache_was_used(sites: Any) -> None:
    _, _, caches = sites
    assert len(caches) == 1 and caches[0].enabled
    assert caches[0].hits > caches[0].misses > 0


def test_pages_with_pages_below_their_url_are_not_cached() -> None:
    assert _nested_urls(["a/", "a/b/", "a-x/", "ab/", "c/"]) == {"a/"}


def test_the_first_page_of_a_group_rendered_again_gets_its_own_navigation() -> None:
    """``page_cache`` compares a page with the theme's render after taking its navigation from
    the cache: the group's first page gets the navigation kept for it, and its plain link (as
    its siblings show it) is not taken while it is still the current page."""
    env = jinja2.Environment(loader=jinja2.DictLoader({
        "partials/nav.html": "<nav>{{ page.url }}{% if page.active %} active{% endif %}</nav>",
        "partials/nav-item.html": "{% macro render(item, path, level) %}<{{ item.url }}"
                                  "{% if item.active %} active{% endif %}>{% endmacro %}"}))
    cache = NavCache(env)
    cache.install()
    page = SimpleNamespace(is_index=False, parent="section", url="farm/v1/barn/", active=True)
    variables = {"page": page, "nav": SimpleNamespace(pages=[page])}
    first = cache.render_variables(variables)
    assert first == "<nav>farm/v1/barn/ active</nav>"
    assert cache.render_variables(variables) == first
    [entry] = cache.groups.values()
    assert entry[4] is None and cache.misses == 1
