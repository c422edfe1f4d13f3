"""Run release builds in parallel: one process per release, at most ``jobs`` at a time (each build
is single-threaded Python, so one per core).

On Linux a ``mkdocs build`` job runs in a child forked from this process once it has imported what
a build imports (``preload``): the child runs MkDocs' own command line, as ``python -m mkdocs build
-f CONFIG`` would, but starts building at once instead of spending ~0.7 s on imports first. Jobs
with a command of their own (Zensical), and every job where ``fork`` is missing or unsafe, run as
subprocesses.

The CLI imports this module to describe ``build-site``: ``subprocess``, MkDocs and
``concurrent.futures`` are imported by the functions that run builds, so other commands (``diff``)
do not load them."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NoReturn

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


BUILD_ENV = {"NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0"}
"""Set in every build's environment."""
SERVE_ONLY_ENV = ("K8S_API_DOCS_ONLY", "K8S_API_DOCS_GROUPS")
"""Removed from every build's environment: serve-time filters never apply to published builds."""


def mkdocs_args(job: BuildJob) -> list[str]:
    """Arguments of MkDocs' command line for a job. Not ``--quiet``: it raises the log level
    above WARNING, so ``strict`` would no longer see (and fail on) warnings."""
    return ["build", "-f", str(job.config_file)]


def run_build(job: BuildJob) -> BuildResult:
    """One build as a subprocess (``mkdocs build``, or the job's own command), output captured."""
    import subprocess

    env = {**os.environ, **BUILD_ENV}
    for name in SERVE_ONLY_ENV:
        env.pop(name, None)
    start = time.perf_counter()
    command = list(job.command) or [sys.executable, "-m", "mkdocs", *mkdocs_args(job)]
    proc = subprocess.run(
        command,
        capture_output=True, text=True, env=env, check=False,
    )
    return BuildResult(job.version, proc.returncode == 0, time.perf_counter() - start,
                       (proc.stdout + proc.stderr).strip())


def run_builds(jobs: Sequence[BuildJob], workers: int,
               on_done: Callable[[BuildResult], None] | None = None,
               fork: bool | None = None, warm: Callable[[], None] | None = None,
               prepare: Callable[[], None] | None = None) -> list[BuildResult]:
    """Build every job, ``workers`` at a time; results in job order. ``fork``: run the jobs in
    forked children (default: where ``can_fork`` says so). Only then: ``warm`` fills a cache the
    builds share, in a child of its own, while this process runs ``prepare`` (whose results in
    memory the builds inherit) and preloads; the builds start when all that is done. Neither
    changes what is built: failing there only costs the builds the time they would save."""
    if fork is None:
        fork = can_fork(jobs)
    if fork:
        return _run_forked(jobs, workers, on_done, warm, prepare)
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


def can_fork(jobs: Sequence[BuildJob]) -> bool:
    """Whether the jobs can run in forked children: all of them ``mkdocs build`` jobs, on Linux
    (macOS system libraries are not safe to use in a forked child; Windows has no ``fork``)."""
    return sys.platform == "linux" and hasattr(os, "fork") and all(not job.command for job in jobs)


def quiet_config(config_file: Path) -> Any:
    """MkDocs' config of ``config_file``, loaded without a word (its log and warnings silenced:
    the build of that config reports its problems)."""
    import logging
    import warnings

    from mkdocs.config import load_config

    logger = logging.getLogger("mkdocs")
    disabled, logger.disabled = logger.disabled, True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load_config(str(config_file))
    finally:
        logger.disabled = disabled


def preload(config_file: Path) -> None:
    """Import what a build imports: MkDocs' command line and, by loading one job's config (then
    dropped: no plugin event runs), the theme, plugins and Markdown extensions it names
    (``quiet_config``; whatever fails, the child meets again and reports)."""
    import mkdocs.__main__  # noqa: F401  (the command line the children run)

    with contextlib.suppress(Exception):
        quiet_config(config_file)


def _run_forked(jobs: Sequence[BuildJob], workers: int,
                on_done: Callable[[BuildResult], None] | None,
                warm: Callable[[], None] | None,
                prepare: Callable[[], None] | None) -> list[BuildResult]:
    """``run_builds`` with each job in a child forked from this process after ``preload``."""
    import tempfile

    if not jobs:
        return []
    warming = _call_in_child(warm) if warm else None
    try:
        if prepare:
            with contextlib.suppress(Exception):
                prepare()
        preload(jobs[0].config_file)
    finally:
        if warming:
            os.waitpid(warming, 0)
    pending = list(jobs)
    running: dict[int, tuple[BuildJob, IO[bytes], float]] = {}
    results: dict[str, BuildResult] = {}
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                job = pending.pop(0)
                capture = tempfile.TemporaryFile()  # noqa: SIM115  (closed once the child is reaped)
                sys.stdout.flush()
                sys.stderr.flush()
                start = time.perf_counter()
                pid = os.fork()
                if pid == 0:
                    _build_in_child(job, capture)
                running[pid] = (job, capture, start)
            pid, status = os.wait()
            if pid not in running:
                continue
            job, capture, start = running.pop(pid)
            with capture:
                capture.seek(0)
                output = capture.read().decode("utf-8", errors="replace").strip()
            results[job.version] = BuildResult(job.version, os.waitstatus_to_exitcode(status) == 0,
                                               time.perf_counter() - start, output)
            if on_done:
                on_done(results[job.version])
    except BaseException:
        _stop(running)
        raise
    return [results[job.version] for job in jobs]


def _call_in_child(call: Callable[[], None]) -> int:
    """Run ``call`` in a forked child, its output discarded; the child's pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            os.dup2(devnull, fd)
        call()
        code = 0
    finally:
        os._exit(code)


def _build_in_child(job: BuildJob, capture: IO[bytes]) -> NoReturn:
    """In a forked child: ``mkdocs build`` of the job with stdout and stderr in ``capture``,
    then exit with its status (``os._exit``: nothing of the parent's at-exit work runs here)."""
    code = 1
    try:
        import gc
        import io

        for fd in (1, 2):
            os.dup2(capture.fileno(), fd)
        # fresh streams: the inherited ones may hold a lock another thread of the parent held
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        os.environ.update(BUILD_ENV)
        for name in SERVE_ONLY_ENV:
            os.environ.pop(name, None)
        gc.freeze()  # what the parent had is never garbage: do not scan it (nor copy its pages)
        from mkdocs.__main__ import cli

        try:
            cli.main(mkdocs_args(job), prog_name="mkdocs")
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
    except BaseException:  # reported in the captured output
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _stop(running: dict[int, tuple[BuildJob, IO[bytes], float]]) -> None:
    """End the children still running (interrupted or failed parent) and reap them."""
    import signal

    for pid in running:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    for pid, (_, capture, _) in running.items():
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        capture.close()
