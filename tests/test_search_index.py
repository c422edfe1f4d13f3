"""The search index kept between builds (``views.search.SearchIndex``): after any change, the
same text as a first call's, and the index written out by hand from the rules."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from helpers import search_oracle
from lunr_oracle import Search

from generator.views import search
from generator.views.search import (
    FieldEntry,
    FunctionEntry,
    OperationEntry,
    PageEntries,
    SearchIndex,
    reshape,
    zensical_index,
)

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
    page, row, function, other = 1.0, 0.99, 0.8, 0.01  # other: a model page's other sections
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


# -- entry shaping, judged by what Material's search shows (tests/lunr_oracle.py) ------------------

MATERIAL = {**CONFIG, "fields": {"title": {"boost": 1000.0}, "text": {"boost": 1.0},
                                  "tags": {"boost": 1000000.0}}}
"""The ``config`` Material's search plugin writes (its field boosts)."""


def model(kind: str, fields: tuple[tuple[str, str], ...], description: str = "",
          nested: tuple[tuple[str, str], ...] = (), sub_page: bool = False) -> PageEntries:
    """A page's entries: ``fields`` (name, description), ``nested`` (path, description): fields
    of nested objects shown on the page, by field path."""
    rows = tuple(FieldEntry(name, f"field-{name.lower()}", "integer", text, False, owner=kind,
                            written=not kind.endswith("Status"))  # as page_entries finds
                 for name, text in fields)
    rows += tuple(FieldEntry(path.rsplit(".", 1)[1], f"field-{path}", "[]object", text, False,
                             path=path, owner=kind) for path, text in nested)
    return PageEntries(kind, "apps/v1", "1.32", not sub_page, rows, (), description=description,
                       names=f"io.k8s.api.apps.v1.{kind}", sub_page=sub_page)


def material_docs(url: str, title: str) -> list[dict[str, str]]:
    """What Material's parser makes of a model page: the badge line as the page's text, the
    property table and the nested objects as one entry each."""
    return [{"location": url, "title": title,
             "text": f"kind ga Kubernetes 1.32 · apps/v1 · {title} Other versions: 1.31"},
            {"location": f"{url}#properties", "title": "Properties", "text": "Field Type Description"},
            {"location": f"{url}#nested-objects", "title": "Nested objects",
             "text": "#generators []object required " * 200},
            {"location": f"{url}#object-spec.generators", "title": "spec.generators[]",
             "text": "Field Type Description #matrix object"},  # should nested headings get ids
            {"location": f"{url}#operations", "title": "Operations", "text": "GET pods/exec replicas"}]


SITE = {
    "1.32/apps/v1/replicaSet/": model("ReplicaSet", (("spec", "Spec defines the replica set."),),
                                      "ReplicaSet ensures that a number of pod replicas are running."),
    "1.32/apps/v1/replicaSetSpec/": model("ReplicaSetSpec", (("replicas", "Replicas is the number of "
                                                              "desired pods. Defaults to 1."),)),
    "1.32/apps/v1/replicaSetList/": model("ReplicaSetList", (("items", "List of ReplicaSets."),)),
    "1.32/apps/v1/replicaSetStatus/": model("ReplicaSetStatus", (("replicas", "The most recent "
                                                                  "number of replicas."),)),
    "1.32/apps/v1/deploymentSpec/": model("DeploymentSpec", (("replicas", "Number of desired pods. "
                                                              "This is a pointer."),
                                                             ("revisionHistoryLimit", "Old sets kept."))),
    "1.32/apps/v1/deploymentSpecReplicasPolicy/": model("DeploymentSpecReplicasPolicy", (("x", ""),)),
    "1.32/core/v1/pod/": model("Pod", (("spec", "Specification of the pod."),),
                               "Pod is a collection of containers that can run on a host. More text."),
    "1.32/core/v1/podSpec/": model("PodSpec", (
        ("nodeSelector", "NodeSelector is a selector which must be true for the pod to fit on a node."),
        ("podOS", "The OS of the pod."))),
    "1.32/core/v1/podOS/": model("PodOS", (("name", "The name of the operating system."),)),
    "1.32/core/v1/nodeSelectorTerm/": model("NodeSelectorTerm", (("matchFields", "Fields."),)),
    "1.32/argo/applicationSet/": model("ApplicationSet", (("spec", ""),), nested=(
        ("spec.generators", "Generators make parameters."), ("spec.syncPolicy", ""))),
    "1.32/argo/applicationSet/spec.generators/": model("ApplicationSet", (), nested=(
        ("spec.generators.matrix", ""), ("spec.generators.matrix.generators", ""),
        ("spec.generators.list", "")), sub_page=True),
}


SITE["1.32/core/v1/podSpec/"] = replace(SITE["1.32/core/v1/podSpec/"], fields=(
    *SITE["1.32/core/v1/podSpec/"].fields,
    FieldEntry("containers", "field-containers", "[]Container", "List of containers.", True,
               owner="PodSpec", paths=("spec.containers", "spec.template.spec.containers"))))


def site_index() -> dict[str, Any]:
    docs = [doc for url, page in SITE.items() for doc in material_docs(url, page.kind)]
    docs.append({"location": "", "title": "Kubernetes API reference", "text": "replicas pods generators"})
    return reshape({"config": MATERIAL, "docs": docs}, SITE)


def shown(query: str) -> list[str]:
    return [d["location"].removeprefix("1.32/") for d in Search(site_index()).shown(query)]


@pytest.mark.parametrize(("query", "first"), [
    ("replicas", "#field-replicas"),  # a row named so, before ReplicaSet…'s pages
    ("Pod", "core/v1/pod/"),  # the kind, before PodOS, PodSpec and the podOS row
    ("ReplicaSet", "apps/v1/replicaSet/"),
    ("nodeSelector", "core/v1/podSpec/#field-nodeselector"),  # before NodeSelectorTerm
    ("podOS", "core/v1/podOS/"),  # the kind before the row of the same name's length
    ("generators", "argo/applicationSet/#field-spec.generators"),  # the shortest path first
    ("spec.generators.matrix", "argo/applicationSet/spec.generators/#field-spec.generators.matrix"),
    ("syncPolicy", "argo/applicationSet/#field-spec.syncPolicy"),
    ("spec.template.spec.containers", "core/v1/podSpec/#field-containers"),  # a path from a kind
    ("io.k8s.api.apps.v1.DeploymentSpec", "apps/v1/deploymentSpec/"),
])
def test_the_name_typed_comes_first(query: str, first: str) -> None:
    """The first entry a reader sees (a page, or the first row under a page's heading) is the
    one named exactly so, not a longer name the prefix query also matches."""
    found = shown(query)
    answer = next(loc for loc in found if "#" in loc) if first.startswith("#") or "#" in first \
        else found[0]
    assert answer.endswith(first), found[:6]
    if first == "#field-replicas":
        assert found[0] in ("apps/v1/deploymentSpec/", "apps/v1/replicaSetSpec/"), found[:6]


def test_snippets_are_the_descriptions_first_sentence() -> None:
    docs = {d["location"]: d for d in site_index()["docs"]}
    pod = docs["1.32/core/v1/pod/"]
    assert pod["title"] == "Pod · apps/v1 · 1.32"
    assert pod["text"].startswith("Pod is a collection of containers that can run on a host.")
    assert "More text" not in pod["text"] and "Kubernetes 1.32" not in pod["text"]
    row = docs["1.32/apps/v1/deploymentSpec/#field-replicas"]
    assert row["title"] == "replicas"
    assert row["text"] == "replicas — integer — Number of desired pods. · DeploymentSpec"
    nested = docs["1.32/argo/applicationSet/#field-spec.generators"]
    assert (nested["title"], nested["text"]) == ("generators · spec.generators",
                                                 "[]object — Generators make parameters.")


def test_nested_objects_are_rows_not_one_entry() -> None:
    """Material's one entry of all nested objects' tables goes; each row is an entry of its own,
    on the page that shows it (a sub-page of a large tree keeps its title)."""
    docs = {d["location"]: d for d in site_index()["docs"]}
    assert not any(loc.endswith(("#nested-objects", "#properties")) or "#object-" in loc for loc in docs)
    assert "1.32/argo/applicationSet/spec.generators/#field-spec.generators.list" in docs
    assert docs["1.32/argo/applicationSet/spec.generators/"]["title"] == "ApplicationSet"  # Material's
    assert max(len(d["text"]) for d in docs.values()) < 200
    # a model page's other sections stay (found by their title), after the rows that say the same
    assert shown("Operations")[:2] == ["apps/v1/replicaSet/", "apps/v1/replicaSet/#operations"]
    found = shown("pods/exec")
    assert all("#" not in loc or loc.endswith("#operations") for loc in found)


def test_operations_are_found_by_python_method_exact_first() -> None:
    page = replace(SITE["1.32/apps/v1/replicaSet/"], operations=(
        OperationEntry("GET /apis/apps/v1/namespaces/{namespace}/replicasets/{name}/status", "op-status",
                       "AppsV1Api read_namespaced_replica_set_status — get replicasets/status",
                       "read_namespaced_replica_set_status"),
        OperationEntry("GET /apis/apps/v1/namespaces/{namespace}/replicasets/{name}", "op-read",
                       "AppsV1Api read_namespaced_replica_set — get replicasets",
                       "read_namespaced_replica_set")))
    site = {**SITE, "1.32/apps/v1/replicaSet/": page}
    docs = [doc for url, p in site.items() for doc in material_docs(url, p.kind)]
    search = Search(reshape({"config": MATERIAL, "docs": docs}, site))
    assert [d["location"] for d in search.shown("read_namespaced_replica_set")][:2] == [
        "1.32/apps/v1/replicaSet/", "1.32/apps/v1/replicaSet/#op-read"]
    found = [d["location"] for d in search.shown("replicasets/status")]
    assert found[1] == "1.32/apps/v1/replicaSet/#op-status"


def test_zensical_items_are_one_per_row_too() -> None:
    """Zensical's index (no plugin, no boosts) gets the same rows: an item each, after the page's."""
    url = "argo/applicationSet/spec.generators/"
    path = ["Kubernetes 1.32", "argo", "ApplicationSet"]
    index = {"config": {}, "items": [
        {"location": url, "level": 1, "title": "ApplicationSet spec.generators[]", "text": "<p>k</p>",
         "path": path, "tags": []},
        {"location": f"{url}#nested-objects", "level": 2, "title": "Nested objects", "text": "blob",
         "path": path, "tags": []},
        {"location": "about/", "level": 1, "title": "About", "text": "", "path": [], "tags": []}]}
    items = zensical_index(index, {url: SITE["1.32/" + url]})["items"]
    assert [i["location"] for i in items] == [
        url, f"{url}#field-spec.generators.matrix", f"{url}#field-spec.generators.matrix.generators",
        f"{url}#field-spec.generators.list", "about/"]
    assert items[1] == {"location": f"{url}#field-spec.generators.matrix", "level": 3,
                        "title": "matrix · spec.generators.matrix", "text": "[]object", "path": path,
                        "tags": []}
