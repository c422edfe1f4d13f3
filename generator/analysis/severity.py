"""The classes a change is sorted into (``analysis.diff``), in a module of their own so the CLI
can offer them as choices without loading the differ."""

from __future__ import annotations

SEVERITIES = ("breaking", "warning", "info")
"""Change classes, worst first."""
STABILITIES = ("ga", "beta", "alpha")
POLICIES = ("allowed", "violation", "unknown")
"""What the deprecation policy says of a change; ``unknown``: the known releases cannot show it
(the reason says why)."""
