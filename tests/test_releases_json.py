"""``releases.json`` of the combined site (the release switcher's data, ``views.site.releases_json``)."""

from __future__ import annotations

import json

from generator.views.site import SitePlan, releases_json


def test_combined_site_lists_its_releases_newest_first() -> None:
    plans = [SitePlan("1.9", "1.9"), SitePlan("1.31", "1.31"), SitePlan("<b>", "b")]
    text = releases_json(plans, {"1.31": "Kubernetes 1.31"})
    assert text is not None and "<" not in text
    entries = json.loads(text)
    assert [e["version"] for e in entries] == ["<b>", "1.31", "1.9"]  # release_sort_key, reversed
    assert entries[1] == {"version": "1.31", "title": "1.31", "aliases": [], "dir": "1.31",
                          "name": "Kubernetes 1.31"}


def test_release_sites_of_build_site_have_none() -> None:
    assert releases_json([SitePlan("1.31", "")], {}) is None  # Material's versions.json instead
    assert releases_json([], {}) is None
