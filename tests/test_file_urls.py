"""Sites built with ``use_directory_urls: false`` (issue 35): served from a file system or an
object store, where nothing turns a directory into its ``index.html``, every link names a file.

Unit: the URL rule (``views.site``), the root files of ``build-site`` (``sitebuild.landing``),
the link check without index rewriting (and a fixture proving it fails on a directory link).
Integration: ``mkdocs build`` of a two-release combined site (one API group), every internal
link resolving to a file; ``mkdocs serve --dirty`` equal to a full build. Slow: ``build-site``
of two releases, every link of the published tree resolving to a file. Browser: that site and
the combined one served by a static server that does not rewrite directories (and from
``file://``): the version selector switches release, the field-path box opens a field.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browserkit import QuietHandler, served
from helpers.browser import settle
from helpers.paths import REPO
from linkcheck import broken_links

from generator.config import Release
from generator.output.restamp import restamp_site
from generator.sitebuild.build import BuildSiteOptions, build_site
from generator.sitebuild.landing import alias_pages, landing_page
from generator.views.nav import releases_list
from generator.views.site import SitePlan, file_url, page_url, published_url, release_url

GROUP = "resource"
"""The one API group the sites are built with: in 1.31 at v1alpha3, in 1.32 at v1alpha3 and
v1beta1 (pages in both releases, and pages in one only)."""
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


# -- the URL rule --------------------------------------------------------------------------


def test_published_urls_name_the_file() -> None:
    assert published_url("1.31/core/v1/pod.md", False) == "1.31/core/v1/pod.html"
    assert published_url("1.31/index.md", False) == "1.31/index.html"
    assert published_url("index.md", False) == "index.html"
    assert published_url("1.31/core/v1/pod.md") == "1.31/core/v1/pod/"  # the default unchanged
    assert published_url("index.md") == ""


def test_links_between_pages_name_the_file() -> None:
    pod, home = "1.31/core/v1/pod.md", "1.31/index.md"
    assert page_url(pod, "1.31/core/v1/container.md", False) == "container.html"
    assert page_url(pod, pod, False) == "pod.html"
    assert page_url(pod, home, False) == "../../index.html"
    assert page_url(pod, "1.31/core/v1/index.md", False) == "index.html"
    assert page_url(home, "1.31/core/index.md", False) == "core/index.html"
    assert page_url(pod, "1.31/core/v1/container.md") == "../container/"
    assert file_url(pod, "1.31/fieldpaths.json", False) == "../../fieldpaths.json"
    assert file_url(pod, "1.31/fieldpaths.json") == "../../../fieldpaths.json"


@pytest.mark.parametrize("root", ["", "1.32"])
def test_links_between_releases_name_the_file(root: str) -> None:
    """The same URL in the combined site and in the per-release sites of ``build-site``."""
    new = SitePlan("1.32", root, directory_urls=False)
    old = SitePlan("1.31", "1.31" if root else "", directory_urls=False)
    page = new.in_root("resource/v1beta1/resourceClaim.md")
    target = old.in_root("resource/v1alpha3/resourceClaim.md")
    assert new.site_url(page) == "1.32/resource/v1beta1/resourceClaim.html"
    assert release_url(page, target, new, old) == "../../../1.31/resource/v1alpha3/resourceClaim.html"
    assert release_url(page, old.home, new, old) == "../../../1.31/index.html"
    assert release_url(new.home, old.home, new, old) == "../1.31/index.html"
    assert new.page_url(page, new.home) == "../../index.html"


def test_root_files_of_build_site_name_the_file() -> None:
    landing = landing_page("API", ["1.32", "1.31"], directory_urls=False)
    assert 'url=1.32/index.html"' in landing and '<a href="1.31/index.html">' in landing
    assert 'href="1.31/"' not in landing
    alias = alias_pages(["index.html", "core/v1/pod.html", "core/index.html"], "1.32",
                        directory_urls=False)
    assert 'href="../../../1.32/core/v1/pod.html"' in alias["core/v1/pod.html"]
    assert 'href="../../1.32/core/index.html"' in alias["core/index.html"]
    assert 'href="../1.32/index.html"' in alias["index.html"]
    assert 'href="../1.32/"' in alias_pages(["index.html"], "1.32")["index.html"]  # the default


@pytest.mark.parametrize(("settings", "homepage"), [
    ({"use_directory_urls": False}, "index.html"),
    ({"use_directory_urls": False, "extra": {"homepage": "https://example.org/"}}, None),
    ({}, None),
])
def test_release_config_links_the_logo_to_the_home_file(tmp_path: Path, settings: dict[str, Any],
                                                         homepage: str | None) -> None:
    """A release's home sits in its nav section (no MkDocs homepage): without directory URLs
    Material's logo is pointed at ``index.html`` (``extra.homepage``), unless the user set one."""
    import yaml

    from generator.sitebuild.mkdocs_yml import ParentConfig, release_mkdocs_yml

    (tmp_path / "mkdocs.yml").write_text(json.dumps({"site_name": "S", **settings}), encoding="utf-8")
    parent = ParentConfig.load(tmp_path / "mkdocs.yml")
    assert parent.directory_urls is (settings.get("use_directory_urls") is not False)
    config = yaml.safe_load(release_mkdocs_yml(parent, Release("1.31"), {}, site_dir=tmp_path / "s"))
    assert config["extra"].get("homepage") == homepage


def test_release_list_of_a_hand_written_page_names_the_file() -> None:
    """``about.md`` of release 1.32's site (``1.32/about.html``) links the other releases."""
    assert releases_list("about.md", "about.html", [], ["1.31"]) == \
        '- <a href="../1.31/index.html">Kubernetes 1.31</a>'
    assert releases_list("a/b.md", "a/b.html", [], ["1.31"]).endswith(
        '"../../1.31/index.html">Kubernetes 1.31</a>')
    assert releases_list("about.md", "about/", [], ["1.31"]).endswith("(../../1.31/)")


def test_restamp_finds_the_html_file(tmp_path: Path) -> None:
    """``mkdocs serve --dirty`` patches the built page at its file (``a/b.html``)."""
    digest_old, digest_new = "a" * 64, "b" * 64
    pages, site = tmp_path / "pages", tmp_path / "site"
    for directory, name in ((pages / "r", "x.md"), (site / "r", "x.html")):
        directory.mkdir(parents=True)
        (directory / name).write_text(f"sha256 <code>{digest_old}</code>\n", encoding="utf-8")
    done = restamp_site(pages, site, ["r/x.md"], {digest_old: digest_new},
                        lambda p: published_url(p, False))
    assert done == {"r/x.md"}
    assert digest_new in (site / "r" / "x.html").read_text(encoding="utf-8")


def test_link_check_without_index_rewriting_fails_on_directory_links(tmp_path: Path) -> None:
    """The check can fail: ``a/`` (and ``a``) name a directory, which a file server without
    index rewriting does not serve; ``a/index.html`` and ``b.html`` name files."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text('<p id="x">A</p>', encoding="utf-8")
    (tmp_path / "b.html").write_text("<p>B</p>", encoding="utf-8")
    (tmp_path / "index.html").write_text(
        '<a href="a/">dir</a><a href="a">bare</a><a href="./">here</a>'
        '<a href="a/index.html#x">file</a><a href="b.html">b</a>', encoding="utf-8")
    assert broken_links(tmp_path) == []
    broken = broken_links(tmp_path, index_rewriting=False)
    assert sorted(b.href for b in broken) == ["./", "a", "a/"]
    from linkcheck import main

    assert main(["--no-index", str(tmp_path)]) == 1


# -- mkdocs build / serve ------------------------------------------------------------------


def combined_config(root: Path, *, directory_urls: bool = False) -> Path:
    """A site of 1.31 + 1.32 (one API group) with the repository's theme and pages."""
    shutil.copytree(REPO / "site_src", root / "docs")
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs",
              "use_directory_urls": directory_urls,
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": "1.31"}, {"version": "1.32"}], "groups": [GROUP],
                  "cache_dir": ".cache"}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return root / "mkdocs.yml"


@pytest.fixture(scope="module")
def combined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` of ``combined_config``; the built site."""
    root = tmp_path_factory.mktemp("file-urls")
    combined_config(root)
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"],
                            cwd=root, capture_output=True, text=True, env=ENV, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"


@pytest.mark.integration
def test_combined_site_links_name_files(combined: Path) -> None:
    """Every internal link of the built site resolves to a file, as a server without index
    rewriting serves it; model pages are files, not directories."""
    assert (combined / "1.32/resource/v1beta1/resourceClaimStatus.html").is_file()
    assert not (combined / "1.32/resource/v1beta1/resourceClaimStatus").exists()
    assert broken_links(combined, index_rewriting=False) == []
    page = (combined / "1.32/resource/v1alpha3/resourceClaimStatus.html").read_text(encoding="utf-8")
    # other versions (raw HTML): the other API version and the other release, by file
    assert 'href="../v1beta1/resourceClaimStatus.html"' in page
    assert 'href="../../../1.31/resource/v1alpha3/resourceClaimStatus.html"' in page
    assert 'data-paths="../../fieldpaths.json"' in page
    paths = json.loads((combined / "1.32/fieldpaths.json").read_text(encoding="utf-8"))["models"]
    assert "resource/v1beta1/resourceClaimStatus.html" in paths
    docs = json.loads((combined / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    locations = {d["location"] for d in docs}
    assert "1.32/resource/v1beta1/resourceClaimStatus.html#field-allocation" in locations
    assert not [loc for loc in locations if "/#" in loc or loc.endswith("/")]


@pytest.mark.integration
def test_speed_ups_render_file_url_pages_as_the_theme_does(combined: Path) -> None:
    """The same site with the speed-ups off (``K8S_API_DOCS_ACCELERATORS=none``): every page
    equal byte for byte (the search index differs by design: ``search_entries`` in
    ``docs/performance.md``)."""
    root = combined.parent
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site-off"],
                            cwd=root, capture_output=True, text=True, check=False,
                            env={**ENV, "K8S_API_DOCS_ACCELERATORS": "none"})
    assert result.returncode == 0, result.stdout + result.stderr

    def pages(site: Path) -> dict[str, bytes]:
        return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*.html")}

    on, off = pages(combined), pages(root / "site-off")
    assert len(on) > 150 and on.keys() == off.keys()
    assert [p for p in on if on[p] != off[p]] == []


@pytest.mark.integration
def test_serve_dirty_patches_html_files(tmp_path: Path) -> None:
    """``mkdocs serve --dirty`` after a spec edit (the plugin patches the source digest of pages
    at their ``.html`` files) equals a full build."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from test_serve_restamp import ANIMAL, SERVE_URL, full_build, site_files, zoo_site

    spec, document, config_file, site = zoo_site(tmp_path)
    config_file.write_text(json.dumps({**json.loads(config_file.read_text(encoding="utf-8")),
                                       "use_directory_urls": False}), encoding="utf-8")
    first = load_config(str(config_file), site_dir=str(site))
    first.plugins.on_startup(command="serve", dirty=True)
    try:
        for edit in (False, True):
            if edit:
                document["definitions"][ANIMAL]["description"] = "An animal, edited while serving."
                spec.write_text(json.dumps(document), encoding="utf-8")
            config = load_config(str(config_file), site_dir=str(site))
            config.site_url = SERVE_URL
            build(config, serve_url=SERVE_URL, dirty=True)
    finally:
        first.plugins.on_shutdown()
    assert (site / "z/zoo/v1/enclosureList.html").is_file()
    assert site_files(site) == site_files(full_build(config_file, tmp_path / "full"))


# -- build-site ----------------------------------------------------------------------------


class NoIndexHandler(QuietHandler):
    """A static file server that serves files only: a directory is 404, never its index.html
    (an object store, a file server without index rewriting)."""

    def send_head(self) -> Any:
        if os.path.isdir(self.translate_path(self.path)):
            self.send_error(404, "directory")
            return None
        return super().send_head()


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``build-site`` of 1.31 + 1.32 (one API group) with ``use_directory_urls: false``, under
    umask 022, into a directory other users may enter; the published tree."""
    root = tmp_path_factory.mktemp("file-urls-build-site")
    config = root / "mkdocs.yml"
    config.write_text(json.dumps({"INHERIT": str(REPO / "mkdocs.yml"),
                                  "docs_dir": str(REPO / "site_src"),
                                  "use_directory_urls": False}), encoding="utf-8")
    shared = Path(f"/tmp/k8s-api-docs-file-urls-{os.getpid()}")  # tmp_path is 0700
    shared.mkdir(mode=0o755, exist_ok=True)
    shared.chmod(0o755)
    out = shared / "public"
    saved = os.umask(0o022)
    try:
        build_site(BuildSiteOptions(releases=[Release("1.31"), Release("1.32")], out=out,
                                    config_file=config, cache_dir=root / "cache", jobs=2,
                                    groups=[GROUP], progress=False))
    finally:
        os.umask(saved)
    yield out
    shutil.rmtree(shared, ignore_errors=True)


@pytest.mark.slow
def test_build_site_links_name_files(published: Path) -> None:
    assert (published / "1.31/resource/v1alpha3/resourceClaimStatus.html").is_file()
    assert (published / "latest/resource/v1beta1/resourceClaimStatus.html").is_file()
    broken = broken_links(published, index_rewriting=False)
    assert broken == [], broken[:10]
    landing = (published / "index.html").read_text(encoding="utf-8")
    assert 'url=1.32/index.html"' in landing
    alias = (published / "latest/resource/index.html").read_text(encoding="utf-8")
    assert 'href="../../1.32/resource/index.html"' in alias


# -- file modes ----------------------------------------------------------------------------


@pytest.mark.slow
def test_build_site_output_is_readable_by_others(published: Path) -> None:
    """Under umask 022 no file or directory ``build-site`` wrote lacks read (and, for a
    directory, search) permission for others; what the ``build-site`` process writes itself is
    exactly 0644 / 0755. (The releases are built by workers of a fork server, which keep the
    umask of the process that started the server: in this test run possibly an earlier one.)"""
    unreadable = [p for p in published.rglob("*")
                  if (p.stat().st_mode & 0o005) != (0o005 if p.is_dir() else 0o004)]
    assert unreadable == []
    assert (published / "1.32/search/search_index.json").is_file()
    for rel in ("versions.json", "index.html", "latest/index.html", "latest/resource/index.html"):
        assert (published / rel).stat().st_mode & 0o777 == 0o644, rel
    for rel in ("", "latest", "latest/resource"):
        assert (published / rel).stat().st_mode & 0o777 == 0o755, rel


@pytest.mark.slow
def test_build_site_output_is_served_by_another_user(published: Path) -> None:
    """A web server running as ``nobody`` (as nginx or a container would) serves the landing
    page, ``versions.json`` and a release's search index."""
    if os.geteuid() != 0:
        pytest.skip("running a server as another user needs root (CI runs the tests as root)")
    setpriv, python = shutil.which("setpriv"), "/usr/bin/python3"
    if setpriv is None or not os.access(python, os.X_OK):
        pytest.skip("setpriv or /usr/bin/python3 missing")
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", python, "-m", "http.server",
         "--bind", "127.0.0.1", "--directory", str(published), str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    try:
        statuses: dict[str, int] = {}
        for path in ("/", "/versions.json", "/1.32/search/search_index.json",
                     "/1.31/resource/v1alpha3/resourceClaimStatus.html"):
            for _ in range(100):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
                        statuses[path] = resp.status
                        break
                except urllib.error.HTTPError as exc:
                    statuses[path] = exc.code
                    break
                except OSError:
                    time.sleep(0.1)  # still starting
        assert statuses == dict.fromkeys(statuses, 200) and len(statuses) == 4, statuses
    finally:
        server.terminate()
        server.wait(timeout=10)


# -- in Chromium ---------------------------------------------------------------------------


class Tab:
    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))


@pytest.fixture()
def tab(browser: Any) -> Iterator[Tab]:
    t = Tab(browser)
    yield t
    t.context.close()


def switch_release(page: Any, version: str) -> None:
    page.locator(".md-version__current").wait_for(state="visible", timeout=30_000)
    page.locator(".md-version").hover()
    page.locator(".md-version__link", has_text=re.compile(rf"^\s*{re.escape(version)}")).first.click()


def heading(page: Any) -> str:
    return str(page.locator("article h1").first.inner_text()).strip().rstrip("¶").strip()


@pytest.fixture(scope="module")
def published_served(published: Path) -> Iterator[str]:
    yield from served(published, NoIndexHandler)


@pytest.fixture(scope="module")
def combined_served(combined: Path) -> Iterator[str]:
    yield from served(combined, NoIndexHandler)


@pytest.mark.browser
def test_no_index_server_serves_no_directory(published_served: str) -> None:
    import urllib.request

    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(published_served + "1.32/", timeout=10)


@pytest.mark.browser
@pytest.mark.parametrize("site", ["build-site", "combined"])
def test_version_selector_switches_release(tab: Tab, site: str, published_served: str,
                                           combined_served: str) -> None:
    """The page kept where the other release has it, else that release's home file."""
    base = published_served if site == "build-site" else combined_served
    page = tab.page
    page.goto(base + "1.32/resource/v1alpha3/resourceClaimStatus.html", wait_until="load")
    switch_release(page, "1.31")
    page.wait_for_url(base + "1.31/resource/v1alpha3/resourceClaimStatus.html", timeout=30_000)
    assert heading(page) == "ResourceClaimStatus"
    assert "Kubernetes 1.31" in page.locator("article .k8s-meta").first.inner_text()
    page.screenshot(path=f"/tmp/file-urls-{site}-switched.png")
    page.goto(base + "1.32/resource/v1beta1/resourceClaimStatus.html", wait_until="load")
    switch_release(page, "1.31")  # no v1beta1 in 1.31
    page.wait_for_url(base + "1.31/index.html", timeout=30_000)
    assert heading(page) == "Kubernetes 1.31"
    assert tab.errors == []


@pytest.mark.browser
@pytest.mark.parametrize("site", ["build-site", "combined"])
def test_field_path_box_opens_the_field(tab: Tab, site: str, published_served: str,
                                        combined_served: str) -> None:
    base = published_served if site == "build-site" else combined_served
    page = tab.page
    page.goto(base + "1.32/resource/v1beta1/resourceClaim.html", wait_until="load")
    box = page.locator("form.k8s-fieldpath input")
    box.fill("status.allocation.devices.results")
    box.press("Enter")
    page.wait_for_url(re.compile(re.escape(base + "1.32/resource/v1beta1/") + r"\w+\.html#field-"),
                      timeout=30_000)
    anchor = urlsplit(page.url).fragment
    row = page.locator(f"[id='{anchor}']")
    assert "results" in row.inner_text()
    page.screenshot(path=f"/tmp/file-urls-{site}-fieldpath.png")
    assert tab.errors == []


@pytest.mark.browser
def test_links_work_from_the_file_system(tab: Tab, combined: Path) -> None:
    """Opened from ``file://`` (no server at all): the release home, a group, a model page, the
    same model in the other release, all by links."""
    page = tab.page
    page.goto((combined / "1.32/index.html").as_uri(), wait_until="load")
    page.locator("article a[href$='resource/index.html']").first.click()
    page.wait_for_url("**/1.32/resource/index.html")
    page.locator("article a[href$='v1alpha3/index.html']").first.click()
    page.wait_for_url("**/1.32/resource/v1alpha3/index.html")
    page.locator("article a[href$='resourceClaimStatus.html']").first.click()
    page.wait_for_url("**/1.32/resource/v1alpha3/resourceClaimStatus.html")
    page.locator("article a[href$='1.31/resource/v1alpha3/resourceClaimStatus.html']").first.click()
    page.wait_for_url("**/1.31/resource/v1alpha3/resourceClaimStatus.html")
    assert heading(page) == "ResourceClaimStatus"
    page.screenshot(path="/tmp/file-urls-file-scheme.png")
    # search from file:// is Material's offline plugin's job (its search_index.js); nothing else fails
    assert [e for e in tab.errors if "search_index.js" not in e] == [], tab.errors



@pytest.mark.browser
@pytest.mark.parametrize("site", ["build-site", "combined"])
def test_search_result_opens_the_page_file(tab: Tab, site: str, published_served: str,
                                           combined_served: str) -> None:
    """Search results link pages by file, and a result opens its page."""
    base = published_served if site == "build-site" else combined_served
    page = tab.page
    page.goto(base + "1.32/index.html", wait_until="load")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("ResourceClaimStatus")
    page.locator(".md-search-result__link").first.wait_for(state="visible", timeout=60_000)
    page.wait_for_function(
        "q => document.querySelector('.md-search-result__meta')?.textContent.trim() !== '' "
        "&& document.querySelector('input.md-search__input').value === q", arg="ResourceClaimStatus")
    settle(page)
    hrefs = page.eval_on_selector_all(".md-search-result__link", "els => els.map(a => a.href)")
    assert all(re.search(r"\.html(\?h=[^#]*)?(#|$)", h) for h in hrefs), hrefs
    page.locator(".md-search-result__link[href*='resourceClaimStatus.html']").first.click()
    page.wait_for_url(re.compile(r".*/resource/v1\w+/resourceClaimStatus\.html.*"), timeout=30_000)
    assert heading(page) == "ResourceClaimStatus"
    assert tab.errors == []
