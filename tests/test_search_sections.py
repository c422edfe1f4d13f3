"""Generated pages' search entries are the plugin's (``generator.render.search_sections``, switched on
the accelerator ``search_entries``; Material's search plugin skips those pages by their ``search:
exclude`` meta). Built both ways, a site's index must hold the same entries: every location and
title, in the same order, the same text but for markup and word breaks (Material's keeps some
tags and runs table cells together, ``RequestActionRBAC``; ours parts words at block tags) and
boosts within 20% (mostly 1 to 3%: they count the words of titles in all texts), so a section the
plugin misses or invents is caught. Every HTML page is byte-identical both ways."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import HOSTILE, REPO

from generator.mkdocs import accelerators
from generator.render.search_sections import page_sections

_TAG = re.compile(r"<[^>]*>")


def _index(root: Path, site: dict[str, Any], ours: bool) -> list[dict[str, Any]]:
    """The search index entries of a site (the plugin's options ``site``) built by ``mkdocs
    build --strict`` with the repository's theme and hand-written pages."""
    shutil.copytree(REPO / "site_src", root / "docs")
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
              "plugins": ["search", {"k8s-api-docs": {"cache_dir": ".cache", **site}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    switch = "all" if ours else ",".join(n for n in accelerators.NAMES if n != "search_entries")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"], cwd=root,
        capture_output=True, text=True, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", accelerators.ENV: switch})
    assert result.returncode == 0, result.stdout + result.stderr
    docs: list[dict[str, Any]] = json.loads(
        (root / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    return docs


def _letters(text: str) -> str:
    return "".join(_TAG.sub("", text).split())


@pytest.mark.integration
@pytest.mark.parametrize("site", [
    pytest.param({"versions": [{"version": "x", "source": str(REPO / "tests/fixtures/specs/zoo-v2.json")}]},
                 id="zoo"),
    pytest.param({"versions": [{"version": "x", "source": str(HOSTILE)}], "lenient": True}, id="hostile"),
    pytest.param({"versions": [{"version": "1.31"}, {"version": "1.32"}], "groups": ["apps", "policy"]},
                 id="1.31-1.32-apps-policy"),  # operations, builders, examples, change pages
])
def test_entries_equal_materials(tmp_path: Path, site: dict[str, Any]) -> None:
    theirs = _index(tmp_path / "material", site, ours=False)
    ours = _index(tmp_path / "ours", site, ours=True)
    assert [(d["location"], d["title"]) for d in ours] == \
        [(d["location"], d["title"]) for d in theirs]
    assert [_letters(d["text"]) for d in ours] == [_letters(d["text"]) for d in theirs]
    for mine, material in zip(ours, theirs, strict=True):
        assert mine["boost"] == pytest.approx(material["boost"], rel=0.2), mine["location"]
    assert len(ours) > 20
    pages = sorted(p.relative_to(tmp_path / "ours") for p in (tmp_path / "ours" / "site").rglob("*.html"))
    assert pages == sorted(p.relative_to(tmp_path / "material")
                           for p in (tmp_path / "material" / "site").rglob("*.html"))
    for page in pages:  # the search meta leaves no trace in the pages
        assert (tmp_path / "ours" / page).read_bytes() == (tmp_path / "material" / page).read_bytes(), page


def test_sections_of_a_page() -> None:
    """What Material does with headings: the first (an ``h1``) is the page, headings without an
    id start no section, ``data-search-exclude`` leaves a section out, text reads as words."""
    content = (
        '<h1 id="pod">Pod<a class="headerlink" href="#pod" title="Permanent link">&para;</a></h1>\n'
        '<p class="m">A <code>Pod</code> &amp; its<wbr>Spec.</p>\n'
        '<h2 data-search-exclude id="example">Example<a class="headerlink" href="#example">&para;</a>'
        '</h2>\n<pre><code>kind: Pod</code></pre>\n'
        '<h2 id="operations">Operations</h2>\n<table><tr><td>GET</td><td>/api/v1/pods</td></tr>'
        '</table>\n<h3 class="k8s-field-path"><code>spec.x</code></h3>\n<p>more</p>\n'
        '<script>hidden()</script>')
    assert page_sections("1.32/core/v1/pod/", content, "Page") == [
        {"location": "1.32/core/v1/pod/", "title": "Pod", "text": "A Pod &amp; itsSpec."},
        {"location": "1.32/core/v1/pod/#operations", "title": "Operations",
         "text": "GET /api/v1/pods spec.x more"},
    ]
    # a page that opens without an h1: its first section is titled by the page
    assert page_sections("p/", '<p>intro</p><h2 id="a">A</h2>', "Page") == [
        {"location": "p/", "title": "Page", "text": "intro"},
        {"location": "p/#a", "title": "A", "text": ""},
    ]


@pytest.mark.integration
@pytest.mark.shared
def test_every_field_row_of_every_page_is_an_entry(shared: Path) -> None:
    """Issue 34: each row of a property table, on built-in and CRD kind pages and on the sub-pages
    of a large tree, is a search entry linking it (the rows' ids of the rendered pages are the
    oracle); no entry links a row that is not there."""
    from generator.config import Release
    from generator.pipeline.build import generate
    from generator.views.search import page_entries
    from generator.views.site import published_url

    crds = (shared / "crds/corpus/argo-cd", shared / "crds/cert-manager")
    site = generate([Release("1.32", "", tuple(str(c) for c in crds))],
                    groups=["apps", "argoproj.io", "cert-manager.io"])
    entries = page_entries(site.apis[0], site.plans[0])
    pages = {published_url(rel): text for rel, text in site.pages.items() if rel.endswith(".md")}
    with_rows = {url: set(re.findall(r'<tr id="(field-[^"]+)"', text)) for url, text in pages.items()}
    with_rows = {url: ids for url, ids in with_rows.items() if ids}
    assert sorted(entries.keys() & with_rows.keys()) == sorted(with_rows)
    for url, ids in with_rows.items():
        assert {f.anchor for f in entries[url].fields} == ids, url
    # ApplicationSet's tree, its repeated subtrees shown once (model.repeats), is on its page;
    # cert-manager's ClusterIssuer keeps a sub-page
    assert entries["1.32/cert-manager.io/v1/clusterIssuer/spec/"].sub_page
    subpage = "1.32/argoproj.io/v1alpha1/applicationSet/"
    assert len(entries[subpage].fields) > 300
    row = next(f for f in entries[subpage].fields if f.anchor == "field-spec.generators.matrix")
    assert (row.name, row.path, row.type) == ("matrix", "spec.generators.matrix", "object")
    row = next(f for f in entries[subpage].fields if f.name == "generators")
    assert (row.path, row.type, row.required) == ("spec.generators", "[]object", True)
    assert len(with_rows) > 60 and sum(len(ids) for ids in with_rows.values()) > 1_500  # repeats: once
    # readers write a Deployment's spec, an ApplicationSet's; controllers write the status
    written = {(url, f.anchor) for url, page in entries.items() for f in page.fields if f.written}
    deployment, application = "1.32/apps/v1/deployment", "1.32/argoproj.io/v1alpha1/application"
    assert {(f"{deployment}Spec/", "field-replicas"), (f"{deployment}/", "field-status"),
            (subpage, "field-spec.generators.matrix"),
            (f"{application}/", "field-spec.syncPolicy")} <= written
    unwritten = {(f"{deployment}Status/", "field-replicas"), (f"{deployment}Condition/", "field-type"),
                 (f"{application}/", "field-status.operationState")}
    assert unwritten <= {(url, f.anchor) for url, page in entries.items() for f in page.fields}
    assert not written & unwritten
    # built-in fields are found by their paths from the kinds too, up to four segments
    paths = {(url, f.anchor): f.paths for url, page in entries.items() for f in page.fields}
    assert paths[(f"{deployment}Spec/", "field-replicas")] == ("spec.replicas",)
    assert paths[("1.32/apps/v1/rollingUpdateDeployment/", "field-maxsurge")] == (
        "spec.strategy.rollingUpdate.maxSurge",)
    assert "spec.template.spec.updateStrategy" not in str(paths)  # not a path of any kind
    assert paths[(f"{application}/", "field-spec.syncPolicy")] == ()  # CRD rows: their own path
