"""Run release builds in parallel: one ``mkdocs build`` process per release, at most ``jobs`` at
a time (each build is single-threaded Python, so one per core).

The CLI imports this module to describe ``build-site``: ``subprocess`` and ``concurrent.futures``
are imported by the functions that run builds, so other commands (``diff``) do not load them."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

BUILDERS = ("mkdocs", "zensical")
"""What builds a release site: ``mkdocs build`` with the plugin, or Zensical."""


@dataclass(frozen=True)
class BuildJob:
    version: str
    config_file: Path
    command: tuple[str, ...] = ()
    """The build command; default ``mkdocs build -f config_file``."""


@dataclass(frozen=True)
class BuildResult:
    version: str
    ok: bool
    seconds: float
    output: str


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run_build(job: BuildJob) -> BuildResult:
    """``mkdocs build`` of one release config, output captured. Not ``--quiet``: it raises the log
    level above WARNING, so ``strict`` would no longer see (and fail on) warnings."""
    import subprocess

    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0"}
    env.pop("K8S_API_DOCS_ONLY", None)  # serve-time filters never apply to published builds
    env.pop("K8S_API_DOCS_GROUPS", None)
    start = time.perf_counter()
    command = list(job.command) or [sys.executable, "-m", "mkdocs", "build", "-f", str(job.config_file)]
    proc = subprocess.run(
        command,
        capture_output=True, text=True, env=env, check=False,
    )
    return BuildResult(job.version, proc.returncode == 0, time.perf_counter() - start,
                       (proc.stdout + proc.stderr).strip())


def run_builds(jobs: Sequence[BuildJob], workers: int,
               on_done: Callable[[BuildResult], None] | None = None) -> list[BuildResult]:
    """Build every job, ``workers`` at a time; results in job order."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    results: dict[str, BuildResult] = {}
    if workers <= 1:
        for job in jobs:
            results[job.version] = run_build(job)
            if on_done:
                on_done(results[job.version])
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(run_build, job) for job in jobs]
            for future in as_completed(futures):
                result = future.result()
                results[result.version] = result
                if on_done:
                    on_done(result)
    return [results[job.version] for job in jobs]
