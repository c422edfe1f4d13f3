"""A release diff as text, Markdown, JSON or GitHub workflow annotations (``diff --format``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from generator.analysis.diff import ApiDiff, Change
from generator.errors import one_line
from generator.model.gvk import stability

if TYPE_CHECKING:
    import jinja2

GITHUB_COMMANDS = {"breaking": "error", "warning": "warning", "info": "notice"}


def summary_line(diff: ApiDiff) -> str:
    totals = diff.totals()
    return (f"{one_line(diff.old_version)} → {one_line(diff.new_version)}: "
            f"{len(diff.changes())} changes ({totals['breaking']} breaking, "
            f"{totals['warning']} warning, {totals['info']} info)")


def format_text(diff: ApiDiff) -> str:
    lines = [summary_line(diff)]
    lines += [f"{c.severity:<8} {one_line(c.message, 400)}" for c in diff.changes()]
    return "\n".join(lines) + "\n"


def format_json(diff: ApiDiff) -> str:
    return json.dumps(diff_to_dict(diff), indent=1, ensure_ascii=False) + "\n"


def format_markdown(diff: ApiDiff, env: jinja2.Environment) -> str:
    from generator.render.pages import render_changes
    from generator.views.changes import changes_page

    return render_changes(changes_page(diff), env)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(change: Change, file: str = "") -> str:
    """``::error file=swagger.json,title=…::message`` (workflow command syntax, escaped)."""
    props = [f"file={_escape_property(file)}"] if file else []
    props.append(f"title={_escape_property(f'{change.change} ({change.severity})')}")
    return f"::{GITHUB_COMMANDS[change.severity]} {','.join(props)}::{_escape_data(change.message)}"


def format_github(diff: ApiDiff, file: str = "") -> str:
    """One annotation per change (breaking → error, warning → warning, info → notice)."""
    lines = [github_line(c, file) for c in diff.changes()]
    lines.append(f"::notice title=k8s-api-docs diff::{_escape_data(summary_line(diff))}")
    return "\n".join(lines) + "\n"


DIFF_SCHEMA_VERSION = 1
"""Version of the diff JSON form; keys are only added within a version."""


def diff_to_dict(diff: ApiDiff) -> dict[str, Any]:
    """The documented, stable JSON form of a diff (README "Diff JSON format")."""
    return {
        "schemaVersion": DIFF_SCHEMA_VERSION,
        "old": {"version": diff.old_version, "source": diff.old_source},
        "new": {"version": diff.new_version, "source": diff.new_source},
        "summary": {**diff.totals(), "total": len(diff.changes())},
        "changes": [change_dict(c) for c in diff.changes()],
    }


def change_dict(c: Change) -> dict[str, Any]:
    out: dict[str, Any] = {
        "change": c.change, "severity": c.severity, "group": c.group, "apiVersion": c.api_version,
        "stability": stability(c.api_version) if c.api_version else "ga",
        "model": c.model or None, "field": c.field or None, "old": c.old, "new": c.new,
        "message": c.message,
    }
    if c.words:
        out["words"] = [{"before": w.before, "old": w.old, "new": w.new, "after": w.after}
                        for w in c.words]
    return out
