"""Errors and diagnostics, each with a location: a source file plus a JSON pointer."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


def escape_pointer_token(token: str) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    if "~" not in token and "/" not in token:  # nearly every name: no copies
        return token
    return token.replace("~", "~0").replace("/", "~1")


def pointer(*tokens: str | int) -> str:
    """Build a JSON pointer from raw tokens: ``pointer("definitions", "a/b")`` → ``/definitions/a~1b``."""
    return "".join("/" + escape_pointer_token(str(t)) for t in tokens)


def one_line(text: str, limit: int = 300) -> str:
    """Make untrusted text safe for a one-line terminal message."""
    flat = "".join(ch if ch.isprintable() else "?" for ch in text.replace("\n", " "))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class Level(Enum):
    """How much a diagnostic matters: ``INFO`` is news (an input skipped on purpose), ``WARNING``
    means generated with gaps, ``ERROR`` means nothing generated."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Location:
    """Where something is: the source (file or URL) and a JSON pointer inside it."""

    source: str
    pointer: str = ""

    def __str__(self) -> str:
        return f"{one_line(self.source)}#{one_line(self.pointer)}" if self.pointer else one_line(
            self.source
        )


@dataclass(frozen=True)
class Diagnostic:
    """A problem found while reading a spec that did not stop the build."""

    level: Level
    message: str
    location: Location

    def __str__(self) -> str:
        return f"{self.level.value}: {self.location}: {one_line(self.message)}"


class Diagnostics(list[Diagnostic]):
    """The diagnostics collected on the way: one bad definition does not stop the other pages."""

    def add(self, level: Level, message: str, location: Location) -> None:
        self.append(Diagnostic(level, message, location))

    def at(self, level: Level) -> list[Diagnostic]:
        return [d for d in self if d.level is level]


class GeneratorError(Exception):
    """The one error type the tool raises on bad input or usage; the CLI maps it to exit 2."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return one_line(self.message)
        return f"{self.location}: {one_line(self.message)}"


class SpecError(GeneratorError):
    """The input document is malformed, of the wrong shape or refers to something missing."""


class UsageError(GeneratorError):
    """The command line or configuration is wrong."""
