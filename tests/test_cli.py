"""The command-line contract: generate, export, --help, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers.paths import FIXTURES, REPO

from generator.cli import main

ZOO = str(FIXTURES / "specs" / "zoo-v2.json")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=REPO,
                          capture_output=True, text=True, check=False)


def test_generate_writes_the_url_layout(tmp_path):
    out = tmp_path / "docs"
    assert main(["generate", "--version", "9.9", "--source", ZOO, "--out", str(out), "-q"]) == 0
    assert (out / "9.9/zoo/v1/enclosureSpec.md").is_file()
    assert (out / "9.9/zoo/v1/index.md").is_file()
    assert (out / "9.9/zoo/index.md").is_file()
    assert (out / "9.9/index.md").is_file()
    assert (out / "9.9/common/quantity.md").is_file()
    page = (out / "9.9/zoo/v1/enclosureSpec.md").read_text()
    assert ('<tr id="field-habitat"><td><a class="k8s-field-link" href="#field-habitat" aria-label="Link to '
            'this field">#</a><code>habitat</code></td><td>string</td>' in page)
    assert "enum: <code>desert</code>, <code>forest</code>" in page
    assert "default: <code>forest</code>" in page
    assert "feature gate Night<wbr>Lights" in page  # a line-break opportunity between words
    assert '<a href="../animal/">Animal</a>' in page
    assert 'map&#91;string&#93;<a href="../../../common/quantity/">Quantity</a>' in page


@pytest.mark.integration
def test_generate_from_kubernetes_validate_by_default(tmp_path):
    out = tmp_path / "docs"
    result = run("generate", "--version", "1.31", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "wrote 697 pages" in result.stdout  # 696 + core/v1/list (a helper-only k8s-libsonnet object)
    assert (out / "1.31/resource/v1alpha3/resourceClaimStatus.md").is_file()


def test_export_prints_the_documented_schema(capsys):
    assert main(["export", "--version", "t", "--source", ZOO]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schemaVersion"] == 1 and data["version"] == "t" and data["format"] == "swagger-v2"
    models = {m["name"]: m for m in data["models"]}
    spec = models["io.example.api.zoo.v1.EnclosureSpec"]
    assert set(spec) == {"name", "group", "apiVersion", "kind", "shape", "description", "fields",
                         "referrers"}
    animals = next(f for f in spec["fields"] if f["name"] == "animals")
    assert animals == {
        "name": "animals", "required": False, "description": "Residents, keyed by name.",
        "type": {"kind": "array", "items": {"kind": "ref", "ref": "io.example.api.zoo.v1.Animal"}},
        "list_type": "map", "list_map_keys": ["name"], "patch_strategy": "merge",
        "patch_merge_key": "name",
    }
    assert models["io.example.api.zoo.v1.Enclosure"]["gvk"] == [
        {"group": "zoo.example.io", "version": "v1", "kind": "Enclosure"}]


def test_help_documents_every_option():
    for command in ("generate", "export"):
        result = run(command, "--help")
        assert result.returncode == 0
        for option in ("--version", "--source", "--offline", "--cache-dir", "--lenient"):
            assert option in result.stdout
    assert "--out" in run("generate", "--help").stdout


def test_usage_and_input_errors_exit_2(tmp_path):
    assert run("generate", "--out", str(tmp_path / "x")).returncode == 2  # no --version
    result = run("generate", "--version", "1.31", "--source", str(tmp_path / "missing.json"),
                 "--out", str(tmp_path / "x"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: {tmp_path / 'missing.json'}: no such file or directory"
    result = run("generate", "--version", "0.1", "--out", str(tmp_path / "x"))
    assert result.returncode == 2 and "no such release in kubernetes-validate" in result.stderr
    assert "Traceback" not in result.stderr
