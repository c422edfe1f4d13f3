"""``sources.yaml_rules``: YAML read as kubectl reads it (go-yaml v2, then ``encoding/json``),
the same on the fast loader (libyaml events), its pure-Python fallback and PyYAML's constructor;
errors name the first offending line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.cli import main
from generator.errors import SpecError
from generator.sources import fast_yaml, load_source
from generator.sources.crd import parse_manifests
from generator.sources.reader import parse_document, plain_json_data
from generator.sources.yaml_loaders import FastLoader, StrictYamlLoader
from generator.sources.yaml_rules import go_float_g, json_key, resolve_plain

FIXTURE = Path(__file__).parent / "fixtures" / "crds" / "kubectl-scalars.yaml"

KUBECTL = {
    "=": "=", "=~": "=~", "y": True, "Y": True, "n": False, "N": False, "yes": True, "off": False,
    "ON": True, "<<": "<<", "1:20": "1:20", "190:20:30.15": "190:20:30.15", "0755": 493,
    "0o17": 15, "0x1F": 31, "0b101": 5, "1_000": 1000, "1e3": 1000, "1.5e5": 150000, "08": 8,
    "1.0": 1, "1.5": 1.5, ".5": 0.5, "-.5": -0.5, "1.": 1, "2001-12-14": "2001-12-14", "~": None,
    "null": None, "": None, "1e400": "1e400", "+1": 1, "-0": 0, "Infinity": "Infinity",
    "nan": "nan", ".5_0": ".5_0",
    # beyond 64 bits: a decimal is a float (yamlStyleFloat comes before big.Int), hex is big.Int
    "99999999999999999999": 100000000000000000000, "0x1FFFFFFFFFFFFFFFFF": 0x1FFFFFFFFFFFFFFFFF,
}
"""Plain scalar → the JSON value kubectl sends (go-yaml v2's resolve.go, then encoding/json)."""


@pytest.mark.parametrize(("text", "value"), KUBECTL.items())
def test_plain_scalars_resolve_as_kubectl_reads_them(text: str, value: Any) -> None:
    found = resolve_plain(text)
    assert found == value and type(found) is type(value)
    document = f"a: {text}\n" if text else "a:\n"
    loaders = [fast_yaml.load_documents(document, "o")[0][0]]  # type: ignore[index]
    for loader in (FastLoader, StrictYamlLoader):
        loaders += [plain_json_data(d, "o") for d in yaml.load_all(document, Loader=loader)]
    for data in loaders:
        assert json.dumps(data) == json.dumps({"a": value}), (text, data)


def test_keys_become_strings_as_kubectl_makes_them() -> None:
    assert [json_key(k) for k in (True, 3, 1.5, 1e6, 1e-5, 123456.0, 0.0001)] == [
        "true", "3", "1.5", "1e+06", "1e-05", "123456", "0.0001"]
    assert go_float_g(1234567.0) == "1.234567e+06"
    text = "1.0: a\n1e6: b\ny: c\n"
    expected = {"1": "a", "1e+06": "b", "true": "c"}
    assert fast_yaml.load_documents(text, "o") == ([expected], False)
    assert [plain_json_data(d, "o") for d in yaml.load_all(text, Loader=StrictYamlLoader)] == [expected]


def test_the_fixture_crd_loads_with_kubectls_values() -> None:
    """A bare ``=`` enum value (PyYAML 1.1: the ``value`` tag, which stopped the whole set)."""
    doc = load_source(str(FIXTURE))
    schema = doc.definitions["com.example.v1.Matcher"]["properties"]["spec"]["properties"]
    assert schema["matchType"]["enum"] == ["!=", "=", "=~", "!~"]
    assert schema["answer"]["enum"] == [True, False, True, False, "<<"]
    assert schema["clock"]["default"] == "1:20"
    assert schema["mode"]["default"] == 493 and schema["mode"]["maximum"] == 511
    assert schema["size"]["minimum"] == 1 and type(schema["size"]["minimum"]) is int
    assert schema["size"]["maximum"] == 1000 and schema["size"]["multipleOf"] == 0.5
    assert schema["day"]["default"] == "2001-12-14"
    assert schema["padded"]["default"] == 8
    assert any("ConfigMap" in d.message and "skipped" in d.message for d in doc.diagnostics)
    # PyYAML's constructor (YAML specs, the fallback) reads the same values; so does a merge key
    text = FIXTURE.read_text(encoding="utf-8")
    fast = [m.data for m in parse_manifests(text.encode(), "m.yaml")]
    for loader in (StrictYamlLoader, FastLoader):
        assert [plain_json_data(d, "o") for d in yaml.load_all(text, Loader=loader)] == fast
    merged = text.replace("  scope: Namespaced\n", "  <<: {scope: Namespaced}\n")
    assert [m.data for m in parse_manifests(merged.encode(), "m.yaml")] == fast


def _long_crd(bad: str, at: int, later: str) -> tuple[str, int]:
    """A CRD text with ``bad`` as an enum value deep in field ``at`` and ``later`` as a shallow
    value further down; the line of ``bad``."""
    text = FIXTURE.read_text(encoding="utf-8").split("---")[0]
    lines = text.splitlines()
    extra = []
    for i in range(200):
        extra += [f"              f{i}:", "                type: string", "                enum:",
                  "                - a"]
        if i == at:
            extra.append(f"                - {bad}")
    lines[lines.index("            properties:") + 1:1] = extra
    line = lines.index(f"                - {bad}") + 1
    return "\n".join(lines) + f"\n  x-later: {later}\n  <<: {{a: 1}}\n", line


@pytest.mark.parametrize("bad", [".inf", "!!int abc", ".nan"])
def test_an_error_names_the_first_offending_line(tmp_path: Path, bad: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A later, shallower bad value is not named first (PyYAML constructs breadth first: it
    named line 12219 for a problem first at line 82)."""
    text, line = _long_crd(bad, 20, bad)
    assert line > 80
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError, match=rf"invalid YAML at line {line}, column \d+: "):
        parse_manifests(text.encode(), str(path))
    assert main(["generate", "--version", "x", "--source", str(path), "--out",
                 str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0] and f"line {line}," in err[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("bad", ["!!int abc", ".inf"])
def test_a_yaml_spec_error_names_the_first_offending_line(bad: str) -> None:
    """PyYAML's constructor (YAML specs) too: the deep value at line 4, not the one at 55."""
    text = f"a:\n  b:\n    c:\n      d: {bad}\n" + "x: 1\n" * 50 + f"e: {bad}\n"
    with pytest.raises(SpecError, match=r"at line 4, column 10: |#/a/b/c/d"):
        parse_document(text.encode(), "spec.yaml")


def test_a_null_key_is_refused_with_its_line() -> None:
    with pytest.raises(SpecError, match=r"line 2, column 1: a null key is not allowed"):
        fast_yaml.load_documents("a: 1\n~: 2\n", "o")


def test_a_helm_template_is_refused() -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace("plural: matchers", "plural: {{ .Values.p }}")
    with pytest.raises(SpecError, match=r"line \d+: render the chart first"):
        parse_manifests(text.encode(), "t.yaml")
