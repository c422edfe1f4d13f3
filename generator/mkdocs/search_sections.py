"""Material's search plugin splits every page's HTML into sections with ``html.parser`` (its
``Parser``, an ``HTMLParser``): ~15% of a release build, most of it in the tokenizer.

``split`` makes the very same sections with a regular-expression tokenizer over the forms of
markup MkDocs pages are made of (tags with quoted or no attribute values, text, comments) and a
lean copy of the ``Parser``'s rules: skipped and kept tags, sections at headings with an id and
their depth, ``data-search-exclude``, ``headerlink`` permalinks, whitespace collapsed outside
``<pre>``. Like the ``Parser`` it compares open elements by tag name only. For anything else
(``<script>``/``<style>`` and the other raw-text elements, ``<![CDATA[``, declarations,
unquoted attribute values, a ``<`` that starts no such tag, the closing tag on which the
``Parser`` would fail) it returns ``None``, and the page goes to Material's own parser.

``install`` puts ``split`` in front of one build's search index (the instance's
``add_entry_from_context``; nothing in site-packages changes), and only when the source of
Material's parser is the one this copies (``MATERIAL_PARSER_DIGEST``) and both make the same
index entries for a sample page.
"""

from __future__ import annotations

import functools
import hashlib
import html
import inspect
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from types import SimpleNamespace
from typing import Any

try:
    from material.plugins.search import plugin as material_search
except ImportError:  # pragma: no cover - Material is a dependency
    material_search = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

_MARKUP = re.compile(r"(<!--.*?-->|<[^>]*>|<)", re.DOTALL)
"""Splits a page into text (never holding ``<``) and markup candidates, each read by ``_TAG``."""
_TAG = re.compile(r"""
    <([a-z][-a-z0-9]*)                                          # start tag
     ((?:[ \t\n\r\f]+[a-z_:][-a-z0-9_:.]*(?:="[^"]*"|='[^']*')?)*)  # attributes
     [ \t\n\r\f]*(/?)>                                          # self-closing
  | </([a-z][-a-z0-9]*)>                                        # end tag
  | <!--(?![->])(?:[^-]|-(?!-))*-->                             # comment without "--"
""", re.VERBOSE)
"""The markup ``split`` reads, exactly as ``HTMLParser`` does: kept strict, away from the edges
where Python versions' parsers differ. A candidate that is anything else (a lone ``<``,
``<!DOCTYPE``, ``<![CDATA[``, unquoted values, ``>`` inside a value, upper case names, ``<!-->``)
makes ``split`` step aside."""
_ATTRIBUTE = re.compile(r"""([a-z_:][-a-z0-9_:.]*)(=(?:"([^"]*)"|'([^']*)'))?""")
_IGNORED, _START, _END, _UNSUPPORTED = range(4)
Markup = tuple[int, str, dict[str, str | None]]
"""What a markup string is to the ``Parser``: kind, tag, attributes (shared between the uses of
one string, never changed)."""
_read: dict[str, Markup] = {}
"""Markup strings read once and remembered (pages repeat most of theirs: ``<p>``, ``</td>``),
up to ``_CACHE_SIZE``."""
_CACHE_SIZE = 50_000
_NO_ATTRIBUTES: dict[str, str | None] = {}

RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                      "noframes", "noscript", "plaintext"})
"""Elements whose content ``HTMLParser`` reads (or may, in other Python versions) as raw text."""
SKIP = frozenset({"object", "script", "style"})
KEEP = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""Material's ``Parser``: tags skipped with their content, tags kept as markup, tags never
closed; sections start at headings."""
_HANDLERS = frozenset({"handle_starttag", "handle_endtag", "handle_data"})
"""The ``HTMLParser`` methods Material's ``Parser`` overrides; any other one: not installed."""


@dataclass(slots=True, eq=False)
class Section:
    """A heading (or the preface, tag ``hx``) and what follows it, as Material's ``Section``."""

    tag: str
    attrs: dict[str, str | None]
    depth: float = 0
    """Open elements at the heading (``inf`` once left, as in Material)."""
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    id: str | None = None

    def is_excluded(self) -> bool:
        return "data-search-exclude" in self.attrs


class _Unsupported(Exception):
    """Markup ``split`` does not follow; Material's parser takes the page."""


def split(content: str) -> list[Section] | None:
    """The sections Material's ``Parser`` makes of ``content``, or ``None`` when ``content``
    holds markup this tokenizer does not read exactly as ``HTMLParser`` does."""
    try:
        return _split(content)
    except _Unsupported:
        return None


def _split(content: str) -> list[Section]:
    sections: list[Section] = []
    section: Section | None = None
    heading = ""  # section.tag: "inside the title" means an open element of that tag
    context: list[str] = []  # tags of the open elements
    links: list[int] = []  # depths of the open headerlink (permalink) anchors
    skip = set(SKIP)  # tags: the Parser's skip set compares its elements by tag
    skipping = False  # an open element's tag is in skip
    pre = 0  # open <pre> elements
    escape, unescape, read = html.escape, html.unescape, _read
    if len(read) > _CACHE_SIZE:
        read.clear()
    parts = _MARKUP.split(content)
    parts.append("")
    for text, markup in zip(parts[::2], parts[1::2], strict=True):
        if text and not skipping:
            if "&" in text:
                data, special = unescape(text), True
            else:
                data, special = text, ">" in text
            blank = data.isspace()
            if not pre:
                if blank:
                    data = " "
                elif "\n" in data:
                    data = data.replace("\n", " ")
            if section is None:
                section = Section("hx", {})
                sections.append(section)
                heading = "hx"
            if heading in context:
                if not links:
                    section.title.append(escape(data, quote=False) if special else data)
            elif blank:
                items = section.text
                if not items or not items[-1].isspace() or pre:
                    items.append(data)
            else:
                section.text.append(escape(data, quote=False) if special else data)
        if not markup:
            continue
        known = read.get(markup)
        if known is None:
            known = read[markup] = _markup(markup)
        kind, tag, attrs = known
        if kind == _START:
            context.append(tag)
            if tag == "pre":
                pre += 1
            elif tag == "a" and attrs.get("class") == "headerlink":
                links.append(len(context))
            if tag in skip:
                skipping = True
            if tag in HEADINGS and "id" in attrs:
                depth = len(context)
                if tag != "h1" and not sections:
                    sections.append(Section("hx", {}, depth))
                section = Section(tag, attrs, depth)
                if sections:
                    section.id = attrs["id"]
                sections.append(section)
                heading = tag
            if section is None:
                section = Section("hx", {})
                sections.append(section)
                heading = "hx"
            if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
                skip.add(tag)
                skipping = True
            elif tag in KEEP and not skipping:
                (section.title if heading in context else section.text).append(f"<{tag}>")
        elif kind == _END:
            if not context or context[-1] != tag:
                continue
            assert section is not None  # an open element started one
            depth = len(context)
            if section.depth > depth:
                for earlier in reversed(sections):
                    if earlier.depth <= depth:
                        section.depth = float("inf")
                        section = earlier
                        heading = earlier.tag
                        break
            context.pop()
            if tag == "pre":
                pre -= 1
            elif links and links[-1] == depth:
                links.pop()
            if tag in skip:
                if tag not in SKIP:
                    skip.remove(tag)
                skipping = not skip.isdisjoint(context)
                continue
            if tag in KEEP and not skipping:
                items = section.title if heading in context else section.text
                opening = f"<{tag}>"
                if opening not in items:
                    raise _Unsupported(f"</{tag}>")  # the Parser fails here (list.index)
                index = items.index(opening)
                for item in islice(items, index + 1, None):
                    if not item.isspace():
                        items.append(f"</{tag}>")
                        break
                else:
                    del items[index:]  # empty (or only whitespace): dropped
        elif kind == _UNSUPPORTED:
            raise _Unsupported(markup)
    return sections


def _markup(text: str) -> Markup:
    """``text`` (a ``_MARKUP`` match) read as ``HTMLParser`` passes it to the ``Parser``."""
    match = _TAG.fullmatch(text)
    if match is None:
        return _UNSUPPORTED, text, _NO_ATTRIBUTES
    tag, attributes, closed, end = match.groups()
    if end is not None:
        return (_UNSUPPORTED if end in RAW_TEXT else _END), end, _NO_ATTRIBUTES
    if tag is None:
        return _IGNORED, "", _NO_ATTRIBUTES  # a comment
    if tag in VOID:
        return _IGNORED, tag, _NO_ATTRIBUTES  # as <tag/> too: its end tag finds no open element
    if closed or tag in RAW_TEXT:
        return _UNSUPPORTED, tag, _NO_ATTRIBUTES
    return _START, tag, _attributes(attributes) if attributes else _NO_ATTRIBUTES


def _attributes(text: str) -> dict[str, str | None]:
    """Attributes as ``HTMLParser`` passes them (values unescaped), in a dict as the ``Parser``
    makes of them (the last of a repeated name wins)."""
    attrs: dict[str, str | None] = {}
    for name, assigned, double, single in _ATTRIBUTE.findall(text):
        value: str | None = None
        if assigned:
            value = double if assigned[1] == '"' else single
            if "&" in value:
                value = html.unescape(value)
        attrs[name] = value
    return attrs


def material_sections(content: str) -> list[Any]:
    """Material's own sections of ``content`` (its ``Parser``)."""
    parser = material_search.Parser()
    parser.feed(content)
    parser.close()
    return list(parser.data)


def _as_material(section: Section) -> Any:
    """``section`` as Material's ``Section`` (what its ``create_entry_for_section`` takes)."""
    out = material_search.Section(material_search.Element(section.tag, section.attrs),
                                  section.depth)
    out.title, out.text, out.id = section.title, section.text, section.id
    return out


def fast_add_entry(index: Any, fallback: Callable[[Any], None]) -> Callable[[Any], None]:
    """Material's ``SearchIndex.add_entry_from_context`` for ``index`` with ``split`` making
    the sections; ``fallback`` (the original method) takes the pages ``split`` cannot."""

    def add_entry_from_context(page: Any) -> None:
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        found = split(page.content)
        if found is None:
            fallback(page)
            return
        for section in found:
            if not section.is_excluded():
                index.create_entry_for_section(_as_material(section), page.toc, page.url, page)

    add_entry_from_context.fast = True  # type: ignore[attr-defined]
    return add_entry_from_context


MATERIAL_PARSER_DIGEST = "91c796090849e0268313c924f09e67ac4c9d0cc55146bff9565b0f2ee339c5de"
"""SHA-256 of the source of Material's ``Element``, ``Section``, ``Parser`` and
``SearchIndex.add_entry_from_context`` that ``split`` copies (mkdocs-material 9.8.1). Another
source (a Material release that changed them): Material's own parser, until someone compares
the two and updates ``split`` and this digest (and ``KNOWN_FILES``)."""

SAMPLE = """<h1 id="sample">Sample &amp; <em>title</em><a class="headerlink" href="#sample" \
title="Permanent link">&para;</a></h1>
<p>Intro <code>a&lt;b</code> &nbsp; text<wbr>more<br />
line</p>
<!-- k8s-api-docs:block 1 -->
<h2 data-search-exclude id="example">Example<a class="headerlink" href="#example">&para;</a></h2>
<div class="highlight"><pre><span></span><code>x:  1
  y: "2"
</code></pre></div>
<h2 id="properties">Properties<a class="headerlink" href="#properties">&para;</a></h2>
<table><tr><td data-k='a&amp;b'><p> </p><ul><li>one</li><li>  </li></ul></td></tr></table>
<div><h3 id="nested">Nested <sup>2</sup></h3><p>in</p></div><p>after</p>
<div data-search-exclude><div>hidden</div>shown</div>
<object><p>object</p></object><p>end &hellip;</p>
"""
"""A page with the forms ``split`` handles: ``compatible`` compares its entries with Material's
(which also catches a Python whose ``HTMLParser`` reads them otherwise)."""


@functools.cache
def material_digest() -> str | None:
    """``MATERIAL_PARSER_DIGEST`` of the installed Material (``None``: no source to read); once
    per process, from the digest of its whole file when that is a file ``KNOWN_FILES`` knows
    (1 ms; ``inspect.getsource`` takes ~50 ms)."""
    known = KNOWN_FILES.get(_file_digest() or "")
    return known if known is not None else source_digest()


KNOWN_FILES = {
    "cc8a3ac0a8862662d11e87fefcdaa4a42d9ebd70a7943fa921c1c80e2661730b":
        "91c796090849e0268313c924f09e67ac4c9d0cc55146bff9565b0f2ee339c5de",
}
"""SHA-256 of Material's ``material/plugins/search/plugin.py`` → ``source_digest()`` of that file
(mkdocs-material 9.8.1)."""


def _file_digest() -> str | None:
    try:
        with open(material_search.__file__, "rb") as file:
            return hashlib.sha256(file.read()).hexdigest()
    except (AttributeError, OSError, TypeError):
        return None


def source_digest() -> str | None:
    """SHA-256 of the source of the parts of Material's search plugin ``split`` copies."""
    try:
        source = "\n".join(inspect.getsource(part) for part in (
            material_search.Element, material_search.Section, material_search.Parser,
            material_search.SearchIndex.add_entry_from_context))
    except (AttributeError, OSError, TypeError):
        return None
    return hashlib.sha256(source.encode()).hexdigest()


def _entries(add: Callable[[Any, Any], None], content: str) -> list[Any]:
    index = material_search.SearchIndex()
    page = SimpleNamespace(meta={}, content=content, toc=[], url="sample/", title="Sample")
    add(index, page)
    return list(index.entries)


def compatible() -> bool:
    """Whether Material's search parser is the one ``split`` copies: the same source, tag sets
    and hooks, and the same entries for ``SAMPLE``."""
    if material_search is None or material_digest() != MATERIAL_PARSER_DIGEST:
        return False
    try:
        parser = material_search.Parser()
        overridden = {name for name in vars(material_search.Parser) if name.startswith("handle_")}
        if overridden != _HANDLERS or set(parser.skip) != SKIP or set(parser.keep) != KEEP or \
                set(material_search.void) != VOID:
            return False
        expected = _entries(material_search.SearchIndex.add_entry_from_context, SAMPLE)
        ours = _entries(lambda index, page: fast_add_entry(index, _no_fallback)(page), SAMPLE)
    except Exception:  # any other change in Material's internals: keep its parser
        log.debug("search_sections: Material's search parser changed", exc_info=True)
        return False
    return ours == expected and len(expected) >= 3


def _no_fallback(page: Any) -> None:
    """The fallback of ``compatible``'s trial: none, so a page ``split`` refuses shows."""


def material_indexes(plugins: Any, method: str, mark: str) -> Iterator[tuple[Any, Any]]:
    """The search index of each Material search plugin among ``plugins`` (a config's
    ``plugins``) whose ``method`` is not wrapped yet (has no attribute ``mark``), with that method."""
    if material_search is None:
        return
    for plugin in plugins.values():
        if isinstance(plugin, material_search.SearchPlugin):
            index = getattr(plugin, "search_index", None)
            bound = getattr(index, method, None)
            if bound is not None and not getattr(bound, mark, False):
                yield index, bound


def install(plugins: Any) -> bool:
    """Put ``split`` in front of the search index of Material's search plugin among ``plugins``
    (a config's ``plugins``) for this build; whether it was."""
    installed = False
    for index, method in material_indexes(plugins, "add_entry_from_context", "fast"):
        if not compatible():
            log.debug("search_sections: Material's search parser is not the one split copies; "
                      "pages are split by Material's own")
            return False
        index.add_entry_from_context = fast_add_entry(index, method)
        installed = True
    return installed
