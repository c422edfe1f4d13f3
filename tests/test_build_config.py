"""One ``SiteConfig`` from the CLI or the plugin, one entry point (``build``), one notion of what
a release reads from the others, and no memo keyed by ``id()``."""

from __future__ import annotations

import gc
import re
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, REPO

from generator import sources
from generator.config import (
    Release,
    SiteConfig,
    VersionsOptions,
    cli_config,
    diff_sides,
    plugin_config,
)
from generator.errors import UsageError
from generator.examples.jsonnet import JsonnetRenderer
from generator.libsonnet.builders import WITH, BuilderFunction, BuilderObject
from generator.mkdocs.plugin import K8sApiDocsPlugin
from generator.pipeline import incremental
from generator.pipeline.build import build
from generator.pipeline.cache import config_digest
from generator.pipeline.compare import diff_releases
from generator.pipeline.incremental import ReleaseInputs, change_olds, shape_digest
from generator.views.example_sections import ExampleSections

OLD = FIXTURES / "versions" / "gadget-old.json"
NEW = FIXTURES / "versions" / "gadget-new.json"


def test_cli_and_plugin_make_the_same_config(tmp_path: Path) -> None:
    cli = cli_config(["1.31", "1.32"], [], change_pairs=["1.29:1.32"], history="site", lenient=True)
    plugin = plugin_config({"versions": [{"version": "1.31"}, {"version": "1.32"}],
                            "changes": [{"old": "1.29", "new": "1.32"}], "history": "site",
                            "lenient": True}, tmp_path)
    assert cli.releases == plugin.releases == (Release("1.31"), Release("1.32"))
    assert cli.versions == plugin.versions == VersionsOptions(True, "site", (("1.29", "1.32"),))
    assert cli.lenient is plugin.lenient is True
    assert plugin.sources is not None and plugin.sources.cache_dir == tmp_path / ".cache/k8s-api-docs"
    with pytest.raises(UsageError, match=r"--changes 1\.29:1\.33: 1\.33 is not a --version"):
        cli_config(["1.31"], [], change_pairs=["1.29:1.33"])
    with pytest.raises(UsageError, match=r"changes: 1\.33 is not one of the versions"):
        plugin_config({"versions": [{"version": "1.31"}], "changes": [{"old": "1.2", "new": "1.33"}]},
                      tmp_path)


def test_plugin_config_only_and_release_layout(tmp_path: Path) -> None:
    options = {"versions": [{"version": "1.31"}, {"version": "1.32"}], "layout": "release"}
    with pytest.raises(UsageError, match="exactly one"):
        plugin_config(options, tmp_path)
    config = plugin_config(options, tmp_path, only=["1.32"], groups=["node"])
    assert config.releases == (Release("1.32"),) and config.at_root and config.groups == ("node",)
    assert [r.version for r in config.siblings] == ["1.31", "1.32"]
    with pytest.raises(UsageError, match=r"only 1\.99"):
        plugin_config(options, tmp_path, only=["1.99"])


def test_closed_vocabularies_reject_other_words(tmp_path: Path) -> None:
    """Layout, history scope and page format are checked words (``config.one_of``)."""
    options = {"versions": [{"version": "1.31"}]}
    assert not plugin_config({**options, "layout": "combined"}, tmp_path).at_root
    with pytest.raises(UsageError, match="layout must be one of combined, release, not 'flat'"):
        plugin_config({**options, "layout": "flat"}, tmp_path)
    with pytest.raises(UsageError, match="history must be 'all' or 'site', not 'some'"):
        plugin_config({**options, "history": "some"}, tmp_path)
    with pytest.raises(UsageError, match="page format must be one of mkdocs, gfm, not 'html'"):
        cli_config(["1.31"], [], page_format="html")
    assert cli_config(["1.31"], [], page_format="gfm", history="site").versions.history == "site"


def test_config_digest_tells_every_setting_apart() -> None:
    base = SiteConfig((Release("1.31"),))
    variants = [base, replace(base, lenient=True), replace(base, groups=("node",)),
                replace(base, page_format="gfm"), replace(base, at_root=True),
                replace(base, siblings=(Release("1.30"),)), replace(base, templates=Path("t")),
                replace(base, versions=VersionsOptions(history="site")),
                replace(base, releases=(Release("1.31", "upstream:1.31"),)),
                replace(base, hooks=())]
    digests = {config_digest(c, "templates") for c in variants}
    assert len(digests) == len(variants)
    assert config_digest(base, "other templates") not in digests
    with pytest.raises(UsageError):
        SiteConfig((Release("1.31"), Release("1.32")), at_root=True)


def test_build_returns_a_state_that_skips_an_unchanged_rebuild() -> None:
    config = SiteConfig.create([Release("x", str(OLD))])
    site, state = build(config)
    assert state is None and site.rendered == sorted(site.pages)
    first, state = build(config, keep=True)
    assert state is not None and first.pages == site.pages
    again, same = build(config, state)
    assert again.rendered == [] and again.pages == site.pages and same is state
    other, fresh = build(replace(config, lenient=True), state)  # another config: built afresh
    assert other.rendered == sorted(other.pages) and fresh is not None and fresh.key != state.key


def test_plugin_keeps_its_state_between_builds(tmp_path: Path) -> None:
    """``mkdocs serve`` keeps the plugin (it has ``on_startup``): the second build renders nothing."""
    from mkdocs.config.defaults import MkDocsConfig

    plugin = K8sApiDocsPlugin()
    errors, _ = plugin.load_config({"versions": [{"version": "x", "source": str(OLD)}],
                                    "cache_dir": str(tmp_path / "cache")})
    assert not errors
    (tmp_path / "docs").mkdir()
    for _ in range(2):
        config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
        config.load_dict({"site_name": "t", "docs_dir": str(tmp_path / "docs")})
        plugin.on_config(config)
        assert plugin.site is not None
    assert plugin.site.pages and plugin.site.rendered == []


def test_diff_releases_is_the_diff_commands_result() -> None:
    old, new = diff_sides(str(OLD), str(NEW))
    assert (old.version, new.version) == ("gadget-old.json", "gadget-new.json")
    result = diff_releases(old, new)
    assert result.diff.changes()
    # two files of one name: labelled by their full spec
    assert [r.version for r in diff_sides("a/x.json", "b/x.json")] == ["a/x.json", "b/x.json"]
    assert diff_sides("1.31", "upstream:1.32") == (Release("1.31", "kubernetes-validate:1.31"),
                                                   Release("1.32", "upstream:1.32"))


def test_release_inputs_are_the_change_pages_comparisons() -> None:
    site = ["dra", "1.32", "1.31"]
    assert ReleaseInputs.of("dra", site) == ReleaseInputs(("1.32",), ("1.31", "1.32"))
    assert ReleaseInputs.of("1.31", site) == ReleaseInputs((), ("1.32", "dra"))
    assert ReleaseInputs.of("dra", site, [("1.31", "dra")]).content == ("1.32", "1.31")
    assert change_olds("1.32", ["1.31", "1.32", "dra"], [("1.29", "1.32")]) == ["1.31", "1.29"]


def test_shape_of_a_bundled_release_reads_no_document(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the document was loaded")

    monkeypatch.setattr(sources, "load_source", refuse)
    monkeypatch.setattr(incremental, "definition_fields", sources.definition_fields)
    assert shape_digest(Release("1.31")) != shape_digest(Release("1.32"))
    monkeypatch.undo()
    # a file source: the names and property names of its definitions, not its other text
    assert shape_digest(Release("a", str(OLD))) != shape_digest(Release("b", str(NEW)))


def test_no_memo_is_keyed_by_id() -> None:
    """``id()`` is reused once an object is freed: a memo keyed by it can hand a long ``mkdocs
    serve`` another object's entry. The only use left is a traversal's seen-set."""
    uses = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(?<![\w.`])id\(", line):  # code, not ``id()`` in prose
                uses.append(f"{path.relative_to(REPO)}:{number}")
    seen_sets = ("generator/sources/crd.py:", "generator/sources/manifests.py:")  # alias checks
    assert all(u.startswith(seen_sets) for u in uses), uses


@pytest.mark.integration
def test_memos_of_derived_values_survive_address_reuse() -> None:
    """Objects made and freed one after the other often get the same address: each must still
    get its own entry (an ``id()``-keyed memo returns the first one's)."""
    renderer = JsonnetRenderer.__new__(JsonnetRenderer)
    renderer._levels = {}
    for i in range(50):
        fn = BuilderFunction(f"withF{i}", WITH, "x", ("o",), f"fn-of{i}", target=("o", f"f{i}"))
        obj = BuilderObject("o", ("o",), "obj-o", "M", (fn,), ("o",))
        assert list(renderer.level(obj)) == [f"f{i}"]
        del fn, obj
        gc.collect()
    same = BuilderObject("o", ("o",), "obj-o", "M")
    assert same == replace(same) and same.uid != replace(same).uid


def test_example_builders_follow_a_reloaded_release(api_131: object) -> None:
    sections = ExampleSections()
    first = sections.builder(api_131)  # type: ignore[arg-type]
    assert sections.builder(api_131) is first  # type: ignore[arg-type]
    reloaded = replace(api_131)  # type: ignore[type-var]
    assert sections.builder(reloaded).api is reloaded
