"""Repeated nested objects as built pages show them (``model.repeats``), read from the HTML only:
each section that refers to an earlier one instead of having a table; the CRD schema at a field
path, read from the YAML; and a property's row found through those references. Independent of
the generator's model (a test of repeats compares the YAML at both ends of every reference)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from typing import Any

_REPEAT = re.compile(r'<p class="k8s-repeat" data-path="([^"]*)" data-first="([^"]*)">')
_TOKEN = re.compile(r"\[\]|\{\}|[^.\[\]{}]+")


def repeats(pages: Iterable[str]) -> dict[str, str]:
    """Field path of each repeated object → the path of the object its section refers to (as
    the page states them on its reference)."""
    out: dict[str, str] = {}
    for text in pages:
        for path, first in _REPEAT.findall(text):
            out[html.unescape(path)] = html.unescape(first)
    return out


def dotted(path: str) -> str:
    """The path as row anchors spell it: without ``[]`` and ``{}``."""
    return path.replace("[]", "").replace("{}", "")


def schema_at(schema: Any, path: str) -> Any:
    """The schema at ``path`` (``[]``: ``items``, ``{}``: ``additionalProperties``), or ``None``."""
    node = schema
    for token in _TOKEN.findall(path):
        if not isinstance(node, dict):
            return None
        if token == "[]":
            node = node.get("items")
        elif token == "{}":
            node = node.get("additionalProperties")
        else:
            node = (node.get("properties") or {}).get(token)
    return node


ROW_KEYS = frozenset({"default", "nullable", "example", "x-kubernetes-map-type",
                      "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource"})
"""Keys of an object's schema that its field's row (in the parent's table) shows, not its own
section: two sections are the same when the rest is."""


def section_schema(schema: Any) -> Any:
    """What an object's section shows of its schema: all but ``ROW_KEYS`` at its top."""
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in schema.items() if k not in ROW_KEYS}


def has_row_through(path: str, ids: set[str], refs: dict[str, str],
                    has_row: Callable[[str, set[str]], bool], depth: int = 0) -> bool:
    """Whether the dotted ``path`` has a row, its own or (under a repeated object, ``refs``:
    dotted repeat → dotted first) the row at the same place under the object it repeats."""
    if has_row(path, ids):
        return True
    cut = path.rfind(".")
    while cut > 0 and depth < 50:
        head = path[:cut]
        if head in refs:
            return has_row_through(refs[head] + path[cut:], ids, refs, has_row, depth + 1)
        cut = path.rfind(".", 0, cut)
    return False


def shown_at(path: str, refs: dict[str, str]) -> str:
    """Where the row of ``path`` is: itself, or under a repeated object (``refs``: the repeat's
    path → the one its section refers to, as the page states it) at the same place under the
    first (``model.repeats``; ``test_crd_corpus_pages`` checks both are the same in the YAML).
    Paths as the model writes them: ``spec.rules[].matches[]``."""
    for _ in range(50):
        cut = next((len(q) for q in sorted(refs, key=len, reverse=True)
                    if path.startswith(q) and path[len(q):len(q) + 1] in (".", "[", "{")), 0)
        if not cut:
            return path
        path = refs[path[:cut]] + path[cut:]
    return path
