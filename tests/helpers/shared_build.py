"""A session fixture's build made once per test run, also when pytest-xdist runs the tests in
several worker processes (``tests/run.sh``: ``-n 2 --dist loadgroup``): xdist gives every worker
its own session fixtures, so a whole-site build would run once per worker. The first worker to
ask builds into the directory all workers of the run share, under a lock; the others wait for it
and read the same files. Without xdist the build goes to the session's own temporary directory."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def run_root(factory: pytest.TempPathFactory) -> Path | None:
    """The temporary directory every xdist worker of this run shares; None without xdist."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    return factory.getbasetemp().parent  # .../pytest-N (each worker's basetemp is .../pytest-N/popen-gwK)


def build_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``build(out)`` run once for this test run (``out``: an empty directory); its directory."""
    root = run_root(factory)
    if root is None:
        out = factory.mktemp(name)
        build(out)
        return out
    out, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            if out.exists():  # a worker's failed attempt: build again (and fail again, visibly)
                shutil.rmtree(out)
            out.mkdir()
            build(out)
            done.touch()
    return out
