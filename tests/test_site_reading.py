"""Reading the site at the user's edge (issue 24 items 4, 6, 7), in Debian Chromium:

- at 390 px no line of table text ends past what the reader can see and no table scrolls
  sideways, on every page kind (model, CRD kind, change page, index pages, the Zensical build);
- the README's default build (one MkDocs site, 1.31 and 1.32) has a release switcher that keeps
  the page, and its search puts the current page's release first and names each result's
  release (its index-page snippets: ``test_site.py``);
- a CRD field path three levels deep resolves in ``fieldpaths.json`` and in the field-path box.

Screenshots of the pages at 1400 and 390 px go to ``test-output/screens/``."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import CLIPPED_TEXT, served

REPO = Path(__file__).resolve().parents[1]
SCREENS = REPO / "test-output" / "screens"
GATEWAY = "gateway-v1.2.0"
ROUTE = f"{GATEWAY}/gateway.networking.k8s.io/v1/httpRoute/"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def gateway_site(gateway_crd_site: Path) -> Path:
    """One release of the Gateway API v1.2.0 CRDs (``GATEWAY``), built by MkDocs with the
    repository's theme: the site test_crd_browser reads too, built once (conftest)."""
    return gateway_crd_site


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``build-site --builder zensical`` of 1.32's core group."""
    if importlib.util.find_spec("zensical") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI must test the Zensical builder (tests/setup_extras.py installs zensical)")
        pytest.skip("zensical is not installed")
    from generator.cli import main

    root = tmp_path_factory.mktemp("zensical-site")
    code = main(["build-site", "--builder", "zensical", "--version", "1.32", "--group", "core",
                 "--out", str(root / "public"), "--cache-dir", str(root / "cache"),
                 "--config", str(REPO / "mkdocs.yml"), "--quiet"])
    assert code == 0
    return root / "public"


@pytest.fixture(scope="module")
def combined_url(built_site: Path) -> Iterator[str]:
    """The README's default build (``mkdocs build``: 1.31 and 1.32 in one site), served."""
    yield from served(built_site)


@pytest.fixture(scope="module")
def gateway_url(gateway_site: Path) -> Iterator[str]:
    yield from served(gateway_site)


@pytest.fixture(scope="module")
def zensical_url(zensical_site: Path) -> Iterator[str]:
    yield from served(zensical_site)


class Reader:
    """A tab at a given width; console errors and requests to other hosts are recorded."""

    def __init__(self, browser: Any, width: int) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.context.route(re.compile(r"^(?!http://127\.0\.0\.1:)"), lambda route: route.abort())
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def open(self, url: str) -> Any:
        self.page.goto(url, wait_until="load")
        return self.page


@pytest.fixture()
def reader(browser: Any) -> Iterator[Reader]:
    r = Reader(browser, 1400)
    yield r
    r.context.close()


# -- item 4: 390 px ---------------------------------------------------------------------------

PAGES = {
    "podSpec": ("combined", "1.32/core/v1/podSpec/", 800),
    "deployment": ("combined", "1.32/apps/v1/deployment/", 50),
    "changes": ("combined", "1.32/changes/", 40),
    "core-v1-index": ("combined", "1.32/core/v1/", 500),
    "release-home": ("combined", "1.32/", 1000),
    "httpRoute": ("gateway", ROUTE, 1500),
    "zensical-podSpec": ("zensical", "1.32/core/v1/podSpec/", 800),
}


@pytest.mark.parametrize("width", [390, 1400])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_table_text_stays_on_the_screen(browser: Any, request: pytest.FixtureRequest, name: str,
                                        width: int) -> None:
    """Every text line of every table ends inside what the reader sees, and no table needs
    sideways scrolling (what the CSS before issue 24 clipped: benchmarks/RESULTS.md)."""
    site, path, min_lines = PAGES[name]
    r = Reader(browser, width)
    try:
        page = r.open(request.getfixturevalue(f"{site}_url") + path)
        seen = page.evaluate(CLIPPED_TEXT)
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / f"reading-{name}-{width}.png"))
        assert seen["lines"] > min_lines, seen  # the tables were measured at all
        assert seen["clipped"] == [], seen["clipped"][:10]
        assert seen["scrolling"] == [], seen["scrolling"]
        assert r.errors == []
    finally:
        r.context.close()


# -- item 7: CRD field paths at any depth -----------------------------------------------------


def test_crd_field_path_three_levels_deep_is_in_fieldpaths_json(gateway_site: Path) -> None:
    data = json.loads((gateway_site / GATEWAY / "fieldpaths.json").read_text(encoding="utf-8"))
    key = "gateway.networking.k8s.io/v1/httpRoute/"
    for name in ("spec", "rules", "backendRefs"):
        key = data["models"][key]["f"][name][1]  # the entry of the field's type
        assert key is not None, name
    anchor = data["models"][key]["f"]["port"][0]
    assert anchor == "field-spec.rules.backendRefs.port"
    html = (gateway_site / GATEWAY / key.split("#")[0] / "index.html").read_text(encoding="utf-8")
    assert f'<tr id="{anchor}">' in html


def test_crd_field_path_box_opens_a_deep_row(reader: Reader, gateway_url: str) -> None:
    page = reader.open(gateway_url + ROUTE)
    box = page.locator("form.k8s-fieldpath input")
    box.fill("httproute.spec.rules[].matches[].path.type")
    box.press("Enter")
    page.wait_for_function("location.hash === '#field-spec.rules.matches.path.type'")
    row = page.locator('[id="field-spec.rules.matches.path.type"]')
    found = row.bounding_box()
    assert found is not None and 0 <= found["y"] < 900
    assert "PathPrefix" in row.inner_text()
    assert page.locator("form.k8s-fieldpath output").inner_text() == ""
    assert reader.errors == []


# -- item 6: the combined site ----------------------------------------------------------------


def _switch(page: Any, release: str) -> None:
    page.locator(".k8s-releases .md-version__current").wait_for(state="visible")
    page.locator(".k8s-releases").hover()
    name = re.compile(rf"^\s*{re.escape(release)}\s*$")
    page.locator(".k8s-releases .md-version__link", has_text=name).click()


def test_release_switcher_keeps_the_page_and_its_anchor(reader: Reader, combined_url: str) -> None:
    base = combined_url
    page = reader.open(base + "1.32/core/v1/pod/#field-spec")
    assert page.locator(".k8s-releases .md-version__current").inner_text().strip() == "1.32"
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENS / "reading-combined-switcher-1400.png"))
    _switch(page, "1.31")
    page.wait_for_url(base + "1.31/core/v1/pod/#field-spec")
    assert page.locator(".k8s-releases .md-version__current").inner_text().strip() == "1.31"
    assert reader.errors == []
    # a page 1.31 does not have (resource.k8s.io/v1beta1 is new in 1.32): that release's home
    page = reader.open(base + "1.32/resource/v1beta1/resourceClaimStatus/")
    _switch(page, "1.31")
    page.wait_for_url(base + "1.31/")
    assert len(reader.errors) == 1 and "404" in reader.errors[0]  # the switcher's HEAD probe


def _search(page: Any, query: str) -> list[tuple[str, str, str]]:
    """(release, title, href) of the results Material shows for ``query``, in order, once the
    site script has ranked and marked them."""
    box = page.locator("input.md-search__input")
    box.click()
    page.evaluate("document.querySelectorAll('.md-search-result__item')"  # results of an earlier query
                  ".forEach(li => li.removeAttribute('data-k8s-release'))")
    box.fill(query)
    box.press("End")  # one keyup: Material queries the whole value once
    page.wait_for_function(
        "() => { const li = [...document.querySelectorAll('.md-search-result__item')];"
        " return li.length > 0 && li.every(x => x.hasAttribute('data-k8s-release')); }")
    out = []
    for item in page.locator(".md-search-result__item").all():
        title = " ".join(item.locator(".md-search-result__article h1, .md-search-result__article h2")
                         .first.inner_text().split())
        href = str(item.locator("a.md-search-result__link").first.get_attribute("href"))
        href = re.sub(r"\?h=[^#]*", "", href)
        out.append((str(item.get_attribute("data-k8s-release")), title, href))
    return out


@pytest.mark.parametrize("release", ["1.32", "1.31"])
def test_search_puts_the_current_release_first_and_names_each_results_release(
        reader: Reader, combined_url: str, release: str) -> None:
    page = reader.open(combined_url + f"{release}/")
    results = _search(page, "Pod")
    assert results[0][1] == f"Pod · core/v1 · {release}", results[:5]
    assert results[0][2].endswith(f"/{release}/core/v1/pod/"), results[:5]
    mine = [r for r, _, _ in results if r == release]
    assert results[:len(mine)] == [x for x in results if x[0] == release]  # all of this release first
    assert any(r not in ("", release) for r, _, _ in results)  # the other release is still found
    for r, title, _ in results:
        assert not r or r in title, (r, title)  # the release is named (title or badge)
    page.screenshot(path=str(SCREENS / f"reading-combined-search-{release}-1400.png"))
    # an index page's result: its title ("core/v1") gets the release as a badge
    results = _search(page, "AWSElasticBlockStoreVolumeSource")
    assert results[0][0] == release, results[:3]
    assert results[0][2].endswith(f"/{release}/core/v1/awsElasticBlockStoreVolumeSource/"), results[:3]
    assert reader.errors == []

