"""A page of ours as search index entries: one per section, a section being a heading with an
``id`` and what follows it up to the next one (what Material's search plugin makes of a page,
which then skips the generated pages: their ``search: exclude`` meta, set by the MkDocs plugin).

Our pages' HTML is headings (Python-Markdown's, or ``mkdocs.headings_page``'s) and blocks the
templates rendered, so plain string work suffices: the first section is the page itself
(``location`` the page's URL, titled by its ``h1``), the others ``url#id``; a heading marked
``data-search-exclude`` leaves its section out; a section's text is its words without markup, in
one run, so a snippet reads whole. ``tests/test_search_sections.py`` compares every entry's
location and title with Material's on a fixture site.
"""

from __future__ import annotations

import html
import re

_HEADING = re.compile(r"<h([1-6])(\s[^>]*)?>(.*?)</h\1>", re.DOTALL)
_ID = re.compile(r'\sid="([^"]*)"')
_PERMALINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.DOTALL)
_SKIPPED = re.compile(r"<(script|style|object)\b.*?</\1>", re.DOTALL | re.IGNORECASE)
_BREAK = re.compile(r"</?(?:p|li|ul|ol|div|table|thead|tbody|tr|td|th|pre|br|hr|dl|dt|dd|details|"
                    r"summary|section|blockquote|h[1-6])\b[^>]*>")
"""Tags that part words; the others (``code``, ``a``, ``wbr``…) join what they mark up."""
_TAG = re.compile(r"<[^>]*>")


def plain(markup: str) -> str:
    """``markup``'s words: tags out (block tags part words), whitespace collapsed, escaped."""
    if "<" in markup:
        markup = _TAG.sub("", _BREAK.sub(" ", _SKIPPED.sub(" ", markup)))
    return html.escape(" ".join(html.unescape(markup).split()), quote=False)


def page_sections(url: str, content: str, title: str) -> list[dict[str, str]]:
    """Search entries (``location``, ``title``, ``text``) of a page at ``url`` whose content
    is ``content``; ``title``: the page's, for a first section without a heading of its own."""
    entries: list[dict[str, str]] = []
    location, name, excluded, start = url, title, False, 0
    for match in _HEADING.finditer(content):
        attrs = match.group(2) or ""
        anchor = _ID.search(attrs)
        if anchor is None:
            continue  # no section of its own (Material's rule too)
        if start or match.group(1) != "1" or content[:match.start()].strip():
            if not excluded:
                entries.append({"location": location, "title": name,
                                "text": plain(content[start:match.start()])})
            location = f"{url}#{anchor.group(1)}"
        name = plain(_PERMALINK.sub("", match.group(3))) or title
        excluded, start = "data-search-exclude" in attrs, match.end()
    if not excluded:
        entries.append({"location": location, "title": name, "text": plain(content[start:])})
    return entries
