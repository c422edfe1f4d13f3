"""Feature gates and maturity named in a field's description."""

from __future__ import annotations

import re
from dataclasses import dataclass

_GATE = re.compile(r"`?\b([A-Z][A-Za-z0-9]{2,})`?\s+feature[\s-]+gates?\b")
_GATE_AFTER = re.compile(r"\bfeature[\s-]+gates?\s+`?([A-Z][A-Za-z0-9]{2,})`?")
_STAGE = re.compile(r"\b(alpha|beta)\b", re.IGNORECASE)
_NOT_GATES = frozenset({"The", "This", "That", "Which", "Its", "Each", "When", "If"})


@dataclass(frozen=True, slots=True)
class FeatureGate:
    """A gate a field depends on, with the stage its description states (may be empty)."""

    name: str
    stage: str


def feature_gates(description: str) -> tuple[FeatureGate, ...]:
    """Gates named in ``description``; the stage comes from the sentence that names the gate."""
    if "feature" not in description:
        return ()
    found: dict[str, str] = {}
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", description):
        names = [m.group(1) for m in _GATE.finditer(sentence)]
        names += [m.group(1) for m in _GATE_AFTER.finditer(sentence)]
        if not names:
            continue
        stage_match = _STAGE.search(sentence)
        stage = stage_match.group(1).lower() if stage_match else ""
        for name in names:
            if name not in _NOT_GATES and not found.get(name):
                found[name] = stage
    return tuple(FeatureGate(name, stage) for name, stage in sorted(found.items()))
