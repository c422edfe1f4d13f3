"""Material's page rendered in full once per group of pages, and cut into a skeleton for the rest.

Pages of the nav, both section index pages or both not, with equally deep URLs get the same
``main.html`` but for the navigation (``nav_cache``), the table of contents and content partials
(rendered per page) and five values in the head and header (``HEAD``). The first page P of a group
is rendered in full with those parts recorded; another page Q is P's text with Q's parts, and
Q's values where P's were. Probes: P's values found once where ``HEAD`` says and P's text cut at
the parts, else it turns off; the first ``verify`` pages from skeletons, and the first from each
skeleton in and outside P's section, compared with the theme's full render, else it turns off.
Rendered in full: pages outside the nav, the home page, pages with meta, values with HTML
special characters, a head unlike P's (a ``prev`` P lacks), every template but ``main.html``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jinja2
from jinja2 import pass_context
from markupsafe import Markup

from generator.mkdocs.accelerators import same_as_theme, to_compare, turned_off
from generator.mkdocs.nav_cache import NavCache

MAIN, TOC, THEME = "main.html", "partials/toc.html", "k8s-api-docs/theme/"
FRAGMENTS = (TOC, "partials/content.html")
"""Partials rendered per page besides the navigation."""
UNSAFE_FEATURES = frozenset({"navigation.footer", "navigation.path"})
"""Features that put more of the page into the text between the partials."""
HEAD = {"title": ("<title>{} - ", 'data-md-component="header-topic">\n          <span class='
                  '"md-ellipsis">\n            \n              {}\n'),
        "canonical": ('<link rel="canonical" href="{}">',), "prev": ('<link rel="prev" href="{}">',),
        "next": ('<link rel="next" href="{}">',), "skip": ('<a href="{}" class="md-skip">',)}
"""Where ``base.html`` and ``partials/header.html`` write each value."""
_SPECIAL = frozenset('<>&"\'')
Values = dict[str, str | None]


class Skeleton(NamedTuple):
    parts: list[str]  # P's text around the nav and partials
    fragments: list[tuple[str, dict[str, Any]]]  # per cut: its partial and P's variables there
    values: Values
    section: Any


class PageCache:
    """One build's skeletons and counters (``install``)."""

    name = "page_cache"

    def __init__(self, env: jinja2.Environment, nav: NavCache, verify: int = 2) -> None:
        self.env, self.nav, self.verify = env, nav, verify
        self.groups: dict[tuple[bool, int], Skeleton] = {}
        self.recorded: list[tuple[str, str, dict[str, Any]]] | None = None
        self.tocs: dict[tuple[Any, ...], str] = {}  # rendered tables of contents by ``_toc_shape``
        self.enabled = True
        self.verified: set[tuple[tuple[bool, int], bool]] = set()
        self.hits = self.misses = self.refused = 0  # from a skeleton; first of a group; in full

    def off(self, why: str) -> None:
        self.enabled = False
        turned_off(self.name, why)

    def _fragment(self, name: str, variables: dict[str, Any]) -> Markup:
        page = variables.get("page")
        shape = _toc_shape(page.toc, True) if name == TOC and self.enabled and page else None
        html = self.tocs.get(shape) if shape is not None else None
        if html is None:
            html = self.env.get_template(THEME + name).render(variables)
            if shape is not None:
                self.tocs[shape] = html
        if self.recorded is not None:
            self.recorded.append((name, html, variables))
        return Markup(html)

    def render(self, variables: dict[str, Any], full: Callable[[dict[str, Any]], str]) -> str:
        """The page ``full`` (the theme's ``main.html``) renders from ``variables``."""
        page: Any = variables.get("page")
        url = getattr(page, "url", None) or ""
        if variables.get("nav") is None or not url.endswith("/") or page.meta or not page.parent:
            return full(variables)  # outside the nav, the home page, or with meta
        values = self._values(variables)
        key = bool(getattr(page, "is_index", False)), url.count("/")
        skeleton = self.groups.get(key)
        if values is None or (skeleton is not None and any(
                (skeleton.values[n] is None) != (values[n] is None) for n in HEAD)):
            self.refused += 1
            return full(variables)
        if skeleton is None:
            self.misses += 1
            self.recorded, self.nav.last = [], None
            html = full(variables)
            recorded, self.recorded = self.recorded or [], None
            self._cut(key, html, variables, values, recorded)
            return html
        cached = self._from(skeleton, variables, values)
        seen = key, skeleton.section is page.parent
        if to_compare(self, seen):
            self.tocs.clear()
            theirs = full(variables)
            if not same_as_theme(self, cached, theirs, f"the page {url} from a skeleton"):
                return theirs
        self.hits += 1
        return cached

    def _cut(self, key: tuple[bool, int], html: str, variables: dict[str, Any], values: Values,
             recorded: list[tuple[str, str, dict[str, Any]]]) -> None:
        """Keep ``html`` cut at the nav and the partials as the group's skeleton, or turn off."""
        nav, unsafe = self.nav.last, UNSAFE_FEATURES.intersection(variables.get("features") or ())
        # the nav shows the page's table of contents too: the partials rendered last count
        recorded = list({name: (name, text, scope) for name, text, scope in recorded}.values())
        where = f"in {variables['page'].url}"
        if unsafe or nav is None or [name for name, _, _ in recorded] != list(FRAGMENTS):
            return self.off(f"features {sorted(unsafe)}" if unsafe else f"no nav and partials {where}")
        parts, start = [], 0
        for text in [nav[0], *(text for _, text, _ in recorded)]:
            at = html.find(text, start)
            if at < 0 or html.count(text, start) != 1:
                return self.off(f"the nav or a partial not found once {where}")
            parts.append(html[start:at])
            start = at + len(text)
        parts.append(html[start:])
        for name, shapes in HEAD.items():
            if values[name] is not None and any(parts[0].count(s.format(values[name])) != 1
                                                for s in shapes):
                return self.off(f"Material's head or header markup for the {name} not found {where}")
        fragments = [("nav", nav[1]), *((name, scope) for name, _, scope in recorded)]
        self.groups[key] = Skeleton(parts, fragments, values, variables["page"].parent)
        return None

    def _from(self, skeleton: Skeleton, variables: dict[str, Any], values: Values) -> str:
        head = skeleton.parts[0]
        for name, shapes in HEAD.items():
            old, new = skeleton.values[name], values[name]
            for shape in shapes if old is not None and new is not None and old != new else ():
                head = head.replace(shape.format(old), shape.format(new), 1)
        out, page = [head], variables["page"]
        for (name, fragment_vars), part in zip(skeleton.fragments, skeleton.parts[1:], strict=True):
            scope = {**fragment_vars, **variables}
            if "skip" in scope:  # base.html's ``page.toc | first``, seen by the partials
                scope["skip"] = next(iter(page.toc), None)
            html = self.nav.render_variables(scope) if name == "nav" else self._fragment(name, scope)
            out += [str(html), part]
        return "".join(out)

    def _values(self, variables: dict[str, Any]) -> Values | None:
        """The page's values as the theme writes them; ``None`` if one has a character HTML
        treats specially (filters like ``striptags`` could change it)."""
        page, url = variables["page"], self.env.filters["url"]
        first = next(iter(page.toc), None)
        values = {"title": page.title, "canonical": page.canonical_url or None,
                  "prev": url(variables, page.previous_page.url) if page.previous_page else None,
                  "next": url(variables, page.next_page.url) if page.next_page else None,
                  "skip": url(variables, first.url) if first is not None else None}
        title = values["title"]
        if not isinstance(title, str) or not title or " ".join(title.split()) != title:
            return None
        return None if any(_SPECIAL.intersection(v or "") for v in values.values()) else values


def _toc_shape(items: Any, top: bool = False) -> tuple[Any, ...] | None:
    """What ``partials/toc.html`` reads of a table of contents (below a level-1 heading at the
    ``top``: entries' URL, title, children); ``None`` if an entry has more (``typeset``)."""
    items = list(items)
    if top and items and items[0].level == 1:
        items = items[0].children
    shape = []
    for item in items:
        children = _toc_shape(item.children)
        if children is None or getattr(item, "typeset", None) is not None:
            return None
        shape.append((item.url, item.title, children))
    return tuple(shape)


def install(env: jinja2.Environment, nav: NavCache) -> PageCache:
    """A cache for this build: ``main.html`` renders through it, and the partials it renders per
    page through its ``_fragment`` (the theme's own under ``THEME``)."""
    cache, loader = PageCache(env, nav), env.loader
    assert loader is not None
    theme = {THEME + name: loader.get_source(env, name)[0] for name in FRAGMENTS}
    wrappers = {name: f'{{{{ k8s_api_docs_fragment("{name}") }}}}' for name in FRAGMENTS}
    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({**wrappers, **theme}), loader])

    @pass_context
    def k8s_api_docs_fragment(context: Any, name: str) -> Markup:
        return cache._fragment(name, context.get_all())

    class PageTemplate(env.template_class):  # type: ignore[name-defined,misc]
        def render(self, *args: Any, **kwargs: Any) -> str:
            if self.name != MAIN or not cache.enabled:
                return super().render(*args, **kwargs)
            return cache.render(dict(*args, **kwargs), super().render)

    env.globals["k8s_api_docs_fragment"] = k8s_api_docs_fragment
    env.template_class = PageTemplate
    if env.cache is not None:
        env.cache.clear()  # templates loaded before now are of the plain class
    return cache
