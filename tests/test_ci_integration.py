"""The repository as a CI building block (docs/ci.md): the pre-commit hooks of
``.pre-commit-hooks.yaml`` run by ``pre-commit try-repo``, and the composite Action of
``action.yml`` whose ``run:`` steps are run here through bash with its inputs set.

Both install the package from a copy of this working tree made into a git repository (the
files git would commit, as a user's clone has them). ``pre-commit`` builds its environment from
PyPI: skipped when PyPI cannot be reached, except in CI. The Action's install step runs with
``--no-deps`` and without build isolation in a virtual environment over this one: offline."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers.paths import IN_CI, REPO

from generator.sources import available_versions

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
"""


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=t@example.invalid", "-c", "user.name=t",
                           "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout


def repo_copy(dest: Path) -> Path:
    """The files of this working tree git would commit (tracked and new, not ignored), committed
    in a fresh repository at ``dest``."""
    listed = git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for name in filter(None, listed.split("\0")):
        source = REPO / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "copy")
    return dest


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without ``PYTHONPATH``: what runs is what was installed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(extra)
    return env


# -- pre-commit -------------------------------------------------------------------------------
def hooks() -> dict[str, dict[str, Any]]:
    return {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}


def test_hook_definitions() -> None:
    found = hooks()
    assert set(found) == {"k8s-api-docs-scan", "k8s-api-docs-check"}
    scan = found["k8s-api-docs-scan"]
    assert scan["language"] == "python" and scan["entry"].startswith("k8s-api-docs scan ")
    assert "--fail-on breaking" in scan["entry"] and "--allow-empty" in scan["entry"]
    # the default target is the newest release this version bundles (overridden in args)
    assert scan["args"] == ["--target", available_versions()[-1]]
    check = found["k8s-api-docs-check"]
    assert check["entry"] == "k8s-api-docs check" and check["pass_filenames"] is False


def pypi_reachable() -> bool:
    try:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--disable-pip-version-check", "-d", os.devnull + ".d", "cfgv"],
                       check=True, capture_output=True, timeout=60)
    except (subprocess.SubprocessError, OSError):
        return False
    finally:
        shutil.rmtree(os.devnull + ".d", ignore_errors=True)
    return True


@pytest.mark.integration
@pytest.mark.slow
def test_pre_commit_try_repo_runs_the_scan_hook(tmp_path: Path) -> None:
    if shutil.which("pre-commit") is None:
        pytest.fail("pre-commit is a test dependency (pip install -e '.[test]')")
    if not IN_CI and not pypi_reachable():
        pytest.skip("pre-commit installs the hook's environment from PyPI: unreachable here")
    hook_repo = repo_copy(tmp_path / "k8s-api-docs")
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.yaml").write_text(APP)
    (project / "values.yaml").write_text("replicas: 2\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    env = clean_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    proc = subprocess.run(["pre-commit", "try-repo", str(hook_repo), "k8s-api-docs-scan",
                           "--files", "app.yaml", "values.yaml"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=1800)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out  # the hook failed: the manifest has an error
    assert re.search(r"k8s-api-docs scan\.+Failed", out), out
    assert 'app.yaml:6: error: Deployment/web spec.replics: unknown field "spec.replics"' in out
    assert f"1 object(s) scanned against {available_versions()[-1]}" in out
    (project / "app.yaml").write_text(APP.replace("replics", "replicas"))
    git(project, "add", "-A")
    proc = subprocess.run(["pre-commit", "try-repo", str(hook_repo), "k8s-api-docs-scan",
                           "--files", "app.yaml", "values.yaml"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"k8s-api-docs scan\.+Passed", proc.stdout)


# -- the GitHub Action ------------------------------------------------------------------------
EXPRESSION = re.compile(r"\$\{\{\s*([a-z_.-]+)\s*\}\}")


def action() -> dict[str, Any]:
    return yaml.safe_load((REPO / "action.yml").read_text())


def substituted(text: str, inputs: dict[str, str], context: dict[str, str]) -> str:
    """``${{ inputs.x }}`` and ``${{ github.x }}`` as the runner evaluates them."""
    def value(m: re.Match[str]) -> str:
        name = m[1]
        if name.startswith("inputs."):
            return inputs[name.removeprefix("inputs.")]
        return context[name]
    return EXPRESSION.sub(value, text)


class ActionRun:
    """The composite action's ``run:`` steps run through bash as a runner runs them
    (``bash --noprofile --norc -eo pipefail``), with the inputs' defaults and ``env``."""

    def __init__(self, root: Path, package: Path, bin_dir: Path) -> None:
        self.root, self.package, self.bin_dir = root, package, bin_dir

    def __call__(self, cwd: Path, **given: str) -> tuple[int, dict[str, str], str]:
        spec = action()
        inputs = {k: str(v.get("default", "")) for k, v in spec["inputs"].items()}
        inputs.update({k.replace("_", "-"): v for k, v in given.items()})
        assert set(inputs) == set(spec["inputs"]), "an input the action does not have"
        output_file = self.root / f"output-{len(list(self.root.glob('output-*')))}"
        output_file.write_text("")
        context = {"github.action_path": str(self.package)}
        env = clean_env(GITHUB_OUTPUT=str(output_file),
                        PATH=f"{self.bin_dir}{os.pathsep}{os.environ['PATH']}",
                        PIP_NO_DEPS="1", PIP_NO_BUILD_ISOLATION="0")
        log = []
        for step in spec["runs"]["steps"]:
            if "run" not in step:
                assert step["uses"].startswith("actions/setup-python@")
                continue
            assert step["shell"] == "bash" and "if" not in step
            step_env = {k: substituted(str(v), inputs, context)
                        for k, v in step.get("env", {}).items()}
            script = substituted(step["run"], inputs, context)
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                                   script], cwd=cwd, env={**env, **step_env},
                                  capture_output=True, text=True, timeout=600)
            log.append(proc.stdout + proc.stderr)
            if proc.returncode:
                return proc.returncode, _outputs(output_file), "".join(log)
        return 0, _outputs(output_file), "".join(log)


def _outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


@pytest.fixture(scope="module")
def run_action(tmp_path_factory: pytest.TempPathFactory) -> ActionRun:
    root = tmp_path_factory.mktemp("action")
    package = repo_copy(root / "k8s-api-docs")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")],
                   check=True)
    return ActionRun(root, package, root / "venv" / "bin")


@pytest.mark.integration
def test_action_inputs_and_outputs_are_declared() -> None:
    spec = action()
    assert spec["runs"]["using"] == "composite"
    assert {"command", "args", "sarif", "python-version", "package"} <= set(spec["inputs"])
    assert spec["inputs"]["command"]["required"] is True
    assert set(spec["outputs"]) == {"exit-code", "sarif"}


@pytest.mark.integration
def test_action_scan_writes_sarif_and_fails_with_the_gate(run_action: ActionRun,
                                                          tmp_path: Path) -> None:
    (tmp_path / "k8s").mkdir()
    (tmp_path / "k8s" / "app.yaml").write_text(APP)
    code, outputs, log = run_action(tmp_path, command="scan",
                                    args="k8s --target '1.32' --fail-on breaking",
                                    sarif="results.sarif")
    assert code == 1, log
    assert outputs == {"exit-code": "1", "sarif": "results.sarif"}
    assert re.search(r"^k8s-api-docs \d+\.\d+", log, re.MULTILINE), log
    assert "k8s/app.yaml:6: error: apps/v1 Deployment web spec.replics: unknown field" in log
    sarif = json.loads((tmp_path / "results.sarif").read_text())
    (result,) = sarif["runs"][0]["results"]
    assert result["ruleId"] == "unknown-field"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "k8s/app.yaml"
    # the installed copy ran, not this checkout through PYTHONPATH
    installed = run_action.bin_dir / "k8s-api-docs"
    assert installed.is_file()


@pytest.mark.integration
def test_action_diff_passes_and_trips(run_action: ActionRun, tmp_path: Path) -> None:
    code, outputs, log = run_action(tmp_path, command="diff", args="1.31 1.32 --kind hpa")
    assert code == 0 and outputs == {"exit-code": "0"}
    assert "1.31 → 1.32:" in log
    code, outputs, log = run_action(tmp_path, command="diff",
                                    args="1.31 1.32 --fail-on breaking --format github")
    assert code == 1 and outputs == {"exit-code": "1"}
    assert "::error title=" in log


@pytest.mark.integration
def test_action_refuses_what_it_cannot_run(run_action: ActionRun, tmp_path: Path) -> None:
    code, outputs, log = run_action(tmp_path, command="rm -rf /", args="")
    assert code == 2 and outputs == {"exit-code": "2"} and "unknown command" in log
    code, outputs, log = run_action(tmp_path, command="diff", args="1.31 1.32",
                                    sarif="x.sarif")
    assert code == 2 and "sarif is written by scan only" in log
    # arguments are split as words, never run: $(…) reaches the program as text
    code, outputs, log = run_action(tmp_path, command="scan", args="'$(touch pwned)' --target 1.32")
    assert code == 2 and not (tmp_path / "pwned").exists()
    assert "$(touch pwned): no such file or directory" in log
