"""Fewer runs of Python's cyclic garbage collector while a build makes millions of short-lived
objects: a higher threshold than the default (a collection every 700 net allocations) runs far
fewer collections, for a fraction of their CPU (``benchmarks/RESULTS.md``). Reference counting
still frees at once everything that is not in a cycle, so memory stays about the same.
The previous threshold comes back on leaving: callers in the same process (tests, ``mkdocs
serve``) keep theirs."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BUILD_THRESHOLD = 10_000
"""Net allocations between two collections of the youngest generation while building."""


@contextmanager
def fewer_collections(threshold: int = BUILD_THRESHOLD) -> Iterator[None]:
    """Raise the youngest generation's threshold to ``threshold`` (never lower it) inside."""
    previous = gc.get_threshold()
    gc.set_threshold(max(threshold, previous[0]), *previous[1:])
    try:
        yield
    finally:
        gc.set_threshold(*previous)


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Leave the objects alive on entering (the loaded releases: the specs, plans and indexes
    of every release of the site) out of collections until leaving (``gc.freeze``): rendering
    adds memos that grow the oldest generation, whose full collection would walk them all
    (``benchmarks/RESULTS.md``). They join the oldest generation again on leaving; objects
    made inside are collected as usual. Inside a freeze already in place (nested, or a build
    forked by ``build-site``, which froze what its parent had) what is frozen here stays frozen:
    there is no partial unfreeze, and the outer freeze's owner ends it (or the process)."""
    outermost = not gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if outermost:
            gc.unfreeze()
