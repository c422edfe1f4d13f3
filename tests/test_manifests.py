"""``sources.manifests``: objects of manifest files with the line of every key (unit tests)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from generator.errors import SpecError, UsageError
from generator.sources.manifests import input_files, read_file, read_objects

MULTI = b"""# leading comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: a
        image: x
---
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings}
  data:
    on: yes
    port: 8080
"""


def test_lines_of_keys_and_items() -> None:
    deployment, config_map = read_objects("m.yaml", MULTI)
    assert (deployment.document, deployment.line, deployment.name) == (1, 2, "web")
    assert deployment.line_of(("apiVersion",)) == 2
    assert deployment.line_of(("spec", "replicas")) == 7
    assert deployment.line_of(("spec", "template", "spec", "containers", 0)) == 11
    assert deployment.line_of(("spec", "template", "spec", "containers", 0, "image")) == 12
    assert deployment.line_of(("spec", "nope", "deeper")) == 6  # the nearest key there is
    # the List's item, its lines relative to the item; document numbers count empty ones
    assert (config_map.document, config_map.kind, config_map.name) == (3, "ConfigMap", "settings")
    assert config_map.line_of(("apiVersion",)) == 18 and config_map.line == 18
    assert config_map.line_of(("data", "port")) == 23


def test_scalars_as_the_strict_loader_reads_them() -> None:
    (obj,) = read_objects("m.yaml", b"a: yes\nb: '8080'\nc: 8080\nd: 2024-01-01\ne: ~\n1: x\n")
    # the strict loader's tags: YAML 1.1 booleans, no timestamps, keys become strings
    assert obj.data == {"a": True, "b": "8080", "c": 8080, "d": "2024-01-01", "e": None, "1": "x"}


def test_json_and_arrays() -> None:
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}]}, indent=2).encode()
    (pod,) = read_objects("x.json", text)
    assert pod.name == "p" and pod.line_of(("metadata", "name")) == 9
    # kubectl reads input that starts with "{" as a stream of JSON objects, whatever its name
    a, b = read_objects("s.yaml", b'{"kind": "A"}\n\n{"kind": "B",\n "apiVersion": "v1"}\n')
    assert (a.kind, b.kind, b.document, b.line, b.line_of(("apiVersion",))) == ("A", "B", 2, 3, 4)
    first, second = read_objects("-", b'[{"kind": "A"},\n {"kind": "B"}]')
    assert (first.kind, second.kind, second.line) == ("A", "B", 2)
    assert read_objects("x.yaml", b"# only a comment\n") == []


@pytest.mark.parametrize(("data", "message"), [
    (b"a: [1, 2\n", "invalid YAML at line 2"),
    (b'{"a": 1,}', "invalid JSON at line 1"),
    (b'{"a": 1} x', "invalid JSON at line 1"),
    (b"a: &a [1]\n" + b"".join(b"%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n"
                                % ((c, c) + (c - 1,) * 9) for c in range(98, 106)),
     "excessive aliasing"),
    (b"<<: [1]\n", "merge key"),
    (b"kind: Pod\nimage: '{{ include \"x\" . }}'\n", "Helm template syntax"),
    (b"just text\n", "not a manifest"),
])
def test_bad_input(data: bytes, message: str) -> None:
    with pytest.raises(SpecError, match=message) as raised:
        read_objects("bad.yaml", data)
    assert str(raised.value).startswith("bad.yaml")


def test_aliases_and_merge_keys_as_kubectl_reads_them() -> None:
    """go-yaml v2 expands aliases and applies ``<<`` where it stands, over the keys before it,
    the first of a sequence winning; later keys win over it (as ``fast_yaml`` does for CRDs)."""
    text = (b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n cm\n  labels: &l {a: '1'}\n"
            b"data:\n  b: x\n  <<: [{b: yy, c: z}, {c: w, d: v}]\n  e: *n\n  f: u\n")
    [obj] = read_objects("x.yaml", text)
    assert obj.data["data"] == {"b": "yy", "c": "z", "d": "v", "e": "cm", "f": "u"}
    assert obj.lines[("data", "f")] == 10


def test_input_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x.yml").write_text("kind: A\n")
    (tmp_path / "a.json").write_text('{"kind": "B"}')
    (tmp_path / "notes.txt").write_text("text")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "y.yaml").write_text("kind: C\n")
    assert input_files([str(tmp_path), "-"]) == [str(tmp_path / "a.json"),
                                                 str(tmp_path / "b" / "x.yml"), "-"]
    with pytest.raises(UsageError, match="no such file"):
        input_files([str(tmp_path / "missing.yaml")])
    (obj,) = read_file("-", io.BytesIO(b"kind: D\n"))
    assert obj.kind == "D" and obj.file == "-"
