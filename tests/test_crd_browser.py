"""A CRD kind page in a real browser: the field-path anchor lands on its row, the printer
columns show. Built from the Gateway API v1.2.0 CRDs (``../shared``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import served
from helpers.browser import in_view
from test_browser import Tab

pytestmark = [pytest.mark.browser, pytest.mark.shared]
PAGE = "gateway-v1.2.0/gateway.networking.k8s.io/v1/httpRoute/"


@pytest.fixture(scope="module")
def crd_site(gateway_crd_site: Path) -> Path:
    return gateway_crd_site  # the site test_site_reading reads too: built once (conftest)


@pytest.fixture(scope="module")
def crd_url(crd_site: Path) -> Iterator[str]:
    yield from served(crd_site)


@pytest.fixture()
def crd_tab(browser: Any, crd_url: str) -> Iterator[Tab]:
    t = Tab(browser, crd_url)
    yield t
    t.context.close()


def test_field_path_anchor_scrolls_to_its_row(crd_tab: Tab) -> None:
    page = crd_tab.open(PAGE + "#field-spec.rules.matches.path.type")
    in_view(page, "field-spec.rules.matches.path.type")
    row = page.locator('[id="field-spec.rules.matches.path.type"]')
    assert "PathPrefix" in row.inner_text() and "RegularExpression" in row.inner_text()
    box = row.bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
    assert page.evaluate("window.scrollY") > 1000  # deep in the page, not at the top
    assert crd_tab.errors == []


def test_type_link_lands_on_the_nested_section(crd_tab: Tab) -> None:
    page = crd_tab.open(PAGE)
    link = page.locator('[id="field-spec.rules.matches.path"] a', has_text="object").first
    link.click()
    page.wait_for_function("location.hash === '#object-spec.rules.matches.path'")
    box = page.locator('[id="object-spec.rules.matches.path"]').bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]


def test_printer_columns_table_shows(crd_tab: Tab) -> None:
    page = crd_tab.open(PAGE)
    table = page.locator("article .k8s-printer-columns table")
    assert table.is_visible()
    text = table.inner_text()
    assert "Hostnames" in text and ".spec.hostnames" in text and "Age" in text
    assert page.locator("article h2", has_text="Printer columns").count() == 1
    assert crd_tab.errors == []


def test_builder_function_anchor_and_its_field_link(crd_tab: Tab) -> None:
    """The index entry of a nested builder function lands on it (the library's anchor), and the
    function's "Sets" link lands on the row of the field in the field-path tree."""
    page = crd_tab.open(PAGE)
    assert page.locator("article h2", has_text="Builder functions").count() == 1
    page.locator("article details.k8s-builder-index > summary").click()  # collapsed: 180 entries
    page.locator('article a[href="#fn-specrulesmatchespathwithtype"]').first.click()
    page.wait_for_function("location.hash === '#fn-specrulesmatchespathwithtype'")
    box = page.locator("#fn-specrulesmatchespathwithtype").bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
    sets = page.locator('#fn-specrulesmatchespathwithtype + p a.k8s-path')
    sets.click()
    page.wait_for_function("location.hash === '#field-spec.rules.matches.path.type'")
    box = page.locator('[id="field-spec.rules.matches.path.type"]').bounding_box()
    assert box is not None and 0 <= box["y"] < page.viewport_size["height"]
    assert crd_tab.errors == []
