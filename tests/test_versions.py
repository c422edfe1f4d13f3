"""Versions side by side: release timeline, Other versions line, field history notes, change
pages, and cross-release links in the built site."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from pagetext import other_versions_line

from generator.analysis.timeline import ModelKey, Presence, Timeline, ranges
from generator.config import Release, VersionsOptions
from generator.model.types import ApiSpec
from generator.pipeline.build import generate, release_timeline
from generator.pipeline.state import GeneratedSite
from generator.views.site import published_url, release_url

pytestmark = pytest.mark.integration

CLAIM_STATUS = ModelKey("resource", "ResourceClaimStatus")
PAGE_131 = "1.31/resource/v1alpha3/resourceClaimStatus.md"
PAGE_132_BETA = "1.32/resource/v1beta1/resourceClaimStatus.md"


def row(page: str, field: str) -> str:
    """The property-table row of ``field``."""
    (line,) = [ln for ln in page.splitlines() if f'id="field-{field.lower()}"' in ln]
    return line


def test_release_url_between_published_pages() -> None:
    assert published_url("1.31/resource/v1alpha3/resourceClaimStatus.md") == (
        "1.31/resource/v1alpha3/resourceClaimStatus/")
    assert published_url("1.32/index.md") == "1.32/"
    assert published_url("1.32/changes.md") == "1.32/changes/"
    assert release_url(PAGE_132_BETA, PAGE_131) == (
        "../../../../1.31/resource/v1alpha3/resourceClaimStatus/")
    assert release_url("1.32/changes.md", PAGE_131) == (
        "../../1.31/resource/v1alpha3/resourceClaimStatus/")
    assert release_url("1.32/index.md", "1.31/index.md") == "../1.31/"


def test_timeline_covers_every_kubernetes_validate_release(api_131: ApiSpec,
                                                           api_132: ApiSpec) -> None:
    timeline = release_timeline([api_131, api_132])
    # the shipped history table (1.10-1.24), then every kubernetes-validate release
    assert timeline.releases == tuple(f"1.{n}" for n in range(10, 38))
    assert timeline.field_since(CLAIM_STATUS, "devices") == ("1.32", ("v1beta1", "v1alpha3"))
    assert timeline.field_since(CLAIM_STATUS, "allocation") == ("1.26", ("v1alpha1",))
    assert timeline.field_removed_in(CLAIM_STATUS, "v1alpha3", "deallocationRequested",
                                     "1.31") == "1.32"
    assert timeline.field_removed_in(CLAIM_STATUS, "v1beta1", "devices", "1.32") is None
    assert ranges(timeline.releases_of(CLAIM_STATUS, "v1beta1"), timeline.releases) == [
        ("1.32", "1.37")]
    site_only = release_timeline([api_131, api_132], history="site")
    assert site_only.releases == ("1.31", "1.32")


def test_field_removed_in_rules_on_a_made_up_timeline() -> None:
    """The per-model table ``field_removed_in`` keeps answers like the walk it replaced: same API
    version while it exists, else any API version; a release without the model ends the search;
    a field the model lacks in ``after`` is still answered."""
    key = ModelKey("apps", "Thing")

    def rel(**versions: set[str]) -> dict[ModelKey, dict[str, Presence]]:
        return {key: {av: Presence(f"{av}.Thing", frozenset(f)) for av, f in versions.items()}}

    timeline = Timeline.build({
        "1.1": rel(v1={"a", "b", "c", "d"}),
        "1.2": rel(v1={"a", "c", "d"}, v2={"b"}),   # b leaves v1
        "1.3": rel(v2={"a", "b", "d"}),              # v1 gone: c in no API version
        "1.4": {},                                   # the model is gone: d was never removed
        "1.5": rel(v2={"a"}),
    })
    removed = {f: timeline.field_removed_in(key, "v1", f, "1.1") for f in "abcdx"}
    assert removed == {"a": None, "b": "1.2", "c": "1.3", "d": None, "x": "1.2"}
    assert timeline.field_removed_in(key, "v2", "b", "1.2") is None
    assert timeline.field_removed_in(key, "v1", "a", "1.9") is None


def test_beta_claim_status_page_history_and_other_versions(default_pages: GeneratedSite) -> None:
    page = default_pages.pages[PAGE_132_BETA]
    assert "since 1.32" in row(page, "devices")
    assert "since 1.26 (v1alpha1)" in row(page, "allocation")
    other = other_versions_line(page)
    assert '1.31: <a href="../../../../1.31/resource/v1alpha3/resourceClaimStatus/">v1alpha3</a>' in other
    assert '<a href="../../v1alpha3/resourceClaimStatus/">v1alpha3</a>' in other
    assert "v1beta1 (this page)" in other


def test_alpha_claim_status_page_marks_removed_field(default_pages: GeneratedSite) -> None:
    page = default_pages.pages[PAGE_131]
    assert "removed in 1.32" in row(page, "deallocationRequested")
    assert "removed in" not in row(page, "reservedFor")
    other = other_versions_line(page)
    assert '1.32: <a href="../../../../1.32/resource/v1alpha3/resourceClaimStatus/">v1alpha3</a>, ' \
           '<a href="../../../../1.32/resource/v1beta1/resourceClaimStatus/">v1beta1</a>' in other


def test_absent_release_and_changed_field_note() -> None:
    # 1.30 has no v1alpha3 (it had v1alpha2) and no PodSchedulingContext in 1.32
    site = generate([Release("1.30"), Release("1.31"), Release("1.32")], groups=["resource"])
    pod_ctx = site.pages["1.31/resource/v1alpha3/podSchedulingContext.md"]
    other = other_versions_line(pod_ctx)
    assert '1.30: <a href="../../../../1.30/resource/v1alpha2/podSchedulingContext/">v1alpha2</a>' in other
    assert '1.32: <span class="k8s-absent">absent</span>' in other
    spec_page = site.pages["1.32/resource/v1alpha3/deviceRequest.md"]
    assert "compared with 1.31: description changed: " in row(spec_page, "adminAccess")


def test_change_page_in_nav_and_home(default_pages: GeneratedSite) -> None:
    page = default_pages.pages["1.32/changes.md"]
    assert page.startswith("# Changes from 1.31 to 1.32\n")
    assert "<tr><td>API versions added</td>" in page and '<tr class="k8s-total">' in page
    assert "<code>resource.k8s.io/v1beta1</code> added" in page
    assert ("PodSchedulingContext <span class=\"k8s-badge k8s-kind\">kind</span> removed "
            '(<a href="../../1.31/resource/v1alpha3/podSchedulingContext/">1.31</a>)') in page
    assert ('<code>deallocationRequested</code> removed (<a href="../../1.31/resource/v1alpha3/'
            'resourceClaimStatus/#field-deallocationrequested">1.31</a>)') in page
    assert ('<code>devices</code> added (<a href="../resource/v1alpha3/resourceClaimStatus/'
            '#field-devices">1.32</a>)') in page  # published URLs: raw HTML
    assert "1.31/changes.md" not in default_pages.pages
    assert "- [Changes from 1.31 to 1.32](changes.md)" in default_pages.pages["1.32/index.md"]
    nav_132 = default_pages.nav[1]["Kubernetes 1.32"]
    assert nav_132[1] == {"Changes from 1.31 to 1.32": "1.32/changes.md"}


def test_extra_change_pair_and_siblings() -> None:
    site = generate([Release("1.32")], groups=["resource"], siblings=[Release("1.31")],
                    versions=VersionsOptions(
                        change_pairs=(("1.29", "1.32"),)))
    assert set(p.split("/")[0] for p in site.pages) == {"1.32"}
    assert "1.32/changes.md" in site.pages  # from the sibling 1.31
    extra = site.pages["1.32/changes-from-1.29.md"]
    assert extra.startswith("# Changes from 1.29 to 1.32")
    assert "../../1.29/" not in extra  # 1.29 is not published: no links to it


@pytest.mark.slow
def test_built_site_cross_release_links_resolve(built_site: Path, built_site_pages: dict[str, Any]) -> None:
    """Every link from one release to another in the combined site reaches a page (and the
    field anchor it names); they are directory URLs, valid in per-release sites too."""
    from linkcheck import _target, internal_links

    root = built_site.resolve()
    pages = built_site_pages
    broken, crossing = [], 0
    for page, parsed in pages.items():
        release, html = page.split("/")[0], root / page
        if release not in ("1.31", "1.32"):
            continue
        for href in internal_links(html, parsed):
            path = unquote(urlsplit(href).path)
            top = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)).split("/")[0]
            if path.startswith("/") or top == release or top not in ("1.31", "1.32"):
                continue
            target = _target(html, href, root)
            where = target.relative_to(root)
            crossing += 1
            fragment = href.partition("#")[2]
            if href.split("#")[0].endswith(".md") or not target.is_file() or (
                    fragment and fragment not in pages[where.as_posix()].ids):
                broken.append((page, href))
    assert not broken, broken[:20]
    assert crossing > 1000


def test_versions_output_is_deterministic() -> None:
    releases = [Release("1.31"), Release("1.32")]
    first = generate(releases, groups=["resource"])
    second = generate(releases, groups=["resource"])
    assert first.pages == second.pages
    assert list(first.pages) == list(second.pages)


def test_removed_in_only_on_last_page_that_has_the_field() -> None:
    # AllocationResult.availableOnNodes: v1alpha2 in 1.29 and 1.30, not in v1alpha3 (1.31)
    site = generate([Release("1.29"), Release("1.30"), Release("1.31"), Release("1.32")],
                    groups=["resource"])
    assert "removed in" not in row(site.pages["1.29/resource/v1alpha2/allocationResult.md"],
                                   "availableOnNodes")
    assert "removed in 1.31" in row(site.pages["1.30/resource/v1alpha2/allocationResult.md"],
                                    "availableOnNodes")
    assert "removed in 1.32" in row(site.pages["1.31/resource/v1alpha3/allocationResult.md"],
                                    "controller")


def test_plugin_config_change_pairs_and_history(tmp_path: Path) -> None:
    from mkdocs.config.defaults import MkDocsConfig

    from generator.mkdocs.plugin import K8sApiDocsPlugin

    plugin = K8sApiDocsPlugin()
    errors, _ = plugin.load_config({
        "versions": [{"version": "1.31"}, {"version": "1.32"}], "groups": ["resource"],
        "changes": [{"old": "1.29", "new": "1.32"}], "history": "site",
        "cache_dir": str(tmp_path / "cache"),
    })
    assert not errors
    config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
    config.load_dict({"site_name": "t", "docs_dir": str(tmp_path / "docs")})
    (tmp_path / "docs").mkdir()
    plugin.on_config(config)
    assert plugin.site is not None
    pages = plugin.site.pages
    assert {"1.32/changes.md", "1.32/changes-from-1.29.md"} <= set(pages)
    # history: site → the oldest site release has every field, so 1.31 has no "since" notes
    assert "since 1." not in pages["1.31/resource/v1alpha3/resourceClaimStatus.md"]
    assert "since 1.32" in row(pages[PAGE_132_BETA], "devices")

    bad = K8sApiDocsPlugin()
    errors, _ = bad.load_config({"versions": [{"version": "1.31"}], "history": "sometimes"})
    assert errors


def test_since_of_a_field_added_to_several_api_versions_names_none_of_them() -> None:
    """``DeviceCapacity.requestPolicy`` arrived in resource.k8s.io v1, v1beta1 and v1beta2 at once
    (1.34): each page says "since 1.34"; a field that arrived in one other API version names it."""
    capacity = ModelKey("resource", "DeviceCapacity")
    site = generate([Release("1.34")], groups=["resource"])
    timeline = release_timeline(site.apis)
    assert timeline.field_since(capacity, "requestPolicy") == ("1.34", ("v1", "v1beta2", "v1beta1"))
    for api_version in ("v1", "v1beta1", "v1beta2"):
        cell = row(site.pages[f"1.34/resource/{api_version}/deviceCapacity.md"], "requestPolicy")
        assert cell.endswith('<span class="k8s-badge k8s-since">since 1.34</span></td></tr>'), cell
    cell = row(site.pages["1.34/resource/v1/resourceClaimStatus.md"], "allocation")
    assert '<span class="k8s-badge k8s-since">since 1.26 (v1alpha1)</span>' in cell
