"""What ``explain`` shows of a resolved path (``analysis.explain``): the facts of the field's row
on the site (type, required, notes: enum, default, constraints, CEL rules, feature gates), its
history as the site's field-history notes compute it (``views.versions.field_histories``) and
the URL of that row (the site's page paths and row anchors), kept only for a page the site has
(``PublishedSite``). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from generator.analysis.explain import Explained, field_model, field_stage, is_deprecated
from generator.analysis.gates import FeatureGate, feature_gates
from generator.analysis.timeline import ModelKey
from generator.model.gvk import stability
from generator.model.spelling import type_text_in
from generator.model.types import ApiSpec, Field, Model
from generator.views.pages import first_sentence
from generator.views.properties import property_rows
from generator.views.site import SitePlan
from generator.views.versions import PublishedReleases, field_histories


@dataclass(frozen=True, slots=True)
class TreeRow:
    """One field of the ``FIELDS`` list (``depth`` 0: a direct child)."""

    name: str
    type: str
    required: bool
    depth: int = 0
    summary: str = ""
    """The first sentence of the field's description (``kubectl explain`` shows descriptions)."""


@dataclass(frozen=True)
class PublishedSite:
    """The site ``explain`` points its URL into: the releases it documents (each with its source
    and CRD sets) and its group filter. ``where`` names it (``./mkdocs.yml``, the default site)."""

    releases: Mapping[str, tuple[str, tuple[str, ...]]]
    """Release label → (source, CRD sets) as configured."""
    groups: tuple[str, ...] = ()
    where: str = "the default site"
    site_url: str = ""
    """The config's ``site_url`` (where the site is published), if any."""
    explicit: bool = False
    """The user named the site (``--site-url``): every page is taken to be there."""

    def missing(self, release: str, crd: bool, group: str) -> str:
        """Why the site has no page of a model (release, CRD kind or group), or ``""``."""
        if self.explicit:
            return ""
        if release not in self.releases:
            return f"{self.where} has no release {release}; it has {', '.join(self.releases) or 'none'}"
        source, crds = self.releases[release]
        if crd and not crds and not source:
            return f"{self.where} documents no CRD set with release {release}"
        if self.groups and group not in {*self.groups, "common", "meta"}:
            return f"{self.where} documents only the groups {', '.join(self.groups)}"
        return ""


@dataclass(frozen=True)
class Explanation:
    """Everything ``explain`` prints (``render.terminal`` formats it)."""

    release: str
    group: str
    """As written in ``apiVersion`` (``""``: core)."""
    kind: str
    version: str
    api_version: str
    path: str
    """Field path after the resource (``spec.replicas``; ``""``: the kind itself)."""
    type: str
    required: bool
    description: str
    field: Field | None
    """The field itself (enum, default, constraints, rules as data)."""
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """The row's notes with values, as the site shows them: (``enum``, (``a``, ``b``))…"""
    texts: tuple[str, ...] = ()
    """The row's plain notes (``list type: atomic``…)."""
    gates: tuple[FeatureGate, ...] = ()
    stage: str = "ga"
    """``alpha``/``beta`` when the API version or the description says so, else ``ga``."""
    deprecated: bool = False
    since: str = ""
    since_or_earlier: bool = False
    """``since`` is the oldest release known: it may be older."""
    since_api_versions: tuple[str, ...] = ()
    removed_in: str = ""
    compared_to: str = ""
    changes: tuple[str, ...] = ()
    url: str = ""
    fields: tuple[TreeRow, ...] = ()
    url_note: str = ""
    """Why there is no URL: the site has no such page (``PublishedSite.missing``)."""
    crd: bool = False
    """A CRD's kind or field: dated only by the CRD sets given."""
    recursive: bool = False
    """``fields`` is the whole tree below (``--recursive``)."""

    def to_dict(self) -> dict[str, Any]:
        """The documented ``explain --format json`` object (docs/terminal.md)."""
        f = self.field
        return {
            "release": self.release, "kind": self.kind, "group": self.group,
            "version": self.version, "apiVersion": self.api_version, "path": self.path,
            "type": self.type, "required": self.required, "description": self.description,
            "enum": list(f.enum) if f is not None and f.enum else None,
            "default": f.default if f is not None and f.has_default else None,
            "constraints": dict(f.constraints) if f is not None and f.constraints else {},
            "validations": [dict(v) for v in f.validations] if f is not None else [],
            "itemValidations": [dict(v) for v in f.item_validations] if f is not None else [],
            "notes": [{"label": label, "values": list(values)} for label, values in self.notes]
                     + [{"label": text, "values": []} for text in self.texts],
            "stage": self.stage, "deprecated": self.deprecated,
            "featureGates": [{"name": g.name, "stage": g.stage} for g in self.gates],
            "since": self.since, "sinceOrEarlier": self.since_or_earlier,
            "sinceApiVersions": list(self.since_api_versions),
            "removedIn": self.removed_in or None,
            "changes": {"comparedTo": self.compared_to, "items": list(self.changes)}
                       if self.changes else None,
            "url": self.url, "urlNote": self.url_note or None,
            "fields": [{"name": r.name, "type": r.type, "required": r.required, "depth": r.depth,
                        "description": r.summary}
                       for r in self.fields],
        }


def explanation(found: Explained, api: ApiSpec, plan: SitePlan, site: PublishedReleases, *,
                recursive: bool = False, site_url: str = "", published: PublishedSite | None = None
                ) -> Explanation:
    """The explanation of ``found`` in release ``api`` (``site``: it and the release before it,
    or the releases given, with the timeline of every known release). ``published``: the site
    the URL points into (None: any)."""
    resource, f, owner = found.resource, found.field, found.owner
    crd = found.root.crd is not None  # dated only by the releases given that have the CRD
    key = ModelKey(owner.group, owner.kind)
    stage = stability(found.version)
    if f is None:
        model = found.root
        lives = site.timeline.releases_of(ModelKey(model.group, model.kind), model.api_version)
        since = lives[0] if lives and (not crd or len(lives) > 1) else ""
        later = site.timeline.releases[site.timeline.releases.index(api.version) + 1:] \
            if lives and api.version in site.timeline.releases else []
        removed = next((r for r in later if r not in lives), "")
        explained = Explanation(
            release=api.version, group=resource.group, kind=resource.kind, version=found.version,
            api_version=found.api_version, path="", type="Object", required=False,
            description=model.description, field=None, stage=stage,
            deprecated=is_deprecated(model.description) or bool(model.crd and model.crd.deprecated),
            since=since,
            since_or_earlier=bool(since) and since == (site.order[0] if crd else site.timeline.first),
            removed_in=removed,
            url=_url(plan, plan.page_of(model.name) or "", "", site_url)
            if plan.page_of(model.name) else "")
    else:
        page = (plan.target_of(owner.name) or plan.target_of(owner.root) or ("", ""))[0]
        row = next(r for r in property_rows(owner, api, plan, page or "x.md") if r.field is f)
        history = field_histories(owner, api, site).get(f.name)
        dated = site.timeline.field_since(key, f.name)
        crd_since, crd_earlier = _crd_since(site, key, dated) if crd else ("", False)
        gates = feature_gates(f.description)
        own = field_stage(f.description)
        if own is not None and stage == "ga":
            stage = own.stage
        explained = Explanation(
            release=api.version, group=resource.group, kind=resource.kind, version=found.version,
            api_version=found.api_version, path=".".join(found.path),
            type=type_text_in(f.type, api)[0], required=f.required, description=f.description,
            field=f, notes=row.code_notes, texts=row.notes, gates=gates, stage=stage,
            deprecated=is_deprecated(f.description),
            since=crd_since if crd else (dated[0] if dated else ""),
            since_or_earlier=crd_earlier if crd else dated is not None and dated[0] == site.timeline.first,
            since_api_versions=history.since_api_versions if history else (),
            removed_in=history.removed_in if history else "",
            compared_to=history.compared_to if history else "",
            changes=tuple(c.summary for c in history.changes) if history else (),
            url=_url(plan, page, row.anchor, site_url) if page else "")
    target = found.target
    rows = tuple(_tree(target, api, recursive)) if target is not None else ()
    missing = published.missing(api.version, crd, (owner if f is not None else found.root).group) \
        if published is not None else ""
    return replace(explained, fields=rows, crd=crd, recursive=recursive, url="" if missing else explained.url,
                   url_note=missing)


def _crd_since(site: PublishedReleases, key: ModelKey, dated: tuple[str, tuple[str, ...]] | None
               ) -> tuple[str, bool]:
    """(since, or earlier) of a CRD field, from the releases given that have the CRD: none
    when only one has it (a Kubernetes release it is given with says nothing of its fields)."""
    lives = site.timeline.releases_of(key)
    if dated is None or len(lives) < 2:
        return "", False
    return dated[0], dated[0] == site.order[0]  # in the oldest release given: maybe older


def _url(plan: SitePlan, page: str, anchor: str, site_url: str) -> str:
    """The published URL of a row (``anchor``) or page, below ``site_url`` when given."""
    url = plan.site_url(page) + (f"#{anchor}" if anchor else "")
    return (site_url.rstrip("/") + "/" + url) if site_url else url


def _tree(model: Model, api: ApiSpec, recursive: bool) -> list[TreeRow]:
    """The fields below ``model``: its own, or (``recursive``) every field depth-first like
    ``kubectl explain --recursive`` (a type already open above is not opened again)."""
    if not recursive:
        return [TreeRow(f.name, type_text_in(f.type, api)[0], f.required,
                        summary=first_sentence(f.description, 240)) for f in model.fields]
    return _tree_rows(model, api, 0, (model.name,))


def _tree_rows(model: Model, api: ApiSpec, depth: int, open_above: tuple[str, ...]
               ) -> list[TreeRow]:
    rows: list[TreeRow] = []
    for f in model.fields:
        rows.append(TreeRow(f.name, type_text_in(f.type, api)[0], f.required, depth,
                            first_sentence(f.description, 240)))
        child = field_model(api, f)
        if child is not None and child.name not in open_above and depth < 64:
            rows.extend(_tree_rows(child, api, depth + 1, (*open_above, child.name)))
    return rows

