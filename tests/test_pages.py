"""Model pages of the default releases: real content from real specs."""

from __future__ import annotations

import re

import pytest
from helpers.paths import SPECS, need_shared
from pagetext import notes, table_rows

from generator.config import Release
from generator.pipeline.build import generate

RCS_131 = "1.31/resource/v1alpha3/resourceClaimStatus.md"
RCS_132 = "1.32/resource/v1beta1/resourceClaimStatus.md"


def test_131_resource_claim_status_fields(default_pages):
    page = default_pages.pages[RCS_131]
    rows = table_rows(page)
    assert {"allocation", "deallocationRequested", "reservedFor"} <= set(rows)
    assert "devices" not in rows
    assert "at most 32 such reservations" in rows["reservedFor"]
    assert page.startswith("# ResourceClaimStatus\n")


def test_132_resource_claim_status_fields(default_pages):
    rows = table_rows(default_pages.pages[RCS_132])
    assert {"allocation", "devices", "reservedFor"} <= set(rows)
    assert "deallocationRequested" not in rows


@pytest.mark.integration
@pytest.mark.shared
def test_132_upstream_says_256():
    """kubernetes-validate's 1.32 snapshot still says 32; the upstream 1.32 swagger says 256."""
    need_shared()
    site = generate([Release("1.32", str(SPECS / "swagger-1.32.json"))])
    rows = table_rows(site.pages[RCS_132])
    assert "at most 256 such reservations" in rows["reservedFor"]
    assert "at most 32 " not in rows["reservedFor"]
    assert "deallocationRequested" not in rows and "devices" in rows


def test_131_has_no_v1beta1_resource_pages(default_pages):
    assert not [p for p in default_pages.pages if p.startswith("1.31/resource/v1beta1/")]
    assert [p for p in default_pages.pages if p.startswith("1.32/resource/v1beta1/")]


def test_reserved_for_notes(default_pages):
    row = table_rows(default_pages.pages[RCS_131])["reservedFor"]
    note = notes(row)
    assert "list type: map keyed by: <code>uid</code>" in note
    assert "patch strategy: merge, merge key: <code>uid</code>" in note
    assert "optional" in note
    assert '&#91;&#93;<a href="../resourceClaimConsumerReference/">ResourceClaimConsumerReference</a>' in row


def test_allocation_links_same_version(default_pages):
    row = table_rows(default_pages.pages[RCS_131])["allocation"]
    assert '<a href="../allocationResult/">AllocationResult</a>' in row
    assert "1.31/resource/v1alpha3/allocationResult.md" in default_pages.pages
    row_132 = table_rows(default_pages.pages[RCS_132])["allocation"]
    assert '<a href="../allocationResult/">AllocationResult</a>' in row_132


def test_deallocation_requested_feature_gate_badge(default_pages):
    row = table_rows(default_pages.pages[RCS_131])["deallocationRequested"]
    assert re.search(r'class="k8s-badge k8s-alpha"[^>]*>alpha · feature gate DRAControlPlaneController<', row)


def test_kind_page_shows_real_gvk_and_appears_in(default_pages):
    claim = default_pages.pages["1.31/resource/v1alpha3/resourceClaim.md"]
    assert ('<span class="nt">apiVersion</span><span class="p">:</span><span class="w"> </span>'
            '<span class="s">"resource.k8s.io/v1alpha3"</span>') in claim
    assert '<span class="nt">kind</span><span class="p">:</span><span class="w"> </span>' \
           '<span class="s">"ResourceClaim"</span>' in claim
    status = default_pages.pages[RCS_131]
    assert "## Appears in" in status
    assert '<li><a href="../resourceClaim/">ResourceClaim</a> <small>resource/v1alpha3</small></li>' in status


def test_required_and_common_section(default_pages):
    rows = table_rows(default_pages.pages["1.31/core/v1/containerPort.md"])
    assert notes(rows["containerPort"]).startswith("<strong>required</strong>")
    assert "optional" in rows["hostPort"] and "integer (int32)" in rows["hostPort"]
    quantity = default_pages.pages["1.31/common/quantity.md"]
    assert quantity.startswith("# Quantity\n")
    limits = table_rows(default_pages.pages["1.31/core/v1/resourceRequirements.md"])["limits"]
    assert 'map&#91;string&#93;<a href="../../../common/quantity/">Quantity</a>' in limits
    home = default_pages.pages["1.31/index.md"]
    assert "## [common](common/index.md)" in home
    assert "[meta](meta/index.md)" in home and "[apiregistration](apiregistration/index.md)" in home


def test_index_pages_exist_for_each_group_and_version(default_pages):
    pages = default_pages.pages
    for path in ("1.31/index.md", "1.31/resource/index.md", "1.31/resource/v1alpha3/index.md",
                 "1.32/resource/v1beta1/index.md", "1.31/common/index.md"):
        assert path in pages
    assert '<span class="k8s-badge k8s-kind">kind</span>' in pages["1.31/resource/v1alpha3/index.md"]


def test_same_input_gives_identical_output(default_pages, tmp_path):
    from generator.output.writer import replace_tree

    again = generate([Release("1.31"), Release("1.32")])
    assert again.pages == default_pages.pages
    replace_tree(tmp_path / "a", again.pages)
    replace_tree(tmp_path / "b", default_pages.pages)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
