"""Run release builds in parallel: one process per release, at most ``jobs`` at a time (each build
is single-threaded Python, so one per core).

A ``mkdocs build`` job runs in a worker process of ``multiprocessing``'s ``forkserver`` context
(``spawn`` where there is none): the server process is started fresh (never a fork of this
process, whose progress bar runs a thread) and imports what a build imports once
(``PRELOAD``); each build is a fork of that single-threaded server, running MkDocs' own command
line as ``python -m mkdocs build -f CONFIG`` would, without importing first. Jobs with a
command of their own (Zensical) run as subprocesses.

The CLI imports this module to describe ``build-site``: ``subprocess``, ``multiprocessing``, MkDocs
and ``concurrent.futures`` are imported by the functions that run builds, so other commands
(``diff``) do not load them."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NoReturn, get_args

Builder = Literal["mkdocs", "zensical"]
BUILDERS: tuple[Builder, ...] = get_args(Builder)
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


BUILD_ENV = {"NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0", "K8S_API_DOCS_PARALLEL": "off"}
"""Set in every build's environment (one process a release already: no second split of its
pages, ``pipeline.parallel``)."""
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
               pool: bool | None = None, warm: Callable[[], None] | None = None,
               prepare: Callable[[], None] | None = None,
               on_start: Callable[[BuildJob], None] | None = None) -> list[BuildResult]:
    """Build every job, ``workers`` at a time; results in job order. ``pool``: run the jobs in
    worker processes (default: when every job is a ``mkdocs build``), else as subprocesses. Only
    then: ``warm`` (a picklable callable) fills a cache the builds share, in a worker of its own,
    while this process runs ``prepare``; the builds start when both are done. Neither changes
    what is built: failing there only costs the builds the time they would save. ``on_start``
    and ``on_done`` are called in this process as each job starts and ends (progress)."""
    if pool is None:
        pool = all(not job.command for job in jobs)
    if pool:
        return _run_in_workers(jobs, workers, on_done, warm, prepare, on_start)
    from concurrent.futures import ThreadPoolExecutor, as_completed

    def started(job: BuildJob) -> BuildResult:
        if on_start:
            on_start(job)
        return run_build(job)

    results: dict[str, BuildResult] = {}
    with ThreadPoolExecutor(max_workers=max(1, workers)) as threads:
        futures = [threads.submit(started, job) for job in jobs]
        for future in as_completed(futures):
            result = future.result()
            results[result.version] = result
            if on_done:
                on_done(result)
    return [results[job.version] for job in jobs]


PRELOAD = ["mkdocs.__main__", "mkdocs.commands.build", "generator.mkdocs.plugin",
           "material.plugins.search.plugin", "pymdownx.superfences", "pymdownx.highlight",
           "pymdownx.tabbed", "pymdownx.details", "markdown.extensions.toc",
           "markdown.extensions.tables", "markdown.extensions.attr_list", "pygments.lexers.data"]
"""Modules the fork server imports once for every build (a missing one is skipped)."""


def _context() -> Any:
    """``forkserver`` with ``PRELOAD`` where the platform has it, else ``spawn``."""
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def start_workers() -> None:
    """Start the fork server now, in a thread of its own, so that its start (a fresh interpreter
    importing ``PRELOAD``) overlaps what this process does before the builds; the first build
    waits for it (``multiprocessing``'s own lock) and starts it itself if this failed."""
    context = _context()
    if context.get_start_method() != "forkserver":
        return
    import threading
    from multiprocessing import forkserver

    def start() -> None:
        with contextlib.suppress(Exception):
            forkserver.ensure_running()

    threading.Thread(target=start, name="k8s-api-docs-forkserver", daemon=True).start()


def _run_in_workers(jobs: Sequence[BuildJob], workers: int,
                    on_done: Callable[[BuildResult], None] | None,
                    warm: Callable[[], None] | None,
                    prepare: Callable[[], None] | None,
                    on_start: Callable[[BuildJob], None] | None = None) -> list[BuildResult]:
    """``run_builds`` with each job in a fresh worker process (``_context``)."""
    import tempfile
    from multiprocessing.connection import wait

    if not jobs:
        return []
    context = _context()
    warming = context.Process(target=_quietly, args=(warm,)) if warm else None
    if warming:
        warming.start()
    try:
        if prepare:
            with contextlib.suppress(Exception):
                prepare()
    finally:
        if warming:
            warming.join()
    pending = list(jobs)
    running: dict[Any, tuple[BuildJob, Any, Any, float]] = {}
    results: dict[str, BuildResult] = {}
    try:
        while pending or running:
            while pending and len(running) < max(1, workers):
                job = pending.pop(0)
                capture = tempfile.NamedTemporaryFile(prefix="build-", suffix=".log")  # noqa: SIM115
                process = context.Process(target=_build_in_worker,
                                          args=(job, capture.name, dict(os.environ)))
                if on_start:
                    on_start(job)
                start = time.perf_counter()
                process.start()
                running[process.sentinel] = (job, process, capture, start)
            for sentinel in wait(list(running)):
                job, process, capture, start = running.pop(sentinel)
                process.join()
                with capture:
                    output = Path(capture.name).read_bytes().decode("utf-8", "replace").strip()
                results[job.version] = BuildResult(job.version, process.exitcode == 0,
                                                   time.perf_counter() - start, output)
                if on_done:
                    on_done(results[job.version])
    except BaseException:
        for _, process, capture, _ in running.values():
            process.terminate()
            process.join()
            capture.close()
        raise
    return [results[job.version] for job in jobs]


def _quietly(call: Callable[[], None]) -> None:
    """Run ``call`` with its output and failure discarded (a worker's ``warm`` step)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):
        os.dup2(devnull, fd)
    with contextlib.suppress(Exception):
        call()


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


def _build_in_worker(job: BuildJob, capture: str, environ: dict[str, str]) -> NoReturn:
    """In a worker: ``mkdocs build`` of the job with stdout and stderr in the file ``capture``,
    then exit with its status. ``environ``: the caller's environment now (the fork server's is
    the one it started with)."""
    code = 1
    try:
        import io

        out = os.open(capture, os.O_WRONLY | os.O_APPEND)
        for fd in (1, 2):
            os.dup2(out, fd)
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        os.environ.clear()
        os.environ.update({**environ, **BUILD_ENV})
        for name in SERVE_ONLY_ENV:
            os.environ.pop(name, None)
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
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
    sys.exit(code)
