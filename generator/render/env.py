"""The Jinja environment: user override dir first, then the shipped templates; filters in one dict."""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta as jinja2_meta

from generator.analysis.gates import FeatureGate
from generator.config import PAGE_FORMATS
from generator.errors import Location, UsageError
from generator.model.gvk import stability
from generator.model.types import TypeRef
from generator.render import gfm, markup
from generator.render.highlight import highlight
from generator.render.raw_html import raw_block
from generator.views.builder_section import IndexLine
from generator.views.properties import PropertyRow, SameShape, TypeLabel, primitive_label
from generator.views.site import anchor_id

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "_templates"
SOURCE_TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def shipped_templates() -> Path:
    """``generator/_templates`` in an installed wheel, else the checkout's ``templates/``."""
    return PACKAGE_TEMPLATES if PACKAGE_TEMPLATES.is_dir() else SOURCE_TEMPLATES


def type_text(t: TypeRef) -> str:
    return primitive_label(t)


def type_cell(row: PropertyRow) -> str:
    label = row.type
    name = markup.inline(label.name)
    if label.href:
        name = f"[{name}]({label.href})"
    return f"{markup.inline(label.prefix)}{name}{markup.inline(label.suffix)}"


_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})|(?<=[./_\]])(?=[^./_\]])")


@lru_cache(maxsize=65536)
def wbr(text: str) -> str:
    """An identifier as escaped HTML with ``<wbr>`` (a line-break opportunity) at camelCase humps
    and after ``.``, ``/``, ``_`` and ``]``, so narrow columns break it between words, never
    inside one: ``termination<wbr>Grace<wbr>Period<wbr>Seconds``, ``[]<wbr>Allocated…``."""
    return "<wbr>".join(markup.inline(part) for part in _WORD_BREAK.split(str(text)) if part)


def wbr_code(text: str) -> str:
    """``wbr`` inside ``<code>``."""
    return f"<code>{wbr(text)}</code>"


def type_html(label: TypeLabel) -> str:
    """A type as HTML (for raw HTML blocks): the name links the published URL of its page."""
    name = wbr(label.name)
    if label.url:
        name = f'<a href="{html.escape(label.url)}">{name}</a>'
    same = f"<br>{same_shape_html(label.same)}" if label.same else ""
    return f"{markup.inline(label.prefix)}{name}{markup.inline(label.suffix)}{same}"


def same_shape_html(same: SameShape) -> str:
    """``same shape as core/v1 Toleration``, the kind linking its page."""
    kind = wbr(same.kind)
    if same.url:
        kind = f'<a href="{html.escape(same.url)}">{kind}</a>'
    return f'<span class="k8s-same">same shape as {html.escape(same.group_version)} {kind}</span>'


def notes_cell(row: PropertyRow) -> str:
    """The notes of a property row as HTML (valid in a Markdown table cell and in raw HTML)."""
    parts = ["<strong>required</strong>" if row.required else "optional"]
    parts += [markup.inline(n) for n in row.notes]
    for label, values in row.code_notes:
        parts.append(f"{markup.inline(label)}: " + ", ".join(markup.code(v) for v in values))
    parts += [gate_badge(gate) for gate in row.gates]
    if row.history is not None:
        parts += history_notes(row.history)
    return "<br>".join(parts)


def gate_badge(gate: FeatureGate) -> str:
    """``alpha · feature gate X``; ``beta value · feature gate X`` (one of the field's values);
    ``alpha field`` (no gate named); ``feature gate X`` (no stage stated)."""
    css = gate.stage or "gate"
    subject = " value" if gate.of_value else ""
    if not gate.name:
        return (f'<span class="k8s-badge k8s-{css}" title="the description says so; it names no '
                f'feature gate">{gate.stage}{subject or " field"}</span>')
    stage = f"{gate.stage}{subject} · " if gate.stage else ""
    return (f'<span class="k8s-badge k8s-{css}" title="feature gate">'
            f"{stage}feature gate {wbr(gate.name)}</span>")


def history_notes(history: Any) -> list[str]:
    """Notes of a ``views.versions.FieldHistory``: since, changes from the previous release,
    removed in."""
    parts = []
    if history.since:
        where = (f" ({markup.inline(', '.join(history.since_api_versions))})"
                 if history.since_api_versions else "")
        parts.append(f'<span class="k8s-badge k8s-since">since {markup.inline(history.since)}'
                     f"{where}</span>")
    if history.changes:
        changed = "; ".join(c.summary for c in history.changes)
        parts.append(f"compared with {markup.inline(history.compared_to)}: {markup.inline(changed)}")
    if history.removed_in:
        parts.append(f'<span class="k8s-badge k8s-removed">removed in '
                     f"{markup.inline(history.removed_in)}</span>")
    return parts


EN_DASH = "\u2013"


def release_ranges(runs: Any) -> str:
    """``[("1.26", "1.30"), ("1.32", "1.37")]`` → ``1.26 to 1.30, 1.32 to 1.37`` (escaped)."""
    text = ", ".join(a if a == b else f"{a}{EN_DASH}{b}" for a, b in runs) or "no known release"
    return markup.inline(text)


def severity_badge(severity: str) -> str:
    return f'<span class="k8s-badge k8s-{anchor_id(severity)}">{markup.inline(severity)}</span>'


def word_diff(change: Any) -> str:
    """Hunks of a description change: ``… at most <del>32</del> <ins>256</ins> such …``."""
    hunks = []
    for w in change.words:
        parts = [f"…{markup.inline(w.before)}" if w.before else ""]
        if w.old:
            parts.append(f"<del>{markup.inline(w.old)}</del>")
        if w.new:
            parts.append(f"<ins>{markup.inline(w.new)}</ins>")
        parts.append(f"{markup.inline(w.after)}…" if w.after else "")
        hunks.append(" ".join(p for p in parts if p))
    return " · ".join(hunks)


def builder_index_list(lines: Sequence[IndexLine]) -> str:
    """A builder index as a nested ``<ul>`` (raw HTML: its links are all on the same page).

    Formatted here rather than in the template: pages have up to hundreds of entries and the
    lines of shared subtrees recur on many pages (``_index_item`` is cached)."""
    out = ["<ul>"]
    previous = 0
    for line in lines:
        if line.depth < previous:
            out.append("</ul></li>" * (previous - line.depth))
        out.append(_index_item(line))
        previous = line.depth
    out.append("</ul></li>" * previous + "</ul>")
    return "\n".join(out)


def builder_anchored_list(lines: Sequence[IndexLine]) -> str:
    """The compact builder reference of a huge CRD kind: the index as a nested ``<ul>`` whose
    entries carry the anchors themselves (``id="fn-specwithhostnames"``), each ``obj`` with a
    link to its field's row."""
    out = ["<ul>"]
    previous = 0
    for line in lines:
        if line.depth < previous:
            out.append("</ul></li>" * (previous - line.depth))
        out.append(_anchored_item(line))
        previous = line.depth
    out.append("</ul></li>" * previous + "</ul>")
    return "\n".join(out)


def _anchored_item(line: IndexLine) -> str:
    """An ``obj`` (its last name) links its field's row; a function is its anchor's target only
    (the fewest bytes: a kind can have 700 of them)."""
    end = "<ul>" if line.opens else "</li>"
    anchor = html.escape(line.anchor)
    if not line.label.startswith("obj "):
        # "fn withX(x)" → "withX": a generated function's argument is its field's name
        return f'<li id="{anchor}">{html.escape(line.label[3:].split("(", 1)[0])}{end}'
    # "obj spec.acme.solvers" → "obj solvers" (the list nests), linked to its field's row
    href = html.escape(line.field_url) if line.field_url else f"#{anchor}"
    name = html.escape(line.label.rsplit(".", 1)[-1].removeprefix("obj "))
    return f'<li id="{anchor}"><a href="{href}">obj {name}</a>{end}'


@lru_cache(maxsize=32768)
def _index_item(line: IndexLine) -> str:
    end = "<ul>" if line.opens else "</li>"
    return f'<li><a href="#{html.escape(line.anchor)}">{wbr(line.label)}</a>{end}'


def yaml_scalar(value: Any) -> str:
    """A YAML-safe scalar (JSON strings are valid YAML)."""
    return json.dumps(value)


FILTERS: dict[str, Any] = {
    "md_inline": markup.inline,
    "md_cell": markup.cell,
    "md_block": markup.block,
    "md_code": markup.code,
    "md_fence": markup.fence,
    "html_block": markup.html_block,
    "highlight": highlight,
    "wbr": wbr,
    "wbr_code": wbr_code,
    "raw_block": raw_block,
    "type_html": type_html,
    "same_shape_html": same_shape_html,
    "type_text": type_text,
    "type_cell": type_cell,
    "builder_index_list": builder_index_list,
    "builder_anchored_list": builder_anchored_list,
    "notes_cell": notes_cell,
    "yaml_scalar": yaml_scalar,
    "stability": stability,
    "release_ranges": release_ranges,
    "severity_badge": severity_badge,
    "word_diff": word_diff,
    "tojson": lambda v: json.dumps(v, sort_keys=True),
}


def make_env(override_dir: Path | None = None, page_format: str = "mkdocs") -> jinja2.Environment:
    """Environment that finds templates in ``override_dir`` (if any) before the shipped ones;
    for ``gfm`` pages in the ``gfm/`` folder of each (same template names)."""
    if page_format not in PAGE_FORMATS:
        raise UsageError(f"unknown page format {page_format!r}: {' or '.join(PAGE_FORMATS)}")
    sub = "gfm" if page_format == "gfm" else ""
    shipped = shipped_templates() / sub
    search = []
    if override_dir is not None:
        if not override_dir.is_dir():
            raise UsageError(f"template override directory not found: {override_dir}")
        search.append(str(override_dir / sub))
    search.append(str(shipped))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(search),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters.update(FILTERS)
    env.filters.update(gfm.FILTERS)
    if override_dir is not None and (override_dir / sub).is_dir():
        _check_overrides(env, override_dir / sub, shipped, skip="" if sub else "gfm/")
    return env


def _check_overrides(env: jinja2.Environment, override_dir: Path, shipped: Path, skip: str = "") -> None:
    """Refuse an override that extends, includes or imports itself (it would recurse forever);
    the shipped body of ``pages/model.md.j2`` is ``pages/_base/model.md.j2``, the one to extend.
    ``skip``: a folder of overrides for the other page format."""
    for path in sorted(override_dir.rglob("*.j2")):
        name = path.relative_to(override_dir).as_posix()
        if skip and name.startswith(skip):
            continue
        try:
            source = path.read_text(encoding="utf-8")
            refs = set(jinja2_meta.find_referenced_templates(env.parse(source, name, str(path))))
        except jinja2.TemplateSyntaxError as exc:
            raise template_error(exc, override_dir) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read template override: {exc}", Location(str(path))) from None
        if name in refs:
            base = f"{posixpath.dirname(name)}/_base/{posixpath.basename(name)}"
            hint = (f': extend "{base}" instead' if (shipped / base).is_file()
                    else ": it would recurse forever")
            raise UsageError(f"template override {name} extends or includes itself{hint}",
                             Location(str(path)))


def template_error(exc: jinja2.TemplateError, override_dir: Path) -> UsageError:
    """A template override that does not compile or render, as one located line."""
    name = getattr(exc, "filename", None) or getattr(exc, "name", None) or str(override_dir)
    line = getattr(exc, "lineno", None)
    where = f"{name}:{line}" if line else str(name)
    return UsageError(f"template error: {exc.message or type(exc).__name__}", Location(where))
