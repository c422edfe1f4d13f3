"""What Material's search shows for a query on a ``search_index.json``, worked out the way its
worker and lunr 2.3.9 do it (read from their sources: ``lunr.js`` and Material's
``integrations/search``), without a browser: the oracle of the unit tests of entry shaping
(``tests/test_search_index.py``). It knows nothing of how ``generator.views.search`` sets boosts.

- Tokens: the text between tags, lower-cased, split by the index's ``separator``; stop words
  dropped (lunr's English list, the pipeline Material configures); no stemming, no trimming.
- Index: per document and field, a term's weight is ``idf * (k1 + 1) * tf / (k1 + tf)`` (``b``
  is 0: no length normalisation), times the field's boost and the document's, rounded to three
  decimals; ``idf = ln(1 + |(N - df + 0.5) / (df + 0.5)|)``, ``df`` counted per field.
- Query: each whitespace-separated part split by the separator, every term a prefix
  (``term*``); a document's score per field is the dot product with the query's vector (one per
  term matched in that field) over the query vector's length, summed over fields.
- Material then multiplies by ``1 + boost²`` (``boost``: 1 for a page's own entry, plus the share
  of the query's terms found), groups results by page (in the order of each page's best
  result) and shows each page's entry, then those of its sections that score as high as the
  page's best; the rest fold under "N more on this page".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

K1 = 1.2
STOP_WORDS = frozenset({
    "a", "able", "about", "across", "after", "all", "almost", "also", "am", "among", "an", "and",
    "any", "are", "as", "at", "be", "because", "been", "but", "by", "can", "cannot", "could",
    "dear", "did", "do", "does", "either", "else", "ever", "every", "for", "from", "get", "got",
    "had", "has", "have", "he", "her", "hers", "him", "his", "how", "however", "i", "if", "in",
    "into", "is", "it", "its", "just", "least", "let", "like", "likely", "may", "me", "might",
    "most", "must", "my", "neither", "no", "nor", "not", "of", "off", "often", "on", "only", "or",
    "other", "our", "own", "rather", "said", "say", "says", "she", "should", "since", "so", "some",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "tis", "to",
    "too", "twas", "us", "wants", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "would", "yet", "you", "your",
})
_TAG = re.compile(r"<[^>]*>")


def tokens(text: str, separator: str) -> list[str]:
    plain = _TAG.sub(" ", text).lower()
    return [t for t in re.split(separator, plain) if t and t not in STOP_WORDS]


class Search:
    def __init__(self, index: dict[str, Any]) -> None:
        config = index["config"]
        self.separator = config["separator"]
        self.fields = {name: spec.get("boost", 1.0) for name, spec in config["fields"].items()}
        self.docs = index["docs"]
        n = len(self.docs)
        counts: list[dict[str, Counter[str]]] = []
        df: Counter[str] = Counter()
        for doc in self.docs:
            per_field = {f: Counter(tokens(str(doc.get(f) or ""), self.separator))
                         for f in self.fields if isinstance(doc.get(f), str)}
            counts.append(per_field)
            for c in per_field.values():
                df.update(c.keys())
        idf = {t: math.log(1 + abs((n - d + 0.5) / (d + 0.5))) for t, d in df.items()}
        self.terms = sorted(df)
        self.in_field = {f: {t for c in counts for t in c.get(f, ())} for f in self.fields}
        self.weights: list[dict[str, dict[str, float]]] = []
        for doc, per_field in zip(self.docs, counts, strict=True):
            boost = float(doc.get("boost", 1.0))
            self.weights.append({f: {t: round(idf[t] * (K1 + 1) * tf / (K1 + tf) * self.fields[f] * boost, 3)
                                     for t, tf in c.items()} for f, c in per_field.items()})
        self.pages: dict[str, int] = {}
        """Page → its article: the first entry of its URL (Material's ``setupSearchDocumentMap``)."""
        for i, doc in enumerate(self.docs):
            self.pages.setdefault(doc["location"].split("#")[0], i)

    def scores(self, query: str) -> list[tuple[float, int]]:
        """(score after Material's boost, doc index), best first."""
        clauses = [t for part in query.split() for t in re.split(self.separator, part.lower()) if t]
        expanded = {c: [t for t in self.terms if t.startswith(c)] for c in clauses}
        vectors: dict[str, Counter[str]] = {}
        for f in self.fields:
            q = Counter(t for terms in expanded.values() for t in terms if t in self.in_field[f])
            if q:
                vectors[f] = q
        out = []
        for i, weights in enumerate(self.weights):
            score, found = 0.0, set()
            for f, q in vectors.items():
                mine = weights.get(f, {})
                if not any(t in mine for t in q):
                    continue
                dot = sum(v * mine.get(t, 0.0) for t, v in q.items())
                score += dot / math.sqrt(sum(v * v for v in q.values()))
                found |= {c for c, terms in expanded.items() if any(t in mine for t in terms)}
            if found:
                judged = [c for c in clauses if c in found or c not in STOP_WORDS]
                article = self.pages[self.docs[i]["location"].split("#")[0]] == i  # no parent
                boost = article + len(found) / len(judged)
                out.append((score * (1 + boost ** 2), i))
        return sorted(out, key=lambda r: -r[0])

    def shown(self, query: str) -> list[dict[str, Any]]:
        """The entries a reader sees for ``query``, in order (each page's, then its best sections)."""
        groups: dict[str, list[tuple[float, int]]] = {}
        for score, i in self.scores(query):
            groups.setdefault(self.docs[i]["location"].split("#")[0], []).append((score, i))
        out = []
        for page, items in groups.items():
            threshold = items[0][0]
            out.append(self.docs[self.pages[page]])
            out += [self.docs[i] for score, i in items if i != self.pages[page] and score >= threshold]
        return out
