"""Generated Markdown of headings only rendered to HTML as Python-Markdown would render it.

Once the plugin has lifted a generated page's raw HTML blocks out, a model page's Markdown is
only ATX headings with plain-text titles (optionally an attribute list ``{ #id
data-search-exclude }``) and block placeholder comments; index and change pages add an ``Up:
[title](../index.md)`` line, headings that link a page (``## [apps](apps/index.md)``) and
headings ending in a badge. ``render_headings`` writes the HTML, table-of-contents
tokens, title and anchors Python-Markdown with ``toc`` (``permalink: true``) and ``attr_list``
writes for such text, and ``None`` for anything else (``mkdocs.headings_page`` uses it in place of
a Python-Markdown instance per page, after comparing the two on ``SAMPLE``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from markdown.extensions.toc import nest_toc_tokens, slugify, unique

from generator.render.raw_html import PLACEHOLDER

_TARGET = r"((?:\.\./)*[A-Za-z0-9_-][A-Za-z0-9_./-]*\.md)"
"""A link's target: a page of the site, relative."""
_HEADING = re.compile(r"(#{1,6}) (?:([A-Za-z0-9][A-Za-z0-9 .,()/:-]*?)|\[([A-Za-z0-9][A-Za-z0-9 .,/-]*)\]"
                      rf"\({_TARGET}\))"
                      r"(?: \{ #([A-Za-z][A-Za-z0-9-]*)( data-search-exclude)? \}"
                      r'| (<span class="k8s-badge k8s-[a-z-]+">([a-z]+(?: [a-z]+)*)</span>))?')
"""A heading: its title, plain or a link to a page (title, target: index pages' groups and API
versions), then an attribute list (id, search exclusion) or a badge (its HTML and words)."""
_UP = re.compile(rf"Up: \[([A-Za-z0-9.-]+(?: [A-Za-z0-9.-]+)*)\]\({_TARGET}\)")
"""The link to the parent index page (title, target) of group and API version index pages."""
_SAFE_URL = re.compile(r"[A-Za-z0-9_./-]*")
"""A rewritten link Python-Markdown writes as it is (nothing to escape)."""
SAMPLE = ("# Sample Title\n\nUp: [Sample 1.2](../index.md)\n\n"
           "<!-- k8s-api-docs:block 0 -->\n\n<!-- k8s-api-docs:block 1 -->\n\n"
           "## Properties\n\n<!-- k8s-api-docs:block 2 -->\n\n"
           "## Example { #example data-search-exclude }\n\n<!-- k8s-api-docs:block 3 -->\n\n"
           "### Sub (v1, beta) { #sub-section }\n\n## Properties\n\n"
           "### Properties 1\n\n<!-- k8s-api-docs:block 4 -->\n\n"
           '## apps.k8s.io/v1 <span class="k8s-badge k8s-ga">ga</span>\n\n'
           '## Apps/v1 <span class="k8s-badge k8s-not-served">not served</span>\n\n'
           "## [core](../core/index.md)\n\n"
           '### [v1beta1](../core/v1beta1/index.md) <span class="k8s-badge k8s-beta">beta</span>\n')


_TYPOGRAPHY = re.compile(r"\((?:tm|c|r)\)|c/o|--|\.\.\.|\d/\d|\d(?:st|nd|rd|th)\b", re.IGNORECASE)
"""Text ``smarty`` or ``pymdownx.smartsymbols`` would change (``(c)``, ``--``, ``1/2``, ``2nd``…):
such a page is left to Python-Markdown."""


def _linked(link: Callable[[str], str | None], target: str) -> str | None:
    """The URL ``link`` gives ``target``, if Python-Markdown would write it as it is."""
    url = link(target)
    return url if url is not None and _SAFE_URL.fullmatch(url) else None


@dataclass(frozen=True)
class RenderedHeadings:
    """What ``Page.render`` sets: HTML, TOC tokens, title (the first line's h1), anchor ids."""

    html: str
    toc_tokens: list[dict[str, Any]]
    title: str | None
    ids: set[str]


def render_headings(text: str,
                    link: Callable[[str], str | None] = str) -> RenderedHeadings | None:
    """``text`` as Python-Markdown (``toc`` with permalinks, ``attr_list``) renders it, or
    ``None`` when it holds anything but plain headings, placeholders, ``Up:`` links and blank
    lines, or text that typographic extensions change (``_TYPOGRAPHY``). ``link``: the URL
    written for a link's target (``None``: not rendered here)."""
    items: list[tuple[int, str, str | None, bool, tuple[str, str], tuple[str, str] | None] | str] = []
    for line in text.split("\n"):
        if not line:
            continue
        if line.startswith("<!--"):
            if not PLACEHOLDER.fullmatch(line):
                return None
            items.append(f"{line}\n\n")
            continue
        if _TYPOGRAPHY.search(line):
            return None
        if line.startswith("Up: "):
            up = _UP.fullmatch(line)
            url = _linked(link, up.group(2)) if up else None
            if up is None or url is None:
                return None
            items.append(f'<p>Up: <a href="{url}">{up.group(1)}</a></p>\n')
            continue
        match = _HEADING.fullmatch(line)
        if match is None:
            return None
        hashes, title, linked, target, given_id, exclude, badge, words = match.groups()
        if linked is not None:  # Python-Markdown's TOC keeps the target as written
            url = _linked(link, target)
            if url is None:
                return None
            title, html = linked.strip(), f'<a href="{url}">{linked.strip()}</a>'
            toc_html = f'<a href="{target}">{title}</a>'
        else:
            title = html = toc_html = title.strip()
        items.append((len(hashes), title, given_id, bool(exclude), (html, toc_html),
                      (badge, words) if badge else None))
    used = {item[2] for item in items if not isinstance(item, str) and item[2]}
    parts: list[str] = []
    tokens: list[dict[str, Any]] = []
    title = None
    for index, item in enumerate(items):
        if isinstance(item, str):
            parts.append(item)
            continue
        level, name, given_id, exclude, (html, toc_html), badge = item
        if badge:
            html, toc_html = f"{html} {badge[0]}", f"{toc_html} {badge[0]}"
            name = f"{name} {badge[1]}"  # the heading's text
        anchor = given_id or unique(slugify(name, "-"), used)
        if index == 0 and level == 1:
            title = name
        attrs = f' data-search-exclude id="{anchor}"' if exclude else f' id="{anchor}"'
        parts.append(f'<h{level}{attrs}>{html}<a class="headerlink" href="#{anchor}" '
                     f'title="Permanent link">&para;</a></h{level}>\n')
        tokens.append({"level": level, "id": anchor, "name": name, "html": toc_html,
                       "data-toc-label": "", "children": []})
    ids = {t["id"] for t in tokens}
    return RenderedHeadings("".join(parts).rstrip("\n"), nest_toc_tokens(tokens), title, ids)
