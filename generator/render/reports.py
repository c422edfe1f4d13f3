"""A release diff as text, JSON, GitHub workflow annotations or PR-comment Markdown
(``diff --format``), and the documented diff JSON schema (docs/command-line.md, "Diff JSON
format")."""

from __future__ import annotations

import json
import re
from typing import Any

from generator.analysis.diff import SEVERITIES, WORDS_SHOWN, ApiDiff, Change, shortened
from generator.analysis.known_data import artifact_note, note_text, subject
from generator.analysis.upgrades import guidance
from generator.errors import one_line
from generator.sources.known_differences import KnownDifference

DIFF_SCHEMA_VERSION = 1
GITHUB_COMMANDS = {"breaking": "error", "warning": "warning"}
GITHUB_SHOWN = 10
"""Annotations GitHub displays per step and type (errors, warnings); more are not shown."""


# -- JSON -------------------------------------------------------------------------------------
def diff_to_dict(diff: ApiDiff) -> dict[str, Any]:
    """The documented, stable JSON form of a diff (docs/command-line.md "Diff JSON format")."""
    return {
        "schemaVersion": DIFF_SCHEMA_VERSION,
        "old": {"version": diff.old_version, "source": diff.old_source},
        "new": {"version": diff.new_version, "source": diff.new_source},
        "summary": {**diff.totals(), "total": len(diff.changes()),
                    "violations": sum(c.policy == "violation" for c in diff.changes()),
                    "policyUnknown": sum(c.policy == "unknown" for c in diff.changes())},
        "notes": [note_dict(n) for n in diff.notes],
        "changes": [change_dict(c, diff.notes) for c in diff.changes()],
    }


ARTIFACT = "bundled-data artifact"
"""How every format marks a change that a known difference of the bundled data from upstream
may have made (``known_data.artifact_note``): absent from a diff of the upstream documents."""


def artifact(c: Change, notes: tuple[KnownDifference, ...]) -> KnownDifference | None:
    return artifact_note(notes, c.group, c.api_version, c.model, c.field) if notes else None


def change_dict(c: Change, notes: tuple[KnownDifference, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {
        "change": c.change, "severity": c.severity, "group": c.group, "apiVersion": c.api_version,
        "stability": c.stability, "policy": c.policy,
        "model": c.model or None, "field": c.field or None, "old": c.old, "new": c.new,
        "reason": c.reason or None,
        "replacement": [
            {"kind": r.kind, "apiVersion": r.api_version or None, "since": r.since or None,
             "sinceOrEarlier": r.since_or_earlier, "servedInOld": r.served_in_old}
            for r in c.replacements
        ] if c.replacements else None,
        "message": c.message,
    }
    known = artifact(c, notes)
    out["dataArtifact"] = note_text(known) if known else None
    if c.words:
        out["words"] = [{"before": w.before, "old": w.old, "new": w.new, "after": w.after}
                        for w in c.words]
    return out


def note_dict(d: KnownDifference) -> dict[str, Any]:
    return {"release": d.release, "definition": d.definition, "subject": subject(d),
            "field": d.field or None, "aspect": d.aspect, "bundled": d.bundled,
            "upstream": d.upstream, "message": note_text(d)}


def format_json(diff: ApiDiff) -> str:
    return json.dumps(diff_to_dict(diff), indent=1, ensure_ascii=False) + "\n"


# -- text -------------------------------------------------------------------------------------
def summary_line(diff: ApiDiff) -> str:
    totals = diff.totals()
    violations = sum(c.policy == "violation" for c in diff.changes())
    return (f"{one_line(diff.old_version)} → {one_line(diff.new_version)}: "
            f"{len(diff.changes())} changes ({totals['breaking']} breaking, "
            f"{totals['warning']} warning, {totals['info']} info; "
            f"{violations} against the deprecation policy{_unknown_text(diff)})")


def _unknown_text(diff: ApiDiff) -> str:
    unknown = sum(c.policy == "unknown" for c in diff.changes())
    return f", {unknown} policy unknown" if unknown else ""


POLICY_TAGS = {"violation": "policy violation", "unknown": "policy unknown"}


def _tags(c: Change, notes: tuple[KnownDifference, ...] = ()) -> str:
    tags = [c.stability]
    if c.policy in POLICY_TAGS:
        tags.append(POLICY_TAGS[c.policy])
    if artifact(c, notes):
        tags.append(ARTIFACT)
    return f"[{', '.join(tags)}]"


def format_text(diff: ApiDiff) -> str:
    """The summary line, then the changes grouped by class, breaking first (each group under a
    ``breaking (N):`` line), then the notes on the bundled data. Every change line still starts
    with its class, for ``grep``."""
    changes = diff.changes()
    lines = [summary_line(diff)]
    for severity in SEVERITIES:
        matching = [c for c in changes if c.severity == severity]
        if not matching:
            continue
        lines += ["", f"{severity} ({len(matching)}):"]
        lines += [f"{c.severity:<8} {one_line(c.message, 600)} {_tags(c, diff.notes)}"
                  for c in matching]
    if diff.notes:
        lines.append("")
    lines += [f"note: {one_line(note_text(n), 400)}" for n in diff.notes]
    if diff.notes:
        marked = sum(artifact(c, diff.notes) is not None for c in changes)
        lines.append(f"note: these differences of the bundled data from upstream can change this "
                     f"result ({marked} change(s) marked [{ARTIFACT}]); diff upstream documents "
                     f"for exact results")
    return "\n".join(lines) + "\n"


# -- GitHub -----------------------------------------------------------------------------------
def escape_command_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_command_property(text: str) -> str:
    return escape_command_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(change: Change, file: str = "", notes: tuple[KnownDifference, ...] = ()) -> str:
    """``::error file=swagger.json,title=…::message`` (workflow command syntax, escaped); a
    bundled-data artifact says so in its title and message."""
    props = [f"file={escape_command_property(file)}"] if file else []
    known = artifact(change, notes)
    marked = f", {ARTIFACT}" if known else ""
    props.append(f"title={escape_command_property(f'{change.change} ({change.severity}{marked})')}")
    message = f"{change.message} {_tags(change, notes)}"
    if known:
        message += f" (may not be a real change: {note_text(known)})"
    return (f"::{GITHUB_COMMANDS[change.severity]} {','.join(props)}::"
            f"{escape_command_data(one_line(message, 2000))}")


def format_github(diff: ApiDiff, file: str = "", summary_written: bool = False) -> str:
    """Workflow annotations: breaking → ``::error``, warning → ``::warning``, at most
    ``GITHUB_SHOWN`` of each (what GitHub displays per step), then one ``::notice`` with the
    totals and how many were not annotated. Info changes are never annotated. ``file`` is the
    new spec relative to the working directory (empty: none)."""
    changes = diff.changes()
    lines, hidden = [], []
    for severity in ("breaking", "warning"):
        matching = [c for c in changes if c.severity == severity]  # real changes annotated first
        matching.sort(key=lambda c: artifact(c, diff.notes) is not None)
        lines += [github_line(c, file, diff.notes) for c in matching[:GITHUB_SHOWN]]
        if len(matching) > GITHUB_SHOWN:
            hidden.append(f"{len(matching) - GITHUB_SHOWN} more {severity}")
    info = diff.totals()["info"]
    if info:
        hidden.append(f"{info} info")
    text = summary_line(diff)
    if hidden:
        where = ("the full report is in the step summary" if summary_written
                 else "run diff --format text or markdown for the full report")
        text += f". Not annotated: {', '.join(hidden)}; {where}"
    if diff.notes:
        marked = sum(artifact(c, diff.notes) is not None for c in changes)
        text += (f". {len(diff.notes)} known differences of the bundled data from upstream "
                 f"can affect this result ({marked} change(s) marked {ARTIFACT})")
    lines.append(f"::notice title=k8s-api-docs diff::{escape_command_data(text)}")
    return "\n".join(lines) + "\n"


# -- Markdown for a pull-request comment ------------------------------------------------------
_GFM_SPECIAL = re.compile(r"([\\`*_\[\]|~&$])")


def gfm_text(text: str) -> str:
    """One line of GitHub-flavoured Markdown whose characters are all literal: no HTML (``<``
    and ``>`` become entities), links, emphasis, math or @mentions."""
    flat = _GFM_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))
    flat = flat.replace("<", "&lt;").replace(">", "&gt;")
    return flat.replace("@", "@\u200b")  # no @mention


def gfm_code(text: str) -> str:
    """An inline code span holding ``text`` verbatim (one line); text with ``<`` or ``>`` is
    escaped text instead, so the report never contains anything that looks like a tag."""
    flat = " ".join(str(text).split())
    if "<" in flat or ">" in flat:
        return gfm_text(flat)
    longest = max((len(run) for run in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


MARKDOWN_VALUE = 100
"""Longest old or new value in the PR-comment Markdown (description hunks: ``WORDS_SHOWN``)."""


def _markdown_item(c: Change, new_release: str, notes: tuple[KnownDifference, ...] = ()) -> str:
    label = c.change.replace("-", " ")
    parts = [f"- {gfm_code(c.subject)} {label}"]
    if c.change == "description-changed":
        # every hunk, each side whole (up to WORDS_SHOWN): a removed sentence reads "… → ∅"
        hunks = [f"{gfm_code(shortened(w.old, WORDS_SHOWN)) if w.old else '∅'} → "
                 f"{gfm_code(shortened(w.new, WORDS_SHOWN)) if w.new else '∅'}"
                 for w in c.words]
        parts.append(": " + "; ".join(hunks))
    elif c.old is not None and c.new is not None:
        parts.append(f": {gfm_code(shortened(c.old, MARKDOWN_VALUE))} → "
                     f"{gfm_code(shortened(c.new, MARKDOWN_VALUE))}")
    elif c.new or c.old:
        parts.append(f": {gfm_code(shortened(c.new or c.old or '', MARKDOWN_VALUE))}")
    details = [gfm_text(c.reason)] if c.reason else []
    if c.replacements:
        details.append(guidance(c.replacements, new_release, gfm_code, gfm_text))
    details.append(c.stability + (f", **{POLICY_TAGS[c.policy]}**" if c.policy in POLICY_TAGS
                                  else ""))
    known = artifact(c, notes)
    if known:
        details.append(f"**{ARTIFACT}**: {gfm_text(note_text(known))}")
    return "".join(parts) + " — " + "; ".join(details)


def format_markdown(diff: ApiDiff, old_label: str = "", new_label: str = "") -> str:
    """Plain GitHub-flavoured Markdown for a PR comment or step summary: totals, breaking and
    warning changes, info changes collapsed in ``<details>`` (the only HTML), data notes."""
    changes = diff.changes()
    totals = diff.totals()
    violations = sum(c.policy == "violation" for c in changes)
    out = [f"## API changes from {gfm_text(diff.old_version)} to {gfm_text(diff.new_version)}",
           "",
           f"Compared {gfm_code(old_label or diff.old_source)} → "
           f"{gfm_code(new_label or diff.new_source)}: **{totals['breaking']} breaking**, "
           f"{totals['warning']} warning, {totals['info']} info; {violations} against the "
           f"Kubernetes deprecation policy{_unknown_text(diff)}.", ""]
    titles = {"breaking": "Breaking", "warning": "Warning", "info": "Info"}
    for severity in SEVERITIES:
        matching = [c for c in changes if c.severity == severity]
        if not matching:
            continue
        items = [_markdown_item(c, diff.new_version, diff.notes) for c in matching]
        if severity == "info":
            out += ["<details>", f"<summary>{titles[severity]} ({len(matching)})</summary>", "",
                    *items, "", "</details>", ""]
        else:
            out += [f"### {titles[severity]} ({len(matching)})", "", *items, ""]
    if not changes:
        out += ["No differences.", ""]
    if diff.notes:
        out += ["### Data notes", "",
                "The bundled data differs from upstream in ways that can change this result:", ""]
        out += [f"- {gfm_text(note_text(n))}" for n in diff.notes]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
