"""Incremental regeneration (``generate(..., memo=...)`` after a source edit, as ``mkdocs serve``
does): the result equals a from-scratch generation of the same inputs, every page byte for byte,
while only the pages that can show the edit are rendered again (``GeneratedSite.rendered``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from generator.config import Release
from generator.output.writer import sync_tree
from generator.pipeline import cache
from generator.pipeline.build import generate
from generator.pipeline.state import GeneratedSite, GenerationMemo
from generator.render.env import shipped_templates
from generator.sources.jsonschema_pkg import package_bytes

pytestmark = pytest.mark.integration

Defs = dict[str, Any]
NODE = "io.k8s.api.node.v1."
CORE = "io.k8s.api.core.v1."
META = "io.k8s.apimachinery.pkg.apis.meta.v1."


def releases(source: Path) -> list[Release]:
    """The default site with 1.31 read from an editable copy of its definitions."""
    return [Release("1.31", str(source)), Release("1.32")]


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GenerationMemo, GeneratedSite]:
    """The default site generated once with a memo, as the first build of ``mkdocs serve``."""
    source = tmp_path_factory.mktemp("incremental") / "defs-1.31.json"
    source.write_bytes(package_bytes("1.31"))
    memo: GenerationMemo = {}
    return source, memo, generate(releases(source), memo=memo)


def regenerate(served: tuple[Path, GenerationMemo, GeneratedSite], edit: Callable[[Defs], None]
               ) -> tuple[GeneratedSite, GeneratedSite]:
    """(incremental, from scratch) sites after ``edit`` to 1.31's definitions; the incremental one
    starts from the first build's memo."""
    source, memo, _ = served
    document = json.loads(package_bytes("1.31"))
    edit(document["$defs"])
    source.write_text(json.dumps(document), encoding="utf-8")
    return generate(releases(source), memo=dict(memo)), generate(releases(source))


def assert_same_site(incremental_site: GeneratedSite, scratch: GeneratedSite) -> None:
    assert incremental_site.pages.keys() == scratch.pages.keys()
    differing = [p for p, text in scratch.pages.items() if incremental_site.pages[p] != text]
    assert differing == []
    assert incremental_site.nav == scratch.nav
    assert incremental_site.diagnostics == scratch.diagnostics
    assert [a.models for a in incremental_site.apis] == [a.models for a in scratch.apis]
    assert incremental_site.plans == scratch.plans


def test_unchanged_input_renders_nothing(served: tuple[Path, GenerationMemo, GeneratedSite]) -> None:
    source, memo, first = served
    assert len(first.rendered) == len(first.pages) > 1000
    source.write_bytes(package_bytes("1.31"))
    again = generate(releases(source), memo=dict(memo))
    assert again.rendered == [] and again.pages == first.pages


def test_leaf_description_edit_renders_few_pages(
        served: tuple[Path, GenerationMemo, GeneratedSite]) -> None:
    def edit(defs: Defs) -> None:
        defs[NODE + "Overhead"]["properties"]["podFixed"]["description"] = "Edited fixed overhead."

    site, scratch = regenerate(served, edit)
    assert_same_site(site, scratch)
    assert "Edited fixed overhead." in site.pages["1.31/node/v1/overhead.md"]
    # the page itself, the pages reaching it (RuntimeClass, its list), its 1.32 counterpart (field
    # history compares with 1.31), the 1.32 change page and the indexes listing Overhead
    assert {"1.31/node/v1/overhead.md", "1.31/node/v1/runtimeClass.md", "1.32/node/v1/overhead.md",
            "1.32/changes.md"} <= set(site.rendered)
    assert len(site.rendered) < 20


EDITS: dict[str, Callable[[Defs], None]] = {
    "field type changed": lambda defs: defs[NODE + "Scheduling"]["properties"]["tolerations"]
    ["items"].update({"$ref": f"#/$defs/{CORE}Taint"}),
    "field added": lambda defs: defs[NODE + "Scheduling"]["properties"].update(
        {"priorityHint": {"type": ["integer", "null"], "format": "int32", "description": "A hint."}}),
    "field removed": lambda defs: defs[NODE + "RuntimeClass"]["properties"].pop("scheduling"),
    "required changed": lambda defs: defs[NODE + "RuntimeClass"].update(required=[]),
    "enum changed": lambda defs: defs[CORE + "Toleration"]["properties"]["operator"].update(
        enum=["Equal", "Exists"]),
    "model description edited": lambda defs: defs[NODE + "Scheduling"].update(
        description="Edited: where pods of a RuntimeClass may run. Second sentence."),
    "widely used type edited": lambda defs: defs[META + "ObjectMeta"]["properties"]["name"].update(
        description="The object's name, edited."),
}


@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_single_edit_equals_generation_from_scratch(
        served: tuple[Path, GenerationMemo, GeneratedSite], edit: Callable[[Defs], None]) -> None:
    site, scratch = regenerate(served, edit)
    assert_same_site(site, scratch)
    assert 0 < len(site.rendered) < len(site.pages)


def test_definitions_added_or_removed_regenerate_everything(
        served: tuple[Path, GenerationMemo, GeneratedSite]) -> None:
    def edit(defs: Defs) -> None:
        del defs[NODE + "RuntimeClassList"]
        defs[NODE + "NodeFeature"] = {"description": "A definition only this test has.",
                                      "properties": {"name": {"type": ["string", "null"]}},
                                      "type": ["object", "null"]}

    site, scratch = regenerate(served, edit)
    assert_same_site(site, scratch)
    assert site.rendered == sorted(site.pages)
    assert "1.31/node/v1/nodeFeature.md" in site.pages
    assert "1.31/node/v1/runtimeClassList.md" not in site.pages


def test_reloaded_release_replaces_its_diagnostics(tmp_path: Path) -> None:
    """Lenient mode: a dangling reference is a diagnostic of its release, gone once fixed; the
    other release is not reloaded. Custom hooks are not reused incrementally: full regeneration."""
    source = tmp_path / "defs-1.31.json"
    document = json.loads(package_bytes("1.31"))
    source.write_bytes(package_bytes("1.31"))
    memo: GenerationMemo = {}
    options: dict[str, Any] = {"groups": ["node"], "lenient": True, "memo": memo}
    loads: list[str] = []
    first = generate(releases(source), progress=loads.append, **options)
    assert first.diagnostics == [] and loads == ["1.31", "1.32"]
    document["$defs"][NODE + "Overhead"]["properties"]["podFixed"]["additionalProperties"] = {
        "$ref": "#/$defs/io.k8s.api.node.v1.Missing"}
    source.write_text(json.dumps(document), encoding="utf-8")
    dangling = generate(releases(source), progress=loads.append, **options)
    assert loads[2:] == ["1.31"]
    assert ["Missing" in str(d) for d in dangling.diagnostics] == [True]
    assert 0 < len(dangling.rendered) < len(dangling.pages)
    assert dangling.pages == generate(releases(source), groups=["node"], lenient=True).pages
    source.write_bytes(package_bytes("1.31"))
    fixed = generate(releases(source), **options)
    assert fixed.diagnostics == [] and fixed.pages == first.pages

    calls: list[str] = []

    def custom(page: Any, api: Any, plan: Any) -> None:
        calls.append(page.path)

    options["memo"] = {}
    generate(releases(source), hooks=[custom], **options)
    source.write_text(json.dumps(document), encoding="utf-8")
    again = generate(releases(source), hooks=[custom], **options)
    assert again.rendered == sorted(again.pages)


def test_template_edit_rebuilds_the_environment(tmp_path: Path) -> None:
    overrides = tmp_path / "templates"
    (overrides / "pages").mkdir(parents=True)
    template = overrides / "pages" / "model.md.j2"
    shipped = (shipped_templates() / "pages" / "_base" / "model.md.j2").read_text(encoding="utf-8")
    template.write_text(shipped + "\nfirst edit\n", encoding="utf-8")
    env, digest = cache.template_env(overrides)
    assert cache.template_env(overrides) == (env, digest)  # kept while unchanged
    memo: GenerationMemo = {}
    site = generate([Release("1.32")], groups=["node"], templates=overrides, memo=memo)
    assert "first edit" in site.pages["1.32/node/v1/overhead.md"]
    template.write_text(shipped + "\nsecond edit\n", encoding="utf-8")
    rebuilt, new_digest = cache.template_env(overrides)
    assert rebuilt is not env and new_digest != digest
    site = generate([Release("1.32")], groups=["node"], templates=overrides, memo=memo)
    assert "second edit" in site.pages["1.32/node/v1/overhead.md"]
    assert site.rendered == sorted(site.pages)


def test_sibling_edit_renders_the_pages_that_show_it(tmp_path: Path) -> None:
    """A release published beside the rendered one (``build-site``, ``only``) is edited: the
    rendered release's counterpart pages and change page follow (node group: a small site)."""
    source = tmp_path / "defs-1.31.json"
    source.write_bytes(package_bytes("1.31"))
    options: dict[str, Any] = {"groups": ["node"], "siblings": releases(source), "at_root": True}
    memo: GenerationMemo = {}
    generate([Release("1.32")], memo=memo, **options)
    document = json.loads(package_bytes("1.31"))
    document["$defs"][NODE + "Overhead"]["properties"]["podFixed"]["description"] = "Edited."
    source.write_text(json.dumps(document), encoding="utf-8")
    site = generate([Release("1.32")], memo=memo, **options)
    assert site.rendered == ["changes.md", "node/v1/overhead.md"]
    assert site.pages == generate([Release("1.32")], **options).pages


def test_sync_tree_trusts_reused_pages_only_while_their_files_are_untouched(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    pages = {"a/b.md": "first\n", "c.md": "second\n"}
    assert sync_tree(out, pages) == (2, 0, 0)
    assert sync_tree(out, pages) == (0, 2, 0)  # same text objects, files untouched: not read
    (out / "c.md").write_text("edited by hand, longer\n", encoding="utf-8")
    (out / "a" / "b.md").write_text("FIRST\n", encoding="utf-8")  # same size, new mtime
    assert sync_tree(out, pages) == (2, 0, 0)
    assert (out / "c.md").read_text(encoding="utf-8") == "second\n"
    assert (out / "a" / "b.md").read_text(encoding="utf-8") == "first\n"
    assert sync_tree(out, {"c.md": "second\n"}) == (0, 1, 1)
    assert not (out / "a").exists() and (out / "c.md").exists()
