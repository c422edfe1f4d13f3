"""The search index kept between builds (``views.search.SearchIndex``): after any change, the
same text as a first call's, and the index written out by hand from the rules."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import search_oracle

from generator.views import search
from generator.views.search import FieldEntry, FunctionEntry, PageEntries, SearchIndex

CONFIG = {"lang": ["en"], "separator": r"[\s\-]+", "pipeline": ["stopWordFilter"], "fields": {}}


def entries(kind: str, fields: tuple[str, ...]) -> PageEntries:
    return PageEntries(kind, "core/v1", "1.32", True,
                       tuple(FieldEntry(f, f"field-{f.lower()}", "string", f"The {f} of a {kind}.", False)
                             for f in fields),
                       (FunctionEntry(f"with{kind}", f"fn-with{kind.lower()}", f"k.{kind}()"),))


def sections(url: str, title: str, text: str) -> list[dict[str, str]]:
    return [{"location": url, "title": title, "text": text},
            {"location": f"{url}#properties", "title": "Properties", "text": "rows"},
            {"location": f"{url}#python", "title": "Python", "text": f"client {title.lower()}"}]


def fresh(index: dict[str, Any], pages: dict[str, PageEntries],
          ours: dict[str, list[dict[str, str]] | None]) -> str:
    return SearchIndex().text(index, pages, ours)


def reshaped_fixture() -> tuple[dict[str, Any], dict[str, PageEntries]]:
    pages = {"1.32/pod/": entries("Pod", ("spec", "status")), "1.32/node/": entries("Node", ("spec",))}
    index = {"config": CONFIG, "docs": [*sections("1.32/pod/", "Pod", "A pod."),
                                        *sections("1.32/node/", "Node", "A node <b>pod</b> runs on."),
                                        {"location": "", "title": "Home", "text": "pods and nodes"}]}
    return index, pages


def test_text_is_the_reshaped_index() -> None:
    """The written index against one written out by hand from the rules (``helpers.search_oracle``
    only counts the terms for the boosts): model pages retitled, a row per property instead of
    the Properties section, a doc per builder function, other docs as Material wrote them."""
    index, pages = reshaped_fixture()
    assert json.loads(SearchIndex().text(index, pages)) == {"config": CONFIG, "docs": expected_docs()}


def expected_docs() -> list[dict[str, object]]:
    page, row, function, other = 1.0, 0.5, 0.4, 0.3
    pod, node = "1.32/pod/", "1.32/node/"
    return search_oracle.boosted([
        ({"location": pod, "title": "Pod · core/v1 · 1.32", "text": "A pod."}, page, "Pod"),
        ({"location": f"{pod}#field-spec", "title": "spec", "text": "spec — string — The spec of a Pod."},
         row, None),
        ({"location": f"{pod}#field-status", "title": "status",
          "text": "status — string — The status of a Pod."}, row, None),
        ({"location": f"{pod}#fn-withpod", "title": "withPod", "text": "k.Pod() — builder function of Pod"},
         function, None),
        ({"location": f"{pod}#python", "title": "Python", "text": "client pod"}, other, None),
        ({"location": node, "title": "Node · core/v1 · 1.32", "text": "A node <b>pod</b> runs on."},
         page, "Node"),
        ({"location": f"{node}#field-spec", "title": "spec", "text": "spec — string — The spec of a Node."},
         row, None),
        ({"location": f"{node}#fn-withnode", "title": "withNode",
          "text": "k.Node() — builder function of Node"}, function, None),
        ({"location": f"{node}#python", "title": "Python", "text": "client node"}, other, None),
        ({"location": "", "title": "Home", "text": "pods and nodes"}, page, None),
    ], CONFIG["separator"])


def test_index_oracle_catches_a_wrong_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row weighed like a page, a title without its release, no longer match the oracle."""
    index, pages = reshaped_fixture()
    good = json.loads(SearchIndex().text(index, pages))["docs"]
    assert good == expected_docs()
    wrong = [dict(d, title="Pod · core/v1") if d["location"] == "1.32/pod/" else d for d in good]
    assert wrong != expected_docs()
    monkeypatch.setattr(search, "ROW", search.PAGE)
    assert json.loads(SearchIndex().text(index, pages))["docs"] != expected_docs()


def test_kept_index_after_changes_equals_a_first_calls() -> None:
    pages = {f"1.32/m{i}/": entries(f"Model{i}", ("spec", f"field{i}")) for i in range(6)}
    ours: dict[str, list[dict[str, str]] | None] = {
        url: sections(url, page.kind, f"{page.kind} text") for url, page in pages.items()}
    ours[""] = None  # Material's
    index = {"config": CONFIG, "docs": [{"location": "", "title": "Home", "text": "models"}]}
    kept = SearchIndex()
    steps = [
        lambda: None,
        lambda: ours.update({"1.32/m1/": sections("1.32/m1/", "Model1", "edited text")}),
        lambda: pages.update({"1.32/m2/": entries("Model2", ("spec", "field2", "added"))}),
        lambda: ours.update({"1.32/m3/": sections("1.32/m3/", "Model3", "model0 model0 model0")}),
        lambda: (pages.pop("1.32/m4/"), ours.pop("1.32/m4/")),  # a page gone
        lambda: ours.update({"1.32/new/": sections("1.32/new/", "Brandnew", "a new title term")}),
        lambda: index.update(docs=[{"location": "", "title": "Home", "text": "edited home"}]),
        lambda: index.update(config={**CONFIG, "separator": r"[\s]+"}),
    ]
    for step in steps:
        step()
        assert kept.text(index, pages, ours) == fresh(index, pages, ours)


def test_reshape_then_text_equals_a_first_calls() -> None:
    pages = {"1.32/pod/": entries("Pod", ("spec",))}
    ours: dict[str, list[dict[str, str]] | None] = {"1.32/pod/": sections("1.32/pod/", "Pod", "A pod.")}
    index = {"config": CONFIG, "docs": []}
    kept = SearchIndex()
    kept.text(index, pages, ours)
    ours["1.32/node/"] = sections("1.32/node/", "Node", "pod pod")
    kept.reshape(index, pages, ours)
    assert kept.text(index, pages, ours) == fresh(index, pages, ours)
