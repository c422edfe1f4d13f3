"""Token streams of the example snippets, cheaply: the snippets are our own output, in a small
subset of Python, Jsonnet and YAML, so one compiled regular expression per language finds their
tokens without a lexer's state machine, a line at a time (``quick_lines``, ``line_tokens``).

- Python and Jsonnet: the rules of ``PYTHON_RULES`` / ``JSONNET_RULES`` (the same rules make
  the Pygments lexers of ``snippet_lexer_class``, which find the same
  strings, numbers and keywords as Pygments' full lexers on our snippets) joined into one
  alternation: tried in order at each position, exactly as a ``RegexLexer`` tries its rules, so
  the two give the same tokens on any text. No rule matches across a line end.
- YAML: block mappings and sequences whose lines are ``- `` indicators, then a plain key (the
  shapes ``examples.yaml_text`` leaves plain) or a JSON string key with ``:``, then a plain scalar,
  a JSON string, ``{}`` or ``[]``: the tokens Pygments' ``YamlLexer`` gives such lines, up to
  how adjacent tokens of one type are split (``format_tokens`` joins them anyway). Any other text
  (comments, block scalars, flow collections, empty lines, a line Pygments would read as more of
  a scalar or whose indentation it flags) is outside the subset: ``quick_lines`` says ``None``
  and the caller uses Pygments.

``tests/test_highlight.py`` checks both against Pygments on every snippet of 1.31, 1.32 and the
CRDs in ``../shared/crds``, on tricky ones and on random ``yaml_text`` output."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pygments.token import (
    Keyword,
    Literal,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)

from generator.memo import render_memo

if TYPE_CHECKING:
    from pygments.lexer import Lexer

Token = tuple[_TokenType, str]
Rule = tuple[str, "_TokenType | tuple[_TokenType, ...]"]
"""A pattern and its token type, or one token type per group (``bygroups``; empty groups yield
no token)."""

_DOUBLE_QUOTED = r'"(?:\\.|[^"\\\n])*"'
_SINGLE_QUOTED = r"'(?:\\.|[^'\\\n])*'"
_QUOTED = f"(?:{_DOUBLE_QUOTED}|{_SINGLE_QUOTED})"

PYTHON_RULES: tuple[Rule, ...] = (
    (r"[ \t]+", Whitespace),
    (r"\n", Whitespace),
    (r"(from)([ \t]+)([\w.]+)([ \t]+)(import)\b",
     (Keyword.Namespace, Whitespace, Name.Namespace, Whitespace, Keyword.Namespace)),
    (r"(import)([ \t]+)([\w.]+)", (Keyword.Namespace, Whitespace, Name.Namespace)),
    (r"(?:True|False|None)\b", Keyword.Constant),
    (r"[A-Za-z_]\w*", Name),
    (_DOUBLE_QUOTED, String.Double),
    (_SINGLE_QUOTED, String.Single),
    (r"-?\d+\.\d*(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+", Number.Float),
    (r"-?\d+", Number.Integer),
    (r"[=.]", Operator),
    (r"[()\[\]{}:,]", Punctuation),
    (r".", Text),
)
"""The Python of the examples: imports, assignments, calls with keyword arguments, literals."""

JSONNET_RULES: tuple[Rule, ...] = (
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
)
"""The Jsonnet of the examples: ``local`` bindings, an import, builder calls joined by ``+``,
objects, arrays and literals."""


def _lexer_rules(rules: tuple[Rule, ...]) -> list[tuple[str, Any]]:
    from pygments.lexer import bygroups

    return [(pattern, action if isinstance(action, _TokenType) else bygroups(*action))
            for pattern, action in rules]


SNIPPET_LANGUAGES = {"python": ("Python (example snippets)", PYTHON_RULES),
                     "jsonnet": ("Jsonnet (example snippets)", JSONNET_RULES)}
"""The languages with a snippet lexer: its name and rules."""


@cache
def snippet_lexer_class(language: str) -> type[Lexer]:
    """``PYTHON_RULES`` / ``JSONNET_RULES`` as a Pygments ``RegexLexer`` (``language`` is a key
    of ``SNIPPET_LANGUAGES``), made when first asked: Pygments' lexer module imports its plugin
    registry (``importlib.metadata``, ``email``…), which the snippets of a build rarely need
    (``quick_lines`` covers them)."""
    from pygments.lexer import RegexLexer

    name, rules = SNIPPET_LANGUAGES[language]
    return type(f"Snippet{language.capitalize()}Lexer", (RegexLexer,),
                {"name": name, "tokens": {"root": _lexer_rules(rules)},
                 "__doc__": f"The {language} snippet rules as a Pygments lexer.",
                 "__module__": __name__})


class RuleTokenizer:
    """The tokens a ``RegexLexer`` of one state made of ``rules`` yields, from one alternation of
    them (a rule ``.`` and a rule ``\\n`` make every position match, so matches are adjacent)."""

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        parts: list[str] = []
        self._actions: dict[int, Any] = {}
        group = 1
        for pattern, action in rules:
            parts.append(f"({pattern})")
            self._actions[group] = action if isinstance(action, _TokenType) else \
                tuple((group + 1 + index, token_type) for index, token_type in enumerate(action))
            group += 1 + re.compile(pattern).groups
        self._finditer = re.compile("|".join(parts), re.MULTILINE).finditer

    def __call__(self, text: str) -> list[Token]:
        tokens: list[Token] = []
        add = tokens.append
        actions = self._actions
        for match in self._finditer(text):
            action = actions[match.lastindex or 0]
            if type(action) is _TokenType:
                add((action, match.group()))
            else:
                for group, token_type in action:
                    value = match.group(group)
                    if value:
                        add((token_type, value))
        return tokens


python_tokens = RuleTokenizer(PYTHON_RULES)
jsonnet_tokens = RuleTokenizer(JSONNET_RULES)
_RULES = {"python": python_tokens, "jsonnet": jsonnet_tokens}

_YAML_KEY = r"[A-Za-z0-9/][A-Za-z0-9._/=-]*(?::[A-Za-z0-9._/=-]+)*"
_YAML_STRING = (r'"(?:[^\s"\\]|[ ]|\\[0abtnvfre "\\N_LP]'
                r'|\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))*"')
_YAML_PLAIN = (rf"{_YAML_KEY}|[A-Za-z0-9][A-Za-z0-9.,_/ -]*[A-Za-z0-9.]"
               r"|-?[0-9][0-9.eE+-]*")
_YAML_LINE = re.compile(
    rf"(?P<indent>[ ]*)(?P<dashes>(?:-[ ])*)"
    rf"(?:(?:(?P<key>{_YAML_KEY})|(?P<qkey>{_YAML_STRING})):(?:[ ](?P<value>.+))?|(?P<bare>.+))")
_YAML_VALUE = re.compile(rf"(?P<plain>{_YAML_PLAIN})|(?P<string>{_YAML_STRING})|(?P<empty>\{{\}}|\[\])")
_YAML_STRING_PART = re.compile(
    r"(?P<space>[ ]+)|(?P<escape>\\(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))"
    r"|(?P<text>\\.|[^ \\]+)")

_INDICATOR = Punctuation.Indicator
_PLAIN = Literal.Scalar.Plain


def _yaml_string(text: str, add: Callable[[Token], None]) -> None:
    """A JSON string the way Pygments' YAML lexer splits a double-quoted scalar: spaces inside
    are ``Name.Variable``, ``\\x``/``\\u``/``\\U`` escapes ``String.Escape``."""
    if " " not in text and "\\" not in text:
        add((String, text))
        return
    for match in _YAML_STRING_PART.finditer(text):
        kind = match.lastgroup
        add((Name.Variable if kind == "space" else String.Escape if kind == "escape" else String,
             match.group()))


class YamlLine(NamedTuple):
    """One line of the YAML subset: what Pygments' indentation context needs, and its tokens."""

    column: int
    dashes: int
    """How many ``- `` indicators start the line."""
    keyed: bool
    """The line has a key and ``:``."""
    plain_end: bool
    """The line ends with a plain scalar (Pygments reads a deeper next line as more of it)."""
    tokens: tuple[Token, ...]
    """Without the line end."""


@render_memo(1 << 15)
def yaml_line(line: str) -> YamlLine | None:
    """``line`` (no ``\\n``) if it is in the YAML subset; the lines of snippets recur a lot."""
    match = _YAML_LINE.fullmatch(line)
    if match is None:
        return None
    spaces, dashes, key, qkey, value, bare = match.group(
        "indent", "dashes", "key", "qkey", "value", "bare")
    tokens: list[Token] = []
    add = tokens.append
    if spaces:
        add((Whitespace, spaces))
    for _ in range(len(dashes) // 2):
        add((_INDICATOR, "-"))
        add((Whitespace, " "))
    keyed = key is not None or qkey is not None
    if key is not None:
        add((Name.Tag, key))
        add((Punctuation, ":"))
    elif qkey is not None:
        _yaml_string(qkey, add)
        add((_INDICATOR, ":"))
    else:
        value = bare
    plain_end = False
    if value is not None:
        if keyed:
            add((Whitespace, " "))
        found = _YAML_VALUE.fullmatch(value)
        if found is None:
            return None
        if found.lastgroup == "plain":
            add((_PLAIN, value))
            plain_end = True
        elif found.lastgroup == "string":
            _yaml_string(value, add)
        else:
            add((_INDICATOR, value))
    return YamlLine(len(spaces), len(dashes) // 2, keyed, plain_end, tuple(tokens))


def yaml_lines(text: str) -> list[YamlLine] | None:
    """The lines of ``text`` (preprocessed: ends with one ``\\n``), ``None`` when one of them
    is outside the subset or Pygments' indentation context would treat it otherwise (more of a
    plain scalar, extra indentation flagged as an error)."""
    lines: list[YamlLine] = []
    indent, stack = -1, list[int]()  # Pygments' indentation context: the current level and the outer ones
    plain_end = False
    for text_line in text[:-1].split("\n"):
        line = yaml_line(text_line)
        if line is None:
            return None
        column = line.column
        if plain_end and column > indent:
            return None  # Pygments would read the line as more of the scalar
        if column < indent:
            while column < indent:
                indent = stack.pop()
            if column > indent:
                return None  # between two levels: Pygments flags the extra spaces as an error
        for _ in range(line.dashes):  # each "- " indicator, then the key, sets a level
            if indent < column:
                stack.append(indent)
                indent = column
            column += 2
        if line.keyed and indent < column:
            stack.append(indent)
            indent = column
        plain_end = line.plain_end
        lines.append(line)
    return lines


def yaml_tokens(text: str) -> list[Token] | None:
    """The tokens of Pygments' YAML lexer for ``text`` (preprocessed: ends with one ``\\n``),
    adjacent ones of a type joined; ``None`` when ``text`` is outside the subset."""
    lines = yaml_lines(text)
    if lines is None:
        return None
    return joined(token for line in lines for token in (*line.tokens, (Whitespace, "\n")))


def joined(tokens: Iterable[Token]) -> list[Token]:
    """``tokens`` with adjacent ones of one type joined and empty ones dropped."""
    out: list[Token] = []
    for token_type, value in tokens:
        if not value:
            continue
        if out and out[-1][0] is token_type:
            out[-1] = (token_type, out[-1][1] + value)
        else:
            out.append((token_type, value))
    return out


def lexer_input(code: str) -> str:
    """``code`` as Pygments' lexers see it (their default options): no byte-order mark, ``\\n``
    line ends, no leading or trailing empty lines, one final ``\\n``."""
    code = code.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    return code + "\n"


def quick_lines(text: str, language: str) -> list[str] | None:
    """The lines of ``text`` (``lexer_input``'s), without their ends, when ``line_tokens`` gives
    each of them the tokens Pygments' lexer gives it in ``text``; ``None`` for text outside the
    subset and languages without quick tokens. Python and Jsonnet: always (no rule matches
    across a line end)."""
    if language in _RULES or (language == "yaml" and yaml_lines(text) is not None):
        return text[:-1].split("\n")
    return None


def line_tokens(line: str, language: str) -> list[Token]:
    """The tokens of one of ``quick_lines``, then of its line end."""
    if language == "yaml":
        found = yaml_line(line)
        assert found is not None, line
        return [*found.tokens, (Whitespace, "\n")]
    return _RULES[language](line + "\n")


def quick_tokens(text: str, language: str) -> list[Token] | None:
    """The tokens of ``text`` (``lexer_input``'s) from ``line_tokens``, or ``None``."""
    lines = quick_lines(text, language)
    return None if lines is None else [token for line in lines for token in line_tokens(line, language)]
