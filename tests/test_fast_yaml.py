"""``sources.fast_yaml``: CRD YAML built from libyaml's events gives what the strict loader gives,
refuses what it refuses (by handing the text back to it), with or without libyaml."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED

from generator.errors import SpecError
from generator.sources import fast_yaml, load_source
from generator.sources.reader import plain_json_data
from generator.sources.yaml_loaders import FastLoader as _FastLoader
from generator.sources.yaml_loaders import StrictYamlLoader as _StrictYamlLoader


def strict(text: str) -> list[Any]:
    """What the strict loader (PyYAML's constructor) makes of ``text``."""
    return [plain_json_data(d, "o") for d in yaml.load_all(text, Loader=_FastLoader) if d is not None]


SAME = ["a: 1\nb: [1, 2.5, true, null, '3', 0x1F, 1_000, 1.0, 1e3, 0o17, =, y, 1:20]\n", "a: 1\na: 2\nb: 0\n",
        "---\n---\na: x\n", "d: 2001-12-14\n", "x: !!str 3\ny: !!int '7'\n", "hello\n", "", "---\n",
        "- a\n- {b: [c, {d: e}]}\n", "!!map {a: 1}\n", "a: &anchor 1\n", "1: one\nfalse: no\nn: ~\n",
        "a: !!binary aGk=\n", "a: !custom x\nb: !!set {c: null}\n", "1.5: x\n1e6: y\n"]


@pytest.mark.parametrize("text", SAME)
def test_same_data_as_the_strict_loader(text: str) -> None:
    found = fast_yaml.load_documents(text, "o")
    assert found is not None
    assert json.dumps(found[0]) == json.dumps(strict(text))


def test_mixed_key_types_become_strings_on_both_paths() -> None:
    text = "a: 1\n1: x\n"
    assert fast_yaml.load_documents(text, "o") == ([{"a": 1, "1": "x"}], False)
    assert strict(text) == [{"a": 1, "1": "x"}]  # was "unsupported object key of type str"


@pytest.mark.parametrize(("text", "data"), [
    ("a: &x [1, {b: 2}]\nc: *x\n", {"a": [1, {"b": 2}], "c": [1, {"b": 2}]}),
    ("<<: {a: 1}\nb: 2\n", {"a": 1, "b": 2}),
    # go-yaml v2 writes a merge where it stands: over the keys before it, under those after it
    ("base: &b {k: 1, v: 2}\nm:\n  v: 0\n  <<: *b\n  z: 3\n", {"base": {"k": 1, "v": 2},
                                                             "m": {"v": 2, "k": 1, "z": 3}}),
    ("m: {<<: [{a: 1}, {a: 2, b: 2}], b: 3}\n", {"m": {"a": 1, "b": 3}}),  # the first map wins
    ("a: &s x\nb: *s\nc: '<<'\n", {"a": "x", "b": "x", "c": "<<"}),
])
def test_aliases_and_merge_keys_load_as_kubectl_loads_them(text: str, data: Any) -> None:
    assert fast_yaml.load_documents(text, "o") == ([data], False)


@pytest.mark.parametrize(("text", "problem"), [
    ("? [a]\n: 1\n", "line 1, column 3: a mapping or sequence cannot be a key"),
    ("a: &x {b: *x}\n", "line 1, column 11: anchor 'x' value contains itself"),
    ("a: *nope\n", "line 1, column 4: found undefined alias 'nope'"),
    ("a: {<<: 1}\n", "line 1, column 9: map merge requires map or sequence of maps as the value"),
    ("a: {<<: [{b: 1}, 2]}\n", "line 1, column 18: map merge requires map or sequence of maps"),
])
def test_what_kubectl_refuses_is_refused_with_its_line(text: str, problem: str) -> None:
    with pytest.raises(SpecError, match=re.escape(problem)):
        fast_yaml.load_documents(text, "o")


def test_billion_laughs_is_refused_as_go_yaml_refuses_it() -> None:
    """go-yaml v2's alias ratio (``allowedAliasRatio``): 9 levels of 9 aliases are refused
    before they are expanded; a few aliases in a real document are not."""
    text = "a: &a [" + ", ".join(["lol"] * 9) + "]\n"
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        text += f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
    with pytest.raises(SpecError, match=r"line 4, column \d+: document contains excessive aliasing"):
        fast_yaml.load_documents(text, "o")
    assert fast_yaml.allowed_alias_ratio(400_000) == 0.99
    assert fast_yaml.allowed_alias_ratio(4_000_000) == pytest.approx(0.10)


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
    assert fast_yaml.load_documents("a: &x [1]\nb: *x\n", "o") == ([{"a": [1], "b": [1]}], False)


@pytest.mark.shared
def test_every_shared_crd_file_loads_as_the_strict_loader_loads_it(shared: Path) -> None:
    files = sorted((SHARED / "crds").rglob("*.yaml"))
    assert len(files) > 15
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = fast_yaml.load_documents(text, str(path))
        assert found is not None and json.dumps(found[0]) == json.dumps(strict(text)), path
