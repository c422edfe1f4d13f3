"""Block-style YAML for plain JSON data, fast (the examples of a whole release in milliseconds).

Strings stay plain only when they are simple and YAML would read them back as the same string;
everything else is a JSON string (JSON strings are valid YAML). Keys keep their order.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from generator.memo import render_memo

_SIMPLE = re.compile(r"^[A-Za-z0-9/][A-Za-z0-9._/=-]*(:[A-Za-z0-9._/=-]+)*$"
                     r"|^[A-Za-z0-9][A-Za-z0-9.,_/ -]*[A-Za-z0-9.]$")
"""Plain-safe shapes: no leading indicator, ``:`` only inside a word, spaces only without ``:``."""
_UNPRINTABLE = re.compile(r"[^\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|[\u2028\u2029\ufeff]")
"""What a YAML reader refuses or a JSON escape does not cover (JSON escapes the C0 controls)."""
MAX_SIMPLE_KEY = 1000
"""Longest key written as ``key: value`` (YAML allows 1024 characters for an implicit key)."""
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()


@render_memo(8192)
def scalar_text(value: str) -> str:
    """A string as a YAML scalar: plain when unambiguous, else double-quoted."""
    if _SIMPLE.match(value) and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == _STR_TAG:
        return value
    quoted = json.dumps(value, ensure_ascii=False)
    return quoted if quoted.isprintable() else _UNPRINTABLE.sub(_escape, quoted)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return scalar_text(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{}"
    return "[]"


def _lines(value: Any, indent: str, out: list[str]) -> None:
    """Append the block lines of a non-empty mapping or sequence."""
    if isinstance(value, dict):
        for key, item in value.items():
            text = scalar_text(str(key))
            explicit = len(text) > MAX_SIMPLE_KEY
            if explicit:  # YAML readers refuse longer implicit keys: "? key" then ": value"
                out.append(f"{indent}? {text}")
            head = f"{indent}:" if explicit else f"{indent}{text}:"
            if isinstance(item, dict) and item:
                out.append(head)
                _lines(item, indent + "  ", out)
            elif isinstance(item, list) and item:
                out.append(head)
                _lines(item, indent + "  " if explicit else indent, out)
            else:
                out.append(f"{head} {_scalar(item)}")
        return
    for item in value:
        if (isinstance(item, (dict, list))) and item:
            start = len(out)
            _lines(item, indent + "  ", out)
            out[start] = f"{indent}- {out[start][len(indent) + 2:]}"
        else:
            out.append(f"{indent}- {_scalar(item)}")


def dump(data: Any) -> str:
    """YAML text of ``data``, ending with a newline."""
    if isinstance(data, (dict, list)) and data:
        out: list[str] = []
        _lines(data, "", out)
        return "\n".join(out) + "\n"
    return _scalar(data) + "\n"
