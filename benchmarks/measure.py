"""Helpers of the benchmark scripts: run a command, report wall/CPU seconds and peak memory.

Peak memory is sampled from /proc over the whole process tree every 50 ms, so parallel builds
count together, as two figures:

- ``peak_tree_mb``: the peak of the sum of RSS of a command and all its descendants. A forked
  child's pages shared copy-on-write with its parent are resident in both, so this sum counts
  them twice (it over-states a tree that forks, never under-states one).
- ``peak_tree_pss_mb``: the peak of the sum of PSS (``/proc/PID/smaps_rollup``: each shared page
  divided among the processes sharing it), which counts every page once: the memory the tree
  takes from the machine. Lower than the RSS sum also for a tree that shares nothing with
  itself: file pages (the interpreter, libraries) mapped by other processes of the machine are
  divided among them too.

The largest single process is also reported (``wait4`` rusage). CPU seconds count the whole
tree too: this process is made a child subreaper (Linux), so a descendant the command leaves
behind (``build-site``'s fork server, which reaps the release builds) is reaped here and its CPU
added.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import statistics
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("K8S_API_DOCS_SHARED", REPO.parent / "shared"))
PAGE = 4096


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    """user + sys seconds of the command and its children."""
    peak_tree_mb: float
    """Peak of the summed RSS of the process tree (at least the largest single process)."""
    peak_process_mb: float
    returncode: int
    output: str
    system: float = 0.0
    """The kernel's part of ``cpu`` (file system work: the noisiest part on a shared disk)."""
    peak_tree_pss_mb: float = 0.0
    """Peak of the summed PSS of the process tree (shared pages counted once)."""


def _children(pid: int) -> list[int]:
    """Child processes of every thread of ``pid`` (a thread pool's subprocesses are children of
    the thread that started them)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text(encoding="ascii").split()]
        except OSError:
            continue
    return found


def _pss(pid: int) -> int:
    """PSS of ``pid`` in bytes (0 when it cannot be read)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, IndexError, ValueError):
        pass
    return 0


def _tree_memory(pid: int) -> tuple[int, int]:
    """Summed RSS and summed PSS of ``pid`` and its descendants, in bytes."""
    rss = pss = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm", encoding="ascii") as fh:
                rss += int(fh.read().split()[1]) * PAGE
        except (OSError, IndexError, ValueError):
            continue
        pss += _pss(current)
        stack.extend(_children(current))
    return rss, pss


def _tree_rss(pid: int) -> int:
    return _tree_memory(pid)[0]


PR_SET_CHILD_SUBREAPER = 36
with contextlib.suppress(OSError, AttributeError):
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _reap_orphans(timeout: float = 10.0) -> tuple[float, float]:
    """Wait for the descendants a command left behind (reparented here); their CPU (user+sys,
    sys)."""
    cpu = system = 0.0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if pid == 0:
            time.sleep(0.01)
            continue
        cpu += usage.ru_utime + usage.ru_stime
        system += usage.ru_stime
    return cpu, system


def run(cmd: Sequence[str], *, env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Run:
    """Run ``cmd`` to completion, sampling its tree's memory."""
    start = time.perf_counter()
    proc = subprocess.Popen(list(cmd), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})}, cwd=cwd)
    peak = peak_pss = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak, peak_pss
        while not done.is_set():
            rss, pss = _tree_memory(proc.pid)
            peak, peak_pss = max(peak, rss), max(peak_pss, pss)
            done.wait(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    assert proc.stdout is not None
    output = proc.stdout.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    orphans, orphans_system = _reap_orphans()
    process_peak = usage.ru_maxrss / 1024
    return Run(wall, usage.ru_utime + usage.ru_stime + orphans, max(peak / 2**20, process_peak),
               process_peak, proc.returncode, output, usage.ru_stime + orphans_system,
               peak_pss / 2**20)


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def cores() -> int:
    return len(os.sched_getaffinity(0))


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def header(title: str) -> None:
    print(f"# {title}")
    print(f"# cores: {cores()}  load average at start: {load()}  (the machine is shared: wall times "
          "include other users' load; CPU seconds do not)")
