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
"""

from __future__ import annotations

import html
from functools import lru_cache

from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer, RegexLexer, bygroups
from pygments.lexers import get_lexer_by_name
from pygments.token import Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace
from pygments.util import ClassNotFound

_FORMATTER = HtmlFormatter(nowrap=True)
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
    body = pygments_highlight(code, lexer, _FORMATTER) if lexer else html.escape(code, quote=False)
    if not body.endswith("\n"):
        body += "\n"
    return (f'<div class="language-{html.escape(language)} highlight"><pre><span></span><code>'
            f"{body}</code></pre></div>")
