"""Output: killing ``generate`` mid-write leaves the previous tree intact; two processes with
different hash seeds write identical bytes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import FIXTURES, REPO

from generator.build.pipeline import generate
from generator.cli import main
from generator.config import Release

HOSTILE = FIXTURES / "hostile" / "hostile.json"
DANGLING = FIXTURES / "bad" / "dangling-ref.json"

# Runs the CLI with every page write slowed down, so the test can kill it mid-write.
SLOW_WRITER = """
import sys, time
import generator.output.writer as writer
real_write = writer.write_page
def slow_write(root, rel, text):
    real_write(root, rel, text)
    time.sleep(0.2)
writer.write_page = slow_write
from generator.cli import main
from generator.config import Release
from generator.build.pipeline import generate
sys.exit(main(sys.argv[1:]))
"""


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_killing_a_run_mid_write_leaves_previous_output_intact(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--version", "y", "--source", str(DANGLING), "--lenient",
                 "--out", str(out), "-q"]) == 0
    before = tree(out)
    assert len(before) == 6  # marker, 4 pages, y/fieldpaths.json

    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, "generate", "--version", "x", "--source", str(HOSTILE),
         "--out", str(out), "-q"],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        staged: list[Path] = []
        while time.monotonic() < deadline and proc.poll() is None:
            staged = list(tmp_path.glob(".out.new-*/**/*.md"))
            if len(staged) >= 2:
                break
            time.sleep(0.02)
        assert len(staged) >= 2, "the slowed run never got to writing pages"  # 26 pages: ≥ 5 s window
        assert tree(out) == before  # mid-write, readers still see the old tree
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert tree(out) == before

    # The next run succeeds and replaces the tree (the dead run's staging dir is left aside).
    assert main(["generate", "--version", "x", "--source", str(HOSTILE), "--out", str(out), "-q"]) == 0
    pages = generate([Release("x", str(HOSTILE))]).pages
    assert sorted(tree(out)) == sorted([*pages, ".k8s-api-docs"])


def test_two_processes_with_different_hash_seeds_write_identical_bytes(tmp_path: Path) -> None:
    trees = []
    for seed in ("1", "4242"):
        out = tmp_path / f"out-{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-m", "generator", "generate", "--version", "1.31", "--version", "x",
             "--source", "kubernetes-validate:1.31", "--source", str(HOSTILE), "--out", str(out), "-q"],
            cwd=REPO, env=env, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
        trees.append(tree(out))
    assert len(trees[0]) > 600
    assert trees[0] == trees[1]
