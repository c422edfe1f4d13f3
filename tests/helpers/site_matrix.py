"""Material sites as users configure them, with the plugin inside (issue 35's configuration
matrix): ``tests/test_config_matrix.py`` builds each with the accelerators on and off and compares
the results; ``benchmarks/bench_config_matrix.py`` measures page size and build time."""

from __future__ import annotations

import re
import shutil
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import material
import yaml

THEME_TEMPLATES = Path(material.__file__).parent / "templates"
REPO_FEATURES = ["navigation.prune", "navigation.indexes", "navigation.top", "content.tabs.link",
                 "content.code.copy", "search.highlight"]
"""This repository's ``mkdocs.yml`` features."""
USUAL_EXTENSIONS: list[Any] = [
    "abbr", "admonition", "attr_list", "def_list", "footnotes", "md_in_html", "tables",
    {"toc": {"permalink": True}}, "pymdownx.details", "pymdownx.superfences",
    {"pymdownx.highlight": {"anchor_linenums": True}}, "pymdownx.inlinehilite",
    "pymdownx.snippets", {"pymdownx.tabbed": {"alternate_style": True}},
    {"pymdownx.tasklist": {"custom_checkbox": True}}, "pymdownx.keys", "pymdownx.mark",
    "pymdownx.tilde", "pymdownx.caret", "pymdownx.betterem", "pymdownx.critic",
    "pymdownx.smartsymbols",
    {"pymdownx.emoji": {"emoji_index": "!!python/name:material.extensions.emoji.twemoji",
                        "emoji_generator": "!!python/name:material.extensions.emoji.to_svg"}}]
"""The Markdown extensions of a large real Material site (Material's own recommendations)."""
OWN_NAV = ["index.md", {"Guide": ["guide/index.md", "guide/install.md", "guide/usage.md"]},
           {"About": "about.md"}]
HAND_WRITTEN = {
    "index.md": "# Our platform\n\nWelcome. See the [guide](guide/index.md).\n\n"
                "<!-- k8s-api-docs:releases -->\n",
    "guide/index.md": "# Guide\n\nStart with [installing](install.md).\n\n## Steps\n\nThree.\n",
    "guide/install.md": "# Install\n\n!!! note\n    Read this first.\n\n## Requirements\n\n"
                        "| what | version |\n| --- | --- |\n| Python | 3.11 |\n",
    "guide/usage.md": "# Usage\n\n```yaml\nkind: Pod\n```\n\n## More\n\nText[^1].\n\n[^1]: A note.\n",
    "about.md": "# About\n\nWho we are.\n",
}


def _theme(name: str) -> str:
    return (THEME_TEMPLATES / name).read_text(encoding="utf-8")


def renamed_nav_macro() -> dict[str, str]:
    """``partials/nav.html`` and ``nav-item.html`` with the ``render`` macro renamed (issue 35)."""
    item = _theme("partials/nav-item.html").replace(
        "{% macro render(nav_item, path, level, parent) %}",
        "{% macro render_entry(nav_item, path, level, parent) %}").replace(
        "{{ render(item, path", "{{ render_entry(item, path")
    nav = _theme("partials/nav.html").replace("item.render(", "item.render_entry(")
    assert "render_entry(" in item and "item.render_entry(" in nav
    return {"partials/nav.html": nav, "partials/nav-item.html": item}


def added_nav_item_macro() -> dict[str, str]:
    """``nav-item.html`` with a macro of one's own called for every entry."""
    item = _theme("partials/nav-item.html").replace(
        "{{ render_title(ref) }}", "{{ render_title(ref) }}{{ user_mark(ref) }}")
    return {"partials/nav-item.html": "{% macro user_mark(nav_item) %}<i class=\"user-mark\">"
            "</i>{% endmacro %}\n" + item}


def main_html() -> dict[str, str]:
    """``main.html`` extending ``base.html`` with blocks changed and a macro of its own."""
    return {"main.html": (
        '{% extends "base.html" %}\n'
        '{% macro shout(text) %}<strong class="user-shout">{{ text }}</strong>{% endmacro %}\n'
        "{% block announce %}{{ shout('Read the guide') }}{% endblock %}\n"
        "{% block content %}{{ super() }}<p class=\"user-after\">{{ page.title | e }}</p>"
        "{% endblock %}\n"
        "{% block outdated %}An older release.{% endblock %}\n")}


def partials() -> dict[str, str]:
    """The toc (its item macro-ised and renamed), header, footer and content partials changed."""
    toc_item = ("{% macro toc_entry(toc_item) %}" + _theme("partials/toc-item.html").replace(
        '{% include "partials/toc-item.html" %}', "{{ toc_entry(toc_item) }}") + "{% endmacro %}")
    toc = _theme("partials/toc.html").replace(
        '{% include "partials/toc-item.html" %}', "{{ toc_entry(toc_item) }}")
    assert "toc_entry(toc_item)" in toc
    return {
        "partials/toc.html": toc_item + "\n" + toc,
        "partials/header.html": _theme("partials/header.html") + "<!-- header of {{ page.url }} -->\n",
        "partials/footer.html": "{% macro year() %}2026{% endmacro %}" + _theme("partials/footer.html")
        + '<div class="user-footer">{{ year() }} {{ page.title | e }}</div>\n',
        "partials/content.html": _theme("partials/content.html")
        + '<p class="user-content">{{ page.url }}</p>\n',
    }


@dataclass(frozen=True)
class UserSite:
    """One configuration: theme settings, other ``mkdocs.yml`` keys, ``custom_dir`` files."""

    name: str
    theme: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    releases: tuple[str, ...] = ("1.32",)
    off: tuple[str, ...] = ()
    """Accelerators this configuration is not proven for (each says so in one log line)."""
    tier: str = "slow"
    """``integration``: also in the integration tier; ``slow``: the release tier only."""
    skip: str = ""
    """Why it cannot be built yet (the test is skipped with it)."""
    docs: dict[str, str] = field(default_factory=dict)
    """Files of its own in ``docs_dir`` besides ``HAND_WRITTEN``."""


LARGE = UserSite(
    "large-real-site", releases=("1.31", "1.32"), tier="integration",
    theme={"features": ["navigation.tabs", "navigation.sections", "navigation.footer",
                        "toc.follow", "search.suggest", "search.highlight", "content.action.edit",
                        "content.action.view", "content.code.copy"]},
    config={"nav": OWN_NAV, "markdown_extensions": USUAL_EXTENSIONS,
            "repo_url": "https://example.org/org/repo", "edit_uri": "edit/main/docs/"})
"""Issue 35's "large real Material site": tabs, sections, footer, toc.follow, search.suggest,
edit buttons, the usual pymdownx extensions, its own nav, no prune."""

SITES = [
    UserSite("repo-features", theme={"features": REPO_FEATURES}),
    UserSite("tabs-two-releases", releases=("1.31", "1.32"), tier="integration",
             theme={"features": ["navigation.tabs", "navigation.indexes", "navigation.prune"]}),
    UserSite("tabs-sticky-sections", theme={"features": [
        "navigation.tabs", "navigation.tabs.sticky", "navigation.sections"]}),
    UserSite("sections-expand", theme={"features": ["navigation.sections", "navigation.expand"]}),
    UserSite("expand-only", theme={"features": ["navigation.expand"]}),
    UserSite("indexes-path-prune", theme={"features": [
        "navigation.indexes", "navigation.path", "navigation.prune"]}),
    UserSite("instant-footer-top", theme={"features": [
        "navigation.instant", "navigation.instant.prefetch", "navigation.instant.progress",
        "navigation.footer", "navigation.top", "navigation.tracking"]}),
    UserSite("toc-integrate-follow-autohide", theme={"features": [
        "toc.integrate", "toc.follow", "header.autohide", "navigation.indexes"]}),
    UserSite("content-search", theme={"features": [
        "content.action.edit", "content.action.view", "content.code.annotate", "content.code.copy",
        "content.code.select", "content.tabs.link", "content.tooltips",
        "content.footnote.tooltips", "announce.dismiss", "search.suggest", "search.share",
        "search.highlight"]},
        config={"repo_url": "https://example.org/org/repo", "edit_uri": "edit/main/docs/"}),
    UserSite("language-de-palette", theme={
        "language": "de", "features": ["navigation.tabs"],
        "palette": [{"scheme": "default", "primary": "indigo",
                     "toggle": {"icon": "material/brightness-7", "name": "Dunkel"}},
                    {"scheme": "slate", "primary": "teal",
                     "toggle": {"icon": "material/brightness-4", "name": "Hell"}}]}),
    UserSite("language-ja", theme={"language": "ja", "features": ["navigation.sections"]}),
    UserSite("override-main", overrides=main_html(), theme={"features": REPO_FEATURES}),
    UserSite("override-nav-renamed-macro", overrides=renamed_nav_macro(), off=("nav_cache",),
             tier="integration", theme={"features": REPO_FEATURES}),
    UserSite("override-nav-item-added-macro", overrides=added_nav_item_macro(), off=("nav_cache",),
             theme={"features": ["navigation.sections"]}),
    UserSite("override-partials", overrides=partials(),
             theme={"features": ["navigation.indexes", "toc.integrate"]}),
    UserSite("no-directory-urls", config={"use_directory_urls": False}, tier="integration",
             theme={"features": REPO_FEATURES}),
    UserSite("own-nav", config={"nav": OWN_NAV}, theme={"features": ["navigation.indexes"]}),
    UserSite("two-releases", releases=("1.31", "1.32"), theme={"features": REPO_FEATURES}),
    UserSite("awesome-nav", config={"plugins": ["awesome-nav"]},
             theme={"features": ["navigation.sections", "navigation.indexes"]}),
    UserSite("awesome-nav-releases-in-a-section", config={"plugins": ["awesome-nav"]},
             releases=("1.31", "1.32"), theme={"features": ["navigation.tabs", "navigation.indexes"]},
             docs={".nav.yml": "nav:\n  - index.md\n  - Guide: guide\n  - API reference:\n"
                               "      - '1.31'\n      - '1.32'\n  - about.md\n"}),
    UserSite("unproven-feature", theme={"features": ["navigation.prune", "navigation.someday"]},
             off=("nav_cache",)),
    UserSite("smarty", config={"markdown_extensions": [*USUAL_EXTENSIONS, "smarty"]},
             theme={"features": REPO_FEATURES}),
    UserSite("unproven-extension", config={"markdown_extensions": [
        *USUAL_EXTENSIONS, "pymdownx.saneheaders"]}, off=("headings_page",)),
    LARGE,
]


def write_site(root: Path, site: UserSite, groups: list[str] | None, name: str = "site") -> Path:
    """``root/name.yml`` (and the docs and overrides it uses, shared by builds in ``root``):
    the site's configuration with the plugin generating its releases (``groups`` only, if
    given); the path of the configuration file."""
    docs = root / "docs"
    if not docs.exists():
        for path, text in {**HAND_WRITTEN, **site.docs}.items():
            (docs / path).parent.mkdir(parents=True, exist_ok=True)
            (docs / path).write_text(text, encoding="utf-8")
    theme: dict[str, Any] = {"name": "material", "font": False, **site.theme}
    if site.overrides:
        custom = root / "overrides"
        if not custom.exists():
            for path, text in site.overrides.items():
                (custom / path).parent.mkdir(parents=True, exist_ok=True)
                (custom / path).write_text(text, encoding="utf-8")
        theme["custom_dir"] = str(custom)
    options: dict[str, Any] = {"versions": [{"version": v} for v in site.releases],
                               "cache_dir": str(root / f"cache-{name}")}
    if groups:
        options["groups"] = groups
    extra_plugins = site.config.get("plugins", [])
    config = {"site_name": "Our platform", "site_url": "https://example.org/docs/",
              "docs_dir": str(docs), "site_dir": str(root / name), "theme": theme,
              "markdown_extensions": ["attr_list", {"toc": {"permalink": True}}, "tables",
                                      "admonition", "footnotes", "pymdownx.superfences"],
              **{k: v for k, v in site.config.items() if k != "plugins"},
              "plugins": ["search", *extra_plugins, {"k8s-api-docs": options}]}
    path = root / f"{name}.yml"
    text = yaml.safe_dump(config, sort_keys=False)  # the emoji functions: YAML's !!python/name
    text = re.sub(r"'(!!python/name:[^']+)'", r"\1", text)
    path.write_text(text, encoding="utf-8")
    return path


def html_files(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if p.name != "404.html")


def median_page_kb(site: Path) -> float:
    """Median size of the site's HTML pages, KB."""
    return statistics.median(p.stat().st_size for p in html_files(site)) / 1000


def fresh(root: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
