"""The published site as a reader uses it (issue 15), in Debian Chromium through Playwright:
the version switch keeps the page (``build-site`` output served under ``/docs/``), aliases
resolve, search answers names, fields and builder functions, field paths open the defining row,
pages are readable at 390 px, no request leaves the site, and axe-core finds no serious or
critical accessibility violation. Skipped without Chromium/Playwright/axe-core, except in CI.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browserkit import CLIPPED_TEXT, QuietHandler, missing, served
from helpers.browser import settle
from helpers.paths import REPO
from setup_extras import AXE_JS

pytestmark = pytest.mark.browser

PREFIX = "/docs/"
SITE_URL = "https://docs.example.org/docs/"
"""The ``--site-url`` of the published test site: another host than the test server on purpose
(Material maps pages through the sitemap's paths; the host does not matter)."""
SCREENS = REPO / "test-output" / "screens"



class _Handler(QuietHandler):
    """Serves ``directory`` under ``/docs/`` only (as a GitHub Pages project site)."""

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        if not clean.startswith(PREFIX):
            return str(Path(self.directory) / "\0missing")
        return super().translate_path("/" + path[len(PREFIX):])



@pytest.fixture(scope="module")
def published_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``build-site`` of 1.31 + 1.32 (the default preset) with ``--site-url``."""
    from generator.cli import main

    root = tmp_path_factory.mktemp("published")
    code = main(["build-site", "--out", str(root / "public"), "--cache-dir", str(root / "cache"),
                 "--config", str(REPO / "mkdocs.yml"), "--site-url", SITE_URL, "--quiet"])
    assert code == 0
    return root / "public"


@pytest.fixture(scope="module")
def published(published_root: Path) -> Iterator[str]:
    """``published_root`` served under ``/docs/``; its base URL."""
    yield from served(published_root, _Handler, PREFIX)



class Tab:
    """A browser tab on the local site; every request to another host is recorded and refused."""

    def __init__(self, browser: Any, base: str, *, width: int = 1280, scheme: str = "light") -> None:
        self.base = base
        origin = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}/"
        self.context = browser.new_context(viewport={"width": width, "height": 900},
                                           color_scheme=scheme)
        self.foreign: list[str] = []
        self.context.route(re.compile(r"^(?!" + re.escape(origin) + ")"), self._refuse)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    def _refuse(self, route: Any) -> None:
        self.foreign.append(route.request.url)
        route.abort()

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path, wait_until="load")
        return self.page

    def close(self) -> None:
        self.context.close()


@pytest.fixture()
def tab(browser: Any, published: str) -> Iterator[Tab]:
    t = Tab(browser, published)
    yield t
    t.close()


def title(page: Any) -> str:
    return str(page.locator("article h1").first.inner_text()).strip().rstrip("¶").strip()


def switch_version(page: Any, version: str) -> None:
    page.locator(".md-version__current").wait_for(state="visible", timeout=30_000)
    page.locator(".md-version").hover()
    page.locator(".md-version__link", has_text=re.compile(rf"^\s*{re.escape(version)}")).first.click()


# -- 1. version switch -----------------------------------------------------------------------


@pytest.mark.parametrize("path", ["resource/v1alpha3/resourceClaimStatus/", "core/v1/pod/"])
def test_version_switch_keeps_the_page(tab: Tab, path: str) -> None:
    page = tab.open(f"1.31/{path}")
    switch_version(page, "1.32")
    page.wait_for_url(f"**{PREFIX}1.32/{path}", timeout=30_000)
    assert title(page) == ("ResourceClaimStatus" if "resourceClaim" in path else "Pod")
    assert "Kubernetes 1.32" in page.locator("article .k8s-meta").first.inner_text()
    assert tab.errors == []


def test_version_switch_falls_back_to_the_release_home(tab: Tab) -> None:
    """A page missing in the target release: the selector goes to that release's home."""
    page = tab.open("1.32/resource/v1beta1/resourceClaimStatus/")  # v1beta1 is new in 1.32
    switch_version(page, "1.31")
    page.wait_for_url(f"**{PREFIX}1.31/", timeout=30_000)
    assert title(page) == "Kubernetes 1.31"


def test_latest_alias_reaches_the_newest_release(tab: Tab) -> None:
    page = tab.open("latest/")
    page.wait_for_url(f"**{PREFIX}1.32/", timeout=30_000)
    assert title(page) == "Kubernetes 1.32"
    page = tab.open("latest/core/v1/pod/#field-spec")
    page.wait_for_url(f"**{PREFIX}1.32/core/v1/pod/#field-spec", timeout=30_000)
    assert title(page) == "Pod"


# -- 2. search -------------------------------------------------------------------------------


def search(page: Any, query: str) -> list[str]:
    """The result links (``href``s, best first) Material shows for ``query``."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("")
    box.press_sequentially(query)
    page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        "q => document.querySelector('.md-search-result__meta')?.textContent.trim() !== '' "
        "&& document.querySelector('input.md-search__input').value === q", arg=query)
    settle(page)
    hrefs = [str(a.get_attribute("href")) for a in page.locator(".md-search-result__link").all()]
    return [re.sub(r"\?h=[^#]*", "", href) for href in hrefs]  # search.highlight's ?h=…


def test_search_index_per_release_stays_small(published_root: Path) -> None:
    for release in ("1.31", "1.32"):
        size = (published_root / release / "search" / "search_index.json").stat().st_size
        assert 1_000_000 < size <= 5_000_000, (release, size)


def test_search_pod_first_then_builder_function_then_field_row(tab: Tab) -> None:
    page = tab.open("1.32/")
    links = search(page, "Pod")
    assert links[0].endswith("core/v1/pod/"), links[:5]
    assert "Pod · core/v1 · 1.32" in page.locator(".md-search-result__item").first.inner_text()
    for name, path in (("Service", "core/v1/service/"), ("Deployment", "apps/v1/deployment/"),
                       ("ResourceClaimStatus", "resource/v1beta1/resourceClaimStatus/")):
        links = search(tab.open("1.32/"), name)
        assert links[0].endswith(path) or (name == "ResourceClaimStatus" and links[0].endswith(
            "resource/v1alpha3/resourceClaimStatus/")), (name, links[:5])
    links = search(tab.open("1.32/"), "withContainers")
    assert any(link.endswith("core/v1/podSpec/#fn-withcontainers") for link in links), links[:10]
    page = tab.open("1.32/")
    links = search(page, "terminationGracePeriodSeconds")
    assert any(link.endswith("#field-terminationgraceperiodseconds") for link in links), links[:10]
    snippet = page.locator(".md-search-result__link[href*='/core/v1/podSpec/']"
                           "[href$='#field-terminationgraceperiodseconds']")
    text = " ".join(snippet.first.inner_text().split())
    assert "terminationGracePeriodSeconds — integer (int64) — Optional duration in seconds" in text
    assert tab.errors == []


def test_search_finds_an_operation_by_its_path_and_its_python_method(tab: Tab) -> None:
    """Issue 25 item 5: each operation row is a search entry (the path its title, the Python
    method a word of its own: in the row it is one token with its class and arguments)."""
    row = "apps/v1/deployment/#op-get-apis-apps-v1-namespaces-namespace-deployments-name"
    links = search(tab.open("1.32/"), "read_namespaced_deployment")
    assert any(link.endswith(row) for link in links), links[:10]
    links = search(tab.open("1.32/"), "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale")
    assert any(link.endswith(row + "-scale") for link in links), links[:10]
    page = tab.open("1.32/" + row)
    assert "read_namespaced_deployment" in page.locator(f"#{row.split('#')[1]}").inner_text()
    assert tab.errors == []


# -- 3. field paths --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["spec.template.spec.containers.image",
                                  "deployment.spec.template.spec.containers[].image"])
def test_field_path_opens_the_defining_row(tab: Tab, path: str) -> None:
    page = tab.open("1.32/apps/v1/deployment/")
    box = page.locator("form.k8s-fieldpath input")
    box.fill(path)
    box.press("Enter")
    page.wait_for_url(f"**{PREFIX}1.32/core/v1/container/#field-image", timeout=30_000)
    row = page.locator("#field-image")
    box_ = row.bounding_box()
    assert box_ is not None and 0 <= box_["y"] < 900
    assert "image" in row.inner_text()
    assert tab.errors == []


def test_field_path_reports_a_wrong_path(tab: Tab) -> None:
    page = tab.open("1.32/apps/v1/deployment/")
    box = page.locator("form.k8s-fieldpath input")
    box.fill("spec.template.spec.containers.nope")
    box.press("Enter")
    page.locator("form.k8s-fieldpath output", has_text="Container has no field nope").wait_for()
    assert page.url.endswith("1.32/apps/v1/deployment/")


def test_every_property_row_has_a_visible_link_to_itself(tab: Tab) -> None:
    page = tab.open("1.32/core/v1/podSpec/")
    rows = page.locator(".k8s-properties tbody tr")
    assert rows.count() > 30
    for i in range(rows.count()):
        row = rows.nth(i)
        link = row.locator("a.k8s-field-link")
        assert link.get_attribute("href") == "#" + str(row.get_attribute("id"))
        assert link.is_visible()


# -- 4. narrow screens -----------------------------------------------------------------------


SPLIT_WORDS = """() => {
  // Every text node of a field name is one word between <wbr>s: it must sit on one line.
  const bad = [];
  for (const code of document.querySelectorAll('.k8s-properties td:first-child code')) {
    for (const node of code.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent) continue;
      const range = document.createRange(); range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (lines.size > 1) bad.push(code.textContent + ': ' + node.textContent);
    }
  }
  return bad;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_podspec_page_fits_the_screen_and_breaks_names_between_words(
        browser: Any, published: str, width: int) -> None:
    t = Tab(browser, published, width=width)
    try:
        page = t.open("1.32/core/v1/podSpec/")
        seen = page.evaluate(CLIPPED_TEXT)  # every page kind: tests/test_site_reading.py
        assert seen["lines"] > 800 and seen["clipped"] == [] and seen["scrolling"] == [], seen
        assert page.evaluate("document.documentElement.scrollWidth") <= seen["vw"]
        assert page.evaluate(SPLIT_WORDS) == []
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.locator("#field-terminationgraceperiodseconds").scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENS / f"podSpec-{width}.png"))
        if width == 390:  # stacked rows: name and type on one line, description below
            name = page.locator("#field-activedeadlineseconds td").nth(0).bounding_box()
            kind = page.locator("#field-activedeadlineseconds td").nth(1).bounding_box()
            text = page.locator("#field-activedeadlineseconds td").nth(2).bounding_box()
            assert name and kind and text
            assert abs(name["y"] - kind["y"]) < 12 and text["y"] > name["y"] + 10
            assert text["width"] > width * 0.7
    finally:
        t.close()


# -- 5. no third-party requests --------------------------------------------------------------


FIVE_PAGES = ("1.32/", "1.32/core/v1/pod/", "1.32/changes/", "1.31/resource/v1alpha3/resourceClaimStatus/",
              "1.32/about/")


def test_five_pages_request_nothing_from_other_hosts(browser: Any, published: str) -> None:
    t = Tab(browser, published)
    requested: list[str] = []
    t.page.on("request", lambda r: requested.append(r.url))
    try:
        for path in FIVE_PAGES:
            t.open(path)
            t.page.wait_for_load_state("networkidle")
        hosts = {urlsplit(url).netloc for url in requested if not url.startswith("data:")}
        assert hosts == {urlsplit(published).netloc}, sorted(hosts)
        assert t.foreign == []
        assert len(requested) > 10  # the pages, stylesheets, scripts and search index were seen
    finally:
        t.close()


# -- 7. accessibility ------------------------------------------------------------------------


AXE_PAGES = ("1.32/core/v1/pod/", "1.32/changes/", "1.32/")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_or_critical_violations(browser: Any, published: str, scheme: str) -> None:
    if not AXE_JS.is_file():
        missing(f"axe-core is not installed ({AXE_JS})")
    t = Tab(browser, published, scheme=scheme)
    try:
        found = {}
        for path in AXE_PAGES:
            page = t.open(path)
            assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == \
                ("slate" if scheme == "dark" else "default")
            page.locator(".md-version__current").wait_for(state="attached")  # after versions.json
            page.add_script_tag(path=str(AXE_JS))
            violations = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                ".map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '))")
            if violations:
                found[path] = violations
        assert found == {}
    finally:
        t.close()
