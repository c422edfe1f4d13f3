"""The search index as readers use it. Material's search plugin indexes every page itself; then
the plugin reshapes the index it wrote (``reshape``, pure: data in, data out):

- a model page's entry is titled ``Pod · core/v1 · 1.32``, so two results can be told apart;
- its "Properties" section (the whole table run together) becomes one entry per row, linking the
  row (``#field-…``) with a readable snippet: ``name`` — type — description;
- every builder function of the model itself gets an entry linking its anchor (``#fn-…``);
- boosts make the page named exactly like the query come first: Material searches ``term*`` and
  scores by lunr's BM25 without length normalisation, so a common word (``pod``, low idf) lost to
  every longer name it prefixes (``podOS``, ``podIP``). A title's weight is divided by its
  term's idf and by its length: among the titles a prefix matches, the shortest (the exact
  name) wins; rows and functions weigh less than pages, change-page sections less still.
``index_text`` is the file's text.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.libsonnet.builders import builder_index
from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec
from generator.views.lookup import row_anchors
from generator.views.operations_section import operation_anchor
from generator.views.pages import group_label
from generator.views.site import SitePlan, published_url


@dataclass(frozen=True, slots=True)
class FieldEntry:
    name: str
    anchor: str
    type: str
    """``integer (int64)``, ``[]Container``, ``map[string]string``."""
    description: str
    required: bool


@dataclass(frozen=True, slots=True)
class FunctionEntry:
    name: str
    """``withContainers``."""
    anchor: str
    call: str
    """``k.core.v1.podSpec.withContainers(containers)``."""


@dataclass(frozen=True, slots=True)
class OperationEntry:
    request: str
    """``GET /apis/apps/v1/namespaces/{namespace}/deployments/{name}``."""
    anchor: str
    text: str
    """The Python method (its own word: ``AppsV1Api read_namespaced_deployment``), the action
    and the RBAC resource."""


@dataclass(frozen=True)
class PageEntries:
    """A model page as the search index sees it."""

    kind: str
    group_label: str
    """``core/v1``, ``common``."""
    version: str
    is_kind: bool
    fields: tuple[FieldEntry, ...]
    functions: tuple[FunctionEntry, ...]
    operations: tuple[OperationEntry, ...] = ()


ReleaseEntries = tuple[ApiSpec, SitePlan, dict[str, PageEntries]]
"""A release's model-page search entries and the api and plan they were made of."""


def release_entries(releases: Iterable[tuple[ApiSpec, SitePlan]],
                    known: Mapping[str, ReleaseEntries]) -> dict[str, ReleaseEntries]:
    """Each release's entries (``page_entries``), those of ``known`` kept where they were made
    of the same api and plan objects: a rebuild while serving recomputes only reloaded releases."""
    out = {}
    for api, plan in releases:
        was = known.get(api.version)
        out[api.version] = was if was and was[0] is api and was[1] is plan else \
            (api, plan, page_entries(api, plan))
    return out


def page_entries(api: ApiSpec, plan: SitePlan) -> dict[str, PageEntries]:
    """Per model page, keyed by its published URL from the docs root (the search index's
    ``location``): its fields and the builder functions of the model itself."""
    out: dict[str, PageEntries] = {}
    for name in sorted(api.models):
        page = plan.page_of(name)
        if page is None:
            continue
        model = api.models[name]
        fields = tuple(
            FieldEntry(f.name, anchor, type_text_in(f.type, api)[0], f.description, f.required)
            for f, anchor in zip(model.fields, row_anchors(model), strict=True))
        functions: tuple[FunctionEntry, ...] = ()
        index = builder_index(model, api)
        if index is not None:
            functions = tuple(FunctionEntry(fn.name, fn.anchor, f"{index.call}.{fn.call}")
                              for fn in index.root.functions)
        operations = tuple(
            OperationEntry(op.key, operation_anchor(op),
                           f"{op.python.replace('.', ' ')} — {op.action} {op.rbac.resource}".lstrip(" —"))
            for op in api.operations.get(name, ()))
        out[published_url(page)] = PageEntries(model.kind, group_label(model), api.version,
                                               model.is_kind, fields, functions, operations)
    return out


_TAG = re.compile(r"<[^>]*>")
SNIPPET = 400
"""Characters of a row's search text (name, type, description) kept."""
PAGE, ROW, FUNCTION, OTHER = 1.0, 0.5, 0.4, 0.3
"""Relative weights of a model page, a property row, a builder function, other sections."""
PROPERTIES = "#properties"


DEFAULT_SEPARATOR = r"[\s\-]+"


def _tokens(text: str, separator: re.Pattern[str]) -> list[str]:
    """Lunr's terms of a field as Material's tokenizer makes them: text between tags, split."""
    plain = _TAG.sub(" ", text).lower() if "<" in text else text.lower()
    if separator.pattern == DEFAULT_SEPARATOR:  # the same split, ~5x faster
        return plain.replace("-", " ").split()
    return [t for t in separator.split(plain) if t]


def _snippet(text: str) -> str:
    """``text`` escaped, cut after ``SNIPPET`` characters at a space."""
    flat = text
    if len(flat) > SNIPPET:
        flat = flat[:SNIPPET].rsplit(" ", 1)[0] + "…"
    return html.escape(flat, quote=False)


def _model_docs(location: str, entries: PageEntries) -> list[dict[str, Any]]:
    """Entries of the rows and builder functions. Their text is one run without tags: Material
    shows only the tag-delimited parts of a text that match, and the snippet should read whole
    (``terminationGracePeriodSeconds — integer (int64) — Optional duration…``)."""
    docs: list[dict[str, Any]] = []
    for f in entries.fields:
        text = f"{f.name} — {f.type}{' (required)' if f.required else ''}"
        if f.description:
            text += f" — {' '.join(f.description.split())}"
        docs.append({"location": f"{location}#{f.anchor}", "title": html.escape(f.name),
                     "text": _snippet(text), "_weight": ROW})
    for fn in entries.functions:
        docs.append({"location": f"{location}#{fn.anchor}", "title": html.escape(fn.name),
                     "text": html.escape(f"{fn.call} — builder function of {entries.kind}"),
                     "_weight": FUNCTION})
    for op in entries.operations:  # found by path (the title) and by Python method (a word)
        docs.append({"location": f"{location}#{op.anchor}", "title": html.escape(op.request),
                     "text": html.escape(f"{op.text} — operation of {entries.kind}"),
                     "_weight": FUNCTION})
    return docs


def merged(index: Mapping[str, Any],
           pages: Mapping[str, list[dict[str, Any]] | None]) -> dict[str, Any]:
    """``index`` (Material's data) with the entries of the pages the plugin indexes itself:
    ``pages`` maps every page's URL, in build order, to its entries, or to ``None`` when
    Material indexed it; each page's entries stay together, in that order."""
    theirs: dict[str, list[dict[str, Any]]] = {}
    for doc in index.get("docs", []):
        theirs.setdefault(str(doc.get("location", "")).partition("#")[0], []).append(doc)
    docs: list[dict[str, Any]] = []
    for url, ours in pages.items():
        material = theirs.pop(url, [])
        docs += material if ours is None else ours
    for rest in theirs.values():
        docs += rest
    return {**index, "docs": docs}


def reshape(index: Mapping[str, Any], pages: Mapping[str, PageEntries]) -> dict[str, Any]:
    """``index`` (Material's ``search_index.json`` data) with the model pages of ``pages``
    (keyed by their location, ``1.32/core/v1/pod/``) reshaped and boosts set."""
    docs: list[dict[str, Any]] = []
    for doc in index.get("docs", []):
        location = str(doc.get("location", ""))
        page, _, anchor = location.partition("#")
        entries = pages.get(page)
        if entries is None:
            docs.append({**doc, "_weight": OTHER if anchor else PAGE, "_name": None})
            continue
        if not anchor:
            title = f"{entries.kind} · {entries.group_label} · {entries.version}"
            docs.append({**doc, "title": html.escape(title), "_weight": PAGE,
                         "_name": entries.kind})
            docs.extend(_model_docs(page, entries))
        elif f"#{anchor}" != PROPERTIES or not entries.fields:
            docs.append({**doc, "_weight": OTHER, "_name": None})
    separator = re.compile(str(index.get("config", {}).get("separator", DEFAULT_SEPARATOR)))
    firsts = []
    for doc in docs:
        name = doc.pop("_name", None)
        title = name if name is not None else html.unescape(str(doc.get("title", "")))
        terms = _tokens(title, separator)
        firsts.append((title, terms[0] if terms else None))
    wanted = {term for _, term in firsts if term}
    found: list[str] = []  # the title terms of each field: lunr's document frequency (per field)
    for doc in docs:
        found += wanted.intersection(_tokens(str(doc.get("title", "")), separator))
        found += wanted.intersection(_tokens(str(doc.get("text", "")), separator))
    frequency = Counter(found)
    count = len(docs)
    out = []
    for doc, (title, term) in zip(docs, firsts, strict=True):
        weight = doc.pop("_weight")
        if term:
            n = frequency[term]
            idf = math.log(1 + abs((count - n + 0.5) / (n + 0.5)))
            doc["boost"] = round(weight * 10 / (max(idf, 0.1) * max(len(title), 1)), 4)
        out.append(doc)
    return {**index, "docs": out}


def index_text(index: Mapping[str, Any], pages: Mapping[str, PageEntries]) -> str:
    """The ``search_index.json`` written for Material's index data ``index``."""
    return json.dumps(reshape(index, pages), ensure_ascii=False, separators=(",", ":"))
