"""``sitebuild.runner``: release builds in worker processes are the same builds as
``python -m mkdocs build`` subprocesses — same files, same environment rules, same failures —
and this process never forks (its progress bar runs a thread)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from generator.sitebuild.runner import BuildJob, BuildResult, run_builds, start_workers

pytestmark = pytest.mark.integration

HOOK = '''\
import json, os, sys
from pathlib import Path

def on_config(config):
    seen = {name: os.environ.get(name) for name in
            ("K8S_API_DOCS_ONLY", "K8S_API_DOCS_GROUPS", "NO_MKDOCS_2_WARNING", "PYTHONHASHSEED")}
    seen["stdout_is_capture"] = not sys.stdout.isatty()
    Path(config.config_file_path).with_name("seen.json").write_text(json.dumps(seen))
    print("hook ran for", Path(config.config_file_path).parent.name)
'''


def project(root: Path, name: str, page: str = "# Home\n\nA page.\n") -> BuildJob:
    """A one-page MkDocs project (plain theme, strict, a hook recording what the build saw)."""
    base = root / name
    (base / "docs").mkdir(parents=True)
    (base / "docs" / "index.md").write_text(page, encoding="utf-8")
    (base / "hook.py").write_text(HOOK, encoding="utf-8")
    config = base / "mkdocs.yml"
    config.write_text(f"site_name: {name}\ntheme: {{name: mkdocs}}\nstrict: true\n"
                      f"site_dir: {base / 'site'}\nhooks: [{base / 'hook.py'}]\n", encoding="utf-8")
    return BuildJob(name, config)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "sitemap.xml.gz"}


@pytest.fixture(autouse=True)
def _serve_filters_and_fixed_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("the test process forked")

    monkeypatch.setattr(os, "fork", no_fork)  # workers come from a fork server, never from here
    monkeypatch.setenv("K8S_API_DOCS_ONLY", "1.31")  # serve-time filters the builds must not see
    monkeypatch.setenv("K8S_API_DOCS_GROUPS", "node")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.mark.parametrize("workers", [1, 2])
def test_worker_builds_equal_subprocess_builds(tmp_path: Path, workers: int) -> None:
    jobs = {mode: [project(tmp_path / mode, name) for name in ("a", "b", "c")]
            for mode in ("forked", "subprocess")}
    done: list[str] = []
    forked = run_builds(jobs["forked"], workers, lambda r: done.append(r.version), pool=True)
    plain = run_builds(jobs["subprocess"], workers, pool=False)
    assert [r.version for r in forked] == ["a", "b", "c"] and sorted(done) == ["a", "b", "c"]
    assert all(r.ok for r in forked + plain), [r.output for r in forked + plain]
    for name in ("a", "b", "c"):
        forked_dir, plain_dir = tmp_path / "forked" / name, tmp_path / "subprocess" / name
        assert tree(forked_dir / "site") == tree(plain_dir / "site")
        seen = json.loads((forked_dir / "seen.json").read_text())
        assert seen == json.loads((plain_dir / "seen.json").read_text())
        assert seen == {"K8S_API_DOCS_ONLY": None, "K8S_API_DOCS_GROUPS": None,
                        "NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0", "stdout_is_capture": True}
    outputs = {r.version: r.output for r in forked}
    assert f"hook ran for {forked[0].version}" in outputs["a"]  # the child's print is captured
    assert "Documentation built" in outputs["b"]  # and MkDocs' own log
    assert all("hook ran for b" not in outputs[v] for v in ("a", "c"))


def test_a_worker_sees_the_callers_environment_now(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The fork server keeps the environment it started with; a build sees this process's as it
    is when the build starts (here ``SOURCE_DATE_EPOCH``, the build date MkDocs writes)."""
    assert all(r.ok for r in run_builds([project(tmp_path / "first", "a")], 1, pool=True))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1600000000")
    [result] = run_builds([project(tmp_path / "second", "a")], 1, pool=True)
    assert result.ok, result.output
    assert "2020-09-13 12:26:40" in (tmp_path / "second" / "a" / "site" / "index.html").read_text()


def test_the_fork_server_started_ahead_serves_the_builds(tmp_path: Path) -> None:
    """``start_workers`` (what ``build-site`` calls before planning) starts the fork server in a
    thread without forking this process; the builds then run in its workers."""
    start_workers()
    results = run_builds([project(tmp_path, name) for name in ("a", "b")], 2, pool=True)
    assert [r.version for r in results] == ["a", "b"] and all(r.ok for r in results)


def test_a_failing_build_fails_alone_with_its_output(tmp_path: Path) -> None:
    good = project(tmp_path, "good")
    bad = project(tmp_path, "bad", "# Home\n\n[broken](missing.md)\n")
    gone = BuildJob("gone", tmp_path / "nowhere" / "mkdocs.yml")
    for pool in (True, False):
        results: dict[str, BuildResult] = {r.version: r for r in run_builds([bad, good, gone], 2, pool=pool)}
        assert results["good"].ok
        assert not results["bad"].ok and "missing.md" in results["bad"].output
        assert "Aborted with 1 warnings in strict mode" in results["bad"].output
        assert not results["gone"].ok and "nowhere" in results["gone"].output


def test_jobs_with_a_command_of_their_own_run_as_subprocesses(tmp_path: Path) -> None:
    job = BuildJob("own", tmp_path / "x.json", (sys.executable, "-c", "print('own command')"))
    [result] = run_builds([job], 2)
    assert result.ok and result.output == "own command"


def _fails() -> None:
    raise RuntimeError("warming failed")


def test_failing_warm_and_prepare_steps_change_nothing(tmp_path: Path) -> None:
    jobs = [project(tmp_path, "a"), project(tmp_path, "b")]
    results = run_builds(jobs, 2, pool=True, warm=_fails, prepare=_fails)
    assert [r.ok for r in results] == [True, True]
    assert all("warming failed" not in r.output for r in results)


def test_theme_templates_compiled_ahead_are_what_a_build_loads(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``compile_theme_templates``, the theme environment a build makes (same config, same
    bytecode directory) loads the page template and everything it includes without compiling."""
    import jinja2
    from mkdocs.config import load_config

    from generator.pipeline.cache import use_bytecode_cache
    from generator.sitebuild.warm import compile_theme_templates

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("site_name: t\ntheme: {name: material}\n", encoding="utf-8")
    bytecode = tmp_path / "jinja"
    compile_theme_templates(config_file, bytecode)
    assert len(list(bytecode.rglob("*.cache"))) > 20  # base.html, the partials, 404, sitemap …

    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: str, name: str | None = None, *args: object,
                 **kwargs: object) -> object:
        compiled.append(str(name))
        return original(self, source, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    env = load_config(str(config_file)).theme.get_env()
    use_bytecode_cache(env, bytecode)
    for name in ("main.html", "base.html", "partials/header.html", "partials/nav-item.html",
                 "404.html", "sitemap.xml"):
        env.get_template(name)
    assert compiled == []
    env.get_template("partials/tabs.html")  # included only with navigation.tabs: compiled ahead too
    assert compiled == []
