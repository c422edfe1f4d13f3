"""``check``: is a directory of generated Markdown what the generator produces now?"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass

LISTED = 10
"""Pages named per kind of difference; the rest are counted."""
VIEWS = (("changed", "page edited"), ("added", "page missing"), ("removed", "page not generated"))
"""Each kind of difference as the user sees DIR: a page edited (it differs from what is generated
now), missing (generated now, absent from DIR) or not generated (in DIR, not generated now)."""


@dataclass(frozen=True)
class TreeDiff:
    """Pages (relative paths) of the fresh output that are missing, extra or different in DIR."""

    added: tuple[str, ...]
    """Generated now, missing in DIR."""
    removed: tuple[str, ...]
    """In DIR, no longer generated."""
    changed: tuple[str, ...]

    @property
    def stale(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def summary(self) -> str:
        """``2 pages edited, 1 page missing, 0 pages not generated``."""
        return ", ".join(_count(len(getattr(self, attr)), view) for attr, view in VIEWS)

    def listing(self, limit: int = LISTED) -> list[str]:
        """The first ``limit`` pages of each kind, with the user's view of it, then a count of
        the others."""
        width = max(len(view) for _, view in VIEWS)
        lines = []
        for attr, view in VIEWS:
            paths: tuple[str, ...] = getattr(self, attr)
            lines += [f"{view:<{width}}  {path}" for path in paths[:limit]]
            if len(paths) > limit:
                lines.append(f"{view:<{width}}  … and {len(paths) - limit} more")
        return lines


def _count(n: int, view: str) -> str:
    """``1 page missing`` / ``3 pages missing``."""
    return f"{n} {view}" if n == 1 else f"{n} {view.replace('page', 'pages', 1)}"


def compare_trees(fresh: Mapping[str, str], committed: Mapping[str, str]) -> TreeDiff:
    return TreeDiff(
        added=tuple(sorted(fresh.keys() - committed.keys())),
        removed=tuple(sorted(committed.keys() - fresh.keys())),
        changed=tuple(sorted(p for p in fresh.keys() & committed.keys() if fresh[p] != committed[p])),
    )


def unified(path: str, committed: str, fresh: str, max_lines: int = 60) -> list[str]:
    """Unified diff of one page (committed → fresh), cut at ``max_lines``."""
    lines = list(difflib.unified_diff(committed.splitlines(), fresh.splitlines(),
                                      f"a/{path}", f"b/{path}", lineterm="", n=2))
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"… ({len(lines) - max_lines} more diff lines)"]
    return lines
