"""The classes a change is sorted into (``analysis.diff``), in a module of their own so the CLI
can offer them as choices without loading the differ."""

from __future__ import annotations

from typing import Literal, get_args

Severity = Literal["breaking", "warning", "info"]
Stability = Literal["ga", "beta", "alpha"]
Policy = Literal["allowed", "violation", "unknown"]
ChangeStatus = Literal["added", "removed", "changed"]
"""What happened to a model or a field between two releases (``analysis.diff``)."""
# the words, for choices and lookups (typed ``str`` so that code reading them from JSON or the
# command line can look them up; the ``Literal``s type what this package writes)
SEVERITIES: tuple[str, ...] = get_args(Severity)
"""Change classes, worst first."""
STABILITIES: tuple[str, ...] = get_args(Stability)
POLICIES: tuple[str, ...] = get_args(Policy)
"""What the deprecation policy says of a change; ``unknown``: the known releases cannot show it
(the reason says why)."""
