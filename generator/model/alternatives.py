"""``oneOf`` / ``anyOf`` / ``not`` of a schema in words: the rule a reader can check by eye.

A member that only requires properties reads as their names (``exact``, ``a and b``), so a
``oneOf`` of them reads "exactly one of exact, prefix, regex". Any other member reads as its
conditions joined by ``; ``: ``type is IPAddress; value (format ipv4 or format ipv6)``:

- ``properties``: each property's name, then its conditions;
- ``enum``: ``is a`` (one value) or ``is one of a, b``; values as rows show them (``""`` for the
  empty string, JSON for non-strings);
- ``required``: ``has a and b``; ``not``: ``not (…)``; ``anyOf``: ``(… or …)``; ``oneOf``:
  ``exactly one of (…, …)``; ``allOf``: ``… and …``;
- ``type``, ``format``, ``pattern``: the keyword and its value; any other keyword: the keyword and
  its value as JSON; an empty schema: ``anything``.

``oneOf`` / ``anyOf`` of bare types (``[{type: integer}, {type: string}]``) are a type, not a
rule: the canonical loader has made them ``int-or-string`` already and they never get here.
"""

from __future__ import annotations

import json
from typing import Any

from generator.model.types import Alternatives

_WORDS = {"type", "format", "pattern"}


def shown(value: Any) -> str:
    """A value as rows show it: a string as it is (``""`` when empty), anything else as JSON."""
    if isinstance(value, str):
        return value or '""'
    return json.dumps(value, sort_keys=True)


def member_words(member: Any) -> str:
    """One member schema in words (see the module docstring)."""
    if (isinstance(member, dict) and set(member) == {"required"}
            and isinstance(member["required"], list) and member["required"]):
        return " and ".join(str(n) for n in member["required"])
    return condition_words(member)


def condition_words(schema: Any) -> str:
    """What ``schema`` requires of a value, in words."""
    if not isinstance(schema, dict):
        return shown(schema)
    parts: list[str] = []
    for key in sorted(schema):
        value = schema[key]
        if key == "description":
            continue
        if key == "properties" and isinstance(value, dict):
            parts.extend(f"{name} {condition_words(sub)}" for name, sub in sorted(value.items()))
        elif key == "enum" and isinstance(value, list):
            parts.append(f"is {shown(value[0])}" if len(value) == 1
                         else "is one of " + ", ".join(shown(v) for v in value))
        elif key == "required" and isinstance(value, list):
            parts.append("has " + " and ".join(str(n) for n in value))
        elif key == "not":
            parts.append(f"not ({condition_words(value)})")
        elif key == "anyOf" and isinstance(value, list):
            parts.append("(" + " or ".join(condition_words(v) for v in value) + ")")
        elif key == "oneOf" and isinstance(value, list):
            parts.append("exactly one of (" + ", ".join(condition_words(v) for v in value) + ")")
        elif key == "allOf" and isinstance(value, list):
            parts.append(" and ".join(condition_words(v) for v in value))
        elif key in _WORDS:
            parts.append(f"{key} {shown(value)}")
        else:
            parts.append(f"{key} {json.dumps(value, sort_keys=True)}")
    return "; ".join(parts) or "anything"


def alternatives_of(schema: dict[str, Any]) -> tuple[Alternatives, ...]:
    """The ``oneOf``, ``anyOf`` and ``not`` of ``schema`` (canonical form), in that order."""
    out: list[Alternatives] = []
    for key in ("oneOf", "anyOf"):
        members = schema.get(key)
        if isinstance(members, list) and members:
            out.append(Alternatives(key, tuple(member_words(m) for m in members)))
    if "not" in schema:
        out.append(Alternatives("not", (member_words(schema["not"]),)))
    return tuple(out)
