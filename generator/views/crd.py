"""The parts of a CRD kind page beyond a model page: the CRD header (names, scope, version
status, other versions, conversion, subresources), printer columns and the field-path tree of
nested objects, each a section with its own property table."""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.types import NESTED_SEPARATOR, ApiSpec, CrdInfo, Model, PrinterColumn
from generator.views.properties import PropertyRow, SameShape, property_rows, same_shape
from generator.views.site import SitePlan, page_url, relative


@dataclass(frozen=True, slots=True)
class VersionLink:
    name: str
    href: str | None
    """Markdown link to that version's page (``None``: this page, or no page)."""
    url: str | None
    served: bool
    storage: bool
    deprecated: bool
    current: bool


@dataclass(frozen=True)
class CrdView:
    info: CrdInfo
    api_version: str
    """What to write in ``apiVersion``: ``gateway.networking.k8s.io/v1``."""
    versions: list[VersionLink]
    columns: list[PrinterColumn]
    wide_columns: list[PrinterColumn]
    """``priority`` > 0: shown by ``kubectl get -o wide`` only."""


@dataclass(frozen=True)
class NestedSection:
    """One nested object: its field path, anchor, parent link and property table."""

    model: Model
    path: str
    anchor: str
    depth: int
    parent_path: str
    parent_href: str
    """``#anchor`` of the parent's section, or ``#properties`` for the root."""
    rows: list[PropertyRow]
    same: SameShape | None = None
    """The definition of the release this object has the shape of (``Model.same_shape``)."""


def crd_view(model: Model, api: ApiSpec, plan: SitePlan, page: str) -> CrdView | None:
    info = model.crd
    if info is None:
        return None
    siblings = api.crd_versions.get((info.group, info.kind), {})
    versions = []
    for status in info.versions:
        other = siblings.get(status.name)
        target = plan.page_of(other.name) if other is not None else None
        current = status.name == info.version
        versions.append(VersionLink(
            status.name, relative(page, target) if target and not current else None,
            page_url(page, target) if target and not current else None,
            status.served, status.storage, status.deprecated, current))
    return CrdView(info, f"{info.group}/{info.version}", versions,
                   [c for c in info.printer_columns if c.priority == 0],
                   [c for c in info.printer_columns if c.priority > 0])


def nested_sections(model: Model, api: ApiSpec, plan: SitePlan, page: str,
                    anchors: set[str]) -> tuple[list[NestedSection], int]:
    """Sections of the nested objects under ``model``, depth first in field order, and how many
    more there are beyond ``views.site.MAX_SECTIONS`` (only those ``plan_site`` gave an anchor are
    shown; the others' types read "object", unlinked)."""
    if not any(NESTED_SEPARATOR in f.type.referenced() for f in model.fields):
        return [], 0
    children: dict[str, list[Model]] = {}
    for other in api.nested.get(model.name, ()):
        children.setdefault(other.parent, []).append(other)
    out: list[NestedSection] = []
    stack = [(c, 1) for c in reversed(_ordered(model, children.get(model.name, [])))]
    while stack:
        child, depth = stack.pop()
        found = plan.target_of(child.name)
        if found is None:
            continue  # over the page's limit (and so are the objects under it)
        anchor = found[1]
        anchors.add(anchor)
        parent = api.models[child.parent]
        parent_target = plan.target_of(parent.name)
        parent_href = f"#{parent_target[1]}" if parent_target and parent_target[1] else "#properties"
        out.append(NestedSection(child, child.field_path, anchor, depth,
                                 parent.field_path or parent.kind, parent_href,
                                 property_rows(child, api, plan, page, anchors),
                                 same_shape(child, api, plan, page)))
        stack.extend((c, depth + 1) for c in reversed(_ordered(child, children.get(child.name, []))))
    total = sum(len(c) for c in children.values())
    return out, total - len(out)


def _ordered(parent: Model, children: list[Model]) -> list[Model]:
    """Children in the order of the parent's fields."""
    order = {f.name: i for i, f in enumerate(parent.fields)}
    prefix = parent.field_path + "." if parent.field_path else ""

    def key(child: Model) -> tuple[int, str]:
        rest = child.field_path[len(prefix):] if child.field_path.startswith(prefix) else child.field_path
        head = rest.split("[", 1)[0].split("{", 1)[0]
        return order.get(head, len(order)), child.field_path

    return sorted(children, key=key)
