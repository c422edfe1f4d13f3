"""``build-site``: per-release sites side by side, skipping unchanged releases, deterministic.

Kept cheap: three releases restricted to one small API group (``node``, plus ``meta`` and
``common`` which every group refers to), ~40 pages per release.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import REPO
from linkcheck import broken_links

from generator.cli import main
from generator.config import Release
from generator.errors import GeneratorError
from generator.sitebuild.build import BuildSiteOptions, BuildSummary, build_site
from generator.sources.jsonschema_pkg import package_bytes
from generator.views.site import SitePlan, published_url, release_url

pytestmark = pytest.mark.slow
VERSIONS = ("1.31", "1.30", "1.29")
FIXED_EPOCH = "1700000000"
SITE_URL = "https://org.example.io/k8s-docs"


class Scenario:
    """One site directory and cache shared by the tests of this module, in file order."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache = root / "cache"
        self.site = root / "site"
        self.spec_131 = root / "defs-1.31.json"
        self.spec_131.write_bytes(package_bytes("1.31"))
        self.spec_129 = root / "defs-1.29.json"
        self.spec_129.write_bytes(package_bytes("1.29"))
        self.first: BuildSummary | None = None

    def releases(self) -> list[Release]:
        return [Release("1.31", str(self.spec_131)), Release("1.30"), Release("1.29", str(self.spec_129))]

    def build(self, out: Path | None = None, *, jobs: int = 2) -> BuildSummary:
        return build_site(BuildSiteOptions(
            releases=self.releases(), out=out or self.site, config_file=REPO / "mkdocs.yml",
            cache_dir=self.cache, jobs=jobs, groups=["node"], progress=False, site_url=SITE_URL))

    def markdown_mtimes(self) -> dict[str, int]:
        pages = self.cache / "build-site"
        return {p.relative_to(pages).as_posix(): p.stat().st_mtime_ns for p in pages.rglob("*.md")}


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scenario]:
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FIXED_EPOCH  # sitemap dates and gzip headers: see docs/publishing.md
    try:
        s = Scenario(tmp_path_factory.mktemp("build-site"))
        s.first = s.build()
        yield s
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_three_releases_three_sites_versions_json_and_root_page(scenario: Scenario) -> None:
    assert scenario.first is not None
    assert sorted(scenario.first.built) == sorted(VERSIONS) and scenario.first.skipped == []
    for version in VERSIONS:
        home = scenario.site / version / "index.html"
        assert f"Kubernetes {version}" in home.read_text(encoding="utf-8")
        assert (scenario.site / version / "search" / "search_index.json").is_file()
        assert (scenario.site / version / "node" / "v1" / "runtimeClass" / "index.html").is_file()
    entries = json.loads((scenario.site / "versions.json").read_text(encoding="utf-8"))
    assert [e["version"] for e in entries] == ["1.31", "1.30", "1.29"]
    assert all(set(e) == {"version", "title", "aliases"} for e in entries)
    assert entries[0]["aliases"] == ["latest"] and entries[1]["aliases"] == []
    root = (scenario.site / "index.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh" content="0; url=1.31/"' in root
    assert all(f'href="{v}/"' in root for v in VERSIONS)


def test_sitemaps_have_absolute_locs_below_each_release(scenario: Scenario) -> None:
    """Material's version selector maps the page through the target release's sitemap.xml."""
    for version in VERSIONS:
        sitemap = (scenario.site / version / "sitemap.xml").read_text(encoding="utf-8")
        locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
        assert len(locs) == len(list((scenario.site / version).rglob("index.html")))
        assert all(loc.startswith(f"{SITE_URL}/{version}/") for loc in locs)
        assert f"{SITE_URL}/{version}/node/v1/runtimeClass/" in locs
        page = (scenario.site / version / "node" / "v1" / "runtimeClass" / "index.html").read_text()
        assert f'<link rel="canonical" href="{SITE_URL}/{version}/node/v1/runtimeClass/">' in page


def test_latest_alias_redirects_every_page_of_the_newest_release(scenario: Scenario) -> None:
    newest = scenario.site / "1.31"
    pages = sorted(p.relative_to(newest).as_posix() for p in newest.rglob("*.html") if p.name != "404.html")
    alias = scenario.site / "latest"
    assert sorted(p.relative_to(alias).as_posix() for p in alias.rglob("*") if p.is_file()) == pages
    home = (alias / "index.html").read_text(encoding="utf-8")
    assert 'content="0; url=../1.31/"' in home and 'location.replace("../1.31/"' in home
    page = (alias / "node" / "v1" / "runtimeClass" / "index.html").read_text(encoding="utf-8")
    assert 'content="0; url=../../../../1.31/node/v1/runtimeClass/"' in page
    assert "location.search + location.hash" in page  # #field-… anchors survive the redirect


def test_bad_site_url_and_alias_label_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    args = ["build-site", "--version", "1.31", "--version", "1.32", "--out", str(tmp_path / "site"),
            "--cache-dir", str(tmp_path / "cache"), "--config", str(REPO / "mkdocs.yml")]
    assert main([*args, "--site-url", "ftp://example.org/"]) == 2
    assert "absolute http(s) URL" in capsys.readouterr().err
    assert main(["build-site", "--version", "latest", "--version", "1.31", "--out", str(tmp_path / "s"),
                 "--site-url", "https://example.org/"]) == 2
    assert "alias" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_no_broken_internal_links(scenario: Scenario) -> None:
    assert broken_links(scenario.site) == []


def test_release_page_nav_holds_only_that_release(scenario: Scenario) -> None:
    page = scenario.site / "1.30" / "node" / "v1" / "runtimeClass" / "index.html"
    html = page.read_text(encoding="utf-8")
    nav = html[html.index('<nav class="md-nav md-nav--primary"'):html.index("</nav>", html.index(
        'class="md-nav md-nav--primary"'))]
    assert "Kubernetes 1.30" in nav and "Changes from 1.29 to 1.30" in nav  # its own change page
    assert "Kubernetes 1.29" not in nav and "1.31" not in nav
    for href in re.findall(r'href="([^"]+)"', nav):
        resolved = (page.parent / href).resolve()
        assert resolved.is_relative_to((scenario.site / "1.30").resolve()), href
    config = json.loads(re.search(r'id="__config" type="application/json">(.*?)</script>', html)[1])
    assert config["version"]["provider"] == "mike"  # Material's version selector is on


def test_hand_written_home_is_in_every_release(scenario: Scenario) -> None:
    about = (scenario.site / "1.30" / "about" / "index.html").read_text(encoding="utf-8")
    assert "Reading a model page" in about
    assert 'href="../">Kubernetes 1.30</a>' in about
    assert 'href="../../1.31/">Kubernetes 1.31</a>' in about


def test_one_nav_entry_per_page_and_none_titled_like_the_site(scenario: Scenario) -> None:
    page = scenario.site / "1.30" / "node" / "v1" / "index.html"
    html = page.read_text(encoding="utf-8")
    start = html.index('<nav class="md-nav md-nav--primary"')
    nav = html[start:html.index("md-sidebar--secondary", start)]
    titles = re.findall(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', nav, re.S)
    assert "About this reference" in titles and "Kubernetes API reference" not in titles
    hrefs = re.findall(r'<a href="([^"]+)" class="md-nav__link', nav)
    links = [(page.parent / href).resolve() for href in hrefs]
    assert len(links) == len(set(links)) > 5


def test_parallel_and_serial_builds_are_identical_and_no_markdown_is_written(
        scenario: Scenario) -> None:
    assert scenario.markdown_mtimes() == {}  # mkdocs build gets the generated pages in memory
    serial_site = scenario.root / "serial"
    summary = scenario.build(serial_site, jobs=1)
    assert sorted(summary.built) == sorted(VERSIONS)  # a new site directory: everything built
    assert scenario.markdown_mtimes() == {}
    assert tree(serial_site) == tree(scenario.site)


def test_second_build_with_nothing_changed_rebuilds_nothing(scenario: Scenario) -> None:
    homes = {v: (scenario.site / v / "index.html").stat().st_mtime_ns for v in VERSIONS}
    summary = scenario.build()
    assert summary.built == [] and sorted(summary.skipped) == sorted(VERSIONS)
    assert {v: (scenario.site / v / "index.html").stat().st_mtime_ns for v in VERSIONS} == homes
    assert "skipped 3 as unchanged" in summary.line()


def test_a_leftover_alias_staging_directory_is_not_published(scenario: Scenario) -> None:
    """An interrupted run may leave ``.build-latest`` behind: a later run that stages no alias
    must not swap it in."""
    latest = tree(scenario.site / "latest")
    leftover = scenario.site / ".build-latest"
    leftover.mkdir()
    (leftover / "index.html").write_text("left over", encoding="utf-8")
    try:
        assert scenario.build().built == []
        assert tree(scenario.site / "latest") == latest
    finally:
        shutil.rmtree(leftover, ignore_errors=True)


def edit_overhead_description(spec: Path, text: str) -> None:
    document = json.loads(spec.read_text(encoding="utf-8"))
    document["$defs"]["io.k8s.api.node.v1.Overhead"]["description"] = text
    spec.write_text(json.dumps(document), encoding="utf-8")


def test_changing_one_source_rebuilds_only_that_release(scenario: Scenario) -> None:
    edit_overhead_description(scenario.spec_131, "Overhead, as edited by the build-site test.")
    summary = scenario.build()
    assert summary.built == ["1.31"] and sorted(summary.skipped) == ["1.29", "1.30"]
    page = scenario.site / "1.31" / "node" / "v1" / "overhead" / "index.html"
    assert "as edited by the build-site test" in page.read_text(encoding="utf-8")
    assert broken_links(scenario.site) == []


def test_changing_an_older_release_also_rebuilds_the_release_that_diffs_against_it(
        scenario: Scenario) -> None:
    edit_overhead_description(scenario.spec_129, "Overhead of 1.29, edited.")
    summary = scenario.build()  # 1.30 shows changes from 1.29 (its changes page, field notes)
    assert sorted(summary.built) == ["1.29", "1.30"] and summary.skipped == ["1.31"]


def test_cli_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["build-site", "--preset", "all", "--version", "1.31", "--out", str(tmp_path)]) == 2
    assert main(["build-site", "--version", "1.31", "--jobs", "0", "--out", str(tmp_path)]) == 2
    assert "error:" in capsys.readouterr().err


def test_link_checker_finds_broken_links(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<a id="top" href="../b/">b</a><a href="../missing/">m</a><a href="#nope">x</a>'
        '<a href="./#top">ok</a><a href="../../outside/">o</a>', encoding="utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<a href="../a/#top">a</a>', encoding="utf-8")
    broken = {(b.page, b.href) for b in broken_links(tmp_path)}
    assert broken == {("a/index.html", "../missing/"), ("a/index.html", "#nope"),
                      ("a/index.html", "../../outside/")}


def test_published_urls_are_the_same_in_both_layouts() -> None:
    combined, alone = SitePlan("1.31", "1.31"), SitePlan("1.31", "")
    assert combined.site_url("1.31/resource/v1alpha3/resourceClaimStatus.md") \
        == alone.site_url("resource/v1alpha3/resourceClaimStatus.md") \
        == "1.31/resource/v1alpha3/resourceClaimStatus/"
    assert alone.home == "index.md" and alone.site_url(alone.home) == "1.31/"
    assert published_url("a/index.md") == "a/" and published_url("index.md") == ""
    other = SitePlan("1.32", "1.32")
    assert release_url("resource/v1alpha3/resourceClaimStatus.md", "1.32/resource/v1beta1/x.md",
                       alone, other) == "../../../../1.32/resource/v1beta1/x/"
    assert release_url("1.31/resource/v1alpha3/resourceClaimStatus.md", "1.32/resource/v1beta1/x.md") \
        == "../../../../1.32/resource/v1beta1/x/"
    assert release_url(alone.home, other.home, alone, other) == "../1.32/"


def test_failed_release_build_names_release_and_log(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[broken](missing.md)\n", encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"INHERIT: {REPO / 'mkdocs.yml'}\ndocs_dir: {docs}\nextra_css: []\n", encoding="utf-8")
    with pytest.raises(GeneratorError, match=r"mkdocs build failed for 1\.31: .*missing\.md.*build\.log"):
        build_site(BuildSiteOptions(releases=[Release("1.31")], out=tmp_path / "site", config_file=config,
                                    cache_dir=tmp_path / "cache", groups=["node"], progress=False))
    assert not (tmp_path / "site" / "1.31").exists()
    assert not list((tmp_path / "site").glob(".build-*"))
