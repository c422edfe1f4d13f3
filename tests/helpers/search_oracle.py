"""The boosts a reshaped search index must carry, computed from the rules that ``docs/pages.md``
(Search) and ``views.search``'s docstring state, independently of ``views.search`` (it imports
nothing of ``generator``): the caller writes each expected doc out literally and says its weight
and the name its boost is measured on; this module counts lunr's document frequencies over those
docs and applies the formula.

The rule: a doc's boost is ``weight * 10 / (max(idf, 0.1) * max(len(name), 1))`` rounded to 4
places, where ``name`` is the page's kind for a model page, else the doc's title (unescaped), its
term the first term of ``name``, and ``idf`` lunr's: ``log(1 + |(N - n + 0.5) / (n + 0.5)|)`` with
``N`` the number of docs and ``n`` the number of fields (a title, a text) holding the term, over
all docs. Terms as Material's tokenizer makes them: text between tags, lower-cased, split at the
index's separator.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any


def terms(text: str, separator: str) -> list[str]:
    return [t for t in re.split(separator, re.sub(r"<[^>]*>", " ", text).lower()) if t]


def boosted(docs: list[tuple[dict[str, Any], float, str | None]], separator: str) -> list[dict[str, Any]]:
    """``docs``: (the doc as written, its weight, the name its boost is measured on: None for its
    title) → the docs with ``boost`` set."""
    count = len(docs)

    def frequency(term: str) -> int:
        return sum((term in terms(str(d.get("title", "")), separator))
                   + (term in terms(str(d.get("text", "")), separator)) for d, _, _ in docs)

    out = []
    for doc, weight, name in docs:
        measured = name if name is not None else html.unescape(str(doc.get("title", "")))
        first = terms(measured, separator)
        doc = dict(doc)
        if first:
            n = frequency(first[0])
            idf = math.log(1 + abs((count - n + 0.5) / (n + 0.5)))
            doc["boost"] = round(weight * 10 / (max(idf, 0.1) * max(len(measured), 1)), 4)
        out.append(doc)
    return out
