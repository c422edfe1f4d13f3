"""Search as readers use it (issue 34 item 1), in Debian Chromium with Material's own search (lunr
in its worker) on a small site: Kubernetes 1.32's apps, batch and core groups and argo-cd's CRDs
(``../shared/crds/corpus/argo-cd``). Each query is typed into the search box; what counts is what
the reader sees: the result links in their order (a page's heading, then its best sections),
without those folded under "N more on this page". Skipped without Chromium/Playwright or
``../shared``, except in CI.

``python3 tests/test_search_browser.py SITE`` prints each query's rank on a built site (how the
ranks before and after a change were measured)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.shared]

GROUPS = ["apps", "batch", "core", "argoproj.io"]
ARGO = "1.32/argoproj.io/v1alpha1/"


@dataclass(frozen=True)
class Query:
    text: str
    wanted: str
    """A regular expression a result link must match (searched in the href)."""
    within: int
    """It must be among the first ``within`` visible links."""


QUERIES = [
    # the issue's list
    Query("replicas", r"/apps/v1/(deploymentSpec|statefulSetSpec|replicaSetSpec)/#field-replicas$", 3),
    Query("generators", rf"/{ARGO}applicationSet/[^#]*#field-", 5),
    Query("imagePullPolicy", r"/core/v1/container/#field-imagepullpolicy$", 3),
    Query("Pod", r"/core/v1/pod/$", 1),
    Query("read_namespaced_deployment",
          r"/apps/v1/deployment/#op-get-apis-apps-v1-namespaces-namespace-deployments-name$", 3),
    # more that readers type: field names, kinds, Python names, paths, RBAC resources, CRD fields
    Query("nodeSelector", r"/core/v1/podSpec/#field-nodeselector$", 3),
    Query("resources limits", r"/core/v1/resourceRequirements/#field-limits$", 3),
    Query("cronjob schedule", r"/batch/v1/cronJobSpec/#field-schedule$", 3),
    Query("Deployment", r"/apps/v1/deployment/$", 1),
    Query("V1Deployment", r"/apps/v1/deployment/$", 1),
    Query("client.V1Deployment", r"/apps/v1/deployment/$", 1),
    Query("spec.template.spec.containers", r"/core/v1/podSpec/#field-containers$", 3),
    Query("pods/exec", r"/core/v1/pod/#op-[a-z0-9-]*-pods-name-exec$", 3),
    Query("syncPolicy", rf"/{ARGO}application/[^#]*#field-spec\.syncPolicy$", 3),
    Query("spec.generators.matrix", rf"/{ARGO}applicationSet/[^#]*#field-spec\.generators\.matrix$", 3),
    Query("ApplicationSet", rf"/{ARGO}applicationSet/$", 1),
]

VISIBLE_RESULTS = """() => [...document.querySelectorAll('.md-search-result__item')].flatMap(item =>
  [...item.querySelectorAll('.md-search-result__link')]
    .filter(a => !a.closest('details'))
    .map(a => ({href: a.getAttribute('href').replace(/\\?h=[^#]*/, ''),
                title: a.querySelector('h1, h2')?.textContent.trim() ?? '',
                snippet: [...a.querySelector('article').childNodes]
                  .filter(n => !['H1', 'H2', 'DIV'].includes(n.nodeName))
                  .map(n => n.textContent).join('').trim()})))"""
"""The result links a reader sees, in order: href (without ``?h=``), title, snippet."""


def results(page: Any, query: str) -> list[dict[str, str]]:
    """What Material shows for ``query`` typed into the search box of ``page``."""
    from helpers.browser import settle

    box = page.locator("input.md-search__input")
    meta = "(document.querySelector('.md-search-result__meta')?.textContent.trim() ?? '')"
    box.click()
    box.fill("")
    box.press("End")  # Material reads the box on keyup
    page.wait_for_function(f"() => {meta} !== '' && "
                           "!document.querySelector('.md-search-result__item')")
    placeholder = page.evaluate(f"() => {meta}")  # "Type to start searching"
    box.fill(query)  # one keyup, one search: no result of a part of the query arrives late
    box.press("End")
    page.wait_for_function(f"p => {meta} !== '' && {meta} !== p", arg=placeholder)
    settle(page)
    found: list[dict[str, str]] = page.evaluate(VISIBLE_RESULTS)
    return found


def rank(found: list[dict[str, str]], query: Query) -> int | None:
    """The 1-based position of the first link ``query`` wants, if shown."""
    return next((i for i, r in enumerate(found, 1) if re.search(query.wanted, r["href"])), None)


def search_site(root: Path) -> Path:
    """``mkdocs build --strict`` of the test site in ``root``."""
    from helpers.paths import SHARED
    from helpers.sites import plugin_site

    argo_cd = str(SHARED / "crds/corpus/argo-cd")
    return plugin_site(root, {"versions": [{"version": "1.32", "crds": [argo_cd]}], "groups": GROUPS})


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from helpers.paths import need_shared

    need_shared()
    return search_site(tmp_path_factory.mktemp("search-site"))


@pytest.fixture(scope="module")
def site_url(site: Path) -> Iterator[str]:
    from browserkit import served

    yield from served(site)


@pytest.fixture(scope="module")
def ask(browser: Any, site_url: str) -> Iterator[Callable[[str], list[dict[str, str]]]]:
    """Queries typed on the release home, one tab for all of them."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(site_url + "1.32/", wait_until="load")
    yield lambda query: results(page, query)
    context.close()
    assert errors == []


@pytest.mark.parametrize("query", QUERIES, ids=[q.text for q in QUERIES])
def test_query_finds_the_answer_near_the_top(ask: Callable[[str], list[dict[str, str]]],
                                             query: Query) -> None:
    found = ask(query.text)
    position = rank(found, query)
    assert position is not None and position <= query.within, \
        (query.text, position, [r["href"] for r in found[:8]])


def test_snippets_are_descriptions_not_badges(ask: Callable[[str], list[dict[str, str]]]) -> None:
    """The first snippet shown is what the thing is: the row's or the model's description."""
    found = ask("replicas")
    first = next(r for r in found if r["snippet"])
    assert re.search(r"\bdesired\b", first["snippet"]), first  # "Number of desired pods…"
    assert "Kubernetes 1.32" not in first["snippet"] and "Other versions" not in first["snippet"]
    found = ask("Pod")
    assert found[0]["snippet"].startswith("Pod is a collection of containers"), found[0]
    found = ask("imagePullPolicy")
    row = next(r for r in found if r["href"].endswith("/core/v1/container/#field-imagepullpolicy"))
    assert "Image pull policy" in row["snippet"], row
    found = ask("generators")
    row = next(r for r in found if re.search(rf"/{ARGO}applicationSet/[^#]*#field-", r["href"]))
    assert row["title"] == "generators · spec.generators", row  # name and path
    assert row["snippet"] == "[]object (required)", row  # argo-cd's CRDs have no descriptions


def test_the_unit_tests_oracle_shows_what_material_shows(
        site: Path, ask: Callable[[str], list[dict[str, str]]]) -> None:
    """``tests/lunr_oracle.py`` (what the unit tests of entry shaping judge by) agrees with
    Material's search in the browser on the first results of every query of the set."""
    import json

    from lunr_oracle import Search

    oracle = Search(json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8")))
    for query in [*QUERIES, Query("container image", "", 0), Query("generators list", "", 0)]:
        seen = [urlsplit(r["href"]) for r in ask(query.text)][:4]
        assert [u.path.removeprefix("/") + (f"#{u.fragment}" if u.fragment else "") for u in seen] == \
            [d["location"] for d in oracle.shown(query.text)][:4], query.text


def main(site: Path) -> None:
    """Print each query's rank on ``site`` (a built site directory) in Chromium."""
    sys.path.insert(0, str(Path(__file__).parent))
    from browserkit import chromium, serve

    httpd, origin = serve(site)
    for browser in chromium():
        page = browser.new_page()
        page.goto(origin + "/1.32/", wait_until="load")
        for query in QUERIES:
            found = results(page, query.text)
            position = rank(found, query)
            first = found[0] if found else {"href": "", "snippet": ""}
            print(f"{query.text!r}: rank {position} (wanted within {query.within}); first: "
                  f"{first['href'].removeprefix(origin)} | {first['snippet'][:70]!r}")
    httpd.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
