"""Material's page template, rendered once per URL depth and reused as a skeleton.

Rendering ``main.html`` (``base.html``: head, header with search and palette, the ``t()``
translations, footer, config script) costs more than the page's own parts. Two pages of the nav
whose URLs are equally deep (every relative URL outside the navigation is the same) and that are
both section index pages or both not get the same page from the theme except for: the navigation
(``nav_cache``: two entries replaced in another page's, else the theme's), the table of contents and
the content (``partials/toc.html``, ``partials/content.html``), and in the head and header the
title, the canonical URL, the ``prev``/``next`` links and the skip link. So the first page P of
each depth and kind is rendered in full while the three partials are recorded; every other Q is
P's text with those partials rendered for Q and the five values of P replaced by Q's, each where
the theme puts it and found there exactly once.

Only with Material's own templates (no ``custom_dir``) and without the features that add more
of the page to the skeleton (``navigation.footer``, ``navigation.path``). Rendered in full, as
before: pages outside the nav, the home page, pages with front matter, titles or URLs with HTML
special characters, a page whose head differs in shape from P's (no ``prev`` where P has one),
and every template but ``main.html`` (the 404 page). Compared with a full render: the first
``verify`` pages from a skeleton, and the first page from each skeleton in P's nav section and
the first in another section; if one differs, every page of the rest of the build is rendered in
full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

from generator.mkdocs.nav_cache import NavCache, same_as_theme

MAIN = "main.html"
TOC = "partials/toc.html"
FRAGMENTS = (TOC, "partials/content.html")
"""Partials rendered per page besides the navigation; the theme's own, under another name."""
UNSAFE_FEATURES = frozenset({"navigation.footer", "navigation.path"})
"""Features that put more of the page into the text between the partials."""
_SPECIAL = frozenset('<>&"\'')


class Skeleton:
    """A group's first page: its output cut at the partials, and how it shows its own values."""

    def __init__(self, parts: list[str], fragments: list[tuple[str, dict[str, Any]]],
                 values: dict[str, str | None], section: Any) -> None:
        self.parts = parts
        """The text around the partials: before the nav, between nav and toc, … after the content."""
        self.fragments = fragments
        """Per partial (nav first): its name and the variables it was rendered with."""
        self.values = values
        self.section = section
        """The nav section of the page it was cut from."""


class PageCache:
    """Installed into a build's theme environment by ``install``; state lives for that build."""

    name = "page_cache"

    def __init__(self, env: jinja2.Environment, nav: NavCache, verify: int = 2) -> None:
        self.env = env
        self.nav = nav
        self.url = env.filters["url"]
        self.groups: dict[tuple[bool, int], Skeleton | None] = {}
        self.recorded: list[tuple[str, str, dict[str, Any]]] | None = None
        self.tocs: dict[tuple[Any, ...], str] = {}
        """Tables of contents by what ``partials/toc.html`` reads of them (``_toc_shape``): most
        model pages have the same sections, and Material renders each twice (sidebar, nav)."""
        self.enabled = True
        self.verify = verify
        """How many pages from a skeleton are still compared with a full render (besides the
        first page from each skeleton, always compared)."""
        self.verified: set[tuple[tuple[bool, int], bool]] = set()
        """Skeletons whose first page of the source page's section, and first page of another
        section, were compared with a full render."""
        self.hits = self.misses = self.refused = 0
        """Pages from a skeleton; eligible pages rendered in full (first of a group); pages of a
        group that had to be rendered in full (no skeleton, or the page's head differs in shape)."""

    def install(self) -> None:
        wrappers = {name: f'{{{{ k8s_api_docs_fragment("{name}") }}}}' for name in FRAGMENTS}
        theme = {_theme(name): self.env.loader.get_source(self.env, name)[0]  # type: ignore[union-attr]
                 for name in FRAGMENTS}
        self.env.loader = jinja2.ChoiceLoader([
            jinja2.DictLoader({**wrappers, **theme}), self.env.loader])  # type: ignore[list-item]

        @pass_context
        def k8s_api_docs_fragment(context: Any, name: str) -> Markup:
            return self._fragment(name, context.get_all())

        self.env.globals["k8s_api_docs_fragment"] = k8s_api_docs_fragment
        cache = self

        class PageTemplate(self.env.template_class):  # type: ignore[name-defined,misc]
            """``main.html`` renders through the cache; every other template as before."""

            def render(self, *args: Any, **kwargs: Any) -> str:
                if self.name != MAIN or not cache.enabled:
                    return super().render(*args, **kwargs)
                return cache.render(dict(*args, **kwargs), super().render)

        self.env.template_class = PageTemplate
        if self.env.cache is not None:
            self.env.cache.clear()  # templates loaded before now are the plain class

    def _fragment(self, name: str, variables: dict[str, Any]) -> Markup:
        shape = _toc_shape(variables.get("page")) if name == TOC else None
        html = self.tocs.get(shape) if shape is not None else None
        if html is None:
            html = self.env.get_template(_theme(name)).render(variables)
            if shape is not None:
                self.tocs[shape] = html
        if self.recorded is not None:
            self.recorded.append((name, html, variables))
        return Markup(html)

    def render(self, variables: dict[str, Any], full: Callable[[dict[str, Any]], str]) -> str:
        """The page ``full`` (the theme's ``main.html``) renders from ``variables``."""
        page = variables.get("page")
        key = self.key(page, variables.get("nav")) if page is not None and not page.meta else None
        if key is None:
            return full(variables)
        if key not in self.groups:
            self.misses += 1
            self.recorded, self.nav.last = [], None
            try:
                html = full(variables)
                recorded, nav = self.recorded, self.nav.last
            finally:
                self.recorded = None
            self.groups[key] = self._skeleton(html, variables, recorded, nav)
            return html
        skeleton = self.groups[key]
        cached = self._from(skeleton, variables) if skeleton is not None else None
        if cached is None:
            self.refused += 1
            return full(variables)
        seen = key, skeleton.section is page.parent  # type: ignore[union-attr]
        if self.verify > 0 or seen not in self.verified:
            self.verify = max(self.verify - 1, 0)
            self.verified.add(seen)
            self.tocs.clear()
            theirs = full(variables)
            if not same_as_theme(self, cached, theirs, f"the page {page.url} from a skeleton"):
                return theirs
        self.hits += 1
        return cached

    def key(self, page: Any, nav: Any) -> tuple[bool, int] | None:
        """The page's skeleton: section index or not, and its URL's depth (``base_url``, so
        every relative URL outside the navigation, follows from it); ``None`` for pages
        outside the nav and the home page."""
        url = getattr(page, "url", None)
        if nav is None or page.parent is None or not url or not url.endswith("/"):
            return None
        return bool(getattr(page, "is_index", False)), url.count("/")

    def _skeleton(self, html: str, variables: dict[str, Any],
                  recorded: list[tuple[str, str, dict[str, Any]]],
                  nav: tuple[str, dict[str, Any]] | None) -> Skeleton | None:
        """``html`` cut at the nav and the recorded partials, if each is found once, in order."""
        values = self._values(variables)
        features = variables.get("features") or ()
        # the navigation shows the page's table of contents too: the partials rendered last
        recorded = list({name: (name, text, scope) for name, text, scope in recorded}.values())
        if (values is None or nav is None or UNSAFE_FEATURES.intersection(features)
                or [name for name, _, _ in recorded] != list(FRAGMENTS)):
            return None
        pieces = [nav[0], *(text for _, text, _ in recorded)]
        parts, start = [], 0
        for text in pieces:
            at = html.find(text, start)
            if at < 0 or html.count(text, start) != 1:
                return None
            parts.append(html[start:at])
            start = at + len(text)
        parts.append(html[start:])
        fragments = [("nav", nav[1]), *((name, fragment_vars) for name, _, fragment_vars in recorded)]
        return Skeleton(parts, fragments, values, variables["page"].parent)

    def _from(self, skeleton: Skeleton, variables: dict[str, Any]) -> str | None:
        values = self._values(variables)
        if values is None:
            return None
        head = _replace(skeleton.parts[0], _head_patterns(skeleton.values, values))
        if head is None:
            return None
        out = [head]
        page = variables["page"]
        for (name, fragment_vars), part in zip(skeleton.fragments, skeleton.parts[1:], strict=True):
            scope = {**fragment_vars, **variables}
            if "skip" in scope:  # base.html's ``page.toc | first``, seen by the partials
                scope["skip"] = next(iter(page.toc), None)
            if name == "nav":
                out.append(str(self.nav.render_variables(scope)))
            else:
                out.append(str(self._fragment(name, scope)))
            out.append(part)
        return "".join(out)

    def _values(self, variables: dict[str, Any]) -> dict[str, str | None] | None:
        """The page's values as the theme writes them into the head; ``None`` if one has a
        character HTML treats specially (filters like ``striptags`` could change it)."""
        page = variables["page"]
        first = next(iter(page.toc), None)
        values = {
            "title": page.title,
            "canonical": page.canonical_url or None,
            "prev": self.url(variables, page.previous_page.url) if page.previous_page else None,
            "next": self.url(variables, page.next_page.url) if page.next_page else None,
            "skip": self.url(variables, first.url) if first is not None else None,
        }
        title = values["title"]
        if not isinstance(title, str) or not title or " ".join(title.split()) != title:
            return None
        if any(_SPECIAL.intersection(value) for value in values.values() if value is not None):
            return None
        return values


def _toc_shape(page: Any) -> tuple[Any, ...] | None:
    """What Material's ``partials/toc.html`` and ``toc-item.html`` read of the page's table of
    contents (the entries below a level-1 heading, each one's URL, title and children); ``None``
    if an entry has more (``typeset``)."""
    toc = list(getattr(page, "toc", None) or ())
    lifted = bool(toc) and toc[0].level == 1
    return _toc_items(toc[0].children if lifted else toc, lifted)


def _toc_items(items: Any, *head: Any) -> tuple[Any, ...] | None:
    shape: list[Any] = [*head]
    for item in items:
        children = _toc_items(item.children)
        if children is None or getattr(item, "typeset", None) is not None:
            return None
        shape.append((item.url, item.title, children))
    return tuple(shape)


def _head_patterns(old: dict[str, str | None], new: dict[str, str | None],
                   ) -> list[tuple[str, str]] | None:
    """Where the theme writes each value (``base.html``, ``partials/header.html``), for ``old``
    and ``new``; ``None`` if a value is present for one page only."""
    shapes = {
        "title": ['<title>{} - ', 'data-md-component="header-topic">\n'
                  '          <span class="md-ellipsis">\n            \n              {}\n'],
        "canonical": ['<link rel="canonical" href="{}">'],
        "prev": ['<link rel="prev" href="{}">'],
        "next": ['<link rel="next" href="{}">'],
        "skip": ['<a href="{}" class="md-skip">'],
    }
    patterns = []
    for name, shape in shapes.items():
        a, b = old[name], new[name]
        if (a is None) != (b is None):
            return None
        if a is not None and b is not None and a != b:
            patterns += [(s.format(a), s.format(b)) for s in shape]
    return patterns


def _replace(text: str, patterns: list[tuple[str, str]] | None) -> str | None:
    """``text`` with each old string, found exactly once and apart from the others, replaced."""
    if patterns is None:
        return None
    spans = []
    for old, new in patterns:
        at = text.find(old)
        if at < 0 or text.count(old) != 1:
            return None
        spans.append((at, at + len(old), new))
    spans.sort()
    out, start = [], 0
    for begin, end, new in spans:
        if begin < start:
            return None
        out += [text[start:begin], new]
        start = end
    out.append(text[start:])
    return "".join(out)


def _theme(name: str) -> str:
    return f"k8s-api-docs/theme/{name}"


def install(env: jinja2.Environment, nav: NavCache) -> PageCache:
    cache = PageCache(env, nav)
    cache.install()
    return cache
