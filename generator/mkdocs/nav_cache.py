"""Material's navigation, rendered in full about once per URL depth and otherwise derived.

Two equally deep pages D and Q get the same ``partials/nav.html`` but for the two entries where
their paths through the nav part, provided every other URL is the same relative to both
(``_Tree.separate``): Q's is D's text with those two entries rendered again by the theme's own
``partials/nav-item.html`` macro. D is the first page at Q's depth in Q's section (else the one
above, …); pages for which none fits are rendered by the theme. The first derived navigation of
each kind is compared with a full render; on a difference the theme renders the rest of the
build. Why it holds, and what is rendered in full: ``docs/performance.md``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

from generator.mkdocs.accelerators import turned_off

NAV = "partials/nav.html"
NAV_ITEM = "partials/nav-item.html"
_THEME_NAV = "k8s-api-docs/theme-nav.html"
"""The theme's own ``partials/nav.html`` (or a ``custom_dir`` override), under another name."""
_WRAPPER = "{{ k8s_api_docs_nav() }}"
"""What ``partials/nav.html`` becomes: exactly the text the theme's template renders."""

Parts = tuple[str, ...]
Span = tuple[int, int]


def same_as_theme(cache: Any, cached: str, theirs: str, what: str) -> bool:
    """Whether the cache's result equals the theme's own for the same page; if not, the cache is
    turned off for the rest of the build, and why is logged (once)."""
    if cached == theirs:
        return True
    turned_off(cache.name, f"{what} differs from the theme's")
    cache.enabled = False
    return False


class _Node:
    """An entry of the nav as ``partials/nav.html`` renders it: the item and the macro's arguments."""

    __slots__ = ("item", "level", "parent", "path")

    def __init__(self, item: Any, path: str, level: int, parent: Any) -> None:
        self.item, self.path, self.level, self.parent = item, path, level, parent

    def render(self, module: Any) -> str:
        if self.parent is None:  # a top-level entry: ``nav.html`` passes no parent
            return str(module.render(self.item, self.path, self.level))
        return str(module.render(self.item, self.path, self.level, self.parent))


class _Tree:
    """Where each page sits in the nav, and which entries hold the URLs below each directory."""

    def __init__(self, nav: Any, indexes: bool, other_urls: list[str]) -> None:
        self.indexes = indexes
        self.chains: dict[str, list[_Node] | None] = {}
        """Per page URL: its entries from the top down to its own (``None``: twice in the nav)."""
        self.holders: dict[Parts, str] = {}
        """Per directory: the path of the smallest entry holding every URL below it (``""``: none
        does, e.g. for the logo's and the home page's links, outside every entry)."""
        self._walk(nav.items, "__nav", 1, None, [])
        for url in other_urls:
            self._hold(url, "")

    def _walk(self, items: list[Any], base: str, level: int, parent: Any,
              chain: list[_Node]) -> None:
        index = None
        if parent is not None and self.indexes:  # the section's own page (``navigation.indexes``)
            index = next((item for item in items if getattr(item, "is_index", False)), None)
        for number, item in enumerate(items, 1):
            node = _Node(item, f"{base}_{number}", level, parent)
            here = [*chain, node]
            if getattr(item, "children", None):
                self._walk(item.children, node.path, level + 1, item, here)
                continue
            url = getattr(item, "url", None)
            if isinstance(url, str):
                self._hold(url, node.path)
            if getattr(item, "is_page", False):
                own = chain if item is index else here
                self.chains[item.url] = None if item.url in self.chains else own

    def _hold(self, url: str, path: str) -> None:
        parsed = urlsplit(url)
        if parsed.scheme or parsed.netloc or url.startswith(("/", "#")):
            return  # the theme's ``url`` filter leaves it as it is
        parts = _parts(url)
        for end in range(1, len(parts) + 1):
            held = self.holders.get(parts[:end])
            self.holders[parts[:end]] = path if held is None else _common(held, path)

    def within(self, parts: Parts, node: _Node) -> bool:
        """Whether every URL below directory ``parts`` (if any) is in entry ``node``."""
        held = self.holders.get(parts)
        return held is None or held == node.path or held.startswith(node.path + "_")

    def separate(self, d: Parts, q: Parts, a: _Node, b: _Node) -> bool:
        """Whether every URL outside entries ``a`` and ``b`` is the same relative to page URLs
        ``d`` and ``q``: equally deep, and those below the directory where they part are in
        ``a`` (``d``'s side) or ``b``."""
        if len(d) != len(q) or d == q:
            return False
        common = _parting(d, q)
        return self.within(d[:common + 1], a) and self.within(q[:common + 1], b)


class _Nav:
    """A page's navigation and what it is made of."""

    __slots__ = ("chain", "html", "module", "page", "parts", "spans")

    def __init__(self, page: Any, parts: Parts, chain: list[_Node], module: Any) -> None:
        self.page, self.parts, self.chain, self.module = page, parts, chain, module
        self.html = ""
        self.spans: list[Span | None] = [None] * len(chain)
        """Where each entry of the chain is in ``html``, where known."""

    def around(self, level: int) -> Span:
        """The smallest known span holding the entry at ``level`` (its section's, …, or all)."""
        return next((s for s in reversed(self.spans[:level]) if s is not None), (0, len(self.html)))


class NavCache:
    """Installed into a build's theme environment by ``install``; state lives for that build."""

    name = "nav_cache"

    def __init__(self, env: jinja2.Environment, verify: int = 1, across: bool = True) -> None:
        self.env = env
        self.across = across
        """Derive across sections (the theme's own templates); else only between sibling pages."""
        self.enabled = True
        self.verify = verify
        """How many derived navigations are still compared with a full render (besides the first
        of each kind, always compared)."""
        self.verified: set[tuple[Any, ...]] = set()
        self.tree: _Tree | None = None
        self.donors: dict[tuple[int, str], _Nav] = {}
        """Per URL depth and section (its path; ``""``: the top): the first page rendered there."""
        self.collapsed: dict[tuple[str, Parts], str] = {}
        """Collapsed entries by entry and the URL directory they are seen from."""
        self.hits = self.misses = 0
        self.last: tuple[str, dict[str, Any]] | None = None
        """The latest navigation and its variables (``page_cache`` cuts pages there)."""

    def render_variables(self, variables: dict[str, Any]) -> Markup:
        """The page's navigation; the one just rendered for the same page (rendered again)."""
        last = self.last
        html = last[0] if self.enabled and last is not None and last[1].get("page") is \
            variables.get("page") else self._render(variables)
        self.last = html, variables
        return Markup(html)

    def _render(self, variables: dict[str, Any]) -> str:
        q = self._place(variables) if self.enabled else None
        if q is None:
            return self._full(variables)
        for d, level in self._donors(q):
            kind = self._derive(d, level, q)
            if kind is None:
                continue
            if self.verify > 0 or kind not in self.verified:
                self.verify = max(self.verify - 1, 0)
                self.verified.add(kind)
                full = self._full(variables)
                if not same_as_theme(self, q.html, full,
                                     f"the derived navigation of {q.page.url}"):
                    return full
            self.hits += 1
            break
        else:
            q.html = self._full(variables)
            self.misses += 1
        for level in range(len(q.chain)):
            self.donors.setdefault((len(q.parts), q.chain[level - 1].path if level else ""), q)
        return q.html

    def _full(self, variables: dict[str, Any]) -> str:
        return self.env.get_template(_THEME_NAV).render(variables)

    def _place(self, variables: dict[str, Any]) -> _Nav | None:
        """The page's navigation to make, or ``None`` for a page the theme renders."""
        page, nav = variables.get("page"), variables.get("nav")
        url = getattr(page, "url", None)
        if nav is None or not isinstance(url, str) or not url.endswith("/"):
            return None
        if self.tree is None:
            config = variables.get("config") or {}
            extra, theme = config.get("extra") or {}, config.get("theme") or {}
            homepage = getattr(nav.homepage, "url", None)
            other = [u for u in (extra.get("homepage"), homepage, theme.get("logo"))
                     if isinstance(u, str)]
            self.tree = _Tree(nav, "navigation.indexes" in (variables.get("features") or ()), other)
        chain = self.tree.chains.get(url)
        if not chain or page is None or not page.active or not all(n.item.active for n in chain):
            return None
        return _Nav(page, _parts(url), chain, self.env.get_template(NAV_ITEM).make_module(variables))

    def _donors(self, q: _Nav) -> Iterator[tuple[_Nav, int]]:
        """Pages to derive ``q`` from, the closest first, with the level where their paths part."""
        for shared in range(len(q.chain) - 1, -1, -1):
            d = self.donors.get((len(q.parts), q.chain[shared - 1].path if shared else ""))
            if d is None or d.page is q.page:
                continue
            level = _parting([n.path for n in d.chain], [n.path for n in q.chain])
            if level < min(len(d.chain), len(q.chain)):  # else one page's entry holds the other's
                yield d, level

    def _derive(self, d: _Nav, level: int, q: _Nav) -> tuple[Any, ...] | None:
        """Make ``q.html`` from ``d``'s navigation; the kind of derivation, or ``None`` if it
        cannot be done."""
        a, b = d.chain[level], q.chain[level]
        a_own, b_own = level == len(d.chain) - 1, level == len(q.chain) - 1
        pages = a_own and b_own and a.item is d.page and b.item is q.page
        if not self.across and not pages:
            return None
        if self.tree is None or not self.tree.separate(d.parts, q.parts, a, b):
            return None
        if d.page.active or any(node.item.active for node in d.chain[level:]):
            return None  # not as MkDocs leaves the pages it is not rendering
        span_a = self._span(d, level, q)
        shown = self._collapsed(b, d, q)
        if span_a is None or shown is None:
            return None
        lo, hi = d.around(level)
        at = d.html.find(shown, lo, hi)
        if at < 0 or d.html.find(shown, at + 1, hi) >= 0:
            return None
        span_b = at, at + len(shown)
        if span_b[0] < span_a[1] and span_a[0] < span_b[1]:
            return None
        new_a, new_b = self._collapsed(a, q, q), b.render(q.module)
        if new_a is None:
            return None
        (x, x_text), (y, y_text) = sorted([(span_a, new_a), (span_b, new_b)])
        html = d.html
        q.html = "".join((html[:x[0]], x_text, html[x[1]:y[0]], y_text, html[y[1]:]))
        grown = len(new_a) + len(new_b) - (span_a[1] - span_a[0]) - (span_b[1] - span_b[0])
        q.spans[:level] = [(s[0], s[1] + grown) if s is not None else None
                           for s in d.spans[:level]]
        start = span_b[0] if span_b < span_a else span_b[0] + len(new_a) - (span_a[1] - span_a[0])
        q.spans[level] = start, start + len(new_b)
        return level, _kind(a), a_own, _kind(b), b_own

    def _span(self, d: _Nav, level: int, q: _Nav) -> Span | None:
        """Where ``d``'s entry at ``level`` is in its navigation (found once, and kept)."""
        span = d.spans[level]
        if span is None:
            with _showing(d.page, q.page):
                text = d.chain[level].render(d.module)
            lo, hi = d.around(level)
            at = d.html.find(text, lo, hi)
            if at < 0 or d.html.find(text, at + 1, hi) >= 0:
                return None
            span = d.spans[level] = at, at + len(text)
        return span

    def _collapsed(self, node: _Node, seen: _Nav, q: _Nav) -> str | None:
        """Entry ``node`` collapsed as the theme shows it to page ``seen`` (``q`` is the page
        being rendered); kept per URL directory unless one of its URLs is below the page's."""
        if self.tree is None:
            return None
        own = seen.chain[-1]  # the URLs below the page's are in its own entry, not in ``node``
        key = (node.path, seen.parts[:-1]) if self.tree.within(seen.parts, own) else None
        text = self.collapsed.get(key) if key is not None else None
        if text is None:
            if seen is q:
                text = node.render(q.module)
            else:
                with _showing(seen.page, q.page):
                    text = node.render(seen.module)
            if key is not None:
                self.collapsed[key] = text
        return text


@contextmanager
def _showing(page: Any, current: Any) -> Iterator[None]:
    """The pages' active flags as they were while ``page`` was rendered (``current`` is the page
    being rendered; MkDocs sets a page's flag and its sections' while it renders it)."""
    current.active = False
    page.active = True
    try:
        yield
    finally:
        page.active = False
        current.active = True


def _kind(node: _Node) -> str:
    return "page" if getattr(node.item, "is_page", False) else "section"


def _common(a: str, b: str) -> str:
    """The longest entry path both entry paths ``a`` and ``b`` start with."""
    parts = a.split("_")
    return "_".join(parts[:_parting(parts, b.split("_"))])


def _parting(a: Sequence[Any], b: Sequence[Any]) -> int:
    """How many leading items ``a`` and ``b`` share."""
    n = min(len(a), len(b))
    return next((i for i in range(n) if a[i] != b[i]), n)


def _parts(url: str) -> Parts:
    """A URL's directories as MkDocs' ``url`` filter counts them."""
    path = posixpath.normpath("/" + url)[1:]
    return tuple(path.split("/")) if path else ()


def install(env: jinja2.Environment, across: bool = True, enabled: bool = True) -> NavCache:
    """``partials/nav.html`` rendered through a ``NavCache`` (``enabled=False``: the theme's
    navigation, for ``page_cache`` to cut pages at)."""
    cache = NavCache(env, across=across)
    cache.enabled = enabled
    if env.loader is not None:
        source = env.loader.get_source(env, NAV)[0]
        env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({NAV: _WRAPPER, _THEME_NAV: source}), env.loader])
        env.globals["k8s_api_docs_nav"] = pass_context(
            lambda context: cache.render_variables(context.get_all()))
    return cache
