"""The built default site in a real browser (Debian Chromium driven by Playwright).

Served on 127.0.0.1; requests to any other host are answered locally with an empty body, so the
test never touches the network. Skipped when Chromium or Playwright is missing, except in CI.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import serve, served
from helpers.browser import settle
from helpers.paths import REPO

pytestmark = pytest.mark.browser

STATUS_132 = "1.32/resource/v1beta1/resourceClaimStatus/"
SCREENSHOT = REPO / "test-output" / "1.32-resource-v1beta1-resourceClaimStatus.png"



@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    yield from served(built_site)



class Tab:
    """A page of the local site that records console errors and uncaught exceptions."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route(re.compile(r"^(?!" + re.escape(base) + ")"), self._stub)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))

    @staticmethod
    def _stub(route: Any) -> None:
        """Other hosts (web fonts) get an empty answer: no network, no failed-load noise."""
        route.fulfill(status=200, body="", content_type="text/css")

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path, wait_until="load")
        return self.page


def title(page: Any) -> str:
    """The page's h1 without the permalink mark."""
    return str(page.locator("article h1").first.inner_text()).strip().rstrip("¶").strip()


@pytest.fixture()
def tab(browser: Any, site_url: str) -> Iterator[Tab]:
    t = Tab(browser, site_url)
    yield t
    t.context.close()


def test_model_page_loads_without_console_errors_and_screenshot(tab: Tab) -> None:
    page = tab.open(STATUS_132)
    assert title(page) == "ResourceClaimStatus"
    table = page.locator("article table").first
    assert "reservedFor" in table.inner_text() and "devices" in table.inner_text()
    settle(page)  # Material's bundle has run
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=False)
    assert SCREENSHOT.stat().st_size > 10_000
    assert tab.errors == []


def test_builder_index_entry_lands_on_its_anchor(tab: Tab) -> None:
    page = tab.open(STATUS_132)
    assert page.locator("article :is(h2, h3)", has_text="Builder functions").count() >= 1
    entry = page.locator('article a[href="#fn-withreservedfor"]').first
    entry.click()
    page.wait_for_function("location.hash === '#fn-withreservedfor'")
    target = page.locator("#fn-withreservedfor")
    box = target.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
    assert tab.errors == []


def test_example_tabs_switch(tab: Tab) -> None:
    page = tab.open(STATUS_132)
    tabs = page.locator("article .tabbed-set.tabbed-alternate")
    assert tabs.count() >= 1
    first_set = tabs.first
    labels = first_set.locator(".tabbed-labels > label")
    blocks = first_set.locator(".tabbed-content > .tabbed-block")
    assert labels.count() >= 2 and blocks.count() == labels.count()
    assert blocks.nth(0).is_visible() and not blocks.nth(1).is_visible()
    labels.nth(1).click()
    page.wait_for_function("(el) => el.offsetParent !== null", arg=blocks.nth(1).element_handle())
    assert blocks.nth(1).is_visible() and not blocks.nth(0).is_visible()
    labels.nth(0).click()
    assert blocks.nth(0).is_visible()
    assert tab.errors == []


def test_other_versions_link_opens_the_131_page_of_the_same_model(tab: Tab) -> None:
    page = tab.open(STATUS_132)
    assert page.locator("article", has_text="Other versions").count() >= 1
    link = page.locator('article a[href$="1.31/resource/v1alpha3/resourceClaimStatus/"]').first
    assert link.get_attribute("href") == "../../../../1.31/resource/v1alpha3/resourceClaimStatus/"
    link.click()
    page.wait_for_url("**/1.31/resource/v1alpha3/resourceClaimStatus/")
    assert title(page) == "ResourceClaimStatus"
    assert "deallocationRequested" in page.locator("article table").first.inner_text()
    assert tab.errors == []


def test_search_finds_resource_claim_status(tab: Tab) -> None:
    page = tab.open("1.32/")
    query = page.locator("input.md-search__input")
    query.click()
    query.press_sequentially("ResourceClaimStatus")
    result = page.locator(".md-search-result__item", has_text="ResourceClaimStatus").first
    result.wait_for(state="visible", timeout=60_000)
    assert "resourceClaimStatus/" in (result.locator("a").first.get_attribute("href") or "")
    assert tab.errors == []


def test_dark_light_toggle(tab: Tab) -> None:
    page = tab.open(STATUS_132)
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    assert page.evaluate(scheme) == "default"
    page.locator('[data-md-component="palette"] label:visible').click()
    page.wait_for_function(f"{scheme} === 'slate'")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.locator('[data-md-component="palette"] label:visible').click()
    page.wait_for_function(f"{scheme} === 'default'")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != background
    assert tab.errors == []


def test_hostile_spec_runs_no_script_in_the_browser(browser: Any, hostile_site: Path) -> None:
    """Pages and search results of the hostile fixture spec open no dialog and run nothing."""
    httpd, origin = serve(hostile_site)
    t = Tab(browser, origin + "/")
    dialogs: list[str] = []
    t.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        widget = next(hostile_site.glob("x/hostile-*/v1/widget/index.html")).parent
        named = next(hostile_site.glob("x/hostile-*/v1/script-alert-PWNED-script-*/index.html")).parent
        for page_dir in (named, widget):
            page = t.open(str(page_dir.relative_to(hostile_site)) + "/")
            page.mouse.move(400, 400)
            page.mouse.move(600, 500)  # hover handlers, had any been injected
        assert "Plain start. <script>alert('PWNED')</script>" in page.inner_text("article")
        query = page.locator("input.md-search__input")
        query.click()
        query.press_sequentially("script")  # the hostile names and descriptions (PWNED is inside a token)
        page.locator(".md-search-result__item").first.wait_for(state="visible", timeout=30_000)
        settle(page)
        assert "PWNED" in page.inner_text(".md-search-result")  # shown as text
        assert dialogs == []
        scripts = "document.querySelectorAll('article script, .md-search-result script').length"
        assert page.evaluate(scripts) == 0
        assert t.errors == []
        # Control: the same listener does see a script that runs.
        page.set_content("<script>alert('control')</script>")
        assert dialogs == ["control"]
    finally:
        t.context.close()
        httpd.shutdown()
        httpd.server_close()
