"""Syntax highlighting of the example snippets, done while generating (not by
``pymdownx.highlight`` at build time). The HTML and CSS classes are Pygments' (what
``pymdownx.highlight`` writes with its defaults), so Material styles them as any code block.

The snippets are our own output, in a small subset of each language: YAML, and Python and
Jsonnet made of names, calls, keyword arguments or fields, string, number and boolean literals,
lists and objects. ``snippet_tokens`` finds their tokens with one compiled regular expression per
language, line by line; each distinct line becomes HTML once per process (nested samples recur on
many pages), and so does each distinct snippet. Python and Jsonnet get the tokens of the snippet
lexers (``snippet_tokens.snippet_lexer_class``: the strings, numbers and keywords of
Pygments' full lexers, several times faster; anything outside the subset is plain text, never
wrong HTML); YAML gets the tokens of Pygments' YAML lexer, and that lexer itself (``lexer_for``)
for text outside the generated subset.

Tokens become HTML here (``format_tokens``), not in Pygments' ``HtmlFormatter``, so the pages do
not depend on which Pygments is installed: its formatter escapes quotes in some versions and not
in others (2.20 writes ``&quot;``, 2.21 ``"``), and a page must be byte-identical wherever it is
generated.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from pygments.token import STANDARD_TYPES, _TokenType

from generator.memo import render_memo
from generator.render.snippet_tokens import (
    SNIPPET_LANGUAGES,
    lexer_input,
    line_tokens,
    quick_lines,
    snippet_lexer_class,
)

if TYPE_CHECKING:
    from pygments.lexer import Lexer


@lru_cache(maxsize=256)
def css_class(token_type: _TokenType) -> str:
    """The CSS classes Pygments' HTML formatter gives ``token_type``: its short name (a subtype
    without one of its own extends its nearest parent's: ``l-Scalar-Plain``), preceded by the
    short names of the parents that lack one (``""`` for plain text)."""
    def own(ttype: _TokenType) -> str:
        suffix = ""
        while ttype not in STANDARD_TYPES:
            suffix = f"-{ttype[-1]}{suffix}"
            ttype = ttype.parent
        return STANDARD_TYPES[ttype] + suffix

    classes = own(token_type)
    while token_type not in STANDARD_TYPES:
        token_type = token_type.parent
        classes = f"{own(token_type)} {classes}"
    return classes


def _span(token_type: _TokenType) -> str:
    cls = css_class(token_type)
    return f'<span class="{cls}">' if cls else ""


_SPANS: dict[_TokenType, str] = {}
"""Token type → its opening ``<span>`` (``""`` for plain text), filled as types are met."""


def format_tokens(tokens: Iterable[tuple[_TokenType, str]]) -> str:
    """Pygments tokens as the inside of ``<code>``: adjacent tokens of one class share a
    ``<span>``, spans end at line ends, and only ``&``, ``<`` and ``>`` are escaped."""
    out: list[str] = []
    add = out.append
    spans = _SPANS
    run_span, run = "", ""  # the pending run: its opening tag and text
    for token_type, value in tokens:
        span = spans.get(token_type)
        if span is None:
            span = spans[token_type] = _span(token_type)
        if span == run_span:
            run += value
            continue
        if value:
            if run:
                _add_run(run_span, run, add)
            run_span, run = span, value
    if run:
        _add_run(run_span, run, add)
    return "".join(out)


def _add_run(span: str, text: str, add: Callable[[str], None]) -> None:
    if "&" in text or "<" in text or ">" in text:
        text = html.escape(text, quote=False)
    if "\n" not in text:
        add(f"{span}{text}</span>" if span else text)
        return
    for index, piece in enumerate(text.split("\n")):
        if index:
            add("\n")
        if piece:
            add(f"{span}{piece}</span>" if span else piece)


@lru_cache(maxsize=16)
def lexer_for(language: str) -> Lexer | None:
    """The lexer whose tokens ``highlight`` gives ``language`` (a snippet lexer, else Pygments';
    used for text outside ``quick_lines``); ``None`` for a language Pygments does not know."""
    if language in SNIPPET_LANGUAGES:
        return snippet_lexer_class(language)()
    from pygments.lexers import get_lexer_by_name  # Pygments' lexer registry: only when asked
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


@render_memo(8192)
def highlight(code: str, language: str) -> str:
    """``<div class="language-X highlight"><pre><span></span><code>…</code></pre></div>``; code in
    an unknown language is escaped, not highlighted."""
    lines = quick_lines(lexer_input(code), language)
    if lines is not None:
        body = "".join([_line_html(line, language) for line in lines])
    else:
        lexer = lexer_for(language)
        body = html.escape(code, quote=False) if lexer is None else format_tokens(lexer.get_tokens(code))
    if not body.endswith("\n"):
        body += "\n"
    return (f'<div class="language-{html.escape(language)} highlight"><pre><span></span><code>'
            f"{body}</code></pre></div>")


@render_memo(1 << 15)
def _line_html(line: str, language: str) -> str:
    """One line of a snippet in ``quick_lines``, with its line end: spans never cross a line
    end, so a snippet's HTML is its lines' HTML, and lines recur across snippets."""
    return format_tokens(line_tokens(line, language))
