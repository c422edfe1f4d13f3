"""Syntax highlighting of the example snippets with Pygments, done while generating (not by
``pymdownx.highlight`` at build time): the HTML is the one ``pymdownx.highlight`` writes with
its defaults, so Material styles it the same way, and a snippet shared by many pages or
releases (samples of common types recur) is highlighted once per process."""

from __future__ import annotations

import html
from functools import lru_cache

from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

_FORMATTER = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=16)
def _lexer(language: str) -> Lexer | None:
    try:
        return get_lexer_by_name(language)
    except ClassNotFound:
        return None


@lru_cache(maxsize=8192)
def highlight(code: str, language: str) -> str:
    """``<div class="language-X highlight"><pre><span></span><code>…</code></pre></div>``; code in
    an unknown language is escaped, not highlighted."""
    lexer = _lexer(language)
    body = pygments_highlight(code, lexer, _FORMATTER) if lexer else html.escape(code, quote=False)
    if not body.endswith("\n"):
        body += "\n"
    return (f'<div class="language-{html.escape(language)} highlight"><pre><span></span><code>'
            f"{body}</code></pre></div>")
