"""The accelerators' switch, their allowlists, and their one log line when one turns itself off
(``generator.mkdocs.accelerators``), also when one raises; their byte-equality tests are in
``test_nav_cache.py``, ``test_headings_page.py``, ``test_search_sections.py`` and
``test_config_matrix.py``."""

from __future__ import annotations

import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from generator.mkdocs import accelerators, headings_page, plugin
from generator.mkdocs.accelerators import same_as_theme
from generator.mkdocs.nav_cache import NavCache

MKDOCS_DIR = Path(__file__).resolve().parents[1] / "generator" / "mkdocs"


BOTH = {"headings_page", "nav_cache", "search_entries"}


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


def test_mkdocs_glue_is_keyed_to_no_third_party_file() -> None:
    """No digest or version of another project's file switches an accelerator."""
    sources = {p.name: p.read_text(encoding="utf-8") for p in MKDOCS_DIR.glob("*.py")}
    assert "accelerators.py" in sources and "page_cache.py" not in sources  # removed (issue 35)
    for name, text in sources.items():
        assert "sha256" not in text and "hashlib" not in text and "__version__" not in text, name


def _config(features: list[str], custom_dir: str | None = None,
            extensions: list[Any] | None = None, plugins: tuple[str, ...] = ("search",)) -> Any:
    theme = SimpleNamespace(name="material", custom_dir=custom_dir,
                            get=lambda key, default=None: features if key == "features" else default)
    return {"theme": theme, "markdown_extensions": extensions or ["toc", "attr_list"],
            "plugins": dict.fromkeys(plugins), "use_directory_urls": True}


def test_what_each_is_proven_on(tmp_path: Path) -> None:
    """Allowlists: theme features and nav overrides (``nav_cache``), Markdown extensions
    (``headings_page``), Material's search plugin (``search_entries``); anything else is named."""
    unproven = accelerators.unproven
    assert unproven("nav_cache", _config(["navigation.tabs", "toc.integrate"])) is None
    assert unproven("nav_cache", _config(["navigation.tabs", "navigation.someday"])) == \
        "theme features ['navigation.someday'] not among those it is proven on"
    (tmp_path / "partials").mkdir()
    (tmp_path / "main.html").write_text("x", encoding="utf-8")
    (tmp_path / "partials" / "toc.html").write_text("x", encoding="utf-8")
    assert unproven("nav_cache", _config([], str(tmp_path))) is None
    (tmp_path / "partials" / "nav-item.html").write_text("x", encoding="utf-8")
    assert unproven("nav_cache", _config([], str(tmp_path))) == \
        "custom_dir overrides partials/nav-item.html"
    assert unproven("headings_page", _config([], extensions=[
        "markdown.extensions.toc", "pymdownx.tabbed"])) is None
    assert unproven("headings_page", _config([], extensions=["toc", "pymdownx.saneheaders"])) == \
        "Markdown extensions ['pymdownx.saneheaders'] not among those it is proven on"
    assert unproven("search_entries", _config([], plugins=("material/search",))) is None
    assert unproven("search_entries", _config([], plugins=("offline",))) == "no Material search plugin"
    files = {**_config([]), "use_directory_urls": False}  # the matrix's no-directory-urls
    searched = {**_config([], plugins=("material/search",)), "use_directory_urls": False}
    assert {unproven(name, files) for name in ("headings_page", "nav_cache")} == {None}
    assert unproven("search_entries", searched) is None


FORCED_RAISE: dict[str, tuple[Any, str, int]] = {
    "headings_page": (headings_page, "render_headings", 3),  # call 1: the sample page
    "nav_cache": (NavCache, "_render", 3),
    "search_entries": (plugin, "page_sections", 1),
}
"""Where each accelerator is forced to raise, and at which call (mid-build, but for
``search_entries``, whose index entries differ from Material's by design: see
``test_config_matrix.py``)."""


@pytest.mark.integration
@pytest.mark.parametrize("name", sorted(FORCED_RAISE))
def test_an_accelerator_that_raises_turns_off_and_the_theme_renders(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Forced to raise inside, an accelerator says so in one log line, is off for the rest of
    the build, and the build equals the build without accelerators, byte for byte."""
    from helpers.site_matrix import REPO_FEATURES, UserSite, fresh, write_site
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    owner, attr, at = FORCED_RAISE[name]
    real, calls = getattr(owner, attr), []

    def raising(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == at:
            raise RuntimeError("forced")
        return real(*args, **kwargs)

    site = UserSite("forced", theme={"features": REPO_FEATURES})
    fresh(tmp_path / "s")
    caplog.set_level(logging.INFO)
    built = {}
    for switch in (name, "none"):
        monkeypatch.setenv(accelerators.ENV, switch)
        monkeypatch.setattr(accelerators, "_said", set())
        with monkeypatch.context() as patch:
            patch.setattr(owner, attr, raising)
            config = load_config(str(write_site(tmp_path / "s", site, ["apps"], switch)))
            build(config)
        root = Path(config.site_dir)
        built[switch] = {p.relative_to(root).as_posix(): p.read_bytes()
                         for p in sorted(root.rglob("*")) if p.is_file()}
    said = [r.getMessage() for r in caplog.records if " off (" in r.getMessage()]
    assert said == [f"k8s-api-docs: {name} off (it raised RuntimeError: forced); MkDocs and "
                    "Material render as without it"]
    assert len(calls) >= at
    on, off = built[name], built["none"]
    assert sorted(on) == sorted(off) and len(on) > 40
    assert [p for p in off if on[p] != off[p]] == []


@pytest.mark.parametrize(("features", "said"), [
    (["navigation.tabs"], "k8s-api-docs: theme feature navigation.prune turned on: every page "
                          "would otherwise carry the navigation of every generated page"),
    (["navigation.expand"], "k8s-api-docs: theme feature navigation.prune turned on: every page "
                            "would otherwise carry the navigation of every generated page; "
                            "navigation.expand then opens only the sections on a page's own path"),
    (["navigation.prune", "navigation.tabs"], None),
])
def test_the_plugin_prunes_the_navigation_and_says_so(
        features: list[str], said: str | None, caplog: pytest.LogCaptureFixture) -> None:
    """Bounded pages in any configuration (issue 35): Material's ``navigation.prune`` on."""
    config = SimpleNamespace(theme=SimpleNamespace(
        name="material", get=lambda key, default=None: features if key == "features" else default))
    caplog.set_level(logging.INFO)
    plugin.prune_navigation(config)  # type: ignore[arg-type]
    assert "navigation.prune" in features
    assert [r.getMessage() for r in caplog.records] == ([said] if said else [])
    other: list[str] = []
    plugin.prune_navigation(SimpleNamespace(theme=SimpleNamespace(  # type: ignore[arg-type]
        name="mkdocs", get=lambda key, default=None: other)))
    assert other == []
