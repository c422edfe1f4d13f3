"""The tests' YAML oracle (``helpers.kubectl_yaml``: go-yaml v2's rules as kubectl vendors them,
written out again) against what it is for: it reads the scalars where kubectl and PyYAML's YAML 1.1
differ as kubectl does, the generator's reader agrees with it on those and on every corpus CRD, and
the corpus facts it feeds catch a wrong value."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml
from helpers import crd_schema_facts
from helpers.kubectl_yaml import NotKubectlJson, json_key, load_all

from generator.errors import SpecError
from generator.sources.crd import manifest_files, parse_manifests

KUBECTL = [
    # text, what kubectl reads, what PyYAML's YAML 1.1 rules read (None: the same; an error)
    ("y", True, "y"), ("Y", True, "Y"), ("n", False, "n"), ("N", False, "N"),
    ("yes", True, None), ("On", True, None), ("off", False, None), ("NULL", None, None),
    ("0o17", 15, "0o17"), ("0O17", 15, "0O17"), ("1e3", 1000, "1e3"), ("08", 8, "08"),
    ("1:20", "1:20", 80), ("0755", 493, None), ("0x1F", 31, None), ("0b101", 5, None),
    ("-0b101", -5, None), ("1_000", 1000, None), ("1.0", 1, 1.0), (".5", 0.5, None),
    ("1.", 1, 1.0), ("+1", 1, None), ("1e-7", 1e-7, "1e-7"), ("09.5", 9.5, None),
    ("2001-12-14", "2001-12-14", datetime.date(2001, 12, 14)), ("1e400", "1e400", None), ("0x", "0x", None),
    ("x", "x", None), ("-x", "-x", None), ("~", None, None), ("<<", "<<", yaml.constructor.ConstructorError),
    ("99999999999999999999", 100000000000000000000, 99999999999999999999),
    ("+18446744073709551615", 18446744073709551616, 18446744073709551615),
    ("18446744073709551615", 18446744073709551615, None),
    ("0x1FFFFFFFFFFFFFFFFF", 0x1FFFFFFFFFFFFFFFFF, None),
    ("-0x1FFFFFFFFFFFFFFFFF", "-0x1FFFFFFFFFFFFFFFFF", -0x1FFFFFFFFFFFFFFFFF),
]
"""From ``resolve.go`` (``resolveTable``, ``resolveMap``, ``resolve``) read case by case."""


def kubectl(text: str) -> object:
    (document,) = load_all(f"v: {text}\n")
    return document["v"]


def generator_reads(text: str) -> object:
    (manifest,) = parse_manifests(f"v: {text}\n".encode(), "x.yaml", as_yaml=True)
    return manifest.data["v"]


def same(a: object, b: object) -> bool:
    return a == b and type(a) is type(b)


@pytest.mark.parametrize(("text", "expected", "pyyaml"), KUBECTL)
def test_oracle_reads_kubectls_values(text: str, expected: object, pyyaml: object) -> None:
    assert same(kubectl(text), expected), (text, kubectl(text))


@pytest.mark.parametrize(("text", "expected", "pyyaml"), KUBECTL)
def test_generator_reads_what_the_oracle_reads(text: str, expected: object, pyyaml: object) -> None:
    assert same(generator_reads(text), kubectl(text)), text


def test_oracle_catches_yaml_1_1_values() -> None:
    """PyYAML's YAML 1.1 reading (the old oracle's) is what the table's third column says: wrong
    on the scalars that differ, where the new oracle tells them apart, so a reader that followed
    YAML 1.1 would fail the tests above."""
    differ = 0
    for text, expected, pyyaml in KUBECTL:
        if pyyaml is yaml.constructor.ConstructorError:
            with pytest.raises(pyyaml):
                yaml.safe_load(f"v: {text}\n")
            continue
        old = yaml.safe_load(f"v: {text}\n")["v"]
        if pyyaml is None:
            assert same(old, expected), text
        else:
            assert same(old, pyyaml) and not same(kubectl(text), old), text
            differ += 1
    assert differ >= 14


def test_quoted_and_block_scalars_are_text_and_refusals() -> None:
    (doc,) = load_all("a: 'y'\nb: \"0o17\"\nc: |\n  1e3\n1: one\ntrue: t\n1.5: f\n1e6: g\n")  # 1 ≠ true
    assert doc == {"a": "y", "b": "0o17", "c": "1e3\n", "1": "one", "true": "t", "1.5": "f",
                   "1e+06": "g"}
    assert json_key(1e-5) == "1e-05" and json_key(123456.0) == "123456" and json_key(0.25) == "0.25"
    for text in ("v: .inf\n", "~: x\n", "v: !!int 7\n"):
        with pytest.raises(NotKubectlJson):
            list(load_all(text))


def test_corpus_facts_catch_a_wrong_value(tmp_path: Path) -> None:
    """The corpus test compares every row with the facts read here: an enum of the scalars that
    differ reads as kubectl reads it, so a page showing YAML 1.1's values would not match."""
    crd = tmp_path / "crd.yaml"
    crd.write_text("""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          answer: {enum: [y, n, 0o17, 1e3, 08, 1:20, =]}
""")
    (version,) = crd_schema_facts.crd_versions(crd)
    (answer,) = version.properties
    assert answer.notes == [("enum", ["true", "false", "15", "1000", "8", "1:20", "="])]
    yaml_1_1 = ["y", "n", "0o17", "1e3", "08", "80", "="]
    assert answer.notes[0][1] != yaml_1_1


@pytest.mark.integration
@pytest.mark.shared
def test_generator_reads_every_corpus_crd_as_the_oracle(shared: Path) -> None:
    """Every CRD file of ``../shared/crds`` (the corpus, cert-manager, Gateway API, Azure ALB):
    the generator's reader returns the documents the oracle reads."""
    files = [p for p in manifest_files(shared / "crds") if p.suffix in (".yaml", ".yml")]
    assert len(files) > 100
    for path in files:
        try:
            ours = [m.data for m in parse_manifests(path.read_bytes(), str(path))]
        except SpecError as exc:
            pytest.fail(f"{path}: {exc}")
        assert ours == [d for d in load_all(path.read_text(encoding="utf-8")) if d is not None], path
