"""``diff`` of CRD releases (issue 23): each change once, selectableFields, a removed sentence
visible, the stability of a CRD version from its name. Fixtures written here (no upstream text)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from crd_fixtures import WIDGET_SCHEMA, dump, widget_crd

from generator.analysis.crd_diff import with_crd_changes
from generator.analysis.diff import Change, diff_apis
from generator.cli import main
from generator.model.normalize import build_api
from generator.sources import load_source

REMOVED = ("Sizes above five need the large-widget quota of the namespace, which is granted by "
           "the cluster administrator on request and reviewed every quarter by the owners.")


def write(tmp_path: Path, name: str, crd: dict[str, Any]) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(dump(crd), encoding="utf-8")
    return str(path)


def changes(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    apis = [build_api(load_source(write(tmp_path, label, crd)), label)[0]
            for label, crd in (("a", old), ("b", new))]
    return with_crd_changes(diff_apis(*apis), *apis).changes()


def schema_with(**spec_keys: Any) -> dict[str, Any]:
    schema = copy.deepcopy(WIDGET_SCHEMA)
    schema["properties"]["spec"].update(spec_keys)
    return schema


def test_a_nested_objects_description_change_is_reported_once(tmp_path: Path) -> None:
    old = widget_crd(schema=schema_with(description="What the widget should be."))
    new = widget_crd(schema=schema_with(description="What the widget should be, and its parts."))
    found = [c for c in changes(tmp_path, old, new) if c.change == "description-changed"]
    assert len(found) == 1, [c.message for c in found]
    assert (found[0].model, found[0].field) == ("Widget", "spec")


def test_an_items_description_of_its_own_is_still_reported(tmp_path: Path) -> None:
    """Only what the parent's field says already is dropped: an array's items object has a
    description of its own (not the field's)."""
    old_schema, new_schema = copy.deepcopy(WIDGET_SCHEMA), copy.deepcopy(WIDGET_SCHEMA)
    new_schema["properties"]["spec"]["properties"]["parts"]["items"]["description"] = "One part."
    found = [c for c in changes(tmp_path, widget_crd(schema=old_schema), widget_crd(schema=new_schema))
             if c.change == "description-changed"]
    assert [(c.model, c.field, c.new) for c in found] == [("Widget.spec.parts[]", "", "One part.")]


def with_selectable(crd: dict[str, Any], *paths: str) -> dict[str, Any]:
    crd = copy.deepcopy(crd)
    for version in crd["spec"]["versions"]:
        version["selectableFields"] = [{"jsonPath": p} for p in paths]
    return crd


def test_selectable_field_changes(tmp_path: Path) -> None:
    old = with_selectable(widget_crd(), ".spec.colour", ".spec.size")
    new = with_selectable(widget_crd(), ".spec.colour", ".spec.parts")
    found = {(c.change, c.severity, c.model, c.old, c.new) for c in changes(tmp_path, old, new)}
    assert ("selectable-field-removed", "breaking", "Widget", ".spec.size", None) in found
    assert ("selectable-field-added", "info", "Widget", None, ".spec.parts") in found
    assert not {c for c in found if c[0].startswith("selectable") and ".spec.colour" in (c[3], c[4])}


def size_described(text: str, version: str = "v1") -> dict[str, Any]:
    schema = copy.deepcopy(WIDGET_SCHEMA)
    schema["properties"]["spec"]["properties"]["size"]["description"] = text
    return widget_crd((version,), version, schema=schema)


def test_a_removed_sentence_is_visible_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = write(tmp_path, "old", size_described("How big the widget is. " + REMOVED))
    new = write(tmp_path, "new", size_described("How big the widget is."))
    assert main(["diff", old, new]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "Widget.spec.size: description changed" in ln)
    assert f"{REMOVED} → ∅" in line
    assert "…" not in line


def test_a_removed_sentence_is_visible_whole_in_the_markdown_report(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The PR-comment format shows every hunk whole too (it clipped each side at 100 characters)."""
    old = write(tmp_path, "old", size_described("How big the widget is. " + REMOVED))
    new = write(tmp_path, "new", size_described("How big the widget is."))
    assert main(["diff", old, new, "--format", "markdown"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "description changed" in ln)
    assert f"{REMOVED}` → ∅" in line and "…" not in line


@pytest.mark.parametrize(("version", "level"), [("v1alpha1", "alpha"), ("v2beta3", "beta"), ("v1", "ga")])
def test_stability_of_crd_changes_is_the_crd_versions(tmp_path: Path, version: str, level: str) -> None:
    old = size_described("Size.", version)
    new = copy.deepcopy(old)
    spec = new["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec["properties"]["size"]["x-kubernetes-validations"] = [{"rule": "self % 2 == 1"}]
    new["spec"]["versions"][0]["selectableFields"] = [{"jsonPath": ".spec.colour"}]
    new["spec"]["versions"][0]["additionalPrinterColumns"] = []
    found = changes(tmp_path, old, new)
    kinds = {c.change for c in found}
    assert {"validation-rule-added", "selectable-field-added", "printer-columns-changed"} <= kinds
    assert {c.stability for c in found} == {level}


def test_ignore_stability_alpha_drops_alpha_crd_versions(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    old = size_described("Size.", "v1alpha1")
    new = copy.deepcopy(old)
    spec = new["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]
    spec["properties"]["size"]["x-kubernetes-validations"] = [{"rule": "self % 2 == 1"}]
    args = [write(tmp_path, "old", old), write(tmp_path, "new", new), "--format", "json"]
    assert main(["diff", *args]) == 0
    kept = json.loads(capsys.readouterr().out)
    assert kept["summary"]["total"] == 1
    assert main(["diff", *args, "--ignore-stability", "alpha"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["total"] == 0


def test_an_item_enum_change_is_reported(tmp_path: Path) -> None:
    old_schema = copy.deepcopy(WIDGET_SCHEMA)
    old_schema["properties"]["spec"]["properties"]["modes"] = {
        "type": "array", "items": {"type": "string", "enum": ["fast", "safe", ""]}}
    new_schema = copy.deepcopy(old_schema)
    new_schema["properties"]["spec"]["properties"]["modes"]["items"]["enum"] = ["fast", ""]
    found = [c for c in changes(tmp_path, widget_crd(schema=old_schema), widget_crd(schema=new_schema))
             if c.change == "enum-changed"]
    assert [(c.severity, c.field, c.old, c.new) for c in found] == [
        ("breaking", "modes", 'each item: fast, safe, ""', 'each item: fast, ""')]
    assert "values removed: safe" in found[0].reason


def test_every_change_value_has_a_label_on_the_changes_page() -> None:
    from generator.analysis.diff import CHANGE_KINDS
    from generator.views.changes import CHANGE_LABELS

    assert set(CHANGE_KINDS) <= set(CHANGE_LABELS)


@pytest.mark.integration
def test_changes_page_lists_selectable_field_changes(tmp_path: Path) -> None:
    from generator.config import Release
    from generator.pipeline.build import generate

    old = write(tmp_path, "old", with_selectable(widget_crd(), ".spec.colour", ".spec.size"))
    new = write(tmp_path, "new", with_selectable(widget_crd(), ".spec.colour"))
    page = generate([Release("w1", old), Release("w2", new)]).pages["w2/changes.md"]
    assert "Selectable fields removed" in page and ".spec.size" in page
