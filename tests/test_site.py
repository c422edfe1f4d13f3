"""The default site, built for real with ``mkdocs build --strict``."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
from linkcheck import broken_links


@pytest.mark.slow
def test_strict_build_has_no_broken_internal_links(built_site, built_site_pages):
    assert (built_site / "1.31/resource/v1alpha3/resourceClaimStatus/index.html").is_file()
    assert (built_site / "1.32/resource/v1beta1/resourceClaimStatus/index.html").is_file()
    assert not (built_site / "1.31/resource/v1beta1").exists()
    broken = broken_links(built_site, pages=built_site_pages)
    assert broken == [], broken[:20]


@pytest.mark.slow
def test_pages_are_pruned_and_small(built_site):
    """navigation.prune keeps every page small (no whole-site nav in each page)."""
    sizes = [p.stat().st_size for p in built_site.rglob("index.html")]
    assert len(sizes) > 1300
    assert statistics.median(sizes) < 80_000


@pytest.mark.slow
def test_built_model_page_content(built_site):
    html = (built_site / "1.31/resource/v1alpha3/resourceClaimStatus/index.html").read_text()
    assert 'id="field-deallocationrequested"' in html
    assert 'href="../allocationResult/"' in html
    assert "DRAControlPlaneController" in html
    assert "at most 32 such reservations" in html


@pytest.mark.slow
def test_index_page_search_text_keeps_names_and_descriptions_apart(built_site: Path) -> None:
    """Index tables' cells are separate words in the search index (issue 24: "ModelDescription
    AWSElasticBlockStoreVolumeSourceRepresents…")."""
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    text = next(d["text"] for d in docs if d["location"] == "1.32/core/v1/")
    assert "AWSElasticBlockStoreVolumeSource Represents a Persistent Disk" in text
    assert "SourceRepresents" not in text and "ModelDescription" not in text
