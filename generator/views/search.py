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
``SearchIndex.text`` is the file's text; a ``SearchIndex`` keeps each page's reshaped entries
between the builds of ``mkdocs serve`` and redoes only the pages that changed (the same text as
a first call's); ``SiteSearch`` is what the plugin keeps of it all.
"""

from __future__ import annotations

import html
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.libsonnet.builders import builder_index
from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec
from generator.views.lookup import row_anchors
from generator.views.operations_section import operation_anchor
from generator.views.pages import group_label
from generator.views.site import SitePlan


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
                    known: Mapping[str, ReleaseEntries],
                    rendered: Collection[str] | None = None) -> dict[str, ReleaseEntries]:
    """Each release's entries (``page_entries``), those of ``known`` kept where they were made
    of the same api and plan objects: a rebuild while serving recomputes only reloaded releases,
    and of a reloaded release with the same plan object (the pipeline keeps it when the pages
    are the same) only the pages in ``rendered`` (the paths of the pages rendered again: the
    others show the same models as before, so their entries are the same)."""
    out = {}
    for api, plan in releases:
        was = known.get(api.version)
        if was and was[0] is api and was[1] is plan:
            out[api.version] = was
        elif was and was[1] is plan and rendered is not None:
            names = [name for name in api.models if plan.page_of(name) in rendered]
            out[api.version] = (api, plan, {**was[2], **page_entries(api, plan, names)})
        else:
            out[api.version] = (api, plan, page_entries(api, plan))
    return out


def page_entries(api: ApiSpec, plan: SitePlan, names: Iterable[str] | None = None
                 ) -> dict[str, PageEntries]:
    """Per model page (of ``names``, default all), keyed by its published URL from the docs
    root (the search index's ``location``): its fields and the builder functions of the model
    itself."""
    out: dict[str, PageEntries] = {}
    for name in sorted(api.models if names is None else names):
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
        out[plan.published(page)] = PageEntries(model.kind, group_label(model), api.version,
                                               model.is_kind, fields, functions, operations)
    return out


class SiteSearch:
    """What the plugin keeps of the search index between the builds of ``mkdocs serve``: the
    model pages' entries of each release (``release_entries``) and the reshaped index
    (``SearchIndex``), so a rebuild redoes only what changed."""

    def __init__(self) -> None:
        self.releases: dict[str, ReleaseEntries] = {}
        self.pages: dict[str, PageEntries] = {}
        self.index = SearchIndex()

    def update(self, releases: Iterable[tuple[ApiSpec, SitePlan]],
               rendered: Collection[str] | None = None) -> None:
        """The site's releases now; ``rendered``: the pages rendered since the last call."""
        self.releases = release_entries(releases, self.releases,
                                        None if rendered is None else set(rendered))
        self.pages = {url: page for known in self.releases.values() for url, page in known[2].items()}

    def text(self, index: Mapping[str, Any],
             sections: Mapping[str, list[dict[str, Any]] | None]) -> str:
        """The ``search_index.json`` of Material's ``index`` merged with the plugin's
        ``sections`` (``SearchIndex.reshape``)."""
        return self.index.text(index, self.pages, sections)


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


def _page_runs(index: Mapping[str, Any], sections: Mapping[str, list[dict[str, Any]] | None] | None
               ) -> list[tuple[tuple[str, int], list[dict[str, Any]]]]:
    """The docs of the index by page, in order, keyed (page, how many runs of that page came
    before). Without ``sections``: ``index``'s runs of consecutive docs of one page. With
    ``sections`` (every page's URL, in build order, to its entries, or ``None`` when Material
    indexed it): those pages' entries in that order, then the rest of Material's by page."""
    docs = index.get("docs", [])
    runs: list[tuple[tuple[str, int], list[dict[str, Any]]]] = []
    seen: dict[str, int] = {}

    def add(page: str, run: list[dict[str, Any]]) -> None:
        n = seen.get(page, 0)
        runs.append(((page, n), run))
        seen[page] = n + 1

    if sections is None:
        for page, group in itertools.groupby(docs, lambda d: str(d.get("location", "")).partition("#")[0]):
            add(page, list(group))
        return runs
    theirs: dict[str, list[dict[str, Any]]] = {}
    for doc in docs:
        theirs.setdefault(str(doc.get("location", "")).partition("#")[0], []).append(doc)
    for url, ours in sections.items():
        run = theirs.pop(url, []) if ours is None else ours
        if run:
            add(url, run)
    for page, rest in theirs.items():
        add(page, rest)
    return runs


@dataclass(slots=True)
class _Run:
    """One page's docs reshaped (``SearchIndex``), and what they were made of."""

    docs: list[dict[str, Any]]
    entries: PageEntries | None
    out: list[dict[str, Any]]
    """The reshaped docs, without boosts."""
    boosts: list[tuple[float, int, str | None]]
    """Per doc of ``out``: its weight, the length of its title and the title's first term."""
    found: list[str]
    """Each term of ``SearchIndex``'s wanted terms once per title and per text of ``out`` that
    holds it (lunr's document frequency, per field)."""
    firsts: frozenset[str]
    """The first terms of the titles: the boosts depend on their counts."""
    text: str = ""
    """The JSON of ``out`` with boosts (no brackets), made when the index had ``docs_count``
    docs (-1: to be made)."""
    docs_count: int = -1


def _reshaped(page: str, docs: list[dict[str, Any]], entries: PageEntries | None,
              separator: re.Pattern[str]) -> _Run:
    out: list[dict[str, Any]] = []
    weights: list[tuple[float, str | None]] = []
    for doc in docs:
        anchor = str(doc.get("location", "")).partition("#")[2]
        if entries is None:
            out.append({**doc})
            weights.append((OTHER if anchor else PAGE, None))
        elif not anchor:
            title = f"{entries.kind} · {entries.group_label} · {entries.version}"
            out.append({**doc, "title": html.escape(title)})
            weights.append((PAGE, entries.kind))
            for model_doc in _model_docs(page, entries):
                weights.append((model_doc.pop("_weight"), None))
                out.append(model_doc)
        elif f"#{anchor}" != PROPERTIES or not entries.fields:
            out.append({**doc})
            weights.append((OTHER, None))
    boosts = []
    for doc, (weight, name) in zip(out, weights, strict=True):
        title = name if name is not None else html.unescape(str(doc.get("title", "")))
        terms = _tokens(title, separator)
        boosts.append((weight, len(title), terms[0] if terms else None))
    return _Run(docs, entries, out, boosts, [], frozenset(t for _, _, t in boosts if t))


def _found(run: _Run, wanted: set[str], separator: re.Pattern[str]) -> list[str]:
    """``_Run.found`` for ``wanted``."""
    found: list[str] = []
    for doc in run.out:
        found += wanted.intersection(_tokens(str(doc.get("title", "")), separator))
        found += wanted.intersection(_tokens(str(doc.get("text", "")), separator))
    return found


class SearchIndex:
    """``reshape`` that keeps each page's reshaped docs and term counts for the next call
    (``mkdocs serve``): a page whose docs and entries are those of the last call is not
    reshaped again; the boosts, which depend on every page (the term frequencies and the number
    of docs), are set anew from the kept counts. The result equals a first call's."""

    def __init__(self) -> None:
        self._runs: dict[tuple[str, int], _Run] = {}
        self._separator = ""
        self._wanted: set[str] = set()
        """The terms the runs' counts were made for (a superset of the titles' first terms)."""
        self._total: Counter[str] = Counter()

    def _forget(self) -> None:
        self._runs, self._separator, self._wanted, self._total = {}, "", set(), Counter()

    def reshape(self, index: Mapping[str, Any], pages: Mapping[str, PageEntries],
                sections: Mapping[str, list[dict[str, Any]] | None] | None = None) -> dict[str, Any]:
        """``index`` (Material's ``search_index.json`` data; with ``sections``, merged with the
        entries of the pages the plugin indexes itself: see ``_page_runs``) with the model pages
        of ``pages`` (keyed by their location, ``1.32/core/v1/pod/``) reshaped and boosts set."""
        try:
            runs, count, _ = self._update(index, pages, sections)
        except BaseException:
            self._forget()
            raise
        for run in runs:
            run.docs_count = -1  # ``text`` makes each page's JSON again
        return {**index, "docs": [doc for run in runs for doc in self._boosted(run, count)]}

    def text(self, index: Mapping[str, Any], pages: Mapping[str, PageEntries],
             sections: Mapping[str, list[dict[str, Any]] | None] | None = None) -> str:
        """The ``search_index.json`` written for ``reshape``'s arguments: the JSON of a page's
        docs is made again only when their boosts may have changed (the number of docs, or the
        count of one of their titles' first terms)."""
        try:
            runs, count, changed = self._update(index, pages, sections)
            for run in runs:
                if run.docs_count != count or not run.firsts.isdisjoint(changed):
                    run.text = _json(self._boosted(run, count))[1:-1]
                    run.docs_count = count
        except BaseException:
            self._forget()  # the kept texts may not match the counts
            raise
        parts = ["{"]
        for key, value in {**index, "docs": None}.items():
            parts.append(f"{',' if len(parts) > 1 else ''}{_json(key)}:")
            if key != "docs":
                parts.append(_json(value))
                continue
            parts.append("[")
            parts.append(",".join(run.text for run in runs if run.text))
            parts.append("]")
        parts.append("}")
        return "".join(parts)

    def _update(self, index: Mapping[str, Any], pages: Mapping[str, PageEntries],
                sections: Mapping[str, list[dict[str, Any]] | None] | None
                ) -> tuple[list[_Run], int, set[str]]:
        """The runs of the index now (those of the last call where the same), the number of
        docs and the terms whose counts may have changed."""
        pattern = str(index.get("config", {}).get("separator", DEFAULT_SEPARATOR))
        separator = re.compile(pattern)
        if pattern != self._separator:
            self._forget()
            self._separator = pattern
        runs: dict[tuple[str, int], _Run] = {}
        for key, docs in _page_runs(index, sections):
            entries = pages.get(key[0])
            run = self._runs.get(key)
            if run is None or run.entries != entries or run.docs != docs:
                run = _reshaped(key[0], docs, entries, separator)
            runs[key] = run
        wanted = set().union(*(run.firsts for run in runs.values()))
        if not wanted <= self._wanted:  # counts of every run for the new terms
            self._wanted, self._total, self._runs = wanted, Counter(), {}
        for key, run in runs.items():
            if self._runs.get(key) is not run:
                run.found = _found(run, self._wanted, separator)
        delta = Counter(itertools.chain.from_iterable(
            run.found for key, run in runs.items() if self._runs.get(key) is not run))
        delta.subtract(Counter(itertools.chain.from_iterable(
            run.found for key, run in self._runs.items() if runs.get(key) is not run)))
        self._total.update(delta)
        self._runs = runs
        changed = {term for term, n in delta.items() if n}
        return list(runs.values()), sum(len(run.out) for run in runs.values()), changed

    def _boosted(self, run: _Run, count: int) -> list[dict[str, Any]]:
        """``run.out``, each doc's boost set (in place: the docs are the run's own copies)."""
        for doc, (weight, length, term) in zip(run.out, run.boosts, strict=True):
            if term:
                n = self._total[term]
                idf = math.log(1 + abs((count - n + 0.5) / (n + 0.5)))
                doc["boost"] = round(weight * 10 / (max(idf, 0.1) * max(length, 1)), 4)
        return run.out


_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def reshape(index: Mapping[str, Any], pages: Mapping[str, PageEntries]) -> dict[str, Any]:
    """``SearchIndex.reshape`` without memory of an earlier call."""
    return SearchIndex().reshape(index, pages)

