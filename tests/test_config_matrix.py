"""The plugin inside Material sites as users configure them (issue 35; ``helpers.site_matrix``):
each site built with the accelerators on and off, in-process, must build, be equal file by file,
resolve every internal link and keep pages small (median ≤ 100 KB). An accelerator a
configuration is not proven for says so in one log line, and no other says anything.

The search index is compared entry by entry: by design (``search_entries``) a generated page's
entry text is the section's words without markup, where Material's parser keeps some tags and
runs table cells together, and boosts count those words; so generated pages' entries must have
the same location, title and letters of text, every other entry (hand-written pages) and the
index's ``config`` must be equal. Two releases, the apps group only (``groups``), keep builds
small; ``benchmarks/bench_config_matrix.py`` measures whole releases."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.site_matrix import SITES, UserSite, fresh, html_files, median_page_kb, write_site
from linkcheck import broken_links
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.mkdocs import accelerators

GROUPS = ["apps"]
_TAG = re.compile(r"<[^>]*>")


def _build(root: Path, site: UserSite, name: str, switch: str, monkeypatch: pytest.MonkeyPatch,
           caplog: pytest.LogCaptureFixture) -> tuple[Path, list[str]]:
    """The site built with ``K8S_API_DOCS_ACCELERATORS=switch``; what the accelerators said."""
    monkeypatch.setenv(accelerators.ENV, switch)
    monkeypatch.setattr(accelerators, "_said", set())
    caplog.clear()
    config = load_config(str(write_site(root, site, GROUPS, name)))
    build(config)
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("k8s-api-docs: ")
            and " off (" in r.getMessage()]
    return Path(config.site_dir), said


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"}


def _letters(text: str) -> str:
    return "".join(_TAG.sub("", text).split())


def assert_same_index(on: bytes, off: bytes, generated: set[str]) -> None:
    """Entry by entry (see the module's docstring)."""
    ours, theirs = json.loads(on), json.loads(off)
    assert ours["config"] == theirs["config"]
    assert [(d["location"], d["title"]) for d in ours["docs"]] == \
        [(d["location"], d["title"]) for d in theirs["docs"]]
    for mine, material in zip(ours["docs"], theirs["docs"], strict=True):
        if mine["location"].split("#")[0] in generated:
            assert _letters(mine["text"]) == _letters(material["text"]), mine["location"]
        else:
            assert mine == material


def _params() -> list[Any]:
    out = []
    for site in SITES:
        marks = [pytest.mark.integration] if site.tier == "integration" else [pytest.mark.slow]
        if site.skip:
            marks.append(pytest.mark.skip(reason=site.skip))
        out.append(pytest.param(site, id=site.name, marks=marks))
    return out


@pytest.mark.parametrize("site", _params())
def test_built_both_ways_alike(site: UserSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               caplog: pytest.LogCaptureFixture) -> None:
    if site.name.startswith("awesome-nav"):
        pytest.importorskip("mkdocs_awesome_nav")
    caplog.set_level(logging.INFO)
    fresh(tmp_path / "s")
    on_dir, said = _build(tmp_path / "s", site, "on", "all", monkeypatch, caplog)
    off_dir, said_off = _build(tmp_path / "s", site, "off", "none", monkeypatch, caplog)
    assert [line.split(" off (")[0] for line in said] == \
        [f"k8s-api-docs: {name}" for name in sorted(site.off)], said
    assert said_off == []
    on, off = _files(on_dir), _files(off_dir)
    assert sorted(on) == sorted(off)
    pages = [p for p in on if p.endswith(".html")]
    assert len([p for p in pages if p.startswith(site.releases[-1] + "/apps/")]) > 20
    assert [p for p in off if on[p] != off[p] and p != "search/search_index.json"] == []
    generated = {p.removesuffix("index.html") for p in pages if p.startswith(site.releases)}
    generated |= {p for p in pages if p.startswith(site.releases)}  # use_directory_urls: false
    assert_same_index(on["search/search_index.json"], off["search/search_index.json"], generated)
    assert [str(link) for link in broken_links(on_dir)] == []
    assert median_page_kb(on_dir) <= 100, median_page_kb(on_dir)
    assert html_files(on_dir)


@pytest.mark.integration
def test_tabs_mark_the_pages_own_release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         caplog: pytest.LogCaptureFixture) -> None:
    """Issue 35's first failure, on main at 83b3305: with ``navigation.tabs`` on two releases,
    ``page_cache`` (one skeleton per group of pages, its probe comparing only the first) made
    pages of 1.32 mark the 1.31 tab active and point it at 1.32's home, logging nothing."""
    site = next(s for s in SITES if s.name == "tabs-two-releases")
    fresh(tmp_path / "s")
    on_dir, _ = _build(tmp_path / "s", site, "on", "all", monkeypatch, caplog)
    pages = [p for p in html_files(on_dir / "1.32") if "/apps/" in p.as_posix()]
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        active = re.findall(r'<li class="md-tabs__item md-tabs__item--active">\s*<a href="([^"]*)"'
                            r'[^>]*>\s*(.*?)\s*</a>', text, re.DOTALL)
        assert len(active) == 1, page
        assert "1.32" in _TAG.sub("", active[0][1]), (page, active)


@pytest.mark.integration
def test_a_renamed_nav_macro_builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    caplog: pytest.LogCaptureFixture) -> None:
    """Issue 35's second failure, on main at 83b3305: overrides of ``partials/nav.html`` and
    ``nav-item.html`` renaming the ``render`` macro failed the build with the accelerators on
    (``'TemplateModule' object has no attribute 'render'``). Now ``nav_cache`` is not proven on
    such overrides, says so, and the theme renders; the build equals the one without it."""
    caplog.set_level(logging.INFO)
    site = next(s for s in SITES if s.name == "override-nav-renamed-macro")
    fresh(tmp_path / "s")
    on_dir, said = _build(tmp_path / "s", site, "on", "all", monkeypatch, caplog)
    assert said == ["k8s-api-docs: nav_cache off (custom_dir overrides partials/nav.html, "
                    "partials/nav-item.html); MkDocs and Material render as without it"]
    page = (on_dir / "1.32/apps/v1/deployment/index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="\./" class="md-nav__link md-nav__link--active">\s*'
                     r'<span class="md-ellipsis">\s*Deployment\s*</span>', page)
