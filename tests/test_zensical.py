"""``build-site --builder zensical``: 1.31 + 1.32 built by Zensical (restricted to the
``resource`` API group, plus ``meta`` and ``common``, to stay cheap): both release sites at the
URLs of the MkDocs build, ``versions.json`` and the root page, no broken internal link, search,
and the version selector switching 1.31 → 1.32 on the same page in a browser.

Zensical comes from PyPI (``k8s-api-docs[zensical]``, installed by ``tests/setup_extras.py``); a
missing Zensical skips these tests, except in CI.
"""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import served
from helpers.paths import IN_CI, REPO
from linkcheck import broken_links

from generator.config import Release
from generator.errors import GeneratorError
from generator.pipeline.build import generate
from generator.render.raw_html import CLOSE, OPEN, source_relative
from generator.sitebuild.build import BuildSiteOptions, BuildSummary, build_site, check_links
from generator.sitebuild.mkdocs_yml import ParentConfig
from generator.views.site import published_url

pytestmark = pytest.mark.slow
SITE_URL = "https://docs.example.org/k8s/"
"""Another host and path than the test server's on purpose: the version selector maps pages
through the paths of the sitemap's ``<loc>``s below the common root."""
GROUPS = ["resource"]
STATUS = "resource/v1alpha3/resourceClaimStatus/"


def _need_zensical() -> None:
    if importlib.util.find_spec("zensical") is None:
        if IN_CI:
            pytest.fail("CI must test the Zensical builder (tests/setup_extras.py installs zensical)")
        pytest.skip("zensical is not installed (pip install 'k8s-api-docs[zensical]')")


class Built:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.site = root / "site"
        self.cache = root / "cache"
        self.summary: BuildSummary | None = None

    def build(self) -> BuildSummary:
        return build_site(BuildSiteOptions(
            releases=[Release("1.31"), Release("1.32")], out=self.site, config_file=REPO / "mkdocs.yml",
            cache_dir=self.cache, jobs=2, groups=GROUPS, progress=False, builder="zensical",
            site_url=SITE_URL))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    _need_zensical()
    b = Built(tmp_path_factory.mktemp("zensical"))
    b.summary = b.build()
    return b


def test_both_release_sites_versions_json_and_root_page(built: Built) -> None:
    assert built.summary is not None and sorted(built.summary.built) == ["1.31", "1.32"]
    for version in ("1.31", "1.32"):
        home = (built.site / version / "index.html").read_text(encoding="utf-8")
        assert f"Kubernetes {version}" in home
        assert "Zensical" in home  # built by Zensical, not MkDocs
        config = json.loads(re.search(r'id="__config" type="application/json">(.*?)</script>', home)[1])
        assert config["version"] == {"provider": "mike", "default": "latest"}  # the selector is on
        sitemap = (built.site / version / "sitemap.xml").read_text(encoding="utf-8")
        assert f"<loc>{SITE_URL}{version}/{STATUS}</loc>" in sitemap
    entries = json.loads((built.site / "versions.json").read_text(encoding="utf-8"))
    assert entries == [{"version": "1.32", "title": "1.32", "aliases": ["latest"]},
                       {"version": "1.31", "title": "1.31", "aliases": []}]
    root = (built.site / "index.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh" content="0; url=1.32/"' in root


def test_same_urls_as_the_mkdocs_build(built: Built) -> None:
    """Every generated page at its published URL (the plan the MkDocs plugin publishes), the
    hand-written home as about/, and nothing else."""
    for version in ("1.31", "1.32"):
        site = generate([Release(version)], siblings=[Release("1.31"), Release("1.32")],
                        groups=GROUPS, at_root=True)
        expected = {published_url(p) + "index.html" if published_url(p) else "index.html"
                    for p in site.pages if p.endswith(".md")} | {"about/index.html", "404.html"}
        html = {p.relative_to(built.site / version).as_posix()
                for p in (built.site / version).rglob("*.html")}
        assert html == expected


def test_no_broken_internal_link(built: Built) -> None:
    assert broken_links(built.site) == []


def test_132_status_page_has_the_devices_row_and_131_has_not(built: Built) -> None:
    new = (built.site / "1.32" / "resource" / "v1beta1" / "resourceClaimStatus" / "index.html").read_text()
    assert '<tr id="field-devices"><td><a class="k8s-field-link" href="#field-devices"' in new
    old = (built.site / "1.31" / STATUS / "index.html").read_text()
    assert 'id="field-devices"' not in old and 'id="field-deallocationrequested"' in old
    assert 'href="../../../../1.32/resource/v1alpha3/resourceClaimStatus/"' in old  # Other versions


def test_search_index_of_each_release(built: Built) -> None:
    index = json.loads((built.site / "1.32" / "search.json").read_text(encoding="utf-8"))
    locations = {item["location"] for item in index["items"]}
    assert "resource/v1beta1/resourceClaimStatus/" in locations
    assert "resource/v1beta1/resourceClaimStatus/#properties" not in locations  # one item per row
    assert "resource/v1beta1/resourceClaimStatus/#field-devices" in locations
    assert not any(loc.endswith("#example") for loc in locations)  # data-search-exclude holds


def test_nothing_changed_rebuilds_nothing(built: Built) -> None:
    summary = built.build()
    assert summary.built == [] and sorted(summary.skipped) == ["1.31", "1.32"]


def test_links_become_relative_to_the_markdown_file() -> None:
    block = f'{OPEN}\n<a href="../y/">y</a> <a href="#f">f</a>\n{CLOSE}'
    page = f"# X\n\n{block}\n\n[old](../../../1.31/a/b/) [md](../a.md#x)\n"
    assert source_relative(page, "a/x.md") == page.replace('"../y/"', '"y/"').replace(
        "(../../../1.31/", "(../../1.31/")
    assert source_relative(page, "a/index.md") == page


def test_a_broken_link_fails_the_build_and_keeps_the_published_site(tmp_path: Path) -> None:
    out = tmp_path / "site"
    for name, body in (("1.31", '<a href="../1.32/x/">ok</a>'), (".build-1.32", '<a href="missing/">no</a>')):
        (out / name).mkdir(parents=True)
        (out / name / "index.html").write_text(body, encoding="utf-8")
    (out / ".build-1.32" / "x").mkdir()
    (out / ".build-1.32" / "x" / "index.html").write_text('<a href="../../1.31/">up</a>', encoding="utf-8")
    with pytest.raises(GeneratorError, match=r"1 broken internal link.*1\.32/index\.html: missing/"):
        check_links(out, ["1.32"], ".build-")
    assert not (out / ".build-1.32").exists() and (out / "1.31" / "index.html").is_file()


# -- the version selector in a browser -------------------------------------------------------



@pytest.fixture(scope="module")
def site(built: Built) -> Iterator[str]:
    yield from served(built.site)


@pytest.mark.browser
def test_version_selector_switches_131_to_132_on_the_same_page(browser: Any, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    foreign: list[str] = []

    def refuse(route: Any) -> None:
        foreign.append(route.request.url)
        route.abort()

    context.route(re.compile(r"^(?!" + re.escape(site) + ")"), refuse)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(site + "1.31/" + STATUS, wait_until="load")
        page.locator(".md-version__current").wait_for(state="visible", timeout=30_000)
        assert page.locator(".md-version__current").inner_text().strip() == "1.31"
        page.locator(".md-version").hover()
        page.locator(".md-version__link", has_text=re.compile(r"^\s*1\.32")).first.click()
        page.wait_for_url(f"**/1.32/{STATUS}", timeout=30_000)
        assert "Kubernetes 1.32" in page.locator("article .k8s-meta").first.inner_text()
        assert page.locator("article h1").first.inner_text().strip().rstrip("¶").strip() \
            == "ResourceClaimStatus"
        (REPO / "test-output").mkdir(exist_ok=True)
        page.screenshot(path=str(REPO / "test-output" / "zensical-1.32-resourceClaimStatus.png"))
    finally:
        context.close()
    assert errors == []
    theme = ParentConfig.load(REPO / "mkdocs.yml").data.get("theme") or {}
    if theme.get("font") is False:
        assert foreign == []
    else:  # the theme's web fonts (the config's choice: `font: false` turns them off)
        assert all(u.startswith(("https://fonts.googleapis.com/", "https://fonts.gstatic.com/"))
                   for u in foreign), foreign
