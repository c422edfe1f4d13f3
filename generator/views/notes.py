"""The Notes column of a property row as typed data: what to say, in our words, once.

Both page formats render the same notes (``partials/notes.html.j2`` as HTML with badges,
``gfm/partials/notes.md.j2`` as plain Markdown); neither decides which notes a row has or how
they read. Text here is plain (from specs: untrusted); the templates escape it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from generator.analysis.gates import FeatureGate

NoteKind = Literal["required", "optional", "text", "code", "badge"]
"""``required`` · ``optional`` · ``text`` (``Note.text``) · ``code`` (``text: values``, each value
code) · ``badge`` (``Note.badge``)."""

GATE_TITLE = "feature gate"
NO_GATE_TITLE = "the description says so; it names no feature gate"


@dataclass(frozen=True, slots=True)
class Badge:
    """A label that stands out (``partials/badge.html.j2``): ``alpha · feature gate FooBar``."""

    kind: str
    """What it marks, one CSS word (``k8s-<kind>``): ``alpha``, ``beta``, ``gate`` (a gate of no
    stated stage), ``since``, ``removed``, ``kind``, ``stable``…"""
    text: str
    """The words (plain text)."""
    name: str = ""
    """An identifier after the words (a feature gate's name): HTML breaks it at its humps,
    Markdown writes it as code."""
    title: str = ""
    """Hover text; empty for none."""


@dataclass(frozen=True, slots=True)
class Note:
    """One note of a property row."""

    kind: NoteKind
    text: str = ""
    values: tuple[str, ...] = ()
    badge: Badge | None = None


REQUIRED = Note("required")
OPTIONAL = Note("optional")


def gate_badge(gate: FeatureGate) -> Badge:
    """``alpha · feature gate X``; ``beta value · feature gate X`` (one of the field's values);
    ``alpha field`` (no gate named); ``feature gate X`` (no stage stated)."""
    kind = gate.stage or "gate"
    subject = " value" if gate.of_value else ""
    if not gate.name:
        return Badge(kind, f"{gate.stage}{subject or ' field'}", title=NO_GATE_TITLE)
    stage = f"{gate.stage}{subject} · " if gate.stage else ""
    return Badge(kind, f"{stage}feature gate", gate.name, GATE_TITLE)


def history_notes(history: Any) -> list[Note]:
    """Notes of a ``views.versions.FieldHistory``: since, changes from the previous release,
    removed in."""
    notes = []
    if history.since:
        where = f" ({', '.join(history.since_api_versions)})" if history.since_api_versions else ""
        notes.append(Note("badge", badge=Badge("since", f"since {history.since}{where}")))
    if history.changes:
        changed = "; ".join(c.summary for c in history.changes)
        notes.append(Note("text", f"compared with {history.compared_to}: {changed}"))
    if history.removed_in:
        notes.append(Note("badge", badge=Badge("removed", f"removed in {history.removed_in}")))
    return notes


def row_notes(required: bool, texts: tuple[str, ...],
              code_notes: tuple[tuple[str, tuple[str, ...]], ...],
              gates: tuple[FeatureGate, ...], history: Any) -> tuple[Note, ...]:
    """The notes of a property row in the order they read: required or optional, plain notes,
    notes with code values, feature gates, then the field's history."""
    notes = [REQUIRED if required else OPTIONAL]
    notes += [Note("text", text) for text in texts]
    notes += [Note("code", label, values) for label, values in code_notes]
    notes += [Note("badge", badge=gate_badge(gate)) for gate in gates]
    if history is not None:
        notes += history_notes(history)
    return tuple(notes)
