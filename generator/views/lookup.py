"""Field paths as ``kubectl explain`` names them (``spec.template.spec.containers.image``): per
release a small JSON of every model page's fields (row anchor, the page of the field's type), which
the site's script follows across pages; and the box on each model page that asks for a path. A CRD
kind's nested objects are entries too, keyed ``<page>#<section anchor>`` on whatever page (the
kind's or a sub-page) shows their section, with the anchors that section's rows carry. Pure."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec, Model, TypeRef
from generator.views.crd import NestedSection, nested_sections
from generator.views.properties import PropertyRow, anchored_rows, field_anchor, unique_anchor
from generator.views.site import SitePlan, file_url, path_anchor, published_url

_PLAIN = re.compile(r"[A-Za-z0-9_.-]{1,80}")
FIELD_PATHS = "fieldpaths.json"
"""File name of a release's field-path data, in the release's root directory."""


def row_anchors(model: Model) -> list[str]:
    """The row anchors of the model's property table, in field order (as ``property_rows``: a
    CRD kind's rows by field path, case kept, other models' by name)."""
    used: set[str] = set()
    if model.crd is not None or model.field_path:
        return [path_anchor("field-", f"{model.field_path}.{f.name}" if model.field_path else f.name, used)
                for f in model.fields]
    return [unique_anchor(field_anchor(f.name), f.name, used) for f in model.fields]


def in_release(plan: SitePlan, page: str) -> str:
    """The published URL of ``page`` below the release's root: ``core/v1/pod/`` (``core/v1/pod.html``
    without directory URLs)."""
    return published_url(page[len(plan.root) + 1:] if plan.root else page, plan.directory_urls)


def field_paths(api: ApiSpec, plan: SitePlan) -> dict[str, object]:
    """The release's ``fieldpaths.json`` data: per model page (URL below the release root) its
    kind and, per field, the row anchor and the key of the field's type (``None``: no page or
    no fields). A CRD kind's nested objects are keyed ``<page>#<section anchor>`` (their kind
    and field path as ``k``); the browser follows a path field by field across pages and
    sections, and opens the page before ``#`` at the last field's row."""
    models: dict[str, object] = {}
    for name in sorted(api.models):
        page = plan.page_of(name)
        model = api.models[name]
        if page is None:
            continue
        if model.crd is not None and api.nested.get(name):
            models.update(_crd_entries(model, api, plan, page))
            continue
        fields: dict[str, list[str | None]] = {}
        for f, anchor in zip(model.fields, row_anchors(model), strict=True):
            fields[f.name] = [anchor, _type_key(f.type, api, plan)]
        models[in_release(plan, page)] = {"k": model.kind, "f": fields}
    return {"version": api.version, "models": models}


def _type_key(t: TypeRef, api: ApiSpec, plan: SitePlan) -> str | None:
    """The entry of a field's type: its page, or the page and anchor of its nested section."""
    _, ref = type_text_in(t, api)
    if not ref or not api.models[ref].fields:
        return None
    target = plan.target_of(ref)
    if target is None:
        return None  # a nested object over its page's limit of sections
    page, anchor = target
    return in_release(plan, page) + (f"#{anchor}" if anchor else "")


def _crd_entries(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> dict[str, object]:
    """The entries of a CRD kind with nested objects: the kind's own rows and every section of
    its field-path tree, with the row anchors the pages write (the same views the kind's page
    and its sub-pages are rendered from)."""
    anchors: set[str] = set()
    rows = anchored_rows(model, anchors)
    on_page, _ = nested_sections(model, api, plan, page, anchors, shown=False)
    shown: list[tuple[str, list[NestedSection]]] = [(page, on_page)]
    todo = [page]  # the sub-pages (views.crd.nested_objects_pages), each with its own anchors
    while todo:
        for sub, name in plan.nested_pages.get(todo.pop(0), ()):
            shown.append((sub, nested_sections(model, api, plan, sub, set(), api.models[name],
                                               shown=False)[0]))
            todo.append(sub)
    out: dict[str, dict[str, object]] = {
        in_release(plan, page): {"k": model.kind, "f": _row_fields(rows, api, plan)}}
    repeats: list[tuple[str, str]] = []
    for on, sections in shown:
        for s in sections:
            key = f"{in_release(plan, on)}#{s.anchor}"
            out[key] = {"k": f"{model.kind} {s.path}", "f": _row_fields(s.rows, api, plan)}
            first = plan.target_of(s.model.same_as) if s.repeats is not None else None
            if first is not None:
                repeats.append((key, f"{in_release(plan, first[0])}#{first[1]}"))
    for key, first_key in repeats:  # a repeat's fields lead to the rows of the object it repeats
        if first_key in out:
            out[key]["f"] = out[first_key]["f"]
    return dict(out)


def _row_fields(rows: list[PropertyRow], api: ApiSpec, plan: SitePlan) -> dict[str, list[str | None]]:
    return {r.field.name: [r.anchor, _type_key(r.field.type, api, plan)] for r in rows}


def field_paths_json(api: ApiSpec, plan: SitePlan) -> str:
    """The release's field paths as JSON; ``<``, ``>`` and ``&`` of spec names are written as
    ``\\u003c``…, so the file holds no markup even when served or shown as text."""
    text = json.dumps(field_paths(api, plan), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e") + "\n"


@dataclass(frozen=True, slots=True)
class FieldPathBox:
    """The field-path box of a model page (``partials/field_path.md.j2``)."""

    url: str
    """URL of the release's ``fieldpaths.json``, relative to the page (the page's key in it is
    the page's URL below the directory of that file)."""
    example: str
    """A path of this model for the placeholder."""


def field_path_box(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> FieldPathBox | None:
    """The box for ``page`` (``None`` for models without fields)."""
    if not model.fields:
        return None
    example = model.fields[0].name
    for f in model.fields:
        _, ref = type_text_in(f.type, api)
        if ref and api.models[ref].fields and f.name not in ("metadata", "apiVersion", "kind"):
            example = f"{f.name}.{api.models[ref].fields[0].name}"
            break
    if not _PLAIN.fullmatch(example):
        example = "spec.field"  # spec text stays out of attributes
    data = plan.in_root(FIELD_PATHS)
    return FieldPathBox(file_url(page, data, plan.directory_urls), example)
