"""The Jinja environment: user override dir first, then the shipped templates; filters in one dict."""

from __future__ import annotations

import html
import json
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta as jinja2_meta

from generator.config import PAGE_FORMATS
from generator.errors import Location, UsageError
from generator.memo import render_memo
from generator.model.gvk import stability
from generator.model.spelling import primitive_label
from generator.render import gfm, markup
from generator.render.highlight import highlight
from generator.render.raw_html import raw_block
from generator.views.properties import PropertyRow, SameShape, TypeLabel

PACKAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "_templates"
SOURCE_TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def shipped_templates() -> Path:
    """``generator/_templates`` in an installed wheel, else the checkout's ``templates/``."""
    return PACKAGE_TEMPLATES if PACKAGE_TEMPLATES.is_dir() else SOURCE_TEMPLATES


def type_cell(row: PropertyRow) -> str:
    label = row.type
    name = markup.inline(label.name)
    if label.href:
        name = f"[{name}]({label.href})"
    return f"{markup.inline(label.prefix)}{name}{markup.inline(label.suffix)}"


_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]{2})|(?<=[./_\]])(?=[^./_\]])")


@render_memo(65536)
def wbr(text: str) -> str:
    """An identifier as escaped HTML with ``<wbr>`` (a line-break opportunity) at camelCase humps
    and after ``.``, ``/``, ``_`` and ``]``, so narrow columns break it between words, never
    inside one: ``termination<wbr>Grace<wbr>Period<wbr>Seconds``, ``[]<wbr>Allocated…``."""
    return "<wbr>".join(markup.inline(part) for part in _WORD_BREAK.split(str(text)) if part)


def wbr_code(text: str) -> str:
    """``wbr`` inside ``<code>``."""
    return f"<code>{wbr(text)}</code>"


@render_memo(4096)
def nobr_code(text: str) -> str:
    """A command (``kubectl create -f FILE``) in ``<code>``, each space-separated token escaped
    in a ``k8s-nobr`` span (``white-space: nowrap``): lines break between tokens only, never
    inside ``-f`` or after the ``--`` of ``--all-namespaces``."""
    tokens = str(text).split()
    return "<code>" + " ".join(f'<span class="k8s-nobr">{markup.inline(t)}</span>'
                               for t in tokens) + "</code>"


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


EN_DASH = "\u2013"


def release_ranges(runs: Any) -> str:
    """``[("1.26", "1.30"), ("1.32", "1.37")]`` → ``1.26 to 1.30, 1.32 to 1.37`` (escaped)."""
    text = ", ".join(a if a == b else f"{a}{EN_DASH}{b}" for a, b in runs) or "no known release"
    return markup.inline(text)


def yaml_scalar(value: Any) -> str:
    """A YAML-safe scalar (JSON strings are valid YAML)."""
    return json.dumps(value)


FILTERS: dict[str, Any] = {
    "md_inline": markup.inline,
    "md_cell": markup.cell,
    "md_block": markup.block,
    "md_description": markup.description,
    "md_code": markup.code,
    "md_fence": markup.fence,
    "html_block": markup.html_block,
    "highlight": highlight,
    "wbr": wbr,
    "wbr_code": wbr_code,
    "nobr_code": nobr_code,
    "raw_block": raw_block,
    "type_html": type_html,
    "same_shape_html": same_shape_html,
    "type_text": primitive_label,  # a scalar's spelling (model.spelling)
    "type_cell": type_cell,
    "yaml_scalar": yaml_scalar,
    "stability": stability,
    "release_ranges": release_ranges,
    "tojson": lambda v: json.dumps(v, sort_keys=True),
}


def memo_call() -> Callable[[Any, Any], Any]:
    """A ``memo_call`` filter: ``value | memo_call(macro)`` is ``macro(value)``, remembered by the
    macro's name and the (hashable) value, for a partial whose output depends on its argument
    alone (``partials/notes.html.j2``: the same notes on thousands of rows). One per environment
    (a changed template gets a new environment: ``pipeline.cache.template_env``)."""
    cache: dict[tuple[str, Any], Any] = {}

    def call(value: Any, macro: Any) -> Any:
        key = (macro.name, value)
        found = cache.get(key)
        if found is None:
            if len(cache) >= _MEMO_CALLS:
                cache.clear()
            found = cache[key] = macro(value)
        return found

    return call


_MEMO_CALLS = 65536


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
        # no stat of the template file per include: pipeline.cache.template_env makes a new
        # environment when a template file changes (it digests them on every build)
        auto_reload=False,
    )
    env.filters.update(FILTERS)
    env.filters.update(gfm.FILTERS)
    env.filters["memo_call"] = memo_call()
    if override_dir is not None and (override_dir / sub).is_dir():
        _check_overrides(env, override_dir / sub, shipped, skip="" if sub else "gfm/")
    return env


def macro(env: jinja2.Environment, template: str, name: str) -> Any:
    """Macro ``name`` of the partial ``template`` as a function returning text (the override of
    that file when there is one): ``macro(env, "partials/badge.html.j2", "badge")("kind", "kind")``."""
    return getattr(env.get_template(template).module, name)


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
