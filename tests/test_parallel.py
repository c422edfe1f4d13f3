"""Model pages rendered on two cores (``pipeline.parallel``): the same bytes as one process, the
same errors, no process left behind, and the cases where it stays off.

What forks runs in a fresh interpreter (``python -c``): a pytest-xdist worker runs a thread, and
``parallel`` never forks a process with threads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, REPO

from generator.pipeline import parallel
from generator.sitebuild.runner import BUILD_ENV

OLD, NEW = FIXTURES / "versions" / "gadget-old.json", FIXTURES / "versions" / "gadget-new.json"
BUILDERS = FIXTURES / "specs" / "builders-v2.json"


def run_python(code: str, *args: str, parallel_mode: str = "force") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, parallel.PARALLEL_ENV: parallel_mode, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, env=env, capture_output=True,
                          text=True, check=False, timeout=120)


SPLIT = """
import os, sys, time
from functools import partial
from generator.pipeline import parallel

parent = os.getpid()
def task(i, fail):
    time.sleep(0.02)
    if fail == "worker" and os.getpid() != parent and i >= 4:
        raise ValueError("in the worker")
    if fail == "killed" and os.getpid() != parent and i >= 4:
        os.kill(os.getpid(), 9)
    if fail == "parent" and os.getpid() == parent and i >= 4:
        raise ValueError("in the parent")
    return [i, os.getpid()]
results = parallel.split([partial(task, i, sys.argv[1]) for i in range(20)])
try:
    os.waitpid(-1, os.WNOHANG)
    left = "a child left"
except ChildProcessError:
    left = "no child left"
if results is None:
    print("none", left)
else:
    print([r[0] for r in results] == list(range(20)), len({r[1] for r in results}), left)
"""


def test_split_results_come_in_task_order_from_both_processes() -> None:
    proc = run_python(SPLIT, "none")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "2", "no", "child", "left"]  # two processes rendered


@pytest.mark.parametrize("fail", ["worker", "killed", "parent"])
def test_a_failed_split_gives_none_and_leaves_no_process(fail: str) -> None:
    proc = run_python(SPLIT, fail)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["none", "no", "child", "left"]
    assert "Traceback" not in proc.stderr


def test_split_is_off_when_switched_off() -> None:
    proc = run_python(SPLIT, "none", parallel_mode="off")
    assert proc.stdout.split() == ["none", "no", "child", "left"]


ORPHAN = """
import os, sys, time
from functools import partial
from generator.pipeline import parallel

parent = os.getpid()
def task(i):
    if os.getpid() != parent:
        with open(sys.argv[1], "w") as fh:
            fh.write(str(os.getpid()))
        time.sleep(0.05)
    elif i > 0:
        time.sleep(0.2)
        os.kill(parent, 9)  # killed while the worker renders
    return i
parallel.split([partial(task, i) for i in range(200)])
"""


def test_the_worker_stops_when_its_parent_is_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "worker"
    proc = run_python(ORPHAN, str(pid_file))
    assert proc.returncode == -9
    worker = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            break  # gone (reaped)
        if state == "Z":
            break  # exited; reaping it is its new parent's job
        time.sleep(0.05)
    else:
        pytest.fail("the worker kept running after its parent was killed")


def test_fallbacks_stay_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.delenv(parallel.PARALLEL_ENV, raising=False)
    assert parallel.worthwhile(parallel.MIN_UNITS)
    assert not parallel.worthwhile(parallel.MIN_UNITS - 1)  # small jobs
    monkeypatch.setattr(parallel, "cores", lambda: 1)
    assert not parallel.worthwhile(10_000)  # one core
    monkeypatch.setenv(parallel.PARALLEL_ENV, "force")
    assert parallel.worthwhile(1)  # forced: whatever the size and cores
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not parallel.worthwhile(10_000)  # other threads (mkdocs serve): never
    assert parallel.split([lambda: 1, lambda: 2]) is None
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    monkeypatch.delattr(os, "fork")
    assert not parallel.usable()  # no fork on this platform
    monkeypatch.setenv(parallel.PARALLEL_ENV, "off")
    assert not parallel.usable()
    assert BUILD_ENV[parallel.PARALLEL_ENV] == "off"  # build-site: already a process a release


# ``generate`` with the split observed: prints whether it forked (and what it returned)
SPY = """
import sys
from generator.pipeline import parallel
real = parallel.split
def spy(tasks, *args, **kwargs):
    result = real(tasks, *args, **kwargs)
    print(f"split {len(tasks)} tasks: {'rendered' if result is not None else 'failed'}", file=sys.stderr)
    return result
parallel.split = spy
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def generate_args(out: Path, *extra: str) -> list[str]:
    return ["generate", "--version", "1.0", "--source", str(OLD), "--version", "2.0", "--source",
            str(NEW), "--version", "3.0", "--source", str(BUILDERS), "--history", "site",
            "--out", str(out), "-q", *extra]


@pytest.mark.integration
def test_generate_on_two_cores_writes_the_same_bytes(tmp_path: Path) -> None:
    serial = run_python(SPY, *generate_args(tmp_path / "serial"), parallel_mode="off")
    split = run_python(SPY, *generate_args(tmp_path / "split"))
    assert serial.returncode == split.returncode == 0, serial.stderr + split.stderr
    assert "split" not in serial.stderr
    assert split.stderr.startswith("split ") and split.stderr.endswith("tasks: rendered\n")
    serial_tree, split_tree = tree(tmp_path / "serial"), tree(tmp_path / "split")
    assert len([p for p in serial_tree if p.endswith(".md")]) > 20
    assert serial_tree == split_tree


@pytest.mark.integration
def test_a_template_error_in_the_worker_is_the_serial_one_line_error(tmp_path: Path) -> None:
    overrides = tmp_path / "templates" / "pages"
    overrides.mkdir(parents=True)
    # fails on one model page only, not the first one rendered (that one is rendered before the fork)
    (overrides / "model.md.j2").write_text(
        '{% extends "pages/_base/model.md.j2" %}{% block title %}'
        '{% if page.model.name.endswith("Quantity") %}{% include "missing/part.md.j2" %}{% endif %}'
        '{{ super() }}{% endblock %}\n', encoding="utf-8")
    extra = ("--templates", str(tmp_path / "templates"))
    serial = run_python(SPY, *generate_args(tmp_path / "serial", *extra), parallel_mode="off")
    split = run_python(SPY, *generate_args(tmp_path / "split", *extra))
    assert serial.returncode == split.returncode == 2
    error = serial.stderr
    assert error.count("\n") == 1 and "missing/part.md.j2" in error and "Traceback" not in error
    assert split.stderr.endswith("tasks: failed\n" + error)  # the worker failed: rendered here
    assert not (tmp_path / "split").exists() and not (tmp_path / "serial").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["templates"]  # no staging left


def test_the_environment_switch_is_documented() -> None:
    text = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    assert parallel.PARALLEL_ENV in text and "force" in text and "off" in text


# ``generate`` killed (SIGKILL, no clean-up) at its Nth page write, in whichever process
KILLER = """
import os, signal, sys
import generator.output.writer as writer
count = int(sys.argv[1])
done = [0]
real = writer.write_page
def killing(*args):
    real(*args)
    done[0] += 1
    if done[0] == count:
        os.kill(os.getpid(), signal.SIGKILL)
writer.write_page = killing
from generator.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.integration
@pytest.mark.parametrize("count", [2, 8])
def test_generate_killed_while_two_processes_write_leaves_the_output_as_it_was(
        tmp_path: Path, count: int) -> None:
    out = tmp_path / "out"
    assert run_python(SPY, *generate_args(out), parallel_mode="off").returncode == 0
    before = tree(out)
    proc = run_python(KILLER, str(count), *generate_args(out, "--format", "mkdocs"))
    assert proc.returncode == -9
    assert tree(out) == before  # nothing swapped in
    again = run_python(SPY, *generate_args(out))  # the next run completes
    assert again.returncode == 0 and again.stderr.endswith("tasks: rendered\n")
    assert tree(out) == before


MKDOCS_SPY = SPY.replace("from generator.cli import main\nsys.exit(main(sys.argv[1:]))",
                         "from mkdocs.__main__ import cli\nsys.argv = ['mkdocs', *sys.argv[1:]]\ncli()")


def plugin_build(root: Path, parallel_mode: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``mkdocs build --strict`` of two fixture releases with the repository's theme and pages."""
    shutil.copytree(REPO / "site_src", root / "docs")
    versions = [{"version": "1.0", "source": str(OLD)}, {"version": "2.0", "source": str(BUILDERS)}]
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
              "plugins": ["search", {"k8s-api-docs": {"versions": versions, "cache_dir": ".cache"}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    env = {**os.environ, parallel.PARALLEL_ENV: parallel_mode, "PYTHONPATH": str(REPO),
           "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-c", MKDOCS_SPY, "build", "--strict", "-d", "site"],
                          cwd=root, env=env, capture_output=True, text=True, check=False, timeout=300)
    return proc, root / "site"


@pytest.mark.integration
def test_the_plugin_on_two_cores_builds_the_same_site(tmp_path: Path) -> None:
    serial, serial_site = plugin_build(tmp_path / "serial", "off")
    split, split_site = plugin_build(tmp_path / "split", "force")
    assert serial.returncode == split.returncode == 0, serial.stderr + split.stderr
    assert "split " not in serial.stderr
    assert "tasks: rendered\n" in split.stderr
    serial_tree, split_tree = tree(serial_site), tree(split_site)
    assert any(p.startswith("2.0/") and p.endswith("index.html") for p in serial_tree)
    assert serial_tree == split_tree


def test_split_works_where_children_are_reaped_by_the_system() -> None:
    code = "import signal\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n" + SPLIT
    proc = run_python(code, "none")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "2", "no", "child", "left"]


def test_hooks_of_the_caller_are_never_run_in_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller's section hook may count or collect: it runs in this process, every page, however
    worthwhile a split would be (the default hooks only return sections)."""
    from generator.config import Release
    from generator.pipeline.build import generate

    monkeypatch.setattr(parallel, "worthwhile", lambda units: True)
    splits: list[int] = []
    monkeypatch.setattr(parallel, "split", lambda tasks, *a, **k: splits.append(len(tasks)))
    seen: list[str] = []

    def collect(page: object, api: object, plan: object) -> None:
        seen.append(page.model.name)  # type: ignore[attr-defined]

    site = generate([Release("2.0", str(NEW))], hooks=[collect])
    assert not splits and seen and len(set(seen)) == len(seen)
    assert set(seen) <= set(site.apis[0].models)
    generate([Release("2.0", str(NEW))])  # the default hooks: split
    assert splits
