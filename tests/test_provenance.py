"""Every release home and every model page says what the release was built from: package and
version, or URL/file, and the sha256; bundled data is called a snapshot, with a link to the known
differences from upstream."""

from __future__ import annotations

import hashlib
from pathlib import Path

from helpers.paths import FIXTURES

from generator.config import Release
from generator.pipeline.build import generate
from generator.pipeline.state import GeneratedSite
from generator.render.raw_html import CLOSE, OPEN
from generator.sources.jsonschema_pkg import package_bytes, package_version
from generator.views import provenance

CLAIM_STATUS_132 = "1.32/resource/v1beta1/resourceClaimStatus.md"


def test_bundled_release_home_says_snapshot_and_lists_where_the_differences_are(
        default_pages: GeneratedSite) -> None:
    sha = hashlib.sha256(package_bytes("1.32")).hexdigest()
    home = default_pages.pages["1.32/index.md"]
    assert home.index("\n## [") < home.index("## Source")  # the API groups first (#34)
    source = home[home.index("## Source"):home.index("\n## Request parameters")]
    assert source.startswith(f"## Source\n\n{OPEN}\n<p>Built from kubernetes-validate {package_version()}, "
                             f"its bundled data for Kubernetes 1.32.\nsha256 <code>{sha}</code>.</p>\n"
                             f"{CLOSE}\n")
    assert "This is a snapshot of the Kubernetes 1.32 definitions" in source
    assert "[known differences](#known-differences-from-upstream) below" in source
    assert "build this release from <code>upstream:1.32</code>" in source
    assert "### Known differences from upstream" in source  # the target of the pages' links
    assert "Known differences between sources" in source or "\n- <code>io.k8s." in source
    assert "Built from kubernetes-validate" not in default_pages.pages["1.32/resource/index.md"]


def test_every_model_page_names_its_source_and_digest(default_pages: GeneratedSite) -> None:
    for version in ("1.31", "1.32"):
        sha = hashlib.sha256(package_bytes(version)).hexdigest()
        library = {page for plan in default_pages.plans for page, _, _ in plan.library_pages.values()}
        models = [p for p in default_pages.pages if p.startswith(version) and "/v" in p
                  and not p.endswith("index.md") and p not in library]  # core/v1/list: no spec text
        assert len(models) > 500
        for path in models:
            page = default_pages.pages[path]
            depth = path.count("/")
            assert (f'<a href="{"../" * depth}#source">Source</a>: kubernetes-validate '
                    f"{package_version()}, its bundled data for Kubernetes {version} · sha256 "
                    f"<code>{sha}</code> · a snapshot with <a href=\"{'../' * depth}"
                    f'#known-differences-from-upstream">known differences from upstream</a>') in page, path


def test_a_file_source_names_the_file_and_digest() -> None:
    spec = FIXTURES / "specs" / "zoo-v2.json"
    sha = hashlib.sha256(spec.read_bytes()).hexdigest()
    site = generate([Release("x", str(spec))])
    assert f"Built from the file zoo-v2.json.\nsha256 <code>{sha}</code>.</p>\n" in site.pages["x/index.md"]
    assert "snapshot" not in site.pages["x/index.md"]
    page = next(text for text in site.pages.values() if "k8s-source" in text)
    assert f"Source</a>: the file zoo-v2.json · sha256 <code>{sha}</code></small>" in page


def test_the_built_site_has_the_anchors_the_footers_link(built_site: Path) -> None:
    home = (built_site / "1.32" / "index.html").read_text(encoding="utf-8")
    assert 'id="source"' in home and 'id="known-differences-from-upstream"' in home
    page = (built_site / "1.32/resource/v1beta1/resourceClaimStatus/index.html").read_text(encoding="utf-8")
    assert '<a href="../../../#known-differences-from-upstream">' in page


def test_the_home_lists_the_known_differences_of_its_release() -> None:
    """The release home shows the entries of the project's list of known differences
    (``generator.sources.known_differences``) for its release; a release not compared says so."""
    provenance._note.cache_clear()
    site = generate([Release("1.32"), Release("1.27")], groups=["resource"], versions=None)
    for version in ("v1alpha3", "v1beta1"):
        assert (f"- <code>io.k8s.api.resource.{version}.ResourceClaimStatus</code> "
                "<code>reservedFor</code>, description: kubernetes-validate says at most 32 "
                "reservations, upstream says at most 256\n") in site.pages["1.32/index.md"]
    assert "No upstream document of this release was compared" in site.pages["1.27/index.md"]
