"""Work split over two processes (``split``): a forked worker takes tasks from the back of the
list while this process takes them from the front, and sends its results back; the results come
out in task order, as one process would have made them, or not at all (``None``: the caller
does the work itself).

Used for the model pages of a build (``pipeline.build``), the larger part of its CPU. Rendering
a page reads the loaded releases and writes only to memos (caches), so a page is the same
whichever process renders it; each process fills its own memos.

Off (``None`` at once, nothing forked) when ``K8S_API_DOCS_PARALLEL=off``; when this process
has one core (``os.sched_getaffinity``) or no ``fork``; when it already runs other threads
(``mkdocs serve``'s server: forking a threaded process is unsafe); and for fewer than
``MIN_UNITS`` model pages. ``build-site`` sets ``off`` in its release builds (already one
process a release). ``K8S_API_DOCS_PARALLEL=force`` splits whatever the core count and the amount of work
(tests).

Any failure gives ``None`` after the worker is gone (killed if needed, always reaped): an
exception in either process (the caller's own run raises the same one, in its own order), a
worker that dies or sends back less than it took. Ctrl-C in this process kills the worker. The
worker never returns into the caller's code: it leaves with ``os._exit`` (no ``atexit``, no
flush of buffers it inherited), and stops when this process is gone.
"""

from __future__ import annotations

import contextlib
import marshal
import mmap
import os
import signal
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

PARALLEL_ENV = "K8S_API_DOCS_PARALLEL"
"""``off`` (serial), ``force`` (split even a few tasks, one core), else (``on``, unset) split
when worthwhile."""

MIN_UNITS = 100
"""Less work than this (model pages) is not worth a fork."""

_FRAME = struct.Struct("<IQ")  # task index, length of its marshalled result


def _same(value: Any) -> Any:
    return value


def mode() -> str:
    """``off``, ``force`` or ``on`` from ``K8S_API_DOCS_PARALLEL``."""
    value = os.environ.get(PARALLEL_ENV, "").strip().lower()
    if value in ("off", "0", "no", "false"):
        return "off"
    return "force" if value == "force" else "on"


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def usable() -> bool:
    """Whether ``split`` may fork here and now: not switched off, ``fork`` exists, no other
    thread runs."""
    return mode() != "off" and hasattr(os, "fork") and threading.active_count() == 1


def worthwhile(units: int) -> bool:
    """Whether splitting ``units`` of work (model pages) is worth a fork here: ``usable``, and
    two cores and ``MIN_UNITS`` or more (``force``: always)."""
    if not usable():
        return False
    return mode() == "force" or (units >= MIN_UNITS and cores() >= 2)


def split(tasks: Sequence[Callable[[], Any]], send: Callable[[Any], Any] = _same,
          receive: Callable[[Any], Any] = _same, first: Sequence[int] = (0,)) -> list[Any] | None:
    """Every task's result in task order, the tasks run by this process and a forked worker,
    or ``None`` (see the module docstring; then nothing of the tasks' results is kept). The
    tasks ``first`` (indexes) run here before the fork: what they compile and remember (the
    templates, memos of a whole release) is then inherited, not made in both processes.
    ``send`` makes the worker's result ``marshal``-able, ``receive`` turns it back."""
    if len(tasks) < 2 or not usable():
        return None
    results: list[Any] = [None] * len(tasks)
    done = [False] * len(tasks)
    claims = _Claims(len(tasks))
    try:
        for index in sorted(set(first)):
            results[index] = tasks[index]()
            done[index] = True
            claims.skip(index)
    except Exception:
        claims.close()
        return None
    back_r, back_w = os.pipe()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(back_r)
        _work(tasks, send, claims, back_w, parent)
    os.close(back_w)
    reaped = False
    try:
        try:
            for index in range(len(tasks)):
                taken = claims.take(index)
                if taken is None:
                    continue
                if not taken:
                    break
                results[index] = tasks[index]()
                done[index] = True
        except Exception:
            return None
        for index, value in _frames(back_r):
            if not done[index]:  # the one task both may have taken where they met: the same
                results[index] = receive(value)
                done[index] = True
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:  # reaped already (SIGCHLD ignored): every result counts
            status = 0
        reaped = True
        if status != 0 or not all(done):
            return None
        return results
    finally:
        claims.close()
        os.close(back_r)
        if not reaped:
            _stop(pid)


class _Claims:
    """Which tasks are taken, in memory both processes share (``mmap``, one byte a task): this
    process takes them from the front, the worker from the back, each until it finds one taken
    (they met); the tasks done before the fork are skipped. Each works through neighbouring
    tasks as one process would, so its memos serve its next pages. Without a lock (none to be
    left held by a killed process): at most the task where they meet is taken by both, and gives
    the same result in both."""

    TAKEN, DONE = 1, 2

    def __init__(self, count: int) -> None:
        self._flags = mmap.mmap(-1, max(1, count))  # anonymous and shared: seen across the fork

    def skip(self, index: int) -> None:
        """Task ``index`` was done before the fork."""
        self._flags[index] = self.DONE

    def take(self, index: int) -> bool | None:
        """Take task ``index``: ``True``, ``False`` when taken (the other process got here),
        ``None`` when done before the fork."""
        flag = self._flags[index]
        if flag == self.DONE:
            return None
        if flag:
            return False
        self._flags[index] = self.TAKEN
        return True

    def close(self) -> None:
        self._flags.close()


def _work(tasks: Sequence[Callable[[], Any]], send: Callable[[Any], Any], claims: _Claims, back: int,
          parent: int) -> NoReturn:
    """The worker: take tasks from the back until one is taken (or the parent is gone), then
    send every result back; exit 0 only when all were sent."""
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it quietly
        frames = []
        for index in range(len(tasks) - 1, -1, -1):
            if os.getppid() != parent:
                os._exit(1)
            taken = claims.take(index)
            if taken is None:
                continue
            if not taken:
                break  # met the parent
            data = marshal.dumps(send(tasks[index]()))
            frames.append(_FRAME.pack(index, len(data)) + data)
        with os.fdopen(back, "wb", closefd=False) as out:
            for frame in frames:
                out.write(frame)
        status = 0
    except BaseException:  # the parent does the work again and raises it
        status = 1
    finally:
        os._exit(status)


def _frames(back: int) -> list[tuple[int, Any]]:
    """The worker's results as sent (a partial frame at the end, of a worker that died, is left
    out)."""
    with os.fdopen(back, "rb", closefd=False) as stream:
        data = stream.read()
    found, at = [], 0
    while at + _FRAME.size <= len(data):
        index, size = _FRAME.unpack_from(data, at)
        at += _FRAME.size
        if at + size > len(data):
            break
        found.append((index, marshal.loads(data[at:at + size])))
        at += size
    return found


def _stop(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
