"""The one boundary of the plugin's speed code. Each accelerator does what MkDocs or Material
would do, faster, relying on something of theirs that is not a documented promise:

- ``headings_page``: model pages without Python-Markdown (MkDocs' private link processor);
- ``nav_cache``: Material's navigation derived from a sibling page's (its ``nav-item`` macro);
- ``search_entries``: generated pages' search entries ours, not Material's parser's (documented
  ``search: exclude`` meta; ``tests/test_search_sections.py`` compares the two).

Each runs only on what it is proven on (``unproven``: an allowlist of theme features,
``custom_dir`` overrides, Markdown extensions, search plugins, ``use_directory_urls`` both ways;
``tests/test_config_matrix.py`` builds every entry both ways); anything else turns it off, and
so does any exception inside it (``broke``: the page is then rendered by MkDocs and the theme),
with one log line naming why.

``K8S_API_DOCS_ACCELERATORS`` chooses them: unset or ``all``, every one; ``none``; or a comma
list of names (benchmarks and the byte-equality tests build with and without each).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Hashable
from pathlib import Path
from typing import Any

ENV = "K8S_API_DOCS_ACCELERATORS"
NAMES = ("headings_page", "nav_cache", "search_entries")

PROVEN_FEATURES = frozenset({
    "announce.dismiss", "content.action.edit", "content.action.view", "content.code.annotate",
    "content.code.copy", "content.code.select", "content.footnote.tooltips", "content.tabs.link",
    "content.tooltips", "header.autohide", "navigation.expand", "navigation.footer",
    "navigation.indexes", "navigation.instant", "navigation.instant.prefetch",
    "navigation.instant.progress", "navigation.path", "navigation.prune", "navigation.sections",
    "navigation.tabs", "navigation.tabs.sticky", "navigation.top", "navigation.tracking",
    "search.highlight", "search.share", "search.suggest", "toc.follow", "toc.integrate"})
"""Material features ``nav_cache`` is proven on (the matrix builds each both ways)."""
NAV_TEMPLATES = ("partials/nav.html", "partials/nav-item.html")
"""What ``nav_cache`` calls into (the ``render`` macro, the loop calling it): a ``custom_dir``
override of either turns it off. Overrides of other templates (``main.html``, the toc, header,
footer, content partials) are in the matrix."""
PROVEN_EXTENSIONS = frozenset({
    "abbr", "admonition", "attr_list", "def_list", "fenced_code", "footnotes", "md_in_html",
    "meta", "sane_lists", "tables", "toc", "pymdownx.arithmatex", "pymdownx.betterem",
    "pymdownx.caret", "pymdownx.critic", "pymdownx.details", "pymdownx.emoji",
    "pymdownx.highlight", "pymdownx.inlinehilite", "pymdownx.keys", "pymdownx.mark",
    "pymdownx.smartsymbols", "pymdownx.snippets", "pymdownx.superfences", "pymdownx.tabbed",
    "pymdownx.tasklist", "pymdownx.tilde", "smarty"})
"""Markdown extensions ``headings_page`` is proven on: none changes a heading of the plain text
``render.headings`` accepts (it leaves pages with text ``smarty`` and ``smartsymbols`` change,
such as ``(c)`` or ``1/2``, to Python-Markdown)."""
SEARCH_PLUGINS = frozenset({"search", "material/search"})
"""Material's search plugin, whose documented ``search: exclude`` meta ``search_entries`` uses."""

log = logging.getLogger("mkdocs.plugins.k8s-api-docs")
_said: set[str] = set()
_broken: set[str] = set()


def wanted(name: str) -> bool:
    """Whether the accelerator ``name`` (one of ``NAMES``) is switched on and has not broken."""
    if name in _broken:
        return False
    value = os.environ.get(ENV, "all").strip()
    if value in ("", "all"):
        return True
    return name in {part.strip() for part in value.split(",")}


def start_build() -> None:
    """A new build: accelerators that broke in the last one try again (not said again)."""
    _broken.clear()


def turned_off(name: str, why: str) -> None:
    """Log, once per process and accelerator, that ``name`` turned itself off and why."""
    if name in _said:
        return
    _said.add(name)
    log.info("k8s-api-docs: %s off (%s); MkDocs and Material render as without it", name, why)


def broke(name: str, exc: BaseException) -> None:
    """``name`` raised ``exc``: off for the rest of the build, said once; its caller renders
    the page as MkDocs and the theme do."""
    _broken.add(name)
    turned_off(name, f"it raised {type(exc).__name__}: {exc}")


def _extension_name(extension: Any) -> str:
    name = extension if isinstance(extension, str) else type(extension).__module__
    return str(name).removeprefix("markdown.extensions.")


def unproven(name: str, config: Any) -> str | None:
    """Why the accelerator ``name`` is not proven on this MkDocs ``config`` (``None``: it is)."""
    theme = config["theme"]
    if name == "nav_cache":
        if theme.name != "material":
            return f"theme {theme.name!r}, not Material"
        features = sorted(set(theme.get("features") or ()) - PROVEN_FEATURES)
        if features:
            return f"theme features {features} not among those it is proven on"
        custom = theme.custom_dir
        overridden = [t for t in NAV_TEMPLATES if custom and (Path(custom) / t).is_file()]
        if overridden:
            return f"custom_dir overrides {', '.join(overridden)}"
    elif name == "headings_page":
        extensions = sorted({_extension_name(e) for e in config["markdown_extensions"]}
                            - PROVEN_EXTENSIONS)
        if extensions:
            return f"Markdown extensions {extensions} not among those it is proven on"
    elif name == "search_entries":
        if theme.name != "material":
            return f"theme {theme.name!r}, not Material"
        plugins = set(config["plugins"]) & SEARCH_PLUGINS
        if not plugins:
            return "no Material search plugin"
    return None


def running(name: str, config: Any) -> bool:
    """``wanted`` and proven on ``config``; if wanted but not proven, says why (once)."""
    if not wanted(name):
        return False
    why = unproven(name, config)
    if why is not None:
        turned_off(name, why)
    return why is None


def to_compare(cache: Any, kind: Hashable) -> bool:
    """Whether a result of ``cache`` is to be compared with the theme's own render: while its
    ``verify`` count lasts, and the first of each ``kind`` (kept in its ``verified``)."""
    if cache.verify <= 0 and kind in cache.verified:
        return False
    cache.verify = max(cache.verify - 1, 0)
    cache.verified.add(kind)
    return True


def same_as_theme(cache: Any, cached: str, theirs: str, what: str) -> bool:
    """Whether the cache's result equals the theme's own for the same page; if not, the cache is
    turned off for the rest of the build, and why is logged (once)."""
    if cached == theirs:
        return True
    turned_off(cache.name, f"{what} differs from the theme's")
    cache.enabled = False
    return False
