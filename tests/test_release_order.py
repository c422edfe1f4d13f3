"""One release ordering: labels without numbers (``dra``) come after numbered releases, in the
plugin's pages and in ``build-site``'s idea of which release depends on which."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, REPO

from generator.config import Release
from generator.model.ordering import release_sort_key
from generator.pipeline.build import generate
from generator.sitebuild.build import BuildSiteOptions, build_site
from generator.sitebuild.presets import newest_first

OLD = FIXTURES / "versions" / "gadget-old.json"
NEW = FIXTURES / "versions" / "gadget-new.json"


def test_labels_sort_after_numbered_releases() -> None:
    assert sorted(["dra", "1.32", "1.9", "1.31", "alpha"], key=release_sort_key) == [
        "1.9", "1.31", "1.32", "alpha", "dra"]
    assert newest_first(["1.31", "dra", "1.32"]) == ["dra", "1.32", "1.31"]


@pytest.fixture
def epoch() -> Iterator[None]:
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    yield
    if saved is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
    else:
        os.environ["SOURCE_DATE_EPOCH"] = saved


def _edit_description(spec: Path, text: str) -> None:
    document = json.loads(spec.read_text(encoding="utf-8"))
    gadget = next(d for n, d in sorted(document["definitions"].items()) if n.endswith(".v1.Gadget"))
    gadget["description"] = text
    spec.write_text(json.dumps(document), encoding="utf-8")


def _html_text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


@pytest.mark.slow
def test_editing_132_rebuilds_dra_change_page_as_the_plugin_computes_it(tmp_path: Path, epoch: None
                                                                         ) -> None:
    specs = {v: tmp_path / f"defs-{v}.json" for v in ("1.31", "1.32", "dra")}
    shutil.copyfile(OLD, specs["1.31"])
    shutil.copyfile(NEW, specs["1.32"])
    shutil.copyfile(NEW, specs["dra"])
    releases = [Release(v, str(p)) for v, p in specs.items()]

    def build() -> list[str]:
        return build_site(BuildSiteOptions(
            releases=releases, out=tmp_path / "site", config_file=REPO / "mkdocs.yml",
            cache_dir=tmp_path / "cache", jobs=1, progress=False,
            site_url="https://example.org/k8s/")).built  # several releases: the switch needs it

    assert sorted(build()) == ["1.31", "1.32", "dra"]
    _edit_description(specs["1.32"], "Gadget, as edited in 1.32 only.")
    assert sorted(build()) == ["1.32", "dra"]  # dra's change page compares against 1.32

    # the plugin's view of the same three releases: dra's change page is "1.32 → dra"
    plugin = generate([Release("dra", str(specs["dra"]))], siblings=releases, at_root=True)
    change_pages = [p for p in plugin.pages if p.startswith("changes")]
    assert change_pages, sorted(plugin.pages)
    built = tmp_path / "site" / "dra"
    for path in change_pages:
        markdown = plugin.pages[path]
        assert "1.32" in markdown.splitlines()[0]
        html = _html_text(built / path.removesuffix(".md") / "index.html")
        # the edit in 1.32 shows on dra's change page (its description differs from dra's again)
        assert "as edited in 1.32 only" in markdown
        assert "as edited in 1.32 only" in html
