"""The search index as readers use it. Material's search plugin indexes every page itself; then
the plugin reshapes the index it wrote (``reshape``, pure: data in, data out):

- a model page's entry is titled ``Pod · core/v1 · 1.32``, so two results can be told apart, and
  its text (the snippet shown) is the model's description's first sentence, its definition and
  Python class names (``V1Pod``, ``client.V1Pod``), not the page's badge line;
- its "Properties" section (the whole table run together) and a CRD's "Nested objects" (every
  nested object's table, on the kind's page and on the sub-pages of a large tree) become one
  entry per row, linking the row (``#field-…``), titled by the field's name (and a nested
  object's field's path: ``generators · spec.generators.matrix.generators``), its text the
  type, the description's first sentence and the model (``terminationGracePeriodSeconds —
  integer (int64) — Optional duration in seconds the pod needs to terminate gracefully. ·
  PodSpec``): found by name and by path;
- every builder function of the model itself gets an entry linking its anchor (``#fn-…``);
- boosts make the name typed exactly come first (``boost``): Material searches ``term*``, scores
  by lunr's BM25 without length normalisation (an exact term and a longer one it prefixes score
  alike) and multiplies an article's score by 5, a section's by 2.
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
from dataclasses import dataclass, replace
from typing import Any

from generator.examples.python_names import PythonNames
from generator.libsonnet.builders import builder_index
from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec, Model, TypeRef
from generator.views.lookup import row_anchors
from generator.views.operations_section import operation_anchor
from generator.views.pages import first_sentence, group_label
from generator.views.site import SitePlan


@dataclass(frozen=True, slots=True)
class FieldEntry:
    name: str
    anchor: str
    type: str
    """``integer (int64)``, ``[]Container``, ``map[string]string``."""
    description: str
    required: bool
    path: str = ""
    """The field path on the page without ``[]``/``{}`` (``spec.generators.matrix.generators``);
    empty: the name (a definition's own field)."""
    owner: str = ""
    """The model the row belongs to as readers name it (``PodSpec``; a CRD's kind)."""
    written: bool = True
    """A field of an object readers create (``_written``): it comes before fields of the same
    name elsewhere (``DeploymentStatus``'s ``replicas``; ``ScaleSpec``'s, the body of a
    subresource only)."""
    paths: tuple[str, ...] = ()
    """A built-in definition's field: its paths from the kinds readers write, two to
    ``PATH_DEPTH`` segments (``spec.template.spec.containers``), shortest first."""


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
    method: str = ""
    """``read_namespaced_deployment``: what readers type (its length orders the results)."""


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
    description: str = ""
    """The model's description (the page's snippet is its first sentence)."""
    names: str = ""
    """Other names readers search the model by: its definition, its Python class."""
    sub_page: bool = False
    """A part of a large CRD's nested-object tree on a page of its own (its title is kept)."""


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
    root (the search index's ``location``): its fields, those of the nested objects shown on it
    (a CRD's field-path tree), and the builder functions of the model itself; and per sub-page
    of a large tree (``SitePlan.nested_pages``) its nested objects' fields."""
    out: dict[str, PageEntries] = {}
    python, written, paths = _python_names(api, plan), _written(api, plan), _kind_paths(api, plan)
    for name in sorted(api.models if names is None else names):
        page = plan.page_of(name)
        if page is None:
            continue
        model = api.models[name]
        owner = model.crd.kind if model.crd is not None else model.kind
        nested: dict[str, list[FieldEntry]] = {}
        for child in sorted(api.nested.get(name, ()), key=lambda m: m.field_path):
            target = plan.target_of(child.name)
            if target is not None and not child.same_as:  # a repeat's rows are the first's
                nested.setdefault(target[0], []).extend(_fields(child, api, owner, written, {}))
        functions: tuple[FunctionEntry, ...] = ()
        index = builder_index(model, api)
        if index is not None:
            functions = tuple(FunctionEntry(fn.name, fn.anchor, f"{index.call}.{fn.call}")
                              for fn in index.root.functions)
        operations = tuple(
            OperationEntry(op.key, operation_anchor(op),
                           f"{op.python.replace('.', ' ')} — {op.action} {op.rbac.resource}".lstrip(" —"),
                           op.python.rpartition(".")[2])
            for op in api.operations.get(name, ()))
        cls = python.class_name(name) if model.crd is None else None
        also = f"{name} · client.{cls} · {cls}" if cls else name
        label = group_label(model)
        out[plan.published(page)] = PageEntries(
            model.kind, label, api.version, model.is_kind,
            (*_fields(model, api, owner, written, paths), *nested.pop(page, ())), functions, operations,
            model.description, also)
        for sub, fields in nested.items():
            top = api.models[next(top for sub_page, top in _sub_pages(plan, page) if sub_page == sub)]
            out[plan.published(sub)] = PageEntries(
                model.kind, label, api.version, False, tuple(fields), (),
                description=top.description or
                f"The nested objects of {owner} under {_plain_path(top.field_path)}.",
                sub_page=True)
    return out


def _python_names(api: ApiSpec, plan: SitePlan) -> PythonNames:
    """The client's class names of ``api`` (decided over the whole spec), kept in the plan's
    memos while ``api`` is the same object (a ``mkdocs serve`` rebuild redoes a few pages)."""
    kept = plan.memos.get(_PYTHON_NAMES)
    if kept is None or kept[0] is not api:
        kept = plan.memos[_PYTHON_NAMES] = (api, PythonNames(api))
    names: PythonNames = kept[1]
    return names


_PYTHON_NAMES = "views.search.python_names"


def _written(api: ApiSpec, plan: SitePlan) -> frozenset[str]:
    """The definitions readers write: the kinds the API serves a ``create`` for and every model
    their fields reach but through a ``status`` (the controllers write that), kept in the plan's
    memos as ``_python_names``."""
    kept = plan.memos.get(_WRITTEN)
    if kept is None or kept[0] is not api:
        todo = [name for name, ops in api.operations.items() if any(op.action == "create" for op in ops)]
        seen = set(todo)
        while todo:
            model = api.models.get(todo.pop())
            for f in model.fields if model is not None else ():
                ref = f.type.referenced()
                if ref and ref not in seen and f.name != "status":
                    seen.add(ref)
                    todo.append(ref)
        kept = plan.memos[_WRITTEN] = (api, frozenset(seen))
    names: frozenset[str] = kept[1]
    return names


_WRITTEN = "views.search.written"
PATH_DEPTH = 4
"""Built-in fields are found by their paths from a kind up to this many segments (deeper paths:
the field-path box); a path that a longer one extends also finds the rows under it."""


def _kind_paths(api: ApiSpec, plan: SitePlan) -> dict[tuple[str, str], tuple[str, ...]]:
    """(definition, field) → its paths from the built-in kinds readers write (``_written``),
    two to ``PATH_DEPTH`` segments, not through ``status``; kept as ``_python_names``."""
    kept = plan.memos.get(_KIND_PATHS)
    if kept is None or kept[0] is not api:
        found: dict[tuple[str, str], set[str]] = {}
        for name, ops in api.operations.items():
            kind = api.models.get(name)
            if kind is None or kind.crd is not None or not any(op.action == "create" for op in ops):
                continue
            stack = [(kind, "", 1)]
            while stack:
                model, prefix, depth = stack.pop()
                for f in model.fields:
                    path = prefix + f.name
                    if depth > 1:
                        found.setdefault((model.name, f.name), set()).add(path)
                    ref = f.type.referenced()
                    if ref in api.models and depth < PATH_DEPTH and f.name != "status":
                        stack.append((api.models[ref], path + ".", depth + 1))
        kept = plan.memos[_KIND_PATHS] = (api, {key: tuple(sorted(paths, key=lambda p: (len(p), p)))
                                                for key, paths in found.items()})
    paths: dict[tuple[str, str], tuple[str, ...]] = kept[1]
    return paths


_KIND_PATHS = "views.search.kind_paths"


def _sub_pages(plan: SitePlan, page: str) -> Iterable[tuple[str, str]]:
    """The sub-pages under ``page`` and the nested object at the top of each, at any depth."""
    for sub, top in plan.nested_pages.get(page, ()):
        yield sub, top
        yield from _sub_pages(plan, sub)


def _plain_path(path: str) -> str:
    """A field path as readers type it: without ``[]`` and ``{}``."""
    return path.replace("[]", "").replace("{}", "")


def _fields(model: Model, api: ApiSpec, owner: str, written: frozenset[str],
            paths: Mapping[tuple[str, str], tuple[str, ...]]) -> tuple[FieldEntry, ...]:
    prefix = f"{_plain_path(model.field_path)}." if model.field_path else ""
    return tuple(
        FieldEntry(f.name, anchor, _type_text(f.type, api), f.description, f.required,
                   prefix + f.name if prefix else "", owner, model.name in written,
                   paths.get((model.name, f.name), ()))
        for f, anchor in zip(model.fields, row_anchors(model), strict=True))


def _type_text(t: TypeRef, api: ApiSpec) -> str:
    """A field's type as the row shows it: a nested object is an ``object``."""
    text, ref = type_text_in(t, api)
    if ref is not None and api.models[ref].field_path:
        return text.removesuffix(api.models[ref].kind) + "object"
    return text


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
PAGE, ROW, FUNCTION, OTHER, MODEL_SECTION = 1.0, 0.99, 0.8, 0.3, 0.01
"""Relative weights of a model page, a property row, a builder function or operation, another
page's section and a model page's other sections: a page wins over a row of a name as long, a
row over a function; a model page's "Operations" or "Example" is found by its title, but its
text (what the rows and operations say again) comes after them."""
SECTION = 2.5
"""Material multiplies a matching article's score by 5 and a section's by 2 (``1 + boost²``,
``boost`` 1 for an article plus the share of the query's terms found): sections' boosts are
multiplied by the ratio, so that the weights above and the length decide."""
PER_CHAR = 0.1
"""A title's boost is divided by ``e ** (PER_CHAR * length)``: a name one character longer
(the ``replicaSet`` that ``replicas*`` also finds) scores 10% less, more than the weights'
differences, so the exact name comes first whatever it names."""
LONGEST = 200
"""Longer titles weigh as this long (a hostile name is not a number overflow)."""
PER_OWNER_CHAR, OWNER_CHARS, UNWRITTEN = 0.003, 15, 0.96
"""Among rows of the same name: those of an object readers create first (``PageEntries.written``:
``DeploymentSpec``'s ``replicas`` before ``DeploymentStatus``' and ``ScaleSpec``'s), then the
one of the model with the shorter name (``Container`` before ``EphemeralContainer``, at most
4.5%: 15 characters), so that ``ROW`` times both stays above a name one character longer
(``e ** -PER_CHAR``)."""
PROPERTIES, NESTED, OBJECT = "#properties", "#nested-objects", "object-"
"""The sections whose tables the rows' entries replace (``object-…``: a nested object's, should
its heading have an id)."""


DEFAULT_SEPARATOR = r"[\s\-]+"


def _tokens(text: str, separator: re.Pattern[str]) -> list[str]:
    """Lunr's terms of a field as Material's tokenizer makes them: text between tags, split."""
    plain = _TAG.sub(" ", text).lower() if "<" in text else text.lower()
    if separator.pattern == DEFAULT_SEPARATOR:  # the same split, ~5x faster
        return plain.replace("-", " ").split()
    return [t for t in separator.split(plain) if t]


def _model_docs(location: str, entries: PageEntries) -> list[dict[str, Any]]:
    """Entries of the rows, builder functions and operations. Their text is one run without
    tags: Material shows only the tag-delimited parts of a text that match, and the snippet
    should read whole (``terminationGracePeriodSeconds — integer (int64) — Optional duration…``)."""
    docs: list[dict[str, Any]] = []
    for f in entries.fields:
        # a nested object's field: its path in the title (the name alone repeats in a large tree)
        title = f"{f.name} · {f.path}" if f.path else f.name
        text = f"{f.type}{' (required)' if f.required else ''}"
        if not f.path:
            text = f"{f.name} — {text}"
        if f.description:
            text += f" — {first_sentence(f.description)}"
        if f.owner and not f.path:  # "cronjob schedule" finds CronJobSpec's row
            text += f" · {f.owner}"
        if f.paths:  # spec.template.spec.containers
            text += f" · {' '.join(f.paths)}"
        docs.append({"location": f"{location}#{f.anchor}", "title": html.escape(title),
                     "text": html.escape(text, quote=False),
                     "_weight": (ROW if f.written else ROW * UNWRITTEN, f.path or f.name, f.owner, None)})
    for fn in entries.functions:
        docs.append({"location": f"{location}#{fn.anchor}", "title": html.escape(fn.name),
                     "text": html.escape(f"{fn.call} — builder function of {entries.kind}"),
                     "_weight": (FUNCTION, fn.name, "", None)})
    for op in entries.operations:  # found by path (the title) and by Python method (a word)
        docs.append({"location": f"{location}#{op.anchor}", "title": html.escape(op.request),
                     "text": html.escape(f"{op.text} — operation of {entries.kind}"),
                     "_weight": (FUNCTION, op.method or op.request, "", op.method.lower() or None)})
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
    weights: list[tuple[float, str | None, str, str | None]] = []
    """Per doc: its weight, the name its length is measured on (``None``: its title), its
    owner's name (rows) and the term whose idf its boost is divided by (``None``: the title's
    first)."""
    for doc in docs:
        anchor = str(doc.get("location", "")).partition("#")[2]
        if entries is None:
            out.append({**doc})
            weights.append((OTHER if anchor else PAGE, None, "", None))
        elif not anchor:
            article = {**doc}
            if not entries.sub_page:
                article["title"] = html.escape(f"{entries.kind} · {entries.group_label} · {entries.version}")
            text = " — ".join(t for t in (first_sentence(entries.description), entries.names) if t)
            if text:  # the snippet: what the model is, not the page's badge line
                article["text"] = html.escape(text, quote=False)
            out.append(article)
            weights.append((PAGE, None if entries.sub_page else entries.kind, "", None))
            for model_doc in _model_docs(page, entries):
                weights.append(model_doc.pop("_weight"))
                out.append(model_doc)
        elif not (entries.fields and (f"#{anchor}" in (PROPERTIES, NESTED) or anchor.startswith(OBJECT))):
            out.append({**doc})
            weights.append((MODEL_SECTION, None, "", None))
    boosts = []
    for doc, (weight, name, owner, term) in zip(out, weights, strict=True):
        title = html.unescape(str(doc.get("title", "")))
        if term is None:
            terms = _tokens(title, separator)
            term = terms[0] if terms else None
        if "#" in str(doc.get("location", "")):
            weight *= SECTION * math.exp(-PER_OWNER_CHAR * min(len(owner), OWNER_CHARS))
        boosts.append((weight, len(name if name is not None else title), term))
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
                shorter = math.exp(PER_CHAR * min(length, LONGEST))
                doc["boost"] = float(f"{weight / (max(idf, 0.1) * shorter):.4g}")
        return run.out


_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def reshape(index: Mapping[str, Any], pages: Mapping[str, PageEntries]) -> dict[str, Any]:
    """``SearchIndex.reshape`` without memory of an earlier call."""
    return SearchIndex().reshape(index, pages)



def zensical_index(index: Mapping[str, Any], pages: Mapping[str, PageEntries]) -> dict[str, Any]:
    """Zensical's ``search.json`` (``items``: ``location``, ``level``, ``title``, ``text``,
    ``path``, ``tags``) with a model page's property table and nested objects as one item per
    row (level 3, right after the page's own item), as ``reshape`` does for Material. Zensical
    has no boosts: its ranking is its own."""
    items: list[Any] = []
    for item in index.get("items", []):
        page, _, anchor = str(item.get("location", "")).partition("#")
        entries = pages.get(page)
        if entries is None or not entries.fields:
            items.append(item)
        elif not anchor:
            items.append(item)
            for doc in _model_docs(page, replace(entries, functions=(), operations=())):
                doc.pop("_weight")
                items.append({**doc, "level": 3, "path": item.get("path", []), "tags": []})
        elif not (f"#{anchor}" in (PROPERTIES, NESTED) or anchor.startswith(OBJECT)):
            items.append(item)
    return {**index, "items": items}
