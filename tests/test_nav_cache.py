"""Material's navigation derived from another page's (``generator.mkdocs.nav_cache``): the built
site must be byte for byte the one the theme renders page by page. CI also runs this file with
the newest Material the pins allow (``tests/newest_allowed.sh``)."""

from __future__ import annotations

import json
import logging
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
from generator.mkdocs.nav_cache import NavCache, entries

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

    def recording(env: Any) -> NavCache:
        caches.append(install(env))
        return caches[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plugin.nav_cache, "install", recording)
        cached = _files(_build(root, "cached", request.param))
        patch.setattr(plugin.nav_cache, "install", lambda env: None)
        plain = _files(_build(root, "plain", request.param))
    return cached, plain, caches


def test_cached_navigation_is_the_themes_byte_for_byte(sites: Any) -> None:
    cached, plain, _ = sites
    assert sorted(cached) == sorted(plain)
    assert len([p for p in cached if p.endswith(".html")]) > 50
    assert [p for p in plain if cached[p] != plain[p]] == []


def test_the_cache_was_used(sites: Any) -> None:
    """Most navigations are derived from a sibling page's; the first at each nav level is
    compared with the theme's."""
    _, _, caches = sites
    assert len(caches) == 1 and caches[0].enabled
    cache = caches[0]
    assert cache.hits > 5 * cache.misses > 0
    assert cache.verify == 0 and len(cache.verified) >= 2


FARM = FIXTURES / "specs" / "builders-v2.json"
DIR_COMMENT = "<!-- {{ page.url.split('/')[:-2] | join('/') if page }} -->\n"
"""Appended to the theme's ``partials/nav.html``: text outside every entry that differs between
URL directories (``x/farm/v1``, ``x/meta/v1``) and is alike within one."""
PAGE_COMMENT = "<!-- {{ page.url if page }} -->\n"
"""Text outside every entry that differs from page to page."""


def _farm(root: Path, comment: str) -> tuple[dict[str, bytes], dict[str, bytes], list[NavCache]]:
    """One release of the fixture spec built with ``comment`` in an override of the nav, with
    the nav cache and without it. Such an override is not on the cache's allowlist
    (``accelerators.NAV_TEMPLATES``): these builds take it off the list, to show the probe
    catches what the allowlist keeps out."""
    shutil.copytree(REPO / "site_src", root / "docs")
    (root / "overrides" / "partials").mkdir(parents=True)
    nav = Path(material.__file__).parent / "templates" / "partials" / "nav.html"
    (root / "overrides" / "partials" / "nav.html").write_text(
        nav.read_text(encoding="utf-8") + comment, encoding="utf-8")
    caches: list[NavCache] = []
    install = nav_cache.install

    def recording(env: Any) -> NavCache:
        caches.append(install(env))
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
            patch.setattr(accelerators, "NAV_TEMPLATES", ())
            patch.setattr(plugin.nav_cache, "install",
                          recording if name == "cached" else lambda env: None)
            sites.append(_files(_build_config(root / f"{name}.yml")))
    return sites[0], sites[1], caches


def _build_config(path: Path) -> Path:
    config = load_config(str(path))
    build(config)
    return Path(config.site_dir)


def test_a_derived_navigation_that_differs_turns_the_cache_off(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """An override whose text outside every entry differs from page to page: the first derived
    navigation is compared with the theme's, differs, and the theme renders every navigation
    after it; one log line says so."""
    monkeypatch.setattr(accelerators, "_said", set())
    caplog.set_level(logging.INFO)
    cached, plain, caches = _farm(tmp_path, PAGE_COMMENT)
    assert sorted(cached) == sorted(plain)
    assert [p for p in plain if cached[p] != plain[p]] == []
    assert b"<!-- x/farm/v1/barn/ -->" in cached["x/farm/v1/barn/index.html"]
    assert len(caches) == 1 and not caches[0].enabled
    said = [r.getMessage() for r in caplog.records if "nav_cache off" in r.getMessage()]
    assert len(said) == 1 and "differs from the theme's" in said[0], said


def test_templates_of_ones_own_alike_between_siblings(tmp_path: Path) -> None:
    """``custom_dir`` with an override that differs between URL directories but not between
    sibling pages: navigations are derived, byte for byte the theme's, and the cache stays on."""
    cached, plain, caches = _farm(tmp_path, DIR_COMMENT)
    assert [p for p in plain if cached[p] != plain[p]] == [] and sorted(cached) == sorted(plain)
    assert b"<!-- x/farm/v1 -->" in cached["x/farm/v1/barn/index.html"]
    assert b"<!-- x/meta/v1 -->" in cached["x/meta/v1/objectMeta/index.html"]
    assert b"<!-- x -->" in cached["x/farm/index.html"]
    assert len(caches) == 1 and caches[0].enabled and caches[0].hits > 0


def _section(title: str, children: list[Any]) -> Any:
    section = SimpleNamespace(title=title, children=children, active=False, is_page=False)
    for child in children:
        child.parent = section
    return section


def _page(url: str, index: bool = False) -> Any:
    return SimpleNamespace(url=url, is_index=index, is_page=True, active=False, parent=None)


def test_derivable_pages_have_every_url_below_theirs_in_their_entry() -> None:
    """A page's navigation is derived only when every URL below its own (of the nav, the logo,
    the home link) is in its entry (a section's, for its index page), and it is in the nav once."""
    farm = _section("farm", [_page("farm/", index=True), _page("farm/v1/barn/"),
                             _page("farm/v1/barn/loft/"), _page("farm/v1/stall/"),
                             _page("farm/v1/cow/"), _page("farm/v1/cow/")])
    zoo = _section("zoo", [_page("zoo/", index=True), _page("zoo/v1/cage/")])
    pen = _section("pen", [_page("pen/", index=True), _page("pen/v1/hay/")])
    found = entries(SimpleNamespace(items=[_page("", index=True), farm, zoo, pen, _page("about/")]),
                    True, ["zoo/v1/cage/logo.png"])
    # barn has its loft (another entry) below; zoo/ the logo; cow is there twice
    assert sorted(found) == ["", "about/", "farm/", "farm/v1/barn/loft/", "farm/v1/stall/",
                             "pen/", "pen/v1/hay/"]
    stall = found["farm/v1/stall/"]
    assert (stall.path, stall.level, stall.section, stall.parent) == ("__nav_2_4", 2, "__nav_2", farm)
    assert (found["farm/"].item, found["farm/"].path, found["farm/"].level) == (farm, "__nav_2", 1)
    assert found["farm/"].parent is None and found["farm/"].section == "__nav"  # the section's
    assert found["about/"].parent is None and found["about/"].section == "__nav"  # at the top
    assert "farm/" not in entries(SimpleNamespace(items=[farm]), False, [])  # a page of its own
