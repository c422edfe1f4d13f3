"""``scan`` in a repository as users have one (docs/terminal.md, docs/ci.md): a Helm chart, a
kustomization, CI and pre-commit files beside plain manifests; ``--exclude``, ``--verbose``,
``--allow-empty``; the SARIF 2.1.0 report checked against a subset of its schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from generator.analysis.findings import CHECKS
from generator.cli import main
from generator.render.terminal import sarif_uri

pytestmark = pytest.mark.integration

APP = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replics: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 80
          containerPort: 8080
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: f
  name: g
"""
"""Known problems: an unknown field (line 6), a duplicate key (line 18), an apiVersion 1.32 no
longer serves (line 20) holding a duplicate key (line 24): reported although unserved."""

POLICY = """\
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata:
  name: pdb
spec:
  minAvailable: 1
"""

REPO_FILES = {
    "chart/Chart.yaml": "apiVersion: v2\nname: demo\nversion: 0.1.0\n",
    "chart/values.yaml": "replicas: 2\nimage: nginx\n",
    "chart/values-prod.yaml": "replicas: 5\n",
    "chart/templates/deployment.yaml": (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n"
        "spec:\n  replicas: {{ .Values.replicas }}\n"),
    "chart/templates/service.yaml": (
        "{{- if .Values.service }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n"
        "{{- end }}\n"),
    "chart/templates/static.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n",
    "kustomize/kustomization.yaml": (
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        "resources: [../k8s/app.yaml]\n"),
    ".github/workflows/ci.yml": (
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "    - run: echo ${{ github.ref }}\n"),
    ".pre-commit-config.yaml": "repos: []\n",
    "docker-compose.yml": "services:\n  web:\n    image: nginx\n",
    "k8s/app.yaml": APP,
    "k8s/old/pdb.yaml": POLICY,
}


def make_repo(root: Path) -> Path:
    for name, text in REPO_FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return make_repo(tmp_path / "repo")


def test_repository_scan_reports_manifests_at_their_lines_and_one_info_per_template(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "scan", "repo", "--target", "1.32", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    found = sorted((f["file"], f["line"], f["class"], f["path"]) for f in report["findings"])
    assert found == [
        ("repo/chart/templates/deployment.yaml", 4, "info", None),
        ("repo/chart/templates/service.yaml", 1, "info", None),
        ("repo/chart/templates/static.yaml", 1, "info", None),
        ("repo/k8s/app.yaml", 6, "error", "spec.replics"),
        ("repo/k8s/app.yaml", 18, "error",
         "spec.template.spec.containers[0].ports[0].containerPort"),
        ("repo/k8s/app.yaml", 20, "breaking", None),
        ("repo/k8s/app.yaml", 24, "error", "metadata.name"),
        ("repo/k8s/old/pdb.yaml", 1, "breaking", None),
    ]
    assert report["objects"] == 3
    infos = [f for f in report["findings"] if f["class"] == "info"]
    assert all("helm template repo/chart | k8s-api-docs scan --target 1.32 -" in f["message"]
               for f in infos)
    duplicate = next(f for f in report["findings"] if f["line"] == 24)
    assert duplicate["message"] == 'duplicate field "metadata.name" (the last value is kept)'
    assert err == ""  # nothing skipped is an error; --verbose lists them
    code, _, err = run(capsys, "scan", "repo", "--target", "1.32", "--verbose")
    assert code == 0
    assert err.splitlines() == [
        "skipped repo/chart/Chart.yaml: a Helm chart's Chart.yaml",
        "skipped repo/chart/values-prod.yaml: Helm values",
        "skipped repo/chart/values.yaml: Helm values",
        "skipped repo/docker-compose.yml: no Kubernetes object (no apiVersion or kind)",
        "skipped repo/kustomize/kustomization.yaml: a kustomization (kustomize build DIR | "
        "k8s-api-docs scan - checks what it makes)",
    ]


def test_gate_trips_on_the_manifests_only(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--fail-on", "breaking")
    assert code == 1 and "repo/k8s/app.yaml:6: error: Deployment/web spec.replics" in out
    assert "repo/chart/templates/deployment.yaml:4: info: not scanned: a Helm chart template" in out
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--fail-on", "breaking",
                       "--exclude", "k8s")
    assert code == 2  # only templates are left: nothing checked is not a pass
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--fail-on", "breaking",
                       "--exclude", "app.yaml", "--exclude", "k8s/old")
    assert code == 2
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--fail-on", "breaking",
                       "--exclude", "repo/k8s/app.yaml", "--format", "json")
    assert code == 1 and {f["file"] for f in json.loads(out)["findings"]
                          if f["class"] != "info"} == {"repo/k8s/old/pdb.yaml"}


def test_files_named_one_by_one_as_pre_commit_passes_them(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = [str(repo / n) for n in REPO_FILES]
    code, out, err = run(capsys, "scan", *names, "--target", "1.32", "--format", "json")
    assert code == 0, err
    files = {Path(f["file"]).relative_to(repo).as_posix() for f in json.loads(out)["findings"]}
    assert files == {"chart/templates/deployment.yaml", "chart/templates/service.yaml",
                     "chart/templates/static.yaml", "k8s/app.yaml", "k8s/old/pdb.yaml"}
    code, _, err = run(capsys, "scan", str(repo / ".github/workflows/ci.yml"),
                       str(repo / ".pre-commit-config.yaml"), "--target", "1.32", "-v")
    assert code == 2
    assert "skipped" in err and "a GitHub workflow" in err and "pre-commit configuration" in err


def test_nothing_found_is_exit_2_unless_allowed(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(capsys, "scan", str(empty), "--target", "1.32")
    assert code == 2 and out == ""
    assert err == (f"error: no Kubernetes object found in {empty}: no YAML or JSON file; "
                   "--allow-empty accepts this\n")
    code, out, _ = run(capsys, "scan", str(empty), "--target", "1.32", "--allow-empty")
    assert code == 0 and out.startswith("0 object(s) scanned against 1.32")
    (empty / "only-comments.yaml").write_text("# nothing yet\n")
    code, _, err = run(capsys, "scan", str(empty), "--target", "1.32")
    assert code == 2 and "1 file(s) listed" in err
    import io
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code, _, err = run(capsys, "scan", "-", "--target", "1.32")
    assert code == 2 and "no Kubernetes object found in standard input" in err


# -- SARIF ------------------------------------------------------------------------------------
SARIF_SUBSET = {
    # The parts of the SARIF 2.1.0 schema (OASIS) that code scanning reads, written out here.
    "type": "object",
    "required": ["version", "$schema", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string", "pattern": "sarif-2\\.1\\.0"},
        "runs": {"type": "array", "minItems": 1, "maxItems": 1, "items": {
            "type": "object", "required": ["tool", "results"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name", "rules"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1},
                        "version": {"type": "string"},
                        "informationUri": {"type": "string", "format": "uri"},
                        "rules": {"type": "array", "items": {
                            "type": "object", "required": ["id", "shortDescription", "help"],
                            "properties": {
                                "id": {"type": "string", "minLength": 1},
                                "shortDescription": {"$ref": "#/$defs/message"},
                                "fullDescription": {"$ref": "#/$defs/message"},
                                "help": {"$ref": "#/$defs/message"},
                                "defaultConfiguration": {"type": "object", "properties": {
                                    "level": {"$ref": "#/$defs/level"}}},
                            }}},
                    }}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["ruleId", "ruleIndex", "level", "message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": 0},
                        "level": {"$ref": "#/$defs/level"},
                        "message": {"$ref": "#/$defs/message"},
                        "locations": {"type": "array", "minItems": 1, "items": {
                            "type": "object", "required": ["physicalLocation"],
                            "properties": {"physicalLocation": {
                                "type": "object", "required": ["artifactLocation", "region"],
                                "properties": {
                                    "artifactLocation": {
                                        "type": "object", "required": ["uri"],
                                        "properties": {"uri": {"type": "string",
                                                               "pattern": "^[^\\\\]+$"}}},
                                    "region": {"type": "object", "required": ["startLine"],
                                               "properties": {"startLine": {
                                                   "type": "integer", "minimum": 1}}},
                                }}}}},
                    }}},
            }}},
    },
    "$defs": {
        "message": {"type": "object", "required": ["text"],
                    "properties": {"text": {"type": "string", "minLength": 1}}},
        "level": {"enum": ["none", "note", "warning", "error"]},
    },
}


def test_sarif_report(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "scan", str(repo.resolve()), "--target", "1.32",
                       "--format", "sarif", "--fail-on", "error")
    assert code == 1
    sarif = json.loads(out)
    jsonschema.validate(sarif, SARIF_SUBSET)
    (run_,) = sarif["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "k8s-api-docs" and "informationUri" not in driver
    rules = driver["rules"]
    assert [r["id"] for r in rules] == [c.code for c in CHECKS]
    assert all(r["help"]["text"] for r in rules)
    results = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"]): r
               for r in run_["results"]}
    assert set(results) == {("repo/chart/templates/deployment.yaml", 4),
                            ("repo/chart/templates/service.yaml", 1),
                            ("repo/chart/templates/static.yaml", 1),
                            ("repo/k8s/app.yaml", 6), ("repo/k8s/app.yaml", 18),
                            ("repo/k8s/app.yaml", 20), ("repo/k8s/app.yaml", 24),
                            ("repo/k8s/old/pdb.yaml", 1)}
    for result in run_["results"]:  # each result names its rule by id and by index
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert (results[("repo/k8s/app.yaml", 6)]["ruleId"],
            results[("repo/k8s/app.yaml", 6)]["level"]) == ("unknown-field", "error")
    assert results[("repo/k8s/app.yaml", 20)]["ruleId"] == "not-served"
    assert results[("repo/k8s/app.yaml", 24)]["ruleId"] == "duplicate"
    assert (results[("repo/chart/templates/service.yaml", 1)]["ruleId"],
            results[("repo/chart/templates/service.yaml", 1)]["level"]) == ("helm-template", "note")
    assert "spec.replics" in results[("repo/k8s/app.yaml", 6)]["message"]["text"]


def test_sarif_levels_and_validation_fails_on_a_broken_report(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "k8s" / "beta.yaml").write_text(
        "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: d\n"
        "spec: {}\n")
    code, out, _ = run(capsys, "scan", "repo/k8s/beta.yaml", "--target", "1.32",
                       "--format", "sarif")
    assert code == 0
    sarif = json.loads(out)
    assert [r["level"] for r in sarif["runs"][0]["results"]] == ["warning"]
    assert sarif["runs"][0]["results"][0]["ruleId"] == "stage"
    del sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    with pytest.raises(jsonschema.ValidationError):  # the subset schema can fail
        jsonschema.validate(sarif, SARIF_SUBSET)


def test_sarif_uri() -> None:
    assert sarif_uri("./k8s/app.yaml") == "k8s/app.yaml"
    assert sarif_uri("/work/repo/k8s/app.yaml", "/work/repo") == "k8s/app.yaml"
    assert sarif_uri("/elsewhere/app.yaml", "/work/repo") == "file:///elsewhere/app.yaml"
    assert sarif_uri("my app/#1.yaml") == "my%20app/%231.yaml"
    from generator.analysis.findings import Finding
    from generator.render.terminal import scan_sarif_dict

    piped = Finding("-", 3, "v1", "Pod", "p", "spec.x", "error", "m", None, "unknown-field")
    (result,) = scan_sarif_dict([piped], 1, "1.32")["runs"][0]["results"]
    assert result["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": "-"},
                                                         "region": {"startLine": 3}}}]


def test_stage_warnings_read_a_beta_and_an_alpha(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from generator.analysis.scan import article

    assert [article(w) for w in ("alpha", "beta", "Alpha", "")] == ["an", "a", "an", "a"]
    manifest = tmp_path / "pv.yaml"
    manifest.write_text("apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv\n"
                        "spec:\n  volumeAttributesClassName: fast\n")
    code, out, _ = run(capsys, "scan", str(manifest), "--target", "1.32")
    assert code == 0
    assert (f"{manifest}:6: warning: PersistentVolume/pv spec.volumeAttributesClassName: a beta "
            "field (feature gate VolumeAttributesClass): dropped unless its feature is enabled"
            ) in out
    assert "an beta" not in out


def test_templates_in_the_github_and_markdown_reports(repo: Path,
                                                      capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--format", "github")
    assert code == 0
    assert ("::notice file=repo/chart/templates/deployment.yaml,line=4,title=info%3A Helm template "
            "not scanned::not scanned: a Helm chart template; render the chart and scan its "
            "output: helm template repo/chart | k8s-api-docs scan --target 1.32 -") in out.splitlines()
    code, out, _ = run(capsys, "scan", "repo", "--target", "1.32", "--format", "markdown")
    assert "### Info (3)" in out
    assert "| repo/chart/templates/service.yaml:1 | Helm template not scanned |  | not scanned" in out
