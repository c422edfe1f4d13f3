"""Material's navigation derived from another page's (``generator.mkdocs.nav_cache``): the built
site must be byte for byte the one the theme renders page by page. CI also runs this file with
the newest Material the pins allow (``tests/newest_allowed.sh``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import material
import pytest
from helpers.paths import FIXTURES, REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.mkdocs import accelerators, nav_cache, plugin
from generator.mkdocs.nav_cache import NavCache, _parts, _Tree

pytestmark = pytest.mark.integration

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

    def recording(env: Any, **options: Any) -> NavCache:
        caches.append(install(env, **options))
        return caches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(accelerators.ENV, "headings_page,nav_cache,search_entries")  # not page_cache
        patch.setattr(plugin.nav_cache, "install", recording)
        cached = _files(_build(root, "cached", request.param))
        patch.setattr(plugin.nav_cache, "install", lambda env, **_: None)
        plain = _files(_build(root, "plain", request.param))
    return cached, plain, caches


def test_cached_navigation_is_the_themes_byte_for_byte(sites: Any) -> None:
    cached, plain, _ = sites
    assert sorted(cached) == sorted(plain)
    assert len([p for p in cached if p.endswith(".html")]) > 50
    assert [p for p in plain if cached[p] != plain[p]] == []


def test_the_cache_was_used(sites: Any) -> None:
    """Nearly every navigation is derived: across API groups and versions (a section's entry
    swapped with another's), and between sibling pages; each kind compared with the theme's."""
    _, _, caches = sites
    assert len(caches) == 1 and caches[0].enabled
    cache = caches[0]
    assert cache.hits > 20 * cache.misses > 0
    kinds = {(a, b) for _, a, _, b, _ in cache.verified}
    assert {("section", "section"), ("page", "page")} <= kinds
    assert cache.verify == 0 and len(cache.verified) > 2


FARM = FIXTURES / "specs" / "builders-v2.json"
GROUP_COMMENT = "<!-- {{ page.url.split('/')[:2] | join('/') if page }} -->\n"
"""Appended to the theme's ``partials/nav.html``: text outside every entry that differs between
the API groups (``x/farm``, ``x/meta``) and is alike within one."""


def _farm(root: Path, across: bool) -> tuple[dict[str, bytes], dict[str, bytes], list[NavCache]]:
    """One release of the fixture spec built with ``GROUP_COMMENT`` in an override of the nav,
    with the nav cache (``across`` as given) and without it."""
    shutil.copytree(REPO / "site_src", root / "docs")
    (root / "overrides" / "partials").mkdir(parents=True)
    nav = Path(material.__file__).parent / "templates" / "partials" / "nav.html"
    (root / "overrides" / "partials" / "nav.html").write_text(
        nav.read_text(encoding="utf-8") + GROUP_COMMENT, encoding="utf-8")
    caches: list[NavCache] = []
    install = nav_cache.install

    def recording(env: Any, **_: Any) -> NavCache:
        caches.append(install(env, across=across))
        return caches[-1]

    sites = []
    for name in ("cached", "plain"):
        config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(root / "docs"),
                  "site_dir": str(root / name), "site_url": "https://example.org/k8s/x/",
                  "theme": {"name": "material", "custom_dir": str(root / "overrides")},
                  "plugins": ["search", {"k8s-api-docs": {
                      "versions": [{"version": "x", "source": str(FARM)}],
                      "cache_dir": str(root / f"cache-{name}")}}]}
        (root / f"{name}.yml").write_text(json.dumps(config), encoding="utf-8")
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(plugin.nav_cache, "install",
                          recording if name == "cached" else lambda env, **_: None)
            sites.append(_files(_build_config(root / f"{name}.yml")))
    return sites[0], sites[1], caches


def _build_config(path: Path) -> Path:
    config = load_config(str(path))
    build(config)
    return Path(config.site_dir)


def test_a_derived_navigation_that_differs_turns_the_cache_off(tmp_path: Path) -> None:
    """Derived across sections anyway over an override whose text outside every entry differs
    between API groups: the first navigation derived from another group's is compared with the
    theme's, differs, and the theme renders every navigation after it."""
    cached, plain, caches = _farm(tmp_path, across=True)
    assert sorted(cached) == sorted(plain)
    assert [p for p in plain if cached[p] != plain[p]] == []
    assert b"<!-- x/farm -->" in cached["x/farm/v1/barn/index.html"]
    assert b"<!-- x/meta -->" in cached["x/meta/v1/objectMeta/index.html"]
    assert len(caches) == 1 and not caches[0].enabled


def test_with_templates_of_ones_own_only_siblings_are_derived(tmp_path: Path) -> None:
    """``custom_dir`` (as the plugin installs the cache then): only sibling pages' navigations
    are derived, which the same override leaves alike, so the cache stays on."""
    cached, plain, caches = _farm(tmp_path, across=False)
    assert [p for p in plain if cached[p] != plain[p]] == [] and sorted(cached) == sorted(plain)
    assert len(caches) == 1 and caches[0].enabled and caches[0].hits > 0
    assert {(a, b) for _, a, _, b, _ in caches[0].verified} == {("page", "page")}


def _section(title: str, children: list[Any]) -> Any:
    section = SimpleNamespace(title=title, children=children, active=False, is_page=False)
    for child in children:
        child.parent = section
    return section


def _page(url: str, index: bool = False) -> Any:
    return SimpleNamespace(url=url, is_index=index, is_page=True, active=False, parent=None)


def test_urls_outside_the_two_entries_must_be_alike_for_both_pages() -> None:
    """Two pages' navigations differ only in their own two entries when every other URL is the
    same relative to both: equally deep, and none below the directory where their URLs part."""
    farm = _section("farm", [_page("farm/", index=True), _page("farm/v1/barn/"),
                             _page("farm/v1/barn/loft/"), _page("farm/v1/stall/")])
    zoo = _section("zoo", [_page("zoo/", index=True), _page("zoo/v1/cage/")])
    tree = _Tree(SimpleNamespace(items=[_page("", index=True), farm, zoo]), True, ["zoo/logo.png"])
    barn, stall, cage = (tree.chains[u] for u in ("farm/v1/barn/", "farm/v1/stall/", "zoo/v1/cage/"))
    assert barn and stall and cage and [n.path for n in barn] == ["__nav_2", "__nav_2_2"]
    assert [n.path for n in tree.chains["farm/"] or []] == ["__nav_2"]  # the section's own page
    url = {name: _parts(f"{name}/v1/x/") for name in ("farm", "zoo", "pen")}
    # farm/ and zoo/ swap whole: every farm/ URL is in farm's entry; the logo is in none
    assert tree.separate(url["farm"], url["pen"], barn[0], cage[0])
    assert not tree.separate(url["farm"], url["zoo"], barn[0], cage[0])
    assert not tree.separate(url["farm"], _parts("pen/v1/"), barn[0], cage[0])  # not equally deep
    home = tree.chains[""]
    assert home is not None  # an entry holding none of farm's URLs
    assert not tree.separate(url["farm"], url["pen"], home[0], cage[0])
    # siblings: barn's page has a page below its URL in another entry (the old ``nested`` rule)
    assert not tree.separate(_parts("farm/v1/barn/"), _parts("farm/v1/stall/"), barn[1], stall[1])
    assert tree.separate(_parts("farm/v1/stall/"), _parts("farm/v1/cow/"), stall[1], barn[1])
