"""Field paths as ``kubectl explain`` names them (``spec.template.spec.containers.image``): per
release a small JSON of every model page's fields (row anchor, the page of the field's type), which
the site's script follows across pages; and the box on each model page that asks for a path. Pure."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec, Model
from generator.views.properties import field_anchor, unique_anchor
from generator.views.site import SitePlan, published_url, relative

_PLAIN = re.compile(r"[A-Za-z0-9_.-]{1,80}")
FIELD_PATHS = "fieldpaths.json"
"""File name of a release's field-path data, in the release's root directory."""


def row_anchors(model: Model) -> list[str]:
    """The row anchors of the model's property table, in field order (as ``property_rows``)."""
    used: set[str] = set()
    return [unique_anchor(field_anchor(f.name), f.name, used) for f in model.fields]


def in_release(plan: SitePlan, page: str) -> str:
    """The published URL of ``page`` below the release's root: ``core/v1/pod/``."""
    return published_url(page[len(plan.root) + 1:] if plan.root else page)


def field_paths(api: ApiSpec, plan: SitePlan) -> dict[str, object]:
    """The release's ``fieldpaths.json`` data: per model page (URL below the release root) its
    kind and, per field, the row anchor and the page of the field's type (``None``: no page or
    no fields). The browser follows a path field by field across pages."""
    models: dict[str, object] = {}
    for name in sorted(api.models):
        page = plan.page_of(name)
        model = api.models[name]
        if page is None:
            continue
        fields: dict[str, list[str | None]] = {}
        for f, anchor in zip(model.fields, row_anchors(model), strict=True):
            _, ref = type_text_in(f.type, api)
            target = plan.page_of(ref) if ref and api.models[ref].fields else None
            fields[f.name] = [anchor, in_release(plan, target) if target else None]
        models[in_release(plan, page)] = {"k": model.kind, "f": fields}
    return {"version": api.version, "models": models}


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
    return FieldPathBox(relative(published_url(page) + "_", data), example)
