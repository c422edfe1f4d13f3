"""``mkdocs serve --dirty`` after a spec edit: MkDocs builds again exactly the pages whose
content changed beyond the source digest, the plugin patches the digest of the others
(``output.restamp``), and the served site equals a full build of the edited spec, its search
index too (kept and redone only where pages changed: ``views.search.SearchIndex``)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import FIXTURES, REPO
from mkdocs.commands.build import build
from mkdocs.config import load_config

from generator.pipeline.incremental import restamp_text
from generator.render.raw_html import only_in_quiet_blocks

pytestmark = pytest.mark.integration

SERVE_URL = "http://127.0.0.1:8000/"
ANIMAL = "io.example.api.zoo.v1.Animal"


def site_files(site: Path) -> dict[str, bytes]:
    """Every built file but the gzipped sitemap (its header has a timestamp)."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file() and p.name != "sitemap.xml.gz"}


def full_build(config_file: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file),
                    "-d", str(out)], check=True, capture_output=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return out


def markdown_pages(pages_dir: Path) -> dict[str, str]:
    return {p.relative_to(pages_dir).as_posix(): p.read_text(encoding="utf-8")
            for p in pages_dir.rglob("*.md")}


def zoo_site(tmp_path: Path) -> tuple[Path, dict[str, Any], Path, Path]:
    """An editable copy of the zoo fixture spec as release ``z`` of a site under ``tmp_path``:
    the spec file, its document, the config file and the site directory a serve would build."""
    spec = tmp_path / "zoo.json"
    document = json.loads((FIXTURES / "specs" / "zoo-v2.json").read_text(encoding="utf-8"))
    spec.write_text(json.dumps(document), encoding="utf-8")
    shutil.copytree(REPO / "site_src", tmp_path / "docs")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(json.dumps({
        "INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "site_url": SERVE_URL,
        "plugins": ["search", {"k8s-api-docs": {"versions": [{"version": "z", "source": str(spec)}],
                                                 "cache_dir": ".cache", "pages_dir": "generated"}}]}),
        encoding="utf-8")
    return spec, document, config_file, tmp_path / "served"


def test_dirty_rebuild_after_spec_edit_equals_full_build(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    spec, document, config_file, served = zoo_site(tmp_path)

    def serve_build() -> None:  # what each build of ``mkdocs serve --dirty`` does
        config = load_config(str(config_file), site_dir=str(served))
        config.site_url = SERVE_URL
        build(config, serve_url=SERVE_URL, dirty=True)

    first = load_config(str(config_file), site_dir=str(served))
    first.plugins.on_startup(command="serve", dirty=True)
    try:
        serve_build()
        before = markdown_pages(tmp_path / "generated")
        document["definitions"][ANIMAL]["description"] = "An animal, edited while serving."
        spec.write_text(json.dumps(document), encoding="utf-8")
        with caplog.at_level(logging.DEBUG, logger="mkdocs.commands.build"):
            serve_build()
    finally:
        first.plugins.on_shutdown()
    after = markdown_pages(tmp_path / "generated")
    built = {r.getMessage().removeprefix("Building page ") for r in caplog.records
             if r.getMessage().startswith("Building page ")}

    full = full_build(config_file, tmp_path / "full")
    assert site_files(served) == site_files(full)  # the search index byte for byte too

    old_digest = next(d for d in _digests(before["z/index.md"]))
    new_digest = next(d for d in _digests(after["z/index.md"]))
    digests = {old_digest: new_digest}
    assert old_digest != new_digest
    patched = {p for p, text in after.items() if before[p] != text
               and restamp_text(before[p], digests) == text and only_in_quiet_blocks(text, [new_digest])}
    changed = {p for p, text in after.items() if before[p] != text} - patched
    assert len(patched) > 3 and "z/zoo/v1/enclosureList.md" in patched
    assert {"z/index.md", "z/zoo/v1/animal.md"} <= changed
    assert built == changed


def _digests(text: str) -> list[str]:
    import re

    return re.findall(r"sha256 <code>([0-9a-f]{64})</code>", text)


def test_search_index_after_edits_equals_full_builds(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Edits one after the other (a field's description: the release home, its digest in a
    block search does not read, is patched, not built; a field added: a new entry; a model
    added: new pages, and the hand-written home page's list counts one model more, which
    ``--dirty`` builds again since the plugin's text in it changed), each served site, its
    search index included, equal to a full build's."""
    spec, document, config_file, served = zoo_site(tmp_path)
    animal = document["definitions"][ANIMAL]

    def name_edited() -> None:
        animal["properties"]["name"]["description"] = "A unique name, edited while serving."

    def field_added() -> None:
        animal["properties"]["nickname"] = {"type": "string", "description": "What keepers call it."}

    def model_added() -> None:
        document["definitions"]["io.example.api.zoo.v1.Keeper"] = {
            "type": "object", "description": "Looks after animals.",
            "properties": {"name": {"type": "string", "description": "The keeper's name."}}}

    first = load_config(str(config_file), site_dir=str(served))
    first.plugins.on_startup(command="serve", dirty=True)
    try:
        for step, edit in enumerate((None, name_edited, field_added, model_added)):
            if edit is not None:
                edit()
                spec.write_text(json.dumps(document), encoding="utf-8")
            config = load_config(str(config_file), site_dir=str(served))
            config.site_url = SERVE_URL
            caplog.clear()
            with caplog.at_level(logging.DEBUG, logger="mkdocs.commands.build"):
                build(config, serve_url=SERVE_URL, dirty=True)
            built = {r.getMessage().removeprefix("Building page ") for r in caplog.records
                     if r.getMessage().startswith("Building page ")}
            assert ("z/index.md" in built) is (edit in (None, model_added)), (edit, built)
            assert ("index.md" in built) is (edit in (None, model_added)), (edit, built)
            index = "search/search_index.json"
            full = full_build(config_file, tmp_path / f"full{step}")
            assert (served / index).read_bytes() == (full / index).read_bytes(), edit
            if edit is model_added:  # a new page: --dirty leaves the nav of the pages not built
                assert (served / "index.html").read_bytes() == (full / "index.html").read_bytes()
            else:
                assert site_files(served) == site_files(full), edit
            head = json.loads((full / index).read_text(encoding="utf-8"))["docs"][0]
            assert head["location"] == ""  # pages in the order MkDocs builds them: the home first
    finally:
        first.plugins.on_shutdown()
