"""Make untrusted spec text safe for Markdown and HTML (a leaf module: imports nothing of ours).

- ``inline``: one line of text; Markdown and HTML in it are inert.
- ``cell``: a table cell; newlines become ``<br>``, ``|`` cannot split the row.
- ``block``: paragraphs and ``- `` bullet lists kept, everything else inert.
- ``description``: a description as the author wrote it, as HTML for a table cell: paragraphs,
  bullet (``-``, ``*``, ``+``, ``•``) and numbered (``1.``, ``1)``) lists; a lone paragraph stays
  bare text (no ``<p>``).
In all of them, balanced backtick pairs become ``<code>`` with escaped content, a Markdown link
``[text](url)`` whose URL is ``http(s)`` becomes a link with the escaped text, and bare ``http(s)``
URLs become links; no other URL scheme is ever linked (``[x](javascript:…)`` stays text).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.memo import render_memo

_URL = re.compile(r"https?://[^\s<>\"'`|\\\[\]{}]+", re.IGNORECASE)
_CODE = re.compile(r"`([^`\n]+)`")
_MD_LINK = re.compile(r"\[([^\[\]\n`]+)\]\((https?://[^\s()<>\"'`|\\\[\]{}]+)\)", re.IGNORECASE)
"""``[text](http(s)://…)``: kubebuilder comments' Markdown links (no other scheme)."""
_LINE_START = re.compile(r"^(\s*)(\d+)([.)])", re.MULTILINE)
_BULLET = re.compile(r"^\s*[-*•]\s+(.*)$")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
_ITEM = re.compile(r"^\s*(?:([-*+•])|(\d{1,3})[.)])\s+(\S.*)$")
"""A list item line: its bullet, or its number (``1.``, ``2)``), and its text."""



def _tokens(text: str) -> list[tuple[int, int, str, re.Match[str]]]:
    """The code spans (`` `x` ``), Markdown links to http(s) URLs (``link``: group 1 the text,
    group 2 the URL) and bare http(s) URLs of untrusted ``text``, as (start, end, ``code``,
    ``link`` or ``url``, match) in reading order, the longer first where two start together."""
    links = [(m.start(), m.end(), "link", m) for m in _MD_LINK.finditer(text)] if "](" in text else []
    return sorted(
        [(m.start(), m.end(), "code", m) for m in _CODE.finditer(text)]
        + links + [(m.start(), m.end(), "url", m) for m in _URL.finditer(text)],
        key=lambda t: (t[0], -t[1]),
    )


@dataclass(frozen=True, slots=True)
class InlineFormat:
    """How an output format writes the pieces of one line of untrusted text (``render_inline``):
    HTML-in-Markdown here, plain GFM in ``render.gfm``."""

    text: Callable[[str], str]
    """Plain text between the tokens, made inert."""
    code: Callable[[str], str]
    """A code span, given its content."""
    link: Callable[[str, str], str]
    """A Markdown link to an http(s) URL, given its text and URL."""
    url: Callable[[str], str]
    """A bare http(s) URL as matched (trailing punctuation not yet split off)."""


def render_inline(text: str, fmt: InlineFormat) -> str:
    """One line of untrusted ``text`` read once for every output format: code spans, Markdown
    links and bare URLs (a token starting inside the previous one is skipped) written by ``fmt``,
    the text between them made inert by ``fmt.text``."""
    if "`" not in text and "://" not in text:
        return fmt.text(text)
    out: list[str] = []
    pos = 0
    for start, end, kind, match in _tokens(text):
        if start < pos:
            continue
        out.append(fmt.text(text[pos:start]))
        if kind == "code":
            out.append(fmt.code(match.group(1)))
        elif kind == "link":
            out.append(fmt.link(match.group(1), match.group(2)))
        else:
            out.append(fmt.url(match.group(0)))
        pos = end
    out.append(fmt.text(text[pos:]))
    return "".join(out)


def _html_code(text: str) -> str:
    return f"<code>{_entities(text)}</code>"


def _html_link(text: str, url: str) -> str:
    href = html.escape(url, quote=True).replace("|", "%7C")
    return f'<a href="{href}">{_entities(text)}</a>'


def _html_url(url: str) -> str:
    """A bare URL as a link, trailing punctuation split off after it."""
    stripped = url.rstrip(".,;:)!?")
    return _html_link(stripped, stripped) + _entities(url[len(stripped):])


def _inline_parts(text: str) -> str:
    return render_inline(text, _HTML)


_TABLE = {ord(ch): f"&#{ord(ch)};" for ch in "&<>\"\\`*_{}[]#|~^=+!"} | {0: "\ufffd"}


def _entities(text: str) -> str:
    """Replace every character Markdown or HTML could act on by a numeric entity."""
    return text.translate(_TABLE)


_HTML = InlineFormat(_entities, _html_code, _html_link, _html_url)


def _guard_line_start(line: str) -> str:
    """Stop a line from starting a heading, list, quote, rule or code block."""
    stripped = line.lstrip()
    if stripped[:1] in ("-", "+", "*", "=", "&") or _LINE_START.match(stripped):
        return "&#8203;" + stripped
    return stripped


@render_memo(16384)
def inline(text: str) -> str:
    """One line of inert Markdown (newlines become spaces)."""
    return _inline_parts(" ".join(str(text).split()))


@render_memo(16384)
def cell(text: str) -> str:
    """A Markdown table cell: inert text, newlines as ``<br>``."""
    paragraphs = [" ".join(p.split()) for p in _PARAGRAPH_BREAK.split(str(text).strip())]
    return "<br><br>".join(_inline_parts(p) for p in paragraphs if p)


def _paragraphs(text: str) -> list[list[tuple[bool, str]]]:
    """Paragraphs of ``text`` as lines ``(is_bullet, inert inline text)``; blank lines dropped."""
    out = []
    for para in _PARAGRAPH_BREAK.split(str(text).strip()):
        lines = []
        for ln in para.split("\n"):
            if not ln.strip():
                continue
            bullet = _BULLET.match(ln)
            lines.append((True, _inline_parts(bullet.group(1).strip())) if bullet
                         else (False, _inline_parts(ln.strip())))
        if lines:
            out.append(lines)
    return out


@render_memo(16384)
def block(text: str) -> str:
    """Paragraphs (and ``- item`` bullet lists) of inert Markdown."""
    out: list[str] = []
    for lines in _paragraphs(text):
        rendered = ["- " + t if is_bullet else _guard_line_start(t) for is_bullet, t in lines]
        if any(is_bullet for is_bullet, _ in lines):
            rendered = [r if bullet else "  " + r
                        for (bullet, _), r in zip(lines, rendered, strict=True)]
            if not lines[0][0]:
                rendered[0] = rendered[0].strip()
                rendered.insert(1, "")
        out.append("\n".join(rendered))
    return "\n\n".join(out)


@render_memo(16384)
def html_block(text: str) -> str:
    """The paragraphs and lists of ``text`` (``_blocks``) as HTML (``<p>``, ``<ul>``, ``<ol>``),
    for raw HTML blocks: a text line after a list item continues that item, as in Markdown."""
    out: list[str] = []
    for kind, lines in _blocks(text):
        if kind == "p":
            out.append("<p>" + "\n".join(_inline_parts(t) for t in lines) + "</p>")
        else:
            out.append(f"<{kind}>\n" + "\n".join(f"<li>{_inline_parts(i)}</li>" for i in lines)
                       + f"\n</{kind}>")
    return "\n".join(out)


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """The blocks of ``text`` as Markdown reads them, each ``("p", [inert lines])``, ``("ul",
    [inert items])`` or ``("ol", [inert items])``: blank lines part paragraphs; a bullet line (or a
    numbered one, in a list or starting at 1, as in CommonMark) starts an item, even inside a
    paragraph; a plain line after an item continues it."""
    out: list[tuple[str, list[str]]] = []
    for para in _PARAGRAPH_BREAK.split(str(text).strip()):
        kind = ""  # the open block's kind
        for ln in para.split("\n"):
            line = " ".join(ln.split())
            if not line:
                continue
            item = _ITEM.match(ln)
            if item is not None:
                ordered = item.group(1) is None
                if ordered and kind != "ol" and int(item.group(2)) != 1:
                    item = None  # "2019. was…" in running text: not a list
            if item is not None:
                want = "ul" if item.group(1) else "ol"
                if kind != want:
                    out.append((want, []))
                    kind = want
                out[-1][1].append(" ".join(item.group(3).split()))
            elif kind in ("ul", "ol"):
                items = out[-1][1]
                items[-1] = f"{items[-1]} {line}"
            elif kind == "p":
                out[-1][1].append(line)
            else:
                out.append(("p", [line]))
                kind = "p"
    return out


@render_memo(16384)
def description(text: str) -> str:
    """A description as HTML for a table cell (raw HTML): its paragraphs (``<p>``) and lists
    (``<ul>``, ``<ol>``), each line's text inert as in ``inline``; a description of one paragraph
    is its text alone, as ``cell`` writes it."""
    blocks = _blocks(text)
    if len(blocks) == 1 and blocks[0][0] == "p":
        return _inline_parts(" ".join(blocks[0][1]))
    out = []
    for kind, lines in blocks:
        if kind == "p":
            out.append("<p>" + _inline_parts(" ".join(lines)) + "</p>")
        else:
            out.append(f"<{kind}>" + "".join(f"<li>{_inline_parts(i)}</li>" for i in lines) + f"</{kind}>")
    return "".join(out)


@render_memo(16384)
def code(text: str) -> str:
    """Inline code for a short value (enum, default, key) as HTML, safe in table cells."""
    return f"<code>{_entities(str(text))}</code>"


_BACKTICK_RUN = re.compile(r"`+")


def fence(text: str, language: str = "") -> str:
    """A fenced code block whose fence is longer than any backtick run in ``text`` (so nothing in
    it can close the block early); ``language`` must be our own word (``yaml``, ``python``)."""
    longest = max((len(run) for run in _BACKTICK_RUN.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{language}\n{body}{ticks}\n"
