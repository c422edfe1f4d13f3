"""``check``: is a directory of generated Markdown what the generator produces now?"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass


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
