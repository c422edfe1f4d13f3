"""The reports of ``explain`` (text like ``kubectl explain``, JSON) and ``scan`` (text, JSON,
GitHub workflow annotations, Markdown), with their documented JSON schemas (docs/terminal.md).
Spec and manifest text is untrusted: control characters never reach the terminal, Markdown is
escaped as in the diff reports."""

from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Sequence
from pathlib import PurePath, PurePosixPath
from typing import Any
from urllib.parse import quote

from generator import __version__
from generator.analysis.findings import CHECKS, CLASSES, Finding, check_of
from generator.errors import one_line
from generator.render.reports import escape_command_data, escape_command_property, gfm_text
from generator.views.explain import Explanation

SCAN_SCHEMA_VERSION = 1
EXPLAIN_SCHEMA_VERSION = 1
GITHUB_SCAN = {"error": "error", "breaking": "error", "warning": "warning", "info": "notice"}
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def plain(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences) shown as ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}", str(text))


# -- explain ----------------------------------------------------------------------------------
def explain_text(e: Explanation) -> str:
    """``kubectl explain``'s layout plus the site's notes, history and URL."""
    out = [f"KIND:       {plain(e.kind)}", f"GROUP:      {plain(e.group or 'core')}",
           f"VERSION:    {plain(e.version)}", f"RELEASE:    {plain(e.release)}", ""]
    if e.path:
        out += [f"FIELD: {plain(e.path)} <{plain(e.type)}>"
                + ("  -required-" if e.required else ""), ""]
    out += ["DESCRIPTION:", *_wrapped(e.description or "(no description)"), ""]
    facts = [f"{plain(label)}: {', '.join(plain(v) for v in values)}" for label, values in e.notes]
    facts += [plain(t) for t in e.texts]
    if facts:
        out += ["CONSTRAINTS:", *(f"    {f}" for f in facts), ""]
    stage = e.stage if e.stage != "ga" else ""
    gates = [g for g in e.gates if g.name]
    if stage or gates or e.deprecated:
        words = [w for w in (stage, "deprecated" if e.deprecated else "") if w]
        words += [f"feature gate {plain(g.name)}" + (f" ({g.stage})" if g.stage else "")
                  for g in gates]
        out += [f"STAGE: {', '.join(words)}", ""]
    out += ["HISTORY:", *(f"    {line}" for line in history_lines(e)), ""]
    if e.url:
        out += [f"URL: {plain(e.url)}", ""]
    elif e.url_note:
        out += [f"URL: none ({plain(e.url_note)})", ""]
    if e.fields:
        out.append("FIELDS:")
        for row in e.fields:
            indent = "  " * (row.depth + 1)
            out.append(f"{indent}{plain(row.name)}\t<{plain(row.type)}>"
                       + (" -required-" if row.required else ""))
            if row.summary and not e.recursive:  # kubectl's --recursive tree: names only
                out += textwrap.wrap(plain(row.summary), 76, initial_indent=indent + "  ",
                                     subsequent_indent=indent + "  ", break_long_words=False,
                                     break_on_hyphens=False)
        out.append("")
    return "\n".join(out)


def history_lines(e: Explanation) -> list[str]:
    subject = "field" if e.path else f"{e.api_version} {e.kind}"
    if e.since:
        oldest = "the oldest CRD set given" if e.crd else "the oldest release known"
        earlier = f" or earlier ({oldest})" if e.since_or_earlier else ""
        where = f" (in {', '.join(e.since_api_versions)})" if e.since_api_versions else ""
        lines = [f"since {e.since}{earlier}{where}"]
    elif e.crd:
        lines = [f"no earlier CRD set given to date this {subject} (give several, oldest first: "
                 "--version A --source SET_A --version B --source SET_B)"]
    else:
        lines = [f"no release known before {e.release} with this {subject}"]
    if e.changes:
        lines += [f"compared with {plain(e.compared_to)}: {plain(c)}" for c in e.changes]
    if e.removed_in:
        lines.append(f"removed in {e.removed_in}")
    return lines


_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s")


def _wrapped(text: str) -> list[str]:
    """The description wrapped at 80 columns, indented by 4: paragraphs (blank lines) and list
    items kept, other line breaks (a CRD's hard-wrapped comments) read as spaces."""
    lines: list[str] = []
    for paragraph in plain(text).split("\n\n"):
        items: list[str] = []
        for line in paragraph.split("\n"):
            if items and not _LIST_ITEM.match(line) and line.strip():
                items[-1] += " " + line.strip()
            else:
                items.append(line.strip())
        if lines:
            lines.append("")
        for item in items:
            lines += textwrap.wrap(item, 76, initial_indent="    ", subsequent_indent="    ",
                                   break_long_words=False, break_on_hyphens=False) or [""]
    return lines


def explain_json(e: Explanation) -> str:
    data = {"schemaVersion": EXPLAIN_SCHEMA_VERSION, **e.to_dict()}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


# -- scan -------------------------------------------------------------------------------------
def totals(findings: Sequence[Finding]) -> dict[str, int]:
    return {cls: sum(f.cls == cls for f in findings) for cls in CLASSES}


def _summary(findings: Sequence[Finding], objects: int, target: str, before: str) -> str:
    counts = totals(findings)
    upgrade = f"from {before} " if before else ""
    return (f"{objects} object(s) scanned {upgrade}against {target}: "
            + ", ".join(f"{counts[c]} {c}" for c in CLASSES))


def scan_text(findings: Sequence[Finding], objects: int, target: str, before: str = "") -> str:
    """``file:line: class: kind/name path: message`` (the message names the replacement), then
    a summary line."""
    out = []
    for f in findings:
        subject = f"{f.kind or '?'}/{f.name}" if f.name else (f.kind or "?")
        where = f" {f.path}" if f.path else ""
        about = f"{subject}{where}: " if f.kind or f.name or f.path else ""
        out.append(plain(f"{f.file}:{f.line}: {f.cls}: {about}{f.message}"))
    out.append(_summary(findings, objects, target, before))
    return "\n".join(out) + "\n"


def scan_dict(findings: Sequence[Finding], objects: int, target: str, before: str = ""
              ) -> dict[str, Any]:
    return {"schemaVersion": SCAN_SCHEMA_VERSION, "target": target, "from": before or None,
            "objects": objects, "summary": totals(findings),
            "findings": [f.to_dict() for f in findings]}


def scan_json(findings: Sequence[Finding], objects: int, target: str, before: str = "") -> str:
    return json.dumps(scan_dict(findings, objects, target, before), indent=1,
                      ensure_ascii=False) + "\n"


def scan_github(findings: Sequence[Finding], objects: int, target: str, before: str = "") -> str:
    """One workflow annotation per finding (``::error file=…,line=…,title=…::message``):
    errors and breaking as ``error``, warnings as ``warning``, info as ``notice``; then a notice
    with the totals. ``-`` (standard input) has no file."""
    lines = []
    for f in findings:
        props = [f"file={escape_command_property(f.file)}", f"line={f.line}"] if f.file != "-" else []
        subject = (f"{f.kind or '?'} {f.name}".strip() + (f" {f.path}" if f.path else "")
                   if f.kind or f.name else check_of(f.code).title)
        props.append(f"title={escape_command_property(f'{f.cls}: {subject}')}")
        lines.append(f"::{GITHUB_SCAN[f.cls]} {','.join(props)}::"
                     f"{escape_command_data(one_line(plain(f.message), 2000))}")
    lines.append(f"::notice title=k8s-api-docs scan::"
                 f"{escape_command_data(_summary(findings, objects, target, before))}")
    return "\n".join(lines) + "\n"


def scan_markdown(findings: Sequence[Finding], objects: int, target: str, before: str = "") -> str:
    """A table per class for a pull-request comment or step summary (no HTML; every cell is
    escaped text, ``|`` included)."""
    out = [f"## Manifests against Kubernetes {gfm_text(target)}", "",
           gfm_text(_summary(findings, objects, target, before)) + ".", ""]
    for cls in CLASSES:
        matching = [f for f in findings if f.cls == cls]
        if not matching:
            continue
        out += [f"### {cls.capitalize()} ({len(matching)})", "",
                "| Where | Object | Field | Problem | Replacement |", "| --- | --- | --- | --- | --- |"]
        for f in matching:
            obj = (f"{f.api_version or '?'} {f.kind or '?'} {f.name}".strip()
                   if f.api_version or f.kind or f.name else check_of(f.code).title)
            out.append(f"| {gfm_text(f'{f.file}:{f.line}')} | {gfm_text(obj)} | "
                       f"{gfm_text(f.path or '')} | {gfm_text(f.message)} | "
                       f"{gfm_text(f.replacement or '')} |")
        out.append("")
    if not findings:
        out += ["No findings.", ""]
    return "\n".join(out).rstrip("\n") + "\n"


SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVELS = {"error": "error", "breaking": "error", "warning": "warning", "info": "note"}
"""SARIF ``level`` of each class (code scanning shows error, warning and note)."""


def sarif_uri(file: str, cwd: str | None = None) -> str:
    """A finding's file as a SARIF ``uri``: relative to the working directory when inside it,
    with forward slashes, ``./`` left out, percent-encoded (a URI reference)."""
    path = PurePath(file)
    if path.is_absolute():
        base = PurePath(cwd if cwd is not None else os.getcwd())
        try:
            path = path.relative_to(base)
        except ValueError:
            return path.as_uri()
    parts = [p for p in path.as_posix().split("/") if p not in ("", ".")]
    return quote(str(PurePosixPath(*parts)), safe="/") if parts else "."


def scan_sarif_dict(findings: Sequence[Finding], objects: int, target: str, before: str = "",
                    cwd: str | None = None) -> dict[str, Any]:
    """SARIF 2.1.0 for code scanning: one rule per check (``CHECKS``, plus any other code met),
    one result per finding with its level, message, file and line."""
    rules = list(CHECKS)
    index = {c.code: i for i, c in enumerate(rules)}
    for f in findings:
        if f.code not in index:
            index[f.code] = len(rules)
            rules.append(check_of(f.code))
    results = []
    for f in findings:
        subject = f"{f.api_version or '?'} {f.kind or '?'} {f.name}".strip() if (
            f.kind or f.api_version) else ""
        where = f" {f.path}" if f.path else ""
        text = f"{subject}{where}: {f.message}" if subject else f.message
        result: dict[str, Any] = {
            "ruleId": rules[index[f.code]].code, "ruleIndex": index[f.code],
            "level": SARIF_LEVELS[f.cls], "message": {"text": text},
            "properties": {"class": f.cls, "apiVersion": f.api_version, "kind": f.kind,
                           "name": f.name or None, "path": f.path,
                           "replacement": f.replacement},
        }
        # every result has a location (code scanning refuses one without): "-" for standard input
        result["locations"] = [{"physicalLocation": {
            "artifactLocation": {"uri": "-" if f.file == "-" else sarif_uri(f.file, cwd)},
            "region": {"startLine": max(f.line, 1)}}}]
        results.append(result)
    driver = {
        "name": "k8s-api-docs", "version": __version__, "semanticVersion": __version__,
        "rules": [{"id": c.code, "name": c.code.title().replace("-", ""),
                   "shortDescription": {"text": c.title},
                   "fullDescription": {"text": c.help or c.title},
                   "help": {"text": c.help or c.title},
                   "defaultConfiguration": {"level": _rule_level(c.code)}} for c in rules],
    }
    upgrade = f"from {before} " if before else ""
    return {"version": SARIF_VERSION, "$schema": SARIF_SCHEMA, "runs": [{
        "tool": {"driver": driver},
        "automationDetails": {"id": f"k8s-api-docs/scan/{upgrade.replace(' ', '-')}{target}/"},
        "properties": {"target": target, "from": before or None, "objects": objects,
                       "summary": totals(findings)},
        "results": results}]}


def _rule_level(code: str) -> str:
    return {"stage": "warning", "deprecated": "warning", "removed-later": "warning",
            "unchecked": "note", "helm-template": "note"}.get(code, "error")


def scan_sarif(findings: Sequence[Finding], objects: int, target: str, before: str = "") -> str:
    return json.dumps(scan_sarif_dict(findings, objects, target, before), indent=1,
                      ensure_ascii=False) + "\n"


SCAN_FORMATS = {"text": scan_text, "json": scan_json, "github": scan_github,
                "markdown": scan_markdown, "sarif": scan_sarif}
