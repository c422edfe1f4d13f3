"""What ``scan`` finds, as data: the classes (worst first) and one finding. A module of its own
so that the CLI offers the classes as choices without loading the checks (``analysis.scan``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, get_args

FindingClass = Literal["error", "breaking", "warning", "info"]
CLASSES: tuple[str, ...] = get_args(FindingClass)
"""Worst first: ``--fail-on breaking`` also trips on errors."""


def trips(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether a finding of class ``fail_on`` or worse is there."""
    limit = CLASSES.index(fail_on)
    return any(CLASSES.index(f.cls) <= limit for f in findings)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of one object (``path`` None: the object itself)."""

    file: str
    line: int
    api_version: str | None
    kind: str | None
    name: str
    path: str | None
    cls: FindingClass
    message: str
    replacement: str | None = None
    code: str = ""
    """What was checked (``not-served``, ``unknown-field``, ``type``, ``enum``, ``required``,
    ``format``, ``stage``, ``deprecated``, ``unchecked``…): ``--from`` compares by it."""

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (docs/terminal.md)."""
        return {"file": self.file, "line": self.line, "apiVersion": self.api_version,
                "kind": self.kind, "name": self.name, "path": self.path, "class": self.cls,
                "message": self.message, "replacement": self.replacement}
