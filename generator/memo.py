"""Render memos: the process-wide ``lru_cache``s of small text transforms that the pages of a
release ask again and again (escaped names, ``<wbr>`` breaks, highlighted snippet lines, slugs,
summaries, feature-gate lookups), registered in one place so a build can drop them all.

Nearly everything such a memo saves within one release it saves within a page and its
neighbours (a page's names, lines and descriptions recur on it; the next models of a group share
most of the rest), while its entries stay in memory for the whole process, spread over the heap
so that freeing them later gives nothing back. A build that renders one release (``generate``,
each release build of ``build-site``, either process of a split) therefore drops them after every
``DROP_PAGES`` model pages (``pipeline.build``); a build of several releases keeps them, for the
same snippets and names of the next release. Measured in ``benchmarks/RESULTS.md`` ("render
memos").

Standard library only and nothing of ours: every layer that renders text may use it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper, lru_cache
from typing import TypeVar

T = TypeVar("T")

DROP_PAGES = 32
"""Model pages a one-release build renders between two drops of the render memos."""

_MEMOS: list[_lru_cache_wrapper[object]] = []


def render_memo(maxsize: int) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, registered for ``drop_render_memos``."""

    def decorate(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
        memo = lru_cache(maxsize=maxsize)(function)
        _MEMOS.append(memo)  # type: ignore[arg-type]
        return memo

    return decorate


def drop_render_memos() -> int:
    """Empty every render memo; the number of entries dropped."""
    dropped = 0
    for memo in _MEMOS:
        dropped += memo.cache_info().currsize
        memo.cache_clear()
    return dropped


class MemoDropper:
    """Counts the model pages a build renders and drops the render memos after every
    ``every`` of them (never when ``every`` is 0: a build of several releases)."""

    def __init__(self, every: int) -> None:
        self.every = every
        self._pages = 0

    def rendered(self, pages: int) -> None:
        """``pages`` more model pages were rendered."""
        if not self.every:
            return
        self._pages += pages
        if self._pages >= self.every:
            self._pages = 0
            drop_render_memos()
