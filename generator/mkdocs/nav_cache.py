"""The theme's navigation, rendered once per group of sibling pages instead of once per page.

Material renders the whole primary navigation into every page (``partials/nav.html``): with
``navigation.prune`` still ~40 KB and ~40% of a release build's page rendering, although two pages
of one section get the same navigation except for their own entries. Pages of one nav section
whose URLs sit in one directory (``core/v1/pod/``, ``core/v1/podSpec/``) see every other entry
through the same relative URL, and every section above them is open alike. So the navigation of
the first such page P is rendered by the theme and kept; for a sibling Q it is P's text with two
entries rendered again by the theme's own macro (``partials/nav-item.html``): P's entry as a plain
link instead of the current page (with its table of contents), Q's plain link as the current page.
The result is the theme's own output byte for byte.

Not cached, rendered by the theme as before: section index pages (they change their section's
entry), pages with other pages below their URL (relative URLs would differ), pages outside the
nav, and any page where one of the two entries is not found exactly once. The first cached page
of each build is also rendered in full and compared; if the two differ, nothing is cached for
the rest of that build. A group's first page rendered again (``page_cache`` comparing it with
the theme's) gets the navigation kept for it.
"""

from __future__ import annotations

import logging
import posixpath
from itertools import pairwise
from typing import Any

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

NAV = "partials/nav.html"
NAV_ITEM = "partials/nav-item.html"
_THEME_NAV = "k8s-api-docs/theme-nav.html"
"""The theme's own ``partials/nav.html`` (or a ``custom_dir`` override), under another name."""
_WRAPPER = "{{ k8s_api_docs_nav() }}"
"""What ``partials/nav.html`` becomes: exactly the text the theme's template renders."""

log = logging.getLogger(__name__)


def same_as_theme(cache: Any, cached: str, theirs: str, what: str) -> bool:
    """Whether a cache's result equals the theme's own for the same page; if not, the cache
    (``NavCache``, ``page_cache.PageCache``) is turned off for the rest of the build, and why is
    logged."""
    if cached == theirs:
        return True
    log.info("k8s-api-docs: %s differs from the theme's; the theme renders the rest of the build",
             what)
    cache.enabled = False
    return False


class NavCache:
    """Installed into a build's theme environment by ``install``; state lives for that build."""

    def __init__(self, env: jinja2.Environment, verify: int = 1) -> None:
        self.env = env
        self.groups: dict[tuple[Any, str], list[Any]] = {}
        """Per group: its first page, the nav-item macros in that page's context, its nav, its
        entry, and its plain link as its siblings show it (once known)."""
        self.nested: set[str] | None = None
        self.enabled = True
        self.verify = verify
        """How many cached results are still compared with a full render."""
        self.hits = self.misses = 0
        self.last: tuple[str, dict[str, Any]] | None = None
        """The latest navigation rendered and its variables (``page_cache`` cuts pages there)."""

    def install(self) -> None:
        source = self.env.loader.get_source(self.env, NAV)[0] if self.env.loader else None
        if source is None:
            return
        self.env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({NAV: _WRAPPER, _THEME_NAV: source}), self.env.loader])
        @pass_context
        def k8s_api_docs_nav(context: Any) -> Markup:
            return self.render(context)

        self.env.globals["k8s_api_docs_nav"] = k8s_api_docs_nav

    def render(self, context: Any) -> Markup:
        return self.render_variables(context.get_all())

    def render_variables(self, variables: dict[str, Any]) -> Markup:
        html = self._render(variables)
        self.last = str(html), variables
        return html

    def _render(self, variables: dict[str, Any]) -> Markup:
        page = variables.get("page")
        key = self.key(page, variables.get("nav")) if self.enabled else None
        if key is None:
            return self._full(variables)
        entry = self.groups.get(key)
        if entry is None:
            html = self._full(variables)
            module = self._module(variables)
            self.groups[key] = [page, module, str(html), self._entry(module, page), None]
            self.misses += 1
            return html
        if entry[0] is page:  # the group's first page again (``page_cache`` comparing)
            return Markup(entry[2])
        cached = self._from(entry, page, variables)
        if cached is None:
            self.misses += 1
            return self._full(variables)
        if self.verify > 0:
            self.verify -= 1
            full = self._full(variables)
            if not same_as_theme(self, cached, full, f"the cached navigation of {page.url}"):
                return full
        self.hits += 1
        return cached

    def _full(self, variables: dict[str, Any]) -> Markup:
        return Markup(self.env.get_template(_THEME_NAV).render(variables))

    def _module(self, variables: dict[str, Any]) -> Any:
        """The theme's nav-item macros in the context of ``variables``' page."""
        return self.env.get_template(NAV_ITEM).make_module(variables)

    @staticmethod
    def _entry(module: Any, item: Any) -> str:
        """The nav entry of page ``item`` as ``module``'s page shows it."""
        return str(module.render(item, "", 1))  # path and level matter only for sections

    def _from(self, entry: list[Any], page: Any, variables: dict[str, Any]) -> Markup | None:
        source, source_module, html, source_current, source_link = entry
        module = self._module(variables)
        if source_link is None:  # source is no longer the current page; alike for every sibling
            source_link = entry[4] = self._entry(module, source)
        page_current = self._entry(module, page)
        page.active = False  # as it was while the source page was rendered
        try:
            page_link = self._entry(source_module, page)
        finally:
            page.active = True
        i, j = html.find(source_current), html.find(page_link)
        if i < 0 or j < 0 or html.count(source_current) != 1 or html.count(page_link) != 1:
            return None
        spans = sorted([(i, len(source_current), source_link), (j, len(page_link), page_current)])
        (a, a_len, a_text), (b, b_len, b_text) = spans
        if a + a_len > b:
            return None
        return Markup(html[:a] + a_text + html[a + a_len:b] + b_text + html[b + b_len:])

    def key(self, page: Any, nav: Any) -> tuple[Any, str] | None:
        """The page's group: its section and its URL's directory; ``None`` for pages not cached."""
        if page is None or nav is None or getattr(page, "is_index", True) or page.parent is None:
            return None
        url = getattr(page, "url", None)
        if not url or not url.endswith("/"):
            return None
        if self.nested is None:
            self.nested = _nested_urls([p.url for p in nav.pages])
        if url in self.nested:
            return None
        # the section itself (hashed by identity, held by the key: never another's address)
        return page.parent, posixpath.dirname(url.rstrip("/"))


def _nested_urls(urls: list[str]) -> set[str]:
    """URLs that other URLs of the list start with (a page with pages below it)."""
    ordered = sorted(set(urls))
    return {url for url, after in pairwise(ordered) if after.startswith(url)}


def install(env: jinja2.Environment) -> NavCache:
    cache = NavCache(env)
    cache.install()
    return cache
