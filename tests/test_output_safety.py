"""Output: killing ``generate`` mid-write leaves the previous tree intact; two processes with
different hash seeds write identical bytes."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, REPO

from generator.cli import main
from generator.config import Release
from generator.errors import UsageError
from generator.output.writer import write_pages
from generator.pipeline.build import generate

pytestmark = pytest.mark.integration

HOSTILE = FIXTURES / "hostile" / "hostile.json"
DANGLING = FIXTURES / "bad" / "dangling-ref.json"

# Runs the CLI with a write hook that stops the run at a known point: after page PAUSE_AFTER
# has been written to the staging directory, the child says so on stdout and waits on stdin,
# which the test never writes, until it is killed.
PAUSED_WRITER = """
import os, sys
import generator.output.writer as writer

real_write = writer.write_page
pause_after = int(os.environ["PAUSE_AFTER"])
written = 0
def paused_write(root, rel, text):
    global written
    real_write(root, rel, text)
    written += 1
    if written == pause_after:
        print("PAUSED", root, flush=True)
        sys.stdin.read()
writer.write_page = paused_write
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""
PAUSE_TIMEOUT = 120
"""Seconds to wait for the child to reach its pause point: a guard against a hang, not a timing."""


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def wait_until_paused(proc: subprocess.Popen[bytes]) -> Path:
    """The staging directory the child paused in; fails when it exits or hangs before pausing."""
    assert proc.stdout is not None
    seen = b""
    while True:
        for line in seen.decode(errors="replace").splitlines(keepends=True):
            if line.startswith("PAUSED ") and line.endswith("\n"):
                return Path(line.removeprefix("PAUSED ").rstrip("\n"))
        ready, _, _ = select.select([proc.stdout], [], [], PAUSE_TIMEOUT)
        chunk = os.read(proc.stdout.fileno(), 4096) if ready else b""
        if not chunk:
            proc.kill()
            proc.wait(timeout=30)
            pytest.fail(f"the run never got to its pause point (exit {proc.returncode}): "
                        f"{seen.decode(errors='replace')}")
        seen += chunk


@pytest.mark.parametrize("pause", ["after-2-pages", "after-every-page"])
def test_killing_a_run_mid_write_leaves_previous_output_intact(tmp_path: Path, pause: str) -> None:
    out = tmp_path / "out"
    assert main(["generate", "--version", "y", "--source", str(DANGLING), "--lenient",
                 "--out", str(out), "-q"]) == 0
    before = tree(out)
    assert len(before) == 6  # marker, 4 pages, y/fieldpaths.json
    pages = generate([Release("x", str(HOSTILE))]).pages
    pause_after = 2 if pause == "after-2-pages" else len(pages)  # 26 pages; the last: before the swap

    proc = subprocess.Popen(
        [sys.executable, "-c", PAUSED_WRITER, "generate", "--version", "x", "--source", str(HOSTILE),
         "--out", str(out), "-q"],
        cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "PAUSE_AFTER": str(pause_after)})
    try:
        staging = wait_until_paused(proc)
        assert staging.parent == tmp_path and staging.name.startswith(".out.new-")
        assert len([p for p in staging.rglob("*") if p.is_file()]) == pause_after  # mid-write
        assert tree(out) == before  # mid-write, readers still see the old tree
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()  # no-op after the kill above; ends the paused child when an assertion failed
        proc.wait(timeout=30)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()
    assert proc.returncode == -signal.SIGKILL
    assert tree(out) == before

    # The next run succeeds and writes release x beside release y, which stays: regeneration is
    # per release (issue 16); the dead run's staging dir is left aside.
    assert main(["generate", "--version", "x", "--source", str(HOSTILE), "--out", str(out), "-q"]) == 0
    assert sorted(tree(out)) == sorted({*before, *pages})


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


def test_write_pages_checks_every_path_before_writing_any(tmp_path: Path) -> None:
    staging = tmp_path / "staging"
    with pytest.raises(UsageError, match="unsafe output path"):
        write_pages(staging, {"a/index.html": "A", "../escape/index.html": "B"})
    assert not staging.exists() and not (tmp_path / "escape").exists()
    write_pages(staging, {"a/index.html": "A", "a/b/c/index.html": "Ç\n", "index.html": "I"})
    assert tree(staging) == {"a/index.html": b"A", "a/b/c/index.html": "Ç\n".encode(),
                             "index.html": b"I"}


def test_a_shipped_data_file_is_written_or_checked(tmp_path: Path) -> None:
    """``scripts/*_data.py``'s last step: ``--check`` says whether the file is what the script
    makes (exit 1 when not, nothing written); without it the file is written."""
    from generator.output.writer import refresh_data_file

    path = tmp_path / "data.json.gz"
    assert refresh_data_file(path, b"abc", check=True) == (1, f"{path} differs from what the script makes")
    assert not path.exists()
    assert refresh_data_file(path, b"abc", check=False) == (0, f"wrote {path} (3 bytes)")
    assert path.read_bytes() == b"abc"
    assert refresh_data_file(path, b"abc", check=True) == (0, "up to date")
    assert refresh_data_file(path, b"abd", check=True)[0] == 1 and path.read_bytes() == b"abc"
