"""The command line around the commands (docs/command-line.md): ``--version``, the program name
in usage lines, shell completion, progress lines without a terminal; and the diff report a log
reader uses (grouped by class, data artifacts marked, ``--kind`` by kubectl's names)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import REPO

from generator import __version__
from generator.cli import build_parser, main, program_name
from generator.sitebuild.runner import BuildJob, run_builds
from generator.sources import available_versions


def cli(*args: str, program: str = "k8s-api-docs", **kwargs: object
        ) -> subprocess.CompletedProcess[str]:
    """The installed script when it is on PATH (its usage line is checked), else ``-m``."""
    command = [program] if program == "k8s-api-docs" else [sys.executable, "-m", "generator"]
    return subprocess.run([*command, *args], cwd=REPO, capture_output=True, text=True,
                          check=False, env={**os.environ, "PYTHONPATH": str(REPO)},
                          **kwargs)  # type: ignore[call-overload]


needs_script = pytest.mark.skipif(shutil.which("k8s-api-docs") is None,
                                  reason="k8s-api-docs is not installed as a script here")


# -- a process that ran a terminal command ends without teardown (cli.FAST_EXIT) --------------
def test_terminal_commands_end_the_process_with_all_output_and_their_status(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Ended by ``os._exit``, the process still writes everything (large JSON through a pipe) and
    exits with the command's status; in process (``main([...])``) the status is returned."""
    ran = cli("explain", "pod", "--recursive", "--format", "json", "--version", "1.32",
              program="-m")
    assert ran.returncode == 0, ran.stderr
    assert main(["explain", "pod", "--recursive", "--format", "json", "--version", "1.32"]) == 0
    assert json.loads(ran.stdout) == json.loads(capsys.readouterr().out)
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: x}\n")
    scanned = cli("scan", str(bad), "--target", "1.32", "--fail-on", "breaking", program="-m")
    assert scanned.returncode == 1 and "removed in 1.22" in scanned.stdout, scanned.stdout
    assert cli("explain", "nosuchkind", "--version", "1.32", program="-m").returncode == 2


# -- --version and the program name -----------------------------------------------------------
def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"k8s-api-docs {__version__}\n"
    with pytest.raises(SystemExit):
        main(["-V"])
    assert capsys.readouterr().out == f"{__version__}\n"
    # after a command, --version is still the Kubernetes release
    args = build_parser().parse_args(["export", "--version", "1.31"])
    assert args.versions == ["1.31"]


def test_program_name() -> None:
    assert program_name("/usr/local/bin/k8s-api-docs") == "k8s-api-docs"
    assert program_name("/src/generator/__main__.py") == "python -m generator"
    assert build_parser("k8s-api-docs").format_usage().startswith("usage: k8s-api-docs ")


@needs_script
@pytest.mark.integration
def test_usage_names_the_program_as_invoked() -> None:
    script = cli("diff")
    assert script.returncode == 2 and script.stderr.startswith("usage: k8s-api-docs diff ")
    module = cli("diff", program="python")
    assert module.returncode == 2 and module.stderr.startswith("usage: python -m generator diff ")
    version = cli("--version")
    assert version.returncode == 0 and version.stdout == f"k8s-api-docs {__version__}\n"


# -- completion -------------------------------------------------------------------------------
def complete(script: Path, words: list[str], env: dict[str, str] | None = None) -> list[str]:
    """What the completion function offers for the last word of ``words`` (``COMP_WORDS``)."""
    array = " ".join(f"'{w}'" for w in words)
    program = (f"source {script}\nCOMP_WORDS=({array})\nCOMP_CWORD={len(words) - 1}\n"
               f"COMP_LINE='{' '.join(words)}'\n_k8s_api_docs\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-c", program], capture_output=True,
                          text=True, check=True, env=env)
    return [w for w in proc.stdout.splitlines() if w]


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("completion") / "k8s-api-docs.bash"
    saved = sys.argv[0]
    sys.argv[0] = "k8s-api-docs"
    try:
        from contextlib import redirect_stdout
        from io import StringIO

        buffer = StringIO()
        with redirect_stdout(buffer):
            assert main(["completion", "bash"]) == 0
    finally:
        sys.argv[0] = saved
    path.write_text(buffer.getvalue())
    return path


def test_completion_shells_are_the_renderers() -> None:
    from generator.cli import COMPLETION_SHELLS
    from generator.render.completion import SHELLS

    assert tuple(SHELLS) == COMPLETION_SHELLS


def test_completion_scripts_parse(bash_script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check = subprocess.run(["bash", "-n", str(bash_script)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert "complete -o default -F _k8s_api_docs k8s-api-docs" in bash_script.read_text()
    assert main(["completion", "zsh"]) == 0
    zsh = capsys.readouterr().out
    assert "bashcompinit" in zsh and "complete -o default -F _k8s_api_docs" in zsh
    assert main(["completion"]) == 2


def test_completion_of_commands_options_and_releases(bash_script: Path) -> None:
    assert complete(bash_script, ["k8s-api-docs", "di"]) == ["diff"]
    assert complete(bash_script, ["k8s-api-docs", "b"]) == ["build-site"]
    assert set(complete(bash_script, ["k8s-api-docs", "scan", "--f"])) == {"--format",
                                                                         "--fail-on", "--from"}
    assert complete(bash_script, ["k8s-api-docs", "scan", "--format", "sa"]) == ["sarif"]
    assert complete(bash_script, ["k8s-api-docs", "diff", "1.3"]) == [
        v for v in available_versions() if v.startswith("1.3")]
    assert complete(bash_script, ["k8s-api-docs", "scan", "--target", "1.2"]) == [
        v for v in available_versions() if v.startswith("1.2")]


@needs_script
@pytest.mark.integration
def test_completion_of_kinds_asks_the_release(bash_script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    kinds = complete(bash_script, ["k8s-api-docs", "explain", "horizontalpod"], env)
    assert kinds == ["horizontalpodautoscaler", "horizontalpodautoscalers"]
    assert "hpa" in complete(bash_script, ["k8s-api-docs", "diff", "1.31", "1.32", "--kind", "hp"],
                             env)
    # kinds of the release on the line: 1.31 still has PodSchedulingContext, 1.32 has not
    old = complete(bash_script, ["k8s-api-docs", "explain", "--version", "1.31", "podsched"], env)
    new = complete(bash_script, ["k8s-api-docs", "explain", "--version", "1.32", "podsched"], env)
    assert "podschedulingcontext" in old and new == []


# -- progress without a terminal --------------------------------------------------------------
@pytest.mark.integration
def test_run_builds_reports_each_start_and_end(tmp_path: Path) -> None:
    events: list[str] = []
    jobs = [BuildJob(v, tmp_path / "unused.yml", (sys.executable, "-c", "pass"))
            for v in ("1.31", "1.32")]
    results = run_builds(jobs, 1, lambda r: events.append(f"done {r.version} {r.ok}"),
                         on_start=lambda j: events.append(f"start {j.version}"))
    assert [r.ok for r in results] == [True, True]
    assert sorted(events) == ["done 1.31 True", "done 1.32 True", "start 1.31", "start 1.32"]
    for version in ("1.31", "1.32"):
        assert events.index(f"start {version}") < events.index(f"done {version} True")


@pytest.mark.slow
def test_build_site_prints_progress_lines_without_a_terminal(tmp_path: Path) -> None:
    proc = cli("build-site", "--version", "1.31", "--group", "node", "--out",
               str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache"), "--jobs", "1",
               program="python", timeout=900)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert "build-site: 1.31 started" in lines
    done = [ln for ln in lines if ln.startswith("build-site: 1.31 done in ")]
    assert len(done) == 1 and done[0].endswith(" s")
    assert lines.index("build-site: 1.31 started") < lines.index(done[0])
    again = cli("build-site", "--version", "1.31", "--group", "node", "--out",
                str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache"),
                program="python", timeout=900)
    assert "build-site: 1.31 unchanged, not rebuilt" in again.stderr.splitlines()
    quiet = cli("build-site", "--version", "1.31", "--group", "node", "--out",
                str(tmp_path / "site"), "--cache-dir", str(tmp_path / "cache"), "-q",
                program="python", timeout=900)
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""


# -- diff for a log reader --------------------------------------------------------------------
@pytest.mark.integration
def test_diff_text_grouped_by_class_with_the_count_first(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(["diff", "1.31", "1.32"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("1.31 → 1.32: 169 changes (11 breaking, 0 warning, 158 info")
    assert lines[1:3] == ["", "breaking (11):"]
    assert all(ln.startswith("breaking ") for ln in lines[3:14])
    assert lines[14:16] == ["", "info (158):"]
    artifact = ("breaking resource.k8s.io/v1alpha3 ResourceSliceList.listMeta: field removed: "
                "ListMeta [alpha, bundled-data artifact]")
    assert artifact in lines[3:14]
    marked = [ln for ln in lines if "bundled-data artifact]" in ln and not ln.startswith("note")]
    assert len(marked) == 2  # listMeta and metadata
    assert lines[-1].startswith("note: these differences of the bundled data from upstream can "
                                "change this result (2 change(s) marked [bundled-data artifact])")


@pytest.mark.integration
def test_data_artifacts_are_marked_in_every_format(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    assert main(["diff", "1.31", "1.32", "--format", "json"]) == 0
    changes = json.loads(capsys.readouterr().out)["changes"]
    marked = {(c["model"], c["field"]): c["dataArtifact"] for c in changes if c["dataArtifact"]}
    note = ("kubernetes-validate 1.31 resource/v1alpha3 ResourceSliceList.metadata field name: "
            "listMeta (upstream: metadata)")
    assert marked == {("ResourceSliceList", "listMeta"): note,
                      ("ResourceSliceList", "metadata"): note}
    assert all("dataArtifact" in c for c in changes)
    assert main(["diff", "1.31", "1.32", "--format", "github", "--group", "resource"]) == 0
    github = capsys.readouterr().out.splitlines()
    (line,) = [ln for ln in github if "listMeta" in ln]
    assert line.startswith("::error title=field-removed (breaking%2C bundled-data artifact)::")
    assert f"(may not be a real change: {note})" in line
    assert "(2 change(s) marked bundled-data artifact)" in github[-1]
    assert main(["diff", "1.31", "1.32", "--format", "markdown"]) == 0
    markdown = capsys.readouterr().out
    assert "ResourceSliceList.listMeta` field removed: `ListMeta` — alpha; **bundled-data " \
           "artifact**: kubernetes-validate 1.31" in markdown
    assert main(["diff", "1.32", "1.33"]) == 0  # 1.32's reservedFor says 32, upstream 256
    out = capsys.readouterr().out
    assert ("info     resource.k8s.io/v1beta1 ResourceClaimStatus.reservedFor: description "
            "changed: 32 → 256 [beta, bundled-data artifact]") in out
    assert main(["diff", "1.33", "1.34"]) == 0  # only shared differences: they cancel out
    assert "artifact" not in capsys.readouterr().out


@pytest.mark.integration
def test_diff_kind_takes_kubectl_resource_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--kind", "hpa", "--format", "json"]) == 0
    hpa = json.loads(capsys.readouterr().out)["changes"]
    assert main(["diff", "1.31", "1.32", "--kind", "HorizontalPodAutoscaler", "--format",
                 "json"]) == 0
    assert hpa == json.loads(capsys.readouterr().out)["changes"] and hpa
    assert main(["diff", "1.31", "1.32", "--kind", "deploy", "--kind", "pods"]) == 0
    assert main(["diff", "1.31", "1.32", "--kind", "hpaa"]) == 2
    assert "--kind 'hpaa' matches nothing in 1.31 or 1.32; did you mean hpa" in \
        capsys.readouterr().err


def _entry(argv: list[str], before: str = "") -> list[str]:
    """What ``__main__.builtin_hashes(argv)`` decides in a fresh interpreter, and which SHA-256
    ``hashlib`` then has (after Jinja's import, which imports it)."""
    import subprocess
    import sys

    code = (f"{before}\nimport sys\nfrom generator.__main__ import builtin_hashes\n"
            f"print(builtin_hashes({argv!r}))\nimport jinja2, hashlib\n"
            "print(hashlib.sha256(b'abc').hexdigest()[:16])\n"
            "print(type(sys.modules.get('_hashlib')).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_commands_of_our_own_code_hash_without_openssl() -> None:
    """``generate`` and the other commands that run no plugin hash with the built-in SHA-256
    (OpenSSL's library is never mapped: issue 35's memory); ``build-site`` (MkDocs and the
    user's plugins) keeps OpenSSL; a process that imported ``hashlib`` already is left alone.
    The digest is SHA-256's either way."""
    digest = "ba7816bf8f01cfea"
    assert _entry(["generate", "--version", "1.31"]) == ["True", digest, "NoneType"]
    assert _entry(["-q", "scan", "."]) == ["True", digest, "NoneType"]
    assert _entry(["build-site", "--out", "x"]) == ["False", digest, "module"]
    assert _entry(["generate"], before="import hashlib") == ["False", digest, "module"]


def test_the_command_enters_through_the_process_entry() -> None:
    from constraints import PROJECT

    scripts = PROJECT["scripts"]
    assert scripts == {"k8s-api-docs": "generator.__main__:run"}
