"""The table of contents of a built CRD sub-page, read from its HTML only (independent of the
generator's model): which of the page's sections its entries reach.

A page's sections: on a nested-object sub-page every element whose id is ``object-…``; on a
builder-function sub-page every ``obj`` group whose members are on the page (a heading
``<hN id="obj-…">`` or a list line ``<li id="obj-…">`` that opens a list: a group whose members
are on a page of their own is a link there, not a section). The table-of-contents entries are
the theme's links to the page's own ids (``<a href="#id" class="md-nav__link">``: the sidebar's
and the phone drawer's copy). A section is reached directly (an entry links it) or, where the
page says its table of contents is cut (``k8s-toc-cut``), through a listed index: the heading
nearest above it is an entry and the section is in that heading's group (its anchor continues
the heading's)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOC_LINK = re.compile(r'<a href="#([^"]+)" class="md-nav__link')
_OBJECT = re.compile(r'\sid="(object-[^"]+)"')
_HEADING = re.compile(r'<h([2-6])\b[^>]*\sid="((?:object|obj)-[^"]+)"')
_GROUP_HEADING = re.compile(r'<h[2-6]\b[^>]*\sid="(obj-[^"]+)"')
_GROUP_LINE = re.compile(r'<li id="(obj-[^"]+)">(?:(?!</li>|<ul>).)*<ul>')
_CUT = 'class="k8s-meta k8s-toc-cut"'
NESTED = "a part of its nested objects"
BUILDER = "a part of its builder functions"


@dataclass(frozen=True)
class TocReach:
    kind: str
    """``nested`` · ``builder`` · ``""`` (not a sub-page)."""
    sections: int
    entries: int
    """Table-of-contents entries (links to the page's own ids)."""
    direct: int
    """Sections an entry links."""
    unreached: list[str]
    """Sections no entry reaches, directly or through a listed index."""
    dangling: list[str]
    """Entries whose target is not on the page."""
    cut: bool
    """The page says its table of contents does not list every section."""


def toc_reach(page: str) -> TocReach:
    """Which sections of the sub-page ``page`` (its HTML) its table of contents reaches."""
    kind = "nested" if NESTED in page else "builder" if BUILDER in page else ""
    entries = set(_TOC_LINK.findall(page))
    ids = set(re.findall(r'\sid="([^"]+)"', page))
    if kind == "nested":
        found = [(m.start(), m.group(1)) for m in _OBJECT.finditer(page)]
    elif kind == "builder":
        found = sorted([(m.start(), m.group(1)) for m in _GROUP_HEADING.finditer(page)]
                       + [(m.start(), m.group(1)) for m in _GROUP_LINE.finditer(page)])
    else:
        found = []
    headings = [(m.start(), m.group(2)) for m in _HEADING.finditer(page)]
    cut = _CUT in page
    unreached = []
    for position, anchor in found:
        if anchor in entries:
            continue
        above = [a for p, a in headings if p < position]
        if not (cut and above and above[-1] in entries and anchor.startswith(above[-1])):
            unreached.append(anchor)
    sections = {a for _, a in found}
    return TocReach(kind, len(found), len(entries), len(sections & entries), unreached,
                    sorted(e for e in entries if e not in ids), cut)
