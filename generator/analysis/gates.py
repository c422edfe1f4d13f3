"""Feature gates and maturity stated in a field's description.

Upstream descriptions say a field (or one of its values) is alpha or beta, and which feature gate
turns it on, in many phrasings; ``PHRASINGS`` in tests/test_gates.py lists every one used in
Kubernetes 1.28 to 1.36. A stage and the gates named in the same sentence go together; a stage
sentence that names no gate takes the gates of the description's other sentences (``This field is
alpha-level. It can be used when the X feature gate is enabled``), or stands alone when none is
named (``This is an alpha field.``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.memo import render_memo

_NAME = r"`?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)`?"
"""A gate name in the text: ``CSIMigration``, ``HPAScaleToZero``; optionally in backquotes."""
_IS_GATE_NAME = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})[A-Z][A-Za-z0-9]{3,}$")
"""At least two capitals and four characters: ``The``/``This`` and plain words are no gates."""
_GATE_WORD = re.compile(r"\bfeature[\s-]+(?:gates?|flags?|toggles?)\b")
"""``X feature gate``, ``X and Y feature gates``, ``X feature-gate``, ``X feature flag|toggle``:
the names are the words before it (``_names_before``)."""
_WORD_BEFORE = re.compile(r"([\w`]+)(,?)\s*$")
_NAMED_AFTER = re.compile(rf"\bfeature[\s-]+(?:gates?|flags?)\s+{_NAME}")
"""``feature gate X``, ``the alpha feature gate X``, ``(requires feature gate X)``."""
_NAMED_FEATURE = re.compile(rf"{_NAME}\s+feature\b(?![\s-]+(?:gates?|flags?|toggles?)\b)")
"""``requires enabling X feature``, ``servers that enable the X feature``: only in a sentence
about enabling (``ENABLING``), so ``for the X feature`` in a history note is no gate."""
_ENABLING = re.compile(r"\benabl|\bhonou?red\b", re.IGNORECASE)
_STAGE = re.compile("|".join((
    r"\b(alpha|beta)(?:-level)?\s+(?:field|feature|value)s?\b",  # an alpha field; a beta-level feature
    r"\bis\s+(?:an?\s+)?(alpha|beta)(?:-level)?\b",  # This field is alpha-level; which is beta
    r"\((alpha|beta)\)",  # (Alpha) Using this field requires ...
    r"^\s*(alpha|beta),",  # Alpha, gated by the X feature gate.
    r"\b(alpha|beta)\s+stage\b",  # During Alpha stage of the X feature gate
)), re.IGNORECASE)
_VALUE_SUBJECT = re.compile(r"\b(?:this|the)\s+value\s+is\b|\b(?:alpha|beta)(?:-level)?\s+value\b",
                            re.IGNORECASE)
_HISTORICAL = re.compile(r"\b(?:alpha|beta)(?:-level)?\s+(?:in|since)\s+v?1\.\d", re.IGNORECASE)
"""``This field is beta in 1.10``: a past release's stage, not this release's."""
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True, slots=True)
class FeatureGate:
    """What a description says a field depends on: a gate and its stage.

    ``name`` is empty when the description states a stage but names no gate (``This is an alpha
    field.``); ``stage`` is empty when it names a gate but no stage. ``of_value``: the stage is
    said of one of the field's values (``FailIndex: … This value is alpha-level``)."""

    name: str
    stage: str
    of_value: bool = False


def _names_before(text: str, end: int) -> list[tuple[int, str]]:
    """The names right before ``text[end:]``: ``X``, ``X and Y``, ``X, Y, and Z`` (read backwards
    word by word; a cheap walk instead of a backtracking pattern)."""
    found: list[tuple[int, str]] = []
    head = text[:end]
    expect_name, listed = True, False
    while True:
        match = _WORD_BEFORE.search(head[-80:])
        if match is None:
            return found
        start = len(head) - len(head[-80:]) + match.start()
        word, comma = match.group(1).strip("`"), match.group(2)
        if expect_name:
            if not _IS_GATE_NAME.match(word) or (comma and not listed):
                return found
            found.append((start, word))
            expect_name = False
        elif word == "and" and not listed:
            listed, expect_name = True, True
        else:
            return found
        head = head[:start]
        if found and not expect_name and head.rstrip().endswith(","):
            head = head.rstrip()[:-1]
            listed, expect_name = True, True


def gate_names(sentence: str) -> list[str]:
    """Gate names in one sentence, in order of appearance."""
    if "feature" not in sentence:
        return []
    found: list[tuple[int, str]] = []
    for match in _GATE_WORD.finditer(sentence):
        found += _names_before(sentence, match.start())
    found += [(m.start(1), m.group(1)) for m in _NAMED_AFTER.finditer(sentence)]
    if _ENABLING.search(sentence):
        found += [(m.start(1), m.group(1)) for m in _NAMED_FEATURE.finditer(sentence)]
    names: list[str] = []
    for _, name in sorted(found):
        if _IS_GATE_NAME.match(name) and name not in names:
            names.append(name)
    return names


def stage_of(sentence: str) -> tuple[str, bool]:
    """(``alpha``/``beta``/empty, whether said of a value) that one sentence states."""
    lowered = sentence.lower()
    if "alpha" not in lowered and "beta" not in lowered:
        return "", False
    if _HISTORICAL.search(sentence):
        return "", False
    match = _STAGE.search(sentence)
    if match is None:
        return "", False
    stage = next(g for g in match.groups() if g)
    return stage.lower(), bool(_VALUE_SUBJECT.search(sentence))


@render_memo(16384)
def feature_gates(description: str) -> tuple[FeatureGate, ...]:
    """Gates and stages ``description`` states, sorted by gate name (a nameless stage first)."""
    lowered = description.lower()
    if "feature" not in lowered and "alpha" not in lowered and "beta" not in lowered:
        return ()
    gates: dict[str, tuple[str, bool]] = {}
    loose: list[tuple[str, bool]] = []
    for sentence in _SENTENCES.split(description):
        names = gate_names(sentence)
        stage = stage_of(sentence)
        if stage[0] and not names:
            loose.append(stage)
        for name in names:
            if not gates.get(name, ("",))[0]:
                gates[name] = stage
    if loose:
        unstaged = [name for name, (stage, _) in gates.items() if not stage]
        for name in unstaged:
            gates[name] = loose[0]
        if not gates:
            gates[""] = loose[0]
    return tuple(FeatureGate(name, stage, of_value)
                 for name, (stage, of_value) in sorted(gates.items()))
