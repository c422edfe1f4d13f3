"""Work split over two processes (``split``): a forked worker takes tasks while this process
takes the others, and sends its results back; the results come out in task order, as one
process would have made them, or not at all (``None``: the caller does the work itself).

Used for the model pages of a build (``pipeline.build``), the larger part of its CPU. Rendering
a page reads the loaded releases and writes only to memos (caches), so a page is the same
whichever process renders it; each process fills its own memos.

Off (``None`` at once, nothing forked) when ``K8S_API_DOCS_PARALLEL=off``; when this process
has one core (``os.sched_getaffinity``) or no ``fork``; when it already runs other threads
(``mkdocs serve``'s server: forking a threaded process is unsafe); and for fewer than
``MIN_UNITS`` model pages. ``build-site`` sets ``off`` in its release builds (already one process a
release). ``K8S_API_DOCS_PARALLEL=force`` splits whatever the core count and the amount of work
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

_TOKEN = struct.Struct("<I")
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
          receive: Callable[[Any], Any] = _same) -> list[Any] | None:
    """Every task's result in task order, the tasks run by this process and a forked worker,
    or ``None`` (see the module docstring; then nothing of the tasks' results is kept). The
    first task runs here before the fork (compiled templates and shared memos are then
    inherited). ``send`` makes the worker's result ``marshal``-able, ``receive`` turns it back."""
    if len(tasks) < 2 or not usable():
        return None
    results: list[Any] = [None] * len(tasks)
    done = [False] * len(tasks)
    try:
        results[0] = tasks[0]()
    except Exception:
        return None
    done[0] = True
    queue_r, queue_w = os.pipe()
    back_r, back_w = os.pipe()
    try:
        os.write(queue_w, b"".join(_TOKEN.pack(i) for i in range(1, len(tasks))))
    except OSError:  # more tokens than a pipe holds: not split
        for fd in (queue_r, queue_w, back_r, back_w):
            os.close(fd)
        return None
    os.close(queue_w)  # every token is in the pipe: an empty read means no task is left
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(back_r)
        _work(tasks, send, queue_r, back_w, parent)
    os.close(back_w)
    reaped = False
    try:
        try:
            while (index := _claim(queue_r)) is not None:
                results[index] = tasks[index]()
                done[index] = True
        except Exception:
            return None
        for index, value in _frames(back_r):
            results[index] = receive(value)
            done[index] = True
        _, status = os.waitpid(pid, 0)
        reaped = True
        if status != 0 or not all(done):
            return None
        return results
    finally:
        os.close(queue_r)
        os.close(back_r)
        if not reaped:
            _stop(pid)


def _claim(queue: int) -> int | None:
    data = os.read(queue, _TOKEN.size)  # a pipe read this small takes a whole token or none
    return _TOKEN.unpack(data)[0] if data else None


def _work(tasks: Sequence[Callable[[], Any]], send: Callable[[Any], Any], queue: int, back: int,
          parent: int) -> NoReturn:
    """The worker: take tasks until none is left (or the parent is gone), then send every
    result back; exit 0 only when all were sent."""
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C ends it quietly
        frames = []
        while (index := _claim(queue)) is not None:
            if os.getppid() != parent:
                break
            data = marshal.dumps(send(tasks[index]()))
            frames.append(_FRAME.pack(index, len(data)) + data)
        else:
            with os.fdopen(back, "wb", closefd=False) as out:
                for frame in frames:
                    out.write(frame)
            status = 0
    except BaseException:
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
