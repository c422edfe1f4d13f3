"""The accelerators' switch and their one log line when one turns itself off
(``generator.mkdocs.accelerators``); their byte-equality tests are in ``test_nav_cache.py``,
``test_headings_page.py``, ``test_page_cache.py`` and ``test_search_sections.py``."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from generator.mkdocs import accelerators
from generator.mkdocs.accelerators import same_as_theme
from generator.mkdocs.nav_cache import NavCache

MKDOCS_DIR = Path(__file__).resolve().parents[1] / "generator" / "mkdocs"


BOTH = {"headings_page", "nav_cache", "page_cache", "search_entries"}


@pytest.mark.parametrize(("value", "on"), [(None, BOTH), ("all", BOTH), ("none", set()),
                                           ("nav_cache", {"nav_cache"}),
                                           (" headings_page , x", {"headings_page"})])
def test_the_switch(monkeypatch: pytest.MonkeyPatch, value: str | None, on: set[str]) -> None:
    if value is None:
        monkeypatch.delenv(accelerators.ENV, raising=False)
    else:
        monkeypatch.setenv(accelerators.ENV, value)
    assert {name for name in accelerators.NAMES if accelerators.wanted(name)} == on


def test_a_cache_that_differs_from_the_theme_turns_off_and_says_so_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import jinja2

    monkeypatch.setattr(accelerators, "_said", set())
    cache = NavCache(jinja2.Environment())
    caplog.set_level(logging.INFO)
    assert same_as_theme(cache, "a", "a", "x") and cache.enabled
    assert not same_as_theme(cache, "a", "b", "the derived navigation of p/")
    assert not cache.enabled
    same_as_theme(cache, "c", "d", "again")
    said = [r.getMessage() for r in caplog.records if "nav_cache off" in r.getMessage()]
    assert said == ["k8s-api-docs: nav_cache off (the derived navigation of p/ differs from the "
                    "theme's); MkDocs and Material render as without it"]


def test_mkdocs_glue_is_small_and_keyed_to_no_third_party_file() -> None:
    """The issue's limits: ``generator/mkdocs`` ≤ 900 lines, no digest of another project's file."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in MKDOCS_DIR.glob("*.py")}
    assert sum(text.count("\n") for text in sources.values()) <= 900
    for name, text in sources.items():
        assert "sha256" not in text and "hashlib" not in text and "__version__" not in text, name
