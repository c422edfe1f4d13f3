"""``sources.fast_yaml``: CRD YAML built from libyaml's events gives what the strict loader gives,
refuses what it refuses (by handing the text back to it), with or without libyaml."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED

from generator.errors import SpecError
from generator.sources import fast_yaml, load_source
from generator.sources.reader import _json_data
from generator.sources.yaml_loaders import FastLoader as _FastLoader
from generator.sources.yaml_loaders import StrictYamlLoader as _StrictYamlLoader


def strict(text: str) -> list[Any]:
    """What the strict loader (PyYAML's constructor) makes of ``text``."""
    return [_json_data(d, "o") for d in yaml.load_all(text, Loader=_FastLoader) if d is not None]


SAME = ["a: 1\nb: [1, 2.5, true, null, '3', 0x1F, 1_000, .inf]\n", "a: 1\na: 2\nb: 0\n",
        "---\n---\na: x\n", "d: 2001-12-14\n", "x: !!str 3\ny: !!int '7'\n", "hello\n", "", "---\n",
        "- a\n- {b: [c, {d: e}]}\n", "!!map {a: 1}\n", "a: &anchor 1\n", "1: one\nfalse: no\n~: n\n"]


@pytest.mark.parametrize("text", SAME)
def test_same_data_as_the_strict_loader(text: str) -> None:
    found = fast_yaml.load_documents(text, "o")
    assert found is not None
    assert json.dumps(found[0]) == json.dumps(strict(text))


def test_mixed_key_types_become_strings_on_both_paths() -> None:
    text = "a: 1\n1: x\n"
    assert fast_yaml.load_documents(text, "o") == ([{"a": 1, "1": "x"}], False)
    assert strict(text) == [{"a": 1, "1": "x"}]  # was "unsupported object key of type str"


@pytest.mark.parametrize("text", ["a: &x [1]\nb: *x\n", "a: !!binary aGk=\n", "<<: {a: 1}\nb: 2\n",
                                  "? [a]\n: 1\n", "a: !custom x\n"])
def test_what_the_strict_loader_must_judge_is_handed_back(text: str) -> None:
    assert fast_yaml.load_documents(text, "o") is None


def test_braces_are_seen_in_keys_and_values_even_when_escaped() -> None:
    assert fast_yaml.load_documents("a: b\n", "o") == ([{"a": "b"}], False)
    assert fast_yaml.load_documents("a: '{{x}}'\n", "o")[1] is True  # type: ignore[index]
    assert fast_yaml.load_documents("'{{k}}': 1\n", "o")[1] is True  # type: ignore[index]
    assert fast_yaml.load_documents('a: "\\x7b\\x7b x }}"\n', "o")[1] is True  # type: ignore[index]


def test_an_escaped_helm_template_is_still_refused(tmp_path: Path) -> None:
    crd = widget_crd()
    crd["spec"]["names"]["plural"] = "ESCAPED"
    path = tmp_path / "w.yaml"
    path.write_text(dump(crd).replace("ESCAPED", '"\\x7b\\x7b .Values.plural }}"'), encoding="utf-8")
    with pytest.raises(SpecError, match=r"/spec/names/plural: Helm template syntax"):
        load_source(str(path))


def test_nesting_limit_names_the_pointer() -> None:
    data: Any = "v"
    for i in range(201):
        data = {"k": data} if i % 2 else [0, data]
    text = yaml.safe_dump(data, width=10_000)
    with pytest.raises(SpecError) as fast:
        fast_yaml.load_documents(text, "o")
    with pytest.raises(SpecError) as slow:
        strict(text)
    assert str(fast.value) == str(slow.value)
    assert "document nested deeper than 200 levels" in str(fast.value)


def test_without_libyaml_the_python_parser_gives_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_yaml, "_Events", _StrictYamlLoader)
    for text in SAME:
        found = fast_yaml.load_documents(text, "o")
        assert found is not None and json.dumps(found[0]) == json.dumps(strict(text))
    assert fast_yaml.load_documents("a: &x [1]\nb: *x\n", "o") is None


@pytest.mark.shared
def test_every_shared_crd_file_loads_as_the_strict_loader_loads_it(shared: Path) -> None:
    files = sorted((SHARED / "crds").rglob("*.yaml"))
    assert len(files) > 15
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = fast_yaml.load_documents(text, str(path))
        assert found is not None and json.dumps(found[0]) == json.dumps(strict(text)), path
