"""The change page of a release pair ("Changes from 1.31 to 1.32") as plain data.

Links to the new release's pages are relative ``.md`` links; links to the old release use
``site.release_url`` (another release may be another MkDocs site). Without plans (``diff
--format markdown``) there are no links.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field

from generator.analysis.diff import SEVERITIES, ApiDiff, Change, ModelChange
from generator.analysis.known_data import note_text
from generator.analysis.operations_diff import CHANGE_LABELS as OPERATION_LABELS
from generator.analysis.severity import ChangeStatus
from generator.model.gvk import stability
from generator.views.pages import title_of
from generator.views.properties import field_anchor
from generator.views.site import SitePlan, page_url, relative, release_url, tree_link

CHANGE_LABELS = {
    "api-version-added": "API versions added", "api-version-removed": "API versions removed",
    "model-added": "Models added", "model-removed": "Models removed",
    "field-added": "Fields added", "field-removed": "Fields removed",
    "type-changed": "Types changed", "required-changed": "Required changed",
    "enum-changed": "Enums changed", "default-changed": "Defaults changed",
    "list-type-changed": "List types changed", "map-keys-changed": "List map keys changed",
    "map-type-changed": "Map types changed", "patch-changed": "Patch strategies changed",
    "description-changed": "Descriptions changed", "gate-added": "Feature gates mentioned",
    "gate-removed": "Feature gates no longer mentioned",
    "crd-version-not-served": "CRD versions no longer served", "crd-scope-changed": "CRD scopes changed",
    "crd-storage-version-changed": "Storage versions changed",
    "crd-version-deprecated": "CRD versions deprecated", "crd-version-served": "CRD versions served again",
    "validation-rule-added": "Validation rules added", "validation-rule-changed": "Validation rules changed",
    "validation-rule-removed": "Validation rules removed",
    "printer-columns-changed": "Printer columns changed",
    "selectable-field-removed": "Selectable fields removed",
    "selectable-field-added": "Selectable fields added",
    **OPERATION_LABELS,
}


@dataclass(frozen=True, slots=True)
class SummaryRow:
    label: str
    total: int
    counts: tuple[int, ...]
    """Per class, in ``SEVERITIES`` order."""


@dataclass(frozen=True)
class FieldEntry:
    name: str
    status: ChangeStatus
    severity: str
    changes: tuple[Change, ...]
    old_href: str | None
    new_href: str | None
    old_path: str | None = None
    """``old_href`` as a relative ``.md`` link when the old release is in this tree."""


@dataclass(frozen=True)
class ModelEntry:
    kind: str
    status: ChangeStatus
    severity: str
    is_kind: bool
    changes: tuple[Change, ...]
    """Model-level changes other than added/removed (description, gates)."""
    fields: tuple[FieldEntry, ...]
    old_href: str | None
    new_href: str | None
    removal: Change | None = None
    """The ``model-removed`` change (its reason and replacement guidance)."""
    old_path: str | None = None
    """``old_href`` as a relative ``.md`` link when the old release is in this tree."""


@dataclass(frozen=True)
class GroupEntry:
    """One API group/version: ``resource.k8s.io/v1alpha3``."""

    title: str
    stability: str
    added_removed: tuple[ModelEntry, ...]
    changed: tuple[ModelEntry, ...]


@dataclass
class ChangesPage:
    """Context of ``pages/changes.md.j2``."""

    path: str
    old_version: str
    new_version: str
    old_source: str
    new_source: str
    severities: tuple[str, ...]
    summary: list[SummaryRow]
    totals: tuple[int, ...]
    api_versions: list[Change]
    groups: list[GroupEntry]
    up_href: str | None = None
    up_title: str = ""
    """What the "Up" link calls the new release (``views.pages.release_title``)."""
    links: bool = True
    notes: list[str] = field(default_factory=list)
    """Known differences of bundled data from upstream that can affect this page."""
    directory_urls: bool = True
    """The site's URL style (``SitePlan.directory_urls``): how ``published`` writes a link."""

    @property
    def title(self) -> str:
        return f"Changes from {self.old_version} to {self.new_version}"

    def published(self, href: str) -> str:
        """``href`` (a link of this page) as raw HTML needs it: a ``.md`` link (``new_href``)
        as the published URL MkDocs would write for it; any other link as it is."""
        target, hash_mark, anchor = href.partition("#")
        if not target.endswith(".md"):
            return href
        page = posixpath.normpath(posixpath.join(posixpath.dirname(self.path), target))
        return page_url(self.path, page, self.directory_urls) + hash_mark + anchor


def changes_path(plan: SitePlan, old_version: str, adjacent: bool) -> str:
    """``1.32/changes.md`` for the previous release of the site, else ``1.32/changes-from-1.29.md``."""
    from generator.views.site import version_dir

    return plan.changes if adjacent else plan.in_root(f"changes-from-{version_dir(old_version)}.md")


def changes_page(diff: ApiDiff, path: str = "", new_plan: SitePlan | None = None,
                 old_plan: SitePlan | None = None, new_title: str = "") -> ChangesPage:
    """The change page view; links only to pages the plans know. ``new_title``: the new
    release's title (``views.pages.release_title``; default ``title_of`` its version)."""

    def new_href(name: str, anchor: str = "") -> str | None:
        target = new_plan.page_of(name) if new_plan and name else None
        return relative(path, target) + anchor if target else None

    def old_href(name: str, anchor: str = "") -> str | None:
        target = old_plan.page_of(name) if old_plan and name else None
        return release_url(path, target, new_plan, old_plan) + anchor if target else None

    def old_path(name: str) -> str | None:
        if not (old_plan and new_plan and name):
            return None
        target = old_plan.page_of(name)
        return tree_link(path, target, new_plan, old_plan) if target else None

    groups: dict[tuple[str, str], list[ModelEntry]] = {}
    for model in diff.models:
        groups.setdefault((model.api_group, model.api_version), []).append(
            _model_entry(model, new_href, old_href, old_path))
    counts = diff.counts()
    summary = [SummaryRow(CHANGE_LABELS[k], sum(row.values()), tuple(row[s] for s in SEVERITIES))
               for k, row in counts.items()]
    totals = diff.totals()
    return ChangesPage(
        path=path, old_version=diff.old_version, new_version=diff.new_version,
        old_source=diff.old_source, new_source=diff.new_source, severities=SEVERITIES,
        summary=summary, totals=(sum(totals.values()), *(totals[s] for s in SEVERITIES)),
        api_versions=list(diff.api_versions),
        groups=[GroupEntry(f"{g}/{v}" if v else g, stability(v) if v else "",
                           tuple(m for m in models if m.status != "changed"),
                           tuple(m for m in models if m.status == "changed"))
                for (g, v), models in groups.items()],
        up_href=relative(path, new_plan.home) if new_plan else None,
        up_title=new_title or title_of(diff.new_version),
        links=new_plan is not None,
        notes=[note_text(n) for n in diff.notes],
        directory_urls=new_plan.directory_urls if new_plan else True,
    )


def _model_entry(model: ModelChange, new_href, old_href, old_path) -> ModelEntry:  # type: ignore[no-untyped-def]
    fields = tuple(
        FieldEntry(
            f.field, f.status, f.severity, f.changes,
            old_href(model.old_name, "#" + field_anchor(f.field)) if f.status != "added" else None,
            new_href(model.new_name, "#" + field_anchor(f.field)) if f.status != "removed" else None,
            old_path(model.old_name) if f.status != "added" else None,
        )
        for f in model.fields
    )
    own = tuple(c for c in model.changes if c.change not in ("model-added", "model-removed"))
    removal = next((c for c in model.changes if c.change == "model-removed"), None)
    return ModelEntry(model.kind, model.status, model.severity, model.is_kind, own, fields,
                      old_href(model.old_name), new_href(model.new_name), removal,
                      old_path(model.old_name))
