"""The boosts a reshaped search index must carry, computed from the rules that ``docs/pages.md``
(Search) and ``views.search``'s docstring state, independently of ``views.search`` (it imports
nothing of ``generator``): the caller writes each expected doc out literally and says its weight
and the name its boost is measured on; this module counts lunr's document frequencies over those
docs and applies the formula.

The rule: a doc's boost is ``weight / (max(idf, 0.1) * e ** (0.1 * min(len(name), 200)))`` to 4
significant digits, where ``weight`` is multiplied by 2.5 for a section (a location with ``#``:
Material scores an article 5 times and a section 2 times what lunr says), ``name`` is the page's
kind for a model page, else the doc's title (unescaped), its term the first term of ``name``, and
``idf`` lunr's: ``log(1 + |(N - n + 0.5) / (n + 0.5)|)`` with ``N`` the number of docs and ``n``
the number of fields (a title, a text) holding the term, over all docs. Terms as Material's
tokenizer makes them: text between tags, lower-cased, split at the index's separator.
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
            section = 2.5 if "#" in str(doc.get("location", "")) else 1.0
            boost = weight * section / (max(idf, 0.1) * math.exp(0.1 * min(len(measured), 200)))
            doc["boost"] = float(f"{boost:.4g}")
        out.append(doc)
    return out
