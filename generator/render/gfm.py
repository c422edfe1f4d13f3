"""Untrusted spec text as plain GitHub-flavoured Markdown, with no raw HTML (``--format gfm``).

The HTML-in-Markdown pages (``markup``) make text inert with numeric entities and ``<code>``/
``<a>`` tags. Here the same guarantees come from Markdown alone:

- ``inline``: one line; every character Markdown (or GitHub: ``$`` math, ``~`` strikethrough)
  acts on anywhere in a line is backslash-escaped, as CommonMark allows for all ASCII punctuation.
- ``cell``: ``inline`` for a pipe-table cell: one line (paragraphs joined by a space), ``|``
  escaped also inside code spans (GFM removes that backslash before parsing the cell).
- ``block``: paragraphs and ``- `` bullet lists kept; no line starts a heading, list, quote, rule
  or code block.

In all three, balanced backtick pairs become code spans (with a fence longer than any backtick
run inside) and ``http(s)`` URLs become ``[url](url)`` links; no other URL scheme is linked.
The filters at the end are the GFM twins of ``render.env``'s HTML ones.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from generator.memo import render_memo
from generator.render.markup import InlineFormat, render_inline

if TYPE_CHECKING:
    from generator.views.properties import TypeLabel

_BULLET = re.compile(r"^\s*[-*•]\s+(.*)$")
_BACKTICKS = re.compile(r"`+")
_ESCAPE = {ord(ch): "\\" + ch for ch in "\\`*_{}[]<>#|~$&"} | {0: "\ufffd"}
"""ASCII punctuation that CommonMark, GFM or GitHub (``$`` math) act on anywhere in a line.
``!`` and ``(`` act only next to ``[``/``]``, which are escaped; characters that act only at a
line start are guarded by ``_guard_line_start``."""
_LINE_START = re.compile(r"^([-+=]|\d+[.)])")
_URL_QUOTE = {ord(ch): f"%{ord(ch):02X}" for ch in "()<>\\|` "}


def escape(text: str) -> str:
    """Plain text with every Markdown-active character backslash-escaped."""
    return text.translate(_ESCAPE)


def code(text: str, *, in_table: bool = False) -> str:
    """A code span of ``text``: literal (escapes do not work inside), so the fence is longer than
    any backtick run; in a table cell ``|`` is escaped (GFM removes that backslash first)."""
    text = str(text).replace("\x00", "\ufffd").replace("\n", " ")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * (longest + 1)
    if text.startswith(("`", " ")) or text.endswith(("`", " ")):
        text = f" {text} "
    if in_table:
        text = text.replace("|", "\\|")
    return f"{ticks}{text}{ticks}"


def link(text: str, href: str) -> str:
    """``[text](href)``: ``text`` escaped, ``href`` (ours, or an http(s) URL) quoted."""
    return f"[{escape(text)}]({href.translate(_URL_QUOTE)})"


def _url(url: str) -> str:
    stripped = url.rstrip(".,;:)!?")
    return link(stripped, stripped) + escape(url[len(stripped):])


def _table_code(text: str) -> str:
    return code(text, in_table=True)


_LINE = InlineFormat(escape, code, link, _url)
_CELL = InlineFormat(escape, _table_code, link, _url)
"""How ``inline`` and ``cell`` write the pieces of a line (``render.markup.render_inline``)."""


@render_memo(16384)
def inline(text: str) -> str:
    """One line of inert GFM (newlines become spaces)."""
    return render_inline(" ".join(str(text).split()), _LINE)


@render_memo(16384)
def cell(text: str) -> str:
    """A pipe-table cell: inert, one line (paragraphs joined by a space), ``|`` escaped."""
    return render_inline(" ".join(str(text).split()), _CELL)


def _guard_line_start(line: str) -> str:
    """Keep a line from starting a list, a setext underline or an ordered list (``1.``);
    ``#``, ``>`` and backticks are escaped everywhere already."""
    match = _LINE_START.match(line)
    if not match:
        return line
    lead = match.group(1)
    if lead[0].isdigit():
        return lead[:-1] + "\\" + lead[-1] + line[len(lead):]
    return "\\" + line


@render_memo(16384)
def block(text: str) -> str:
    """Paragraphs (and ``- item`` bullet lists) of inert GFM; a text line after a bullet
    continues that item."""
    out: list[str] = []
    for para in re.split(r"\n\s*\n", str(text).strip()):
        lines: list[str] = []
        in_list = False
        for ln in para.split("\n"):
            if not ln.strip():
                continue
            bullet = _BULLET.match(ln)
            if bullet:
                if lines and not in_list:
                    lines.append("")
                lines.append("- " + _guard_line_start(inline(bullet.group(1))))
                in_list = True
            else:
                text_line = _guard_line_start(inline(ln))
                lines.append(("  " + text_line) if in_list else text_line)
        if lines:
            out.append("\n".join(lines))
    return "\n\n".join(out)


def fence(text: str, language: str = "") -> str:
    """A fenced code block whose fence is longer than any backtick run in ``text``;
    ``language`` is our own word (``yaml``, ``python``, ``jsonnet``)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{ticks}{language}\n{body}{ticks}"


# -- filters over view data ------------------------------------------------------------------

def type_gfm(label: TypeLabel) -> str:
    """A ``views.properties.TypeLabel`` rendered for a table cell: ``\\[\\][Kind](kind.md)``
    (the GFM twin of ``render.env.type_html``)."""
    name = cell(label.name)
    if label.href:
        name = f"[{name}]({label.href.translate(_URL_QUOTE)})"
    same = ""
    if label.same is not None:
        kind = cell(label.same.kind)
        if label.same.href:
            kind = f"[{kind}]({label.same.href.translate(_URL_QUOTE)})"
        same = f" (same shape as {cell(label.same.group_version)} {kind})"
    return f"{cell(label.prefix)}{name}{cell(label.suffix)}{same}"


def release_ranges(runs: Any) -> str:
    """``[("1.26", "1.30"), ("1.32", "1.32")]`` → ``1.26 to 1.30, 1.32`` with an en dash (escaped)."""
    return inline(", ".join(a if a == b else f"{a}\u2013{b}" for a, b in runs) or "no known release")


def severity(name: str) -> str:
    """A change class: ``**breaking**`` stands out, the others are plain words."""
    return f"**{escape(name)}**" if name == "breaking" else escape(name)


def _code_filter(text: str, table: bool = False) -> str:
    return code(text, in_table=table)


FILTERS: dict[str, Any] = {
    "gfm_inline": inline,
    "gfm_cell": cell,
    "gfm_block": block,
    "gfm_code": _code_filter,
    "gfm_fence": fence,
    "gfm_type": type_gfm,
    "gfm_ranges": release_ranges,
    "gfm_severity": severity,
}
