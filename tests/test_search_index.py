"""The search index kept between builds (``views.search.SearchIndex``): after any change, the
same text as a first call's, and the same data as ``reshape``."""

from __future__ import annotations

import json
from typing import Any

from generator.views.search import FieldEntry, FunctionEntry, PageEntries, SearchIndex, reshape

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


def test_text_is_the_reshaped_index() -> None:
    pages = {"1.32/pod/": entries("Pod", ("spec", "status")), "1.32/node/": entries("Node", ("spec",))}
    index = {"config": CONFIG, "docs": [*sections("1.32/pod/", "Pod", "A pod."),
                                        *sections("1.32/node/", "Node", "A node <b>pod</b> runs on."),
                                        {"location": "", "title": "Home", "text": "pods and nodes"}]}
    assert SearchIndex().text(index, pages) == json.dumps(reshape(index, pages), ensure_ascii=False,
                                                          separators=(",", ":"))


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
