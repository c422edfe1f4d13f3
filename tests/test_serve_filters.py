"""Serve-time helpers: the release/group filter from the environment and the generation memo
that lets ``mkdocs serve`` rebuilds render nothing when no input changed (source edits:
``test_incremental``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.config import Release
from generator.errors import GeneratorError
from generator.mkdocs.plugin import K8sApiDocsPlugin
from generator.pipeline.build import generate
from generator.pipeline.state import GenerationMemo
from generator.render.env import shipped_templates

pytestmark = pytest.mark.integration


def configured_plugin(**options: object) -> K8sApiDocsPlugin:
    plugin = K8sApiDocsPlugin()
    errors, _ = plugin.load_config({"versions": [{"version": "1.31"}, {"version": "1.32"}], **options})
    assert errors == []
    return plugin


def selected(plugin: K8sApiDocsPlugin) -> list[Release]:
    """The releases the plugin generates (its options and the serve-time variables)."""
    return list(plugin.site_config(Path.cwd()).releases)


def test_env_filter_picks_one_release(monkeypatch: pytest.MonkeyPatch) -> None:
    plugin = configured_plugin()
    assert [r.version for r in selected(plugin)] == ["1.31", "1.32"]
    monkeypatch.setenv("K8S_API_DOCS_ONLY", "1.32")
    assert [r.version for r in selected(plugin)] == ["1.32"]
    monkeypatch.setenv("K8S_API_DOCS_ONLY", "1.99")
    with pytest.raises(GeneratorError, match=r"1\.99"):
        selected(plugin)


def test_release_layout_needs_exactly_one_release() -> None:
    with pytest.raises(GeneratorError, match="exactly one"):
        selected(configured_plugin(layout="release"))
    assert [r.version for r in selected(configured_plugin(layout="release", only=["1.31"]))] \
        == ["1.31"]


def test_memo_skips_rendering_when_no_input_changed(tmp_path: Path) -> None:
    memo: GenerationMemo = {}
    releases = [Release("1.31"), Release("1.32")]
    first = generate(releases, groups=["node"], memo=memo)
    assert first.rendered == sorted(first.pages)
    again = generate(releases, groups=["node"], memo=memo)
    assert again.rendered == [] and again.pages == first.pages
    templates = tmp_path / "templates" / "pages"
    templates.mkdir(parents=True)
    model = (shipped_templates() / "pages" / "_base" / "model.md.j2").read_text(encoding="utf-8")
    (templates / "model.md.j2").write_text(model + "\nedited template\n", encoding="utf-8")
    edited = generate(releases, groups=["node"], memo=memo, templates=tmp_path / "templates")
    assert edited.rendered == sorted(edited.pages)
    assert "edited template" in edited.pages["1.31/node/v1/overhead.md"]
    only = generate([Release("1.32")], groups=["node"], memo=memo, siblings=releases,
                    templates=tmp_path / "templates")
    assert only.rendered == sorted(only.pages) and len(memo) == 1
    assert all(page.startswith("1.32/") for page in only.pages)
    assert "../../../1.31/node/v1/overhead/" in only.pages["1.32/node/v1/overhead.md"]


def test_dirty_serve_notice_does_not_trip_strict_mode() -> None:
    import logging

    from mkdocs.utils import CountHandler

    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    mkdocs_logger = logging.getLogger("mkdocs")
    mkdocs_logger.addHandler(counter)
    try:
        K8sApiDocsPlugin().on_startup(command="serve", dirty=True)
        build_logger = logging.getLogger("mkdocs.commands.build")
        build_logger.warning("A 'dirty' build is being performed, this will likely lead to ...")
        assert counter.get_counts() == []
        build_logger.warning("some other warning")
        assert counter.get_counts() == [("WARNING", 1)]
    finally:
        mkdocs_logger.removeHandler(counter)


@pytest.mark.parametrize("command", ["build", "serve"])
def test_mkdocs_build_keeps_generated_pages_in_memory_serve_writes_them(tmp_path: Path,
                                                                          command: str) -> None:
    """``mkdocs build`` hands the generated pages to MkDocs as text (nothing is written to
    ``pages_dir``); ``mkdocs serve`` writes them there, for ``--dirty`` rebuilds."""
    import json
    import shutil

    from helpers.paths import FIXTURES, REPO
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    shutil.copytree(REPO / "site_src", tmp_path / "docs")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text(json.dumps({
        "INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
        "site_dir": "site", "plugins": ["search", {"k8s-api-docs": {
            "versions": [{"version": "z", "source": str(FIXTURES / "specs" / "zoo-v2.json")}],
            "cache_dir": ".cache", "pages_dir": "generated"}}]}), encoding="utf-8")
    config = load_config(str(config_file))
    config.plugins.on_startup(command=command, dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
    built = sorted(p.relative_to(tmp_path / "site").as_posix()
                   for p in (tmp_path / "site" / "z").rglob("index.html"))
    assert "z/index.html" in built and "z/meta/v1/index.html" in built
    written = sorted(p.relative_to(tmp_path / "generated").as_posix()
                     for p in (tmp_path / "generated").rglob("*.md")) \
        if (tmp_path / "generated").exists() else []
    if command == "build":
        assert written == []
    else:
        assert len(written) == len(built) and "z/index.md" in written
