"""Pre-rendered HTML blocks in generated Markdown, and how the plugin keeps them out of Markdown.

The heavy parts of a model page (property and Python tables, builder functions, example tabs) are
rendered to HTML by the templates and written as raw HTML blocks between marker comments::

    <!-- k8s-api-docs:html search -->
    <table>…</table>
    <!-- /k8s-api-docs:html -->

Any Markdown renderer passes such a block through unchanged. The MkDocs plugin lifts each block
out before Python-Markdown runs (``lift``) and puts it back after (``restore``): blocks marked
``search`` into the page content (which the search plugin indexes), the others only into the
finished page, so neither Markdown nor the search plugin parses them (most of a build's time).
Spec text cannot forge a marker: every spec string reaches a page escaped (``markup``), and
``<`` never survives escaping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

OPEN = "<!-- k8s-api-docs:html -->"
OPEN_SEARCH = "<!-- k8s-api-docs:html search -->"
CLOSE = "<!-- /k8s-api-docs:html -->"
_ID = re.compile(r'\sid="([^"]+)"')
_SPACE_ID = re.compile(r' id="([^"]+)"')
"""``_ID`` where every ``id="`` follows a space (generated HTML): the same matches, found by
the literal prefix (faster than testing ``\\s`` at every character)."""
_BLOCK = re.compile(r"^<!-- k8s-api-docs:html( search)? -->\n(.*?)\n<!-- /k8s-api-docs:html -->$",
                    re.MULTILINE | re.DOTALL)


@dataclass(frozen=True, slots=True)
class RawBlock:
    html: str
    search: bool
    """Part of the page content the search plugin indexes."""


_PLACEHOLDER_START = "<!-- k8s-api-docs:block "
PLACEHOLDER = re.compile(r"<!-- k8s-api-docs:block (\d+) -->")
"""A block's placeholder (``_placeholder``), its number the group."""


def _placeholder(number: int | str) -> str:
    """What stands for the page's block ``number`` while Markdown runs (a comment it keeps)."""
    return f"{_PLACEHOLDER_START}{number} -->"


def raw_block(html: str, search: bool = True) -> str:
    """Jinja filter: ``html`` as a marked raw HTML block, blank lines around it. The HTML must be
    one element (or several) with no text outside tags, so Markdown keeps it raw."""
    return f"\n\n{OPEN_SEARCH if search else OPEN}\n{html.strip()}\n{CLOSE}\n\n"


def lift(markdown: str) -> tuple[str, list[RawBlock]]:
    """The Markdown with each marked block replaced by a placeholder comment, and the blocks.
    What ``_BLOCK.sub`` would do, by string search (the lazy pattern crawls through each block
    character by character)."""
    if CLOSE not in markdown:
        return markdown, []
    blocks: list[RawBlock] = []
    out: list[str] = []
    done = start = 0
    while (i := markdown.find(_OPEN_PREFIX, start)) >= 0:
        start = i + 1
        if i and markdown[i - 1] != "\n":
            continue
        if markdown.startswith(OPEN + "\n", i):
            opening, search = OPEN + "\n", False
        elif markdown.startswith(OPEN_SEARCH + "\n", i):
            opening, search = OPEN_SEARCH + "\n", True
        else:
            continue
        body = i + len(opening)
        end = _close_at(markdown, body)
        if end < 0:
            continue
        out += [markdown[done:i], _placeholder(len(blocks))]
        blocks.append(RawBlock(markdown[body:end], search))
        done = start = end + len(_CLOSE_LINE)
    out.append(markdown[done:])
    return "".join(out), blocks


_OPEN_PREFIX = "<!-- k8s-api-docs:html"
_CLOSE_LINE = "\n" + CLOSE


def _close_at(markdown: str, body: int) -> int:
    """Where the first closing line after ``body`` starts (its newline), or -1."""
    j = body - 1  # the body may be empty: "OPEN\n\nCLOSE"
    while (j := markdown.find(_CLOSE_LINE, j + 1)) >= 0:
        after = j + len(_CLOSE_LINE)
        if j >= body and (after == len(markdown) or markdown[after] == "\n"):
            return j
    return -1


def restore(html: str, blocks: list[RawBlock], *, search: bool) -> str:
    """Put back the blocks whose ``search`` flag is ``search`` (each placeholder occurs once):
    in one pass over ``html`` (``restore_one_by_one`` copies the whole page per block) when
    that is the same: every block is ``<…>`` without placeholder text, so no block puts a
    placeholder in the page, alone or with the text around it (a placeholder has one ``<``,
    at its start, and one ``>``, at its end)."""
    wanted = {str(number): block.html for number, block in enumerate(blocks)
              if block.search is search}
    if not wanted:
        return html
    if not all(text[:1] == "<" and text[-1:] == ">" and _PLACEHOLDER_START not in text
               for text in wanted.values()):
        return restore_one_by_one(html, blocks, search=search)
    parts = PLACEHOLDER.split(html)
    for index in range(1, len(parts), 2):
        found = wanted.pop(parts[index], None)  # the first placeholder of a number only
        parts[index] = _placeholder(parts[index]) if found is None else found
    return "".join(parts)


def restore_one_by_one(html: str, blocks: list[RawBlock], *, search: bool) -> str:
    """``restore`` as the replacement of each block's placeholder in turn."""
    for number, block in enumerate(blocks):
        if block.search is search:
            html = html.replace(_placeholder(number), block.html, 1)
    return html


def only_in_quiet_blocks(markdown: str, needles: Iterable[str]) -> bool:
    """Whether each of ``needles`` occurs in ``markdown`` only inside blocks search does not read
    (``search`` off): replacing it there changes the finished page in exactly those places, and
    neither the content MkDocs and the search plugin see nor the table of contents."""
    if not any(n in markdown for n in needles):
        return True
    rest, blocks = lift(markdown)
    return not any(n in text for n in needles
                   for text in (rest, *(b.html for b in blocks if b.search)))


def element_ids(blocks: list[RawBlock]) -> set[str]:
    """Every element id in the blocks (the anchors links may point at)."""
    ids: set[str] = set()
    for block in blocks:
        text = block.html
        count = text.count('id="')
        if count:
            ids.update((_SPACE_ID if text.count(' id="') == count else _ID).findall(text))
    return ids


_MD_URL_LINK = re.compile(r"\]\(\.\./([^)\s]*)\)")


def source_relative(markdown: str, path: str) -> str:
    """The page with its links to published URLs relative to its Markdown file instead, for
    builders that resolve every relative URL (raw HTML included) against the Markdown file, as
    for ``.md`` links (Zensical; MkDocs leaves them alone). A page ``a/x.md`` is published at
    ``a/x/``, one level below its file, so such links (all start with ``../``: the page itself
    is ``../x/``) lose one ``../``: the links in raw blocks and the Markdown links that are not
    ``.md`` links (change pages link the old release's published pages). An ``index.md`` is
    published at its file's directory: unchanged."""
    if path == "index.md" or path.endswith("/index.md"):
        return markdown
    if CLOSE in markdown:
        markdown = _BLOCK.sub(lambda m: m.group(0).replace(' href="../', ' href="'), markdown)
    return _MD_URL_LINK.sub(_one_level_less, markdown)


def _one_level_less(match: re.Match[str]) -> str:
    target = match.group(1)
    if target.partition("#")[0].endswith(".md"):
        return match.group(0)
    return f"]({target})"
