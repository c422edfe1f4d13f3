"""What the search index holds of a model page besides Material's own sections: its fields (one
entry per property row) and the builder functions of the model itself (view data; the MkDocs
adapter ``mkdocs.search_index`` writes them into Material's index)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.libsonnet.builders import builder_index
from generator.model.types import ApiSpec
from generator.views.lookup import row_anchors, type_text
from generator.views.pages import group_label
from generator.views.site import SitePlan, published_url


@dataclass(frozen=True, slots=True)
class FieldEntry:
    name: str
    anchor: str
    type: str
    """``integer (int64)``, ``[]Container``, ``map[string]string``."""
    description: str
    required: bool


@dataclass(frozen=True, slots=True)
class FunctionEntry:
    name: str
    """``withContainers``."""
    anchor: str
    call: str
    """``k.core.v1.podSpec.withContainers(containers)``."""


@dataclass(frozen=True)
class PageEntries:
    """A model page as the search index sees it."""

    kind: str
    group_label: str
    """``core/v1``, ``common``."""
    version: str
    is_kind: bool
    fields: tuple[FieldEntry, ...]
    functions: tuple[FunctionEntry, ...]


def page_entries(api: ApiSpec, plan: SitePlan) -> dict[str, PageEntries]:
    """Per model page, keyed by its published URL from the docs root (the search index's
    ``location``): its fields and the builder functions of the model itself."""
    out: dict[str, PageEntries] = {}
    for name in sorted(api.models):
        page = plan.page_of(name)
        if page is None:
            continue
        model = api.models[name]
        fields = tuple(
            FieldEntry(f.name, anchor, type_text(f.type, api)[0], f.description, f.required)
            for f, anchor in zip(model.fields, row_anchors(model), strict=True))
        functions: tuple[FunctionEntry, ...] = ()
        index = builder_index(model, api)
        if index is not None:
            functions = tuple(FunctionEntry(fn.name, fn.anchor, f"{index.call}.{fn.call}")
                              for fn in index.root.functions)
        out[published_url(page)] = PageEntries(model.kind, group_label(model), api.version,
                                               model.is_kind, fields, functions)
    return out
