"""``build-site --crds``: a Kubernetes release combined with a CRD set, published as its own
site; editing a CRD file rebuilds that release (and nothing when nothing changed). A release
that is only a CRD set is titled as such everywhere (``views.pages.release_title``)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import REPO, SHARED

from generator.cli import main
from generator.config import Release, VersionsOptions
from generator.pipeline.build import generate
from generator.sitebuild.build import BuildSiteOptions, build_site
from generator.sitebuild.landing import alias_pages, landing_page
from generator.sitebuild.mkdocs_yml import ParentConfig, release_mkdocs_yml, release_plugin_options
from generator.views.nav import releases_list

slow = pytest.mark.slow
GATEWAY = SHARED / "crds" / "gateway-api" / "v1.2.0"
GROUP = "gateway.networking.k8s.io"
HTTPROUTE = Path("1.31") / GROUP / "v1" / "httpRoute" / "index.html"


class CrdSite:
    def __init__(self, root: Path) -> None:
        self.crds = root / "crds"
        shutil.copytree(GATEWAY, self.crds)
        for path in self.crds.iterdir():
            path.chmod(0o644)
        self.site, self.cache = root / "site", root / "cache"

    def build(self) -> list[str]:
        summary = build_site(BuildSiteOptions(
            releases=[Release("1.31", "", (str(self.crds),))], out=self.site,
            config_file=REPO / "mkdocs.yml", cache_dir=self.cache, groups=[GROUP], progress=False))
        return summary.built


@pytest.fixture(scope="module")
def crd_site(shared: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CrdSite]:
    site = CrdSite(tmp_path_factory.mktemp("crd-site"))
    # the CLI's --crds, as a user types it
    assert main(["build-site", "--version", "1.31", "--crds", str(site.crds), "--out",
                 str(site.site), "--config", str(REPO / "mkdocs.yml"), "--cache-dir",
                 str(site.cache), "--group", GROUP, "-q"]) == 0
    yield site


def test_release_config_passes_crd_sets_as_absolute_paths(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    parent, release = ParentConfig.load(REPO / "mkdocs.yml"), Release("1.31", "", ("crds",))
    options = release_plugin_options(parent, release, [Release("1.31", "", ("crds", "more/x.yaml"))],
                                     cache_dir=tmp_path / "c", pages_dir=tmp_path / "p", groups=[])
    text = release_mkdocs_yml(parent, release, options, site_dir=tmp_path / "s")
    assert f"crds:\n      - {tmp_path / 'crds'}\n      - {tmp_path / 'more/x.yaml'}\n" in text


@slow
@pytest.mark.shared
def test_httproute_metadata_links_the_releases_objectmeta(crd_site: CrdSite) -> None:
    page = (crd_site.site / HTTPROUTE).read_text(encoding="utf-8")
    row = re.search(r'<tr id="field-metadata">.*?</tr>', page, re.S)
    assert row, "no metadata row"
    link = re.search(r'<a href="([^"]+)">ObjectMeta</a>', row.group(0).replace("<wbr>", ""))
    assert link, row.group(0)
    target = (crd_site.site / HTTPROUTE).parent / link.group(1) / "index.html"
    assert target.resolve() == (crd_site.site / "1.31" / "meta" / "v1" / "objectMeta" / "index.html")
    assert "<h1" in target.read_text(encoding="utf-8") and "ObjectMeta" in target.read_text(
        encoding="utf-8")


@slow
@pytest.mark.shared
def test_unchanged_crds_rebuild_nothing_and_an_edited_crd_file_rebuilds_its_release(
        crd_site: CrdSite) -> None:
    assert crd_site.build() == []
    path = crd_site.crds / "gateway.networking.k8s.io_httproutes.yaml"
    text = path.read_text(encoding="utf-8")
    edited = text.replace("HTTPRoute provides a way to route HTTP requests.",
                          "HTTPRoute, as edited by the CRD site test.", 1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")
    assert crd_site.build() == ["1.31"]
    assert "as edited by the CRD site test" in (crd_site.site / HTTPROUTE).read_text(encoding="utf-8")


CRD_TITLE = "gateway-v1.2.0 custom resources"


@pytest.mark.shared
def test_a_crd_only_release_is_titled_as_one_in_nav_badge_line_changes_and_root(shared: Path) -> None:
    crds = shared / "crds" / "gateway-api"
    site = generate([Release("gateway-v1.1.0", str(crds / "v1.1.0")),
                     Release("gateway-v1.2.0", str(crds / "v1.2.0"))],
                    versions=VersionsOptions(history="site"))
    nav_titles = [next(iter(entry)) for entry in site.nav]
    assert nav_titles == ["gateway-v1.1.0 custom resources", CRD_TITLE]
    page = site.pages["gateway-v1.2.0/gateway.networking.k8s.io/v1/httpRoute.md"]
    badge = next(line for line in page.splitlines() if line.startswith('<p class="k8s-meta">'))
    assert f"{CRD_TITLE} · <a" in badge and "Kubernetes gateway" not in page
    changes = site.pages["gateway-v1.2.0/changes.md"]
    assert f"Up: [{CRD_TITLE}](index.md)" in changes and "Kubernetes gateway" not in changes
    assert site.titles == {"gateway-v1.1.0": "gateway-v1.1.0 custom resources",
                           "gateway-v1.2.0": CRD_TITLE}
    assert not any("Kubernetes gateway" in text for text in site.pages.values())
    root = landing_page("API", ["gateway-v1.2.0", "1.31"], {"gateway-v1.2.0": CRD_TITLE})
    assert f'<a href="gateway-v1.2.0/">{CRD_TITLE}</a> (latest)' in root
    assert '<a href="1.31/">Kubernetes 1.31</a>' in root
    listed = releases_list("index.md", "", [], ["gateway-v1.2.0", "1.31"], site.titles)
    assert listed == f"- [{CRD_TITLE}](../gateway-v1.2.0/)\n- [Kubernetes 1.31](../1.31/)"
    redirect = alias_pages(["index.html"], "gateway-v1.2.0", {"gateway-v1.2.0": CRD_TITLE})
    assert f"<title>{CRD_TITLE} (latest)</title>" in redirect["index.html"]


def test_a_kubernetes_release_with_crds_keeps_its_kubernetes_title(api_131: object) -> None:
    from generator.views.pages import release_title, title_of

    assert release_title(api_131) == "Kubernetes 1.31" == title_of("1.31")
