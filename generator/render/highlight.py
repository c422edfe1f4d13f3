"""Syntax highlighting of the example snippets, done while generating (not by
``pymdownx.highlight`` at build time). The HTML and CSS classes are Pygments' (what
``pymdownx.highlight`` writes with its defaults), so Material styles them as any code block.

The snippets are our own output, in a small subset of each language: YAML (Pygments' lexer is
quick), and Python and Jsonnet made of names, calls, keyword arguments or fields, string,
number and boolean literals, lists and objects. For those two, lexers of exactly that subset
(``SnippetPythonLexer``, ``SnippetJsonnetLexer``) give the same token classes as Pygments' full
lexers several times faster (Pygments' Jsonnet lexer takes strings one character at a time); on
anything outside the subset they fall back to plain text, never to wrong HTML. Each distinct
snippet is highlighted once per process (common nested samples recur on many pages).

Tokens become HTML here (``format_tokens``), not in Pygments' ``HtmlFormatter``, so the pages do
not depend on which Pygments is installed: its formatter escapes quotes in some versions and not
in others (2.20 writes ``&quot;``, 2.21 ``"``), and a page must be byte-identical wherever it is
generated.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import lru_cache

from pygments.lexer import Lexer, RegexLexer, bygroups
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    STANDARD_TYPES,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)
from pygments.util import ClassNotFound

_DOUBLE_QUOTED = r'"(?:\\.|[^"\\\n])*"'
_SINGLE_QUOTED = r"'(?:\\.|[^'\\\n])*'"
_QUOTED = f"(?:{_DOUBLE_QUOTED}|{_SINGLE_QUOTED})"


class SnippetPythonLexer(RegexLexer):
    """The Python of the examples: imports, assignments, calls with keyword arguments, literals."""

    name = "Python (example snippets)"
    tokens = {"root": [
        (r"[ \t]+", Whitespace),
        (r"\n", Whitespace),
        (r"(from)([ \t]+)([\w.]+)([ \t]+)(import)\b", bygroups(
            Keyword.Namespace, Whitespace, Name.Namespace, Whitespace, Keyword.Namespace)),
        (r"(import)([ \t]+)([\w.]+)", bygroups(Keyword.Namespace, Whitespace, Name.Namespace)),
        (r"(?:True|False|None)\b", Keyword.Constant),
        (r"[A-Za-z_]\w*", Name),
        (_DOUBLE_QUOTED, String.Double),
        (_SINGLE_QUOTED, String.Single),
        (r"-?\d+\.\d*(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+", Number.Float),
        (r"-?\d+", Number.Integer),
        (r"[=.]", Operator),
        (r"[()\[\]{}:,]", Punctuation),
        (r".", Text),
    ]}


class SnippetJsonnetLexer(RegexLexer):
    """The Jsonnet of the examples: ``local`` bindings, an import, builder calls joined by
    ``+``, objects, arrays and literals."""

    name = "Jsonnet (example snippets)"
    tokens = {"root": [
        (r"[ \t]+", Whitespace),
        (r"\n", Whitespace),
        (r"(?:local|import|importstr|function|if|then|else|for|in)\b", Keyword),
        (r"(?:true|false|null|self|super)\b", Keyword),
        (r"[A-Za-z_]\w*(?=\()", Name.Function),
        (r"[A-Za-z_]\w*", Name.Variable),
        (_QUOTED + r"(?=[ \t]*:)", Name.Variable),  # a quoted field name
        (_QUOTED, String),
        (r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?", Number.Float),
        (r"[=+\-*/<>!&|%]", Operator),
        (r"[()\[\]{}:;,.]", Punctuation),
        (r".", Text),
    ]}


_SNIPPET_LEXERS: dict[str, type[Lexer]] = {"python": SnippetPythonLexer, "jsonnet": SnippetJsonnetLexer}


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


def format_tokens(tokens: Iterable[tuple[_TokenType, str]]) -> str:
    """Pygments tokens as the inside of ``<code>``: adjacent tokens of one class share a
    ``<span>``, spans end at line ends, and only ``&``, ``<`` and ``>`` are escaped."""
    runs: list[list[str]] = []
    for token_type, value in tokens:
        cls = css_class(token_type)
        if runs and runs[-1][0] == cls:
            runs[-1][1] += value
        elif value:
            runs.append([cls, value])
    out: list[str] = []
    for cls, text in runs:
        for index, piece in enumerate(html.escape(text, quote=False).split("\n")):
            if index:
                out.append("\n")
            if piece:
                out.append(f'<span class="{cls}">{piece}</span>' if cls else piece)
    return "".join(out)


@lru_cache(maxsize=16)
def lexer_for(language: str) -> Lexer | None:
    """The lexer ``highlight`` uses for ``language`` (a snippet lexer, else Pygments'); ``None``
    for a language Pygments does not know."""
    if language in _SNIPPET_LEXERS:
        return _SNIPPET_LEXERS[language]()
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


@lru_cache(maxsize=8192)
def highlight(code: str, language: str) -> str:
    """``<div class="language-X highlight"><pre><span></span><code>…</code></pre></div>``; code in
    an unknown language is escaped, not highlighted."""
    lexer = lexer_for(language)
    body = format_tokens(lexer.get_tokens(code)) if lexer else html.escape(code, quote=False)
    if not body.endswith("\n"):
        body += "\n"
    return (f'<div class="language-{html.escape(language)} highlight"><pre><span></span><code>'
            f"{body}</code></pre></div>")
