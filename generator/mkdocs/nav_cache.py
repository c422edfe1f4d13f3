"""Material's navigation, rendered in full once per nav section and URL directory, derived for
the other pages there.

Two sibling entries of one nav section, pages D and Q (or sections whose index pages they are)
with URLs in one directory and every URL below either inside its own entry, get the same
``partials/nav.html`` but for those two entries: every other URL is the same relative to both,
and the sections above are open alike. So Q's navigation is
D's text with D's entry (expanded, as the current page) rendered again as Q sees it, and Q's
entry (as D saw it) rendered as the current one, both by the theme's own
``partials/nav-item.html`` macro with the path, level and parent ``partials/nav.html`` gives
them. D is the first page rendered in the section and directory; the theme renders it, pages
twice in the nav and every page the entries are not found once for. The first
derived navigations, and the first at each nav level, are compared with the theme's full render;
on a difference, or any exception, the theme renders the rest of the build (logged once).
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import urlsplit

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

from generator.mkdocs.accelerators import broke, same_as_theme, to_compare

NAV = "partials/nav.html"
NAV_ITEM = "partials/nav-item.html"
_THEME_NAV = "k8s-api-docs/theme-nav.html"
"""The theme's own ``partials/nav.html`` (or a ``custom_dir`` override), under another name."""
_WRAPPER = "{{ k8s_api_docs_nav() }}"
"""What ``partials/nav.html`` becomes: exactly the text the theme's template renders."""

Parts = tuple[str, ...]


class _Entry:
    """A page's entry as ``partials/nav.html`` renders it: the item and the macro's arguments."""

    __slots__ = ("item", "level", "parent", "path", "section")

    def __init__(self, item: Any, path: str, level: int, parent: Any, section: str) -> None:
        self.item, self.path, self.level, self.parent = item, path, level, parent
        self.section = section
        """The path of the section holding it (``__nav``: the top)."""

    def render(self, module: Any, active: bool) -> str:
        """The entry as the page of ``module`` (made with its variables) shows it, the item's
        ``active`` flag as given (MkDocs sets it while the item's page is rendered)."""
        was, self.item.active = self.item.active, active
        try:
            if self.parent is None:  # a top-level entry: ``nav.html`` passes no parent
                return str(module.render(self.item, self.path, self.level))
            return str(module.render(self.item, self.path, self.level, self.parent))
        finally:
            self.item.active = was


def entries(nav: Any, indexes: bool, other_urls: list[str]) -> dict[str, _Entry]:
    """Per page URL, its entry (a section's index page's is the section's, with
    ``navigation.indexes``), for pages that can be derived: once in the nav, and every URL below
    theirs (of the nav, the logo, the home link) in their own entry."""
    found: dict[str, _Entry | None] = {}
    holders: dict[Parts, str] = {}
    """Per directory: the path of the smallest entry holding every URL below it (``""``: none)."""

    def walk(items: list[Any], base: str, level: int, parent: Any, above: Any) -> None:
        index = next((item for item in items if getattr(item, "is_index", False)), None) \
            if parent is not None and indexes else None
        for number, item in enumerate(items, 1):
            path = f"{base}_{number}"
            if getattr(item, "children", None):
                walk(item.children, path, level + 1, item, parent)
                continue
            url = getattr(item, "url", None)
            if isinstance(url, str):
                _hold(url, path, holders)
            if getattr(item, "is_page", False):
                entry = _Entry(parent, base, level - 1, above, base.rsplit("_", 1)[0]) \
                    if item is index else _Entry(item, path, level, parent, base)
                found[item.url] = None if item.url in found else entry

    walk(nav.items, "__nav", 1, None, None)
    for url in other_urls:
        _hold(url, "", holders)
    return {url: entry for url, entry in found.items()
            if entry is not None and _within(holders.get(_parts(url)), entry.path)}


def _within(held: str | None, path: str) -> bool:
    """Whether the entry path ``held`` (``None``: no entry) is at or below ``path``."""
    return held is None or held == path or held.startswith(path + "_")


def _hold(url: str, path: str, holders: dict[Parts, str]) -> None:
    """``url`` (as the theme's ``url`` filter leaves it) is in the entry at ``path``."""
    parsed = urlsplit(url)
    if parsed.scheme or parsed.netloc or url.startswith(("/", "#")):
        return
    parts = _parts(url)
    for end in range(1, len(parts) + 1):
        held = holders.get(parts[:end])
        if held is None:
            holders[parts[:end]] = path
        else:  # the longest entry path both start with
            holders[parts[:end]] = "_".join(posixpath.commonprefix([held.split("_"), path.split("_")]))


def _parts(url: str) -> Parts:
    """A URL's directories as MkDocs' ``url`` filter counts them."""
    path = posixpath.normpath("/" + url)[1:]
    return tuple(path.split("/")) if path else ()


class _Donor:
    """The first page of a section and directory: its navigation, and its entry's place in it."""

    __slots__ = ("entry", "html", "module", "other", "span")

    def __init__(self, entry: _Entry, html: str, span: tuple[int, int], module: Any) -> None:
        self.entry, self.html, self.span, self.module = entry, html, span, module
        self.other: str | None = None
        """Its entry as its siblings see it (the same for every one of them)."""


class NavCache:
    """Installed into a build's theme environment by ``install``; state lives for that build."""

    name = "nav_cache"

    def __init__(self, env: jinja2.Environment, verify: int = 1) -> None:
        self.env = env
        self.enabled = True
        self.verify = verify
        """How many derived navigations are still compared with a full render (besides the first
        at each nav level, always compared)."""
        self.verified: set[int] = set()
        self.entries: dict[str, _Entry] | None = None
        self.donors: dict[tuple[str, Parts], _Donor | None] = {}
        """Per section and URL directory: the first page rendered there (``None``: not usable)."""
        self.hits = self.misses = 0

    def render_variables(self, variables: dict[str, Any]) -> Markup:
        """The page's navigation: derived, or on any exception the theme's (and off from then)."""
        if self.enabled:
            try:
                return Markup(self._render(variables))
            except Exception as exc:  # whatever it is, the theme renders
                self.enabled = False
                broke(self.name, exc)
        return Markup(self._full(variables))

    def _render(self, variables: dict[str, Any]) -> str:
        entry = self._entry(variables) if self.enabled else None
        if entry is None:
            return self._full(variables)
        module = self.env.get_template(NAV_ITEM).make_module(variables)
        url = variables["page"].url
        key = entry.section, _parts(url)[:-1]
        donor = self.donors.get(key)
        html = self._derive(donor, entry, module) if donor is not None else None
        if html is None:
            self.misses += 1
            html = self._full(variables)
            if key not in self.donors:
                own = entry.render(module, True)
                at = html.find(own)
                self.donors[key] = _Donor(entry, html, (at, at + len(own)), module) \
                    if at >= 0 and html.find(own, at + 1) < 0 else None
            return html
        if to_compare(self, entry.level):
            full = self._full(variables)
            if not same_as_theme(self, html, full, f"the derived navigation of {url}"):
                return full
        self.hits += 1
        return html

    def _full(self, variables: dict[str, Any]) -> str:
        return self.env.get_template(_THEME_NAV).render(variables)

    def _entry(self, variables: dict[str, Any]) -> _Entry | None:
        """The page's entry if its navigation can be derived (the page is the current one)."""
        page, nav = variables.get("page"), variables.get("nav")
        url = getattr(page, "url", None)
        if nav is None or page is None or not isinstance(url, str) or not url.endswith("/"):
            return None
        if self.entries is None:
            config = variables.get("config") or {}
            extra, theme = config.get("extra") or {}, config.get("theme") or {}
            other = [u for u in (extra.get("homepage"), getattr(nav.homepage, "url", None),
                                 theme.get("logo")) if isinstance(u, str)]
            self.entries = entries(nav, "navigation.indexes" in (variables.get("features") or ()),
                                   other)
        entry = self.entries.get(url)
        own = entry is not None and entry.item in (page, page.parent)  # a section: its index
        return entry if own and page.active else None

    def _derive(self, donor: _Donor, q: _Entry, module: Any) -> str | None:
        """``q``'s navigation from the donor's, or ``None`` if it cannot be made."""
        d = donor.entry
        if d is q or d.item.active:
            return None  # the donor page again, or not as MkDocs leaves the pages it is not rendering
        shown = q.render(donor.module, False)  # as the donor saw it
        lo, hi = donor.span
        at = donor.html.find(shown)
        if at < 0 or donor.html.find(shown, at + 1) >= 0 or (lo < at + len(shown) and at < hi):
            return None
        if donor.other is None:
            donor.other = d.render(module, False)
        (x, x_text), (y, y_text) = sorted([(donor.span, donor.other),
                                           ((at, at + len(shown)), q.render(module, True))])
        html = donor.html
        return "".join((html[:x[0]], x_text, html[x[1]:y[0]], y_text, html[y[1]:]))


def install(env: jinja2.Environment) -> NavCache:
    """``partials/nav.html`` rendered through a ``NavCache``."""
    cache = NavCache(env)
    if env.loader is not None:
        source = env.loader.get_source(env, NAV)[0]
        env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({NAV: _WRAPPER, _THEME_NAV: source}), env.loader])
        env.globals["k8s_api_docs_nav"] = pass_context(
            lambda context: cache.render_variables(context.get_all()))
    return cache
