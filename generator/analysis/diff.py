"""What changed between two releases, each change classed by its impact on someone who upgrades.

Models are matched by (navigation group, API version, kind), so any two sources compare.
``severity`` (``SEVERITIES``, worst first) is the impact of upgrading from the old release to the
new one, whatever the API's maturity:

- ``breaking``: something that worked against the old release fails against the new one: an API
  version no longer served; a kind no longer served by a version that still is; a field removed;
  a type changed incompatibly (structures compared, ``analysis.structure``); a field newly
  required without a default (alpha, or a CRD's: see below); enum values removed; list/map merge
  semantics changed (what server-side apply or strategic merge patch does);
- ``warning``: compatible but worth a look: enum values added, a default changed, a field newly
  required that the server defaults;
- ``info``: additions, renamed or widened types, descriptions, feature-gate mentions, and an
  existing field of a built-in GA or beta API newly marked required: compatibility forbids
  making a field required, so the schema now documents what validation already required.

Each change also says its ``stability`` (``ga``/``beta``/``alpha``: the least stable of the API
version's, the field's when its description calls it an alpha or beta field, and the stage at
which kinds use the model: ``analysis.stages``; a field the old release added to an existing
API version is alpha) and ``policy``: whether the Kubernetes deprecation policy allows it (``violation`` for a
breaking change of a GA or beta element, except a beta API version or kind removed after being
served for at least 3 releases; ``unknown`` when the known releases cannot show that; alpha API
versions and alpha fields may change or go at any time). ``docs/gate.md`` cites the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import partial
from typing import Any

from generator.analysis.gates import feature_gates
from generator.analysis.known_data import data_notes
from generator.analysis.operations_diff import CHANGE_LABELS as OPERATION_CHANGE_LABELS
from generator.analysis.operations_diff import operation_changes
from generator.analysis.severity import POLICIES, SEVERITIES, STABILITIES, ChangeStatus
from generator.analysis.stages import model_stages
from generator.analysis.structure import (
    Comparison,
    StructureComparer,
    field_maturity,
    narrows,
    type_text,
    value_text,
)
from generator.analysis.upgrades import Guide, History, Replacement, guidance
from generator.model.gvk import kind_of, package_group_version, stability
from generator.model.ordering import api_version_sort_key
from generator.model.types import ApiSpec, Field, Model, TypeRef
from generator.sources.known_differences import KnownDifference

__all__ = [
    "CHANGE_KINDS",
    "POLICIES",
    "SEVERITIES",
    "STABILITIES",
    "ApiDiff",
    "Change",
    "DiffFilter",
    "FieldChange",
    "ModelChange",
    "WordChange",
    "api_groups",
    "at_least",
    "diff_apis",
    "diff_models",
    "narrows",
    "shortened",
    "type_text",
    "word_changes",
    "worst",
]


CHANGE_KINDS = (
    "api-version-added", "api-version-removed", "model-added", "model-removed",
    "field-added", "field-removed", "type-changed", "required-changed", "enum-changed",
    "default-changed", "list-type-changed", "map-keys-changed", "map-type-changed",
    "patch-changed", "description-changed", "gate-added", "gate-removed",
    # CRDs (analysis.crd_diff.CRD_CHANGE_KINDS):
    "crd-version-not-served", "crd-scope-changed", "crd-storage-version-changed",
    "crd-version-deprecated", "crd-version-served", "validation-rule-added",
    "validation-rule-changed", "validation-rule-removed", "printer-columns-changed",
    "selectable-field-removed", "selectable-field-added",
    # operations (analysis.operations_diff):
    *OPERATION_CHANGE_LABELS,
)
"""Every ``change`` value, in report order (the JSON schema's vocabulary)."""

_RANK = {s: i for i, s in enumerate(SEVERITIES)}
_STABILITY_RANK = {s: i for i, s in enumerate(STABILITIES)}
LIST_KIND_REASON = "fields of list kinds are only returned by the server"
REQUIRED_MARKER_REASON = ("documentation: an existing GA or beta field cannot become required; "
                          "validation already required it")
"""Why an existing GA/beta field of a built-in API newly marked required is ``info``: Kubernetes
API changes, "On compatibility" (which fields are required may not change), and the published
schema documents the Go validation. A CRD's schema is its validation: there it stays a change."""


def worst(severities: Iterable[str]) -> str:
    """The worst class among ``severities`` (``info`` when empty)."""
    return min(severities, key=_RANK.__getitem__, default="info")


def at_least(severity: str, threshold: str) -> bool:
    """Whether ``severity`` is ``threshold`` or worse."""
    return _RANK[severity] <= _RANK[threshold]


def least_stable(*levels: str) -> str:
    return max((s for s in levels if s), key=_STABILITY_RANK.__getitem__, default="ga")


def version_stability(api_version: str) -> str:
    """Stability of an API version; definitions with no API version count as GA."""
    return stability(api_version) if api_version else "ga"


@dataclass(frozen=True, slots=True)
class WordChange:
    """One hunk of a word diff: ``before`` ``old``→``new`` ``after`` (context words kept short)."""

    before: str
    old: str
    new: str
    after: str


@dataclass(frozen=True, slots=True)
class Change:
    """One change; ``model``/``field`` are empty for API-version and model-level changes."""

    change: str
    severity: str
    group: str
    """API group as written in ``apiVersion`` (``resource.k8s.io``; ``core`` for the core group)."""
    api_version: str
    model: str = ""
    field: str = ""
    old: str | None = None
    new: str | None = None
    words: tuple[WordChange, ...] = ()
    stability: str = "ga"
    policy: str = "allowed"
    reason: str = ""
    """Why this class: ``type renamed, same shape``, ``narrowed: claims: removed``, …"""
    replacements: tuple[Replacement, ...] = ()
    """For an API version or kind no longer served: what to use instead."""
    guidance: str = ""
    """The replacements as one sentence (``use … (served since 1.29) for FlowSchema``)."""

    @property
    def subject(self) -> str:
        """``resource.k8s.io/v1alpha3 ResourceClaimStatus.devices``."""
        where = f"{self.group}/{self.api_version}" if self.api_version else self.group
        if not self.model:
            return where
        return f"{where} {self.model}" + (f".{self.field}" if self.field else "")

    @property
    def summary(self) -> str:
        """What changed, in one line (no subject): ``description changed: 32 → 256``."""
        label = self.change.replace("-", " ")
        if self.change == "description-changed":  # every hunk, each side whole: a removal shows
            text = f"{label}: " + "; ".join(f"{shortened(w.old, WORDS_SHOWN) if w.old else '∅'} → "
                                            f"{shortened(w.new, WORDS_SHOWN) if w.new else '∅'}"
                                            for w in self.words)
        elif self.old is not None and self.new is not None:
            text = f"{label}: {shortened(self.old)} → {shortened(self.new)}"
        else:
            value = self.new if self.new is not None else self.old
            text = f"{label}: {shortened(value)}" if value else label
        extra = [t for t in (self.reason, self.guidance) if t]
        return text + (f" ({'; '.join(extra)})" if extra else "")

    @property
    def message(self) -> str:
        return f"{self.subject}: {self.summary}"


WORDS_SHOWN = 2000
"""Longest side of a description hunk in a summary (a paragraph removed shows whole)."""


def shortened(text: str, limit: int = 120) -> str:
    """``text`` on one line (whitespace folded), cut to ``limit`` characters with "…"."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


@dataclass(frozen=True)
class FieldChange:
    """Every change of one field (one entry on a change page)."""

    field: str
    status: ChangeStatus
    changes: tuple[Change, ...]

    @property
    def severity(self) -> str:
        return worst(c.severity for c in self.changes)


@dataclass(frozen=True)
class ModelChange:
    """A model added, removed or changed; ``old_name``/``new_name`` are definition names."""

    group: str
    """Navigation group (``resource``)."""
    api_group: str
    api_version: str
    kind: str
    status: ChangeStatus
    old_name: str
    new_name: str
    is_kind: bool
    changes: tuple[Change, ...] = ()
    """Model-level changes (added/removed, description, gates)."""
    fields: tuple[FieldChange, ...] = ()

    @property
    def severity(self) -> str:
        return worst(c.severity for c in self.all_changes())

    def all_changes(self) -> Iterator[Change]:
        yield from self.changes
        for f in self.fields:
            yield from f.changes


@dataclass(frozen=True)
class ApiDiff:
    """Every change from ``old`` to ``new``, sorted for reading."""

    old_version: str
    new_version: str
    old_source: str
    new_source: str
    api_versions: tuple[Change, ...] = ()
    models: tuple[ModelChange, ...] = ()
    notes: tuple[KnownDifference, ...] = ()
    """Known differences of a bundled release from upstream that can affect this diff."""

    def changes(self) -> list[Change]:
        """All changes, flat, in report order."""
        out = list(self.api_versions)
        for model in self.models:
            out.extend(model.all_changes())
        return out

    def counts(self) -> dict[str, dict[str, int]]:
        """change kind → class → count, for kinds that occur (report order)."""
        table: dict[str, dict[str, int]] = {}
        for c in self.changes():
            row = table.setdefault(c.change, dict.fromkeys(SEVERITIES, 0))
            row[c.severity] += 1
        order = (*CHANGE_KINDS, *sorted(set(table) - set(CHANGE_KINDS)))  # none dropped
        return {k: table[k] for k in order if k in table}

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(SEVERITIES, 0)
        for c in self.changes():
            totals[c.severity] += 1
        return totals

    def trips(self, threshold: str) -> bool:
        """Whether any change is ``threshold`` or worse (the ``--fail-on`` gate)."""
        return any(at_least(c.severity, threshold) for c in self.changes())


# -- filters ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class DiffFilter:
    """What ``--group``, ``--kind`` and ``--ignore-stability`` keep."""

    groups: frozenset[str] = frozenset()
    """API groups as written (``resource.k8s.io``; ``core`` for the core group)."""
    kinds: frozenset[str] = frozenset()
    """Kinds: a kind keeps its own changes and those of every type it uses."""
    ignore_stability: frozenset[str] = frozenset()
    descriptions: bool = True
    """``False`` (``--no-descriptions``): drop ``description-changed`` entries (feature-gate
    mentions stay)."""

    def __bool__(self) -> bool:
        return bool(self.groups or self.kinds or self.ignore_stability or not self.descriptions)


def _reachable(api: ApiSpec, kinds: Collection[str]) -> set[tuple[str, str, str]]:
    """(navigation group, API version, kind) of the models the named kinds use, themselves too."""
    seen: set[str] = set()
    todo = [m.name for m in api.models.values() if m.is_kind and m.kind in kinds]
    while todo:
        name = todo.pop()
        if name in seen or name not in api.models:
            continue
        seen.add(name)
        todo.extend(f.type.referenced() for f in api.models[name].fields if f.type.referenced())
    return {(api.models[n].group, api.models[n].api_version, api.models[n].kind) for n in seen}


def filter_diff(diff: ApiDiff, keep: DiffFilter, old: ApiSpec | None = None,
                new: ApiSpec | None = None) -> ApiDiff:
    """The changes ``keep`` selects (``old``/``new`` resolve what a kind uses)."""
    if not keep:
        return diff
    used: set[tuple[str, str, str]] = set()
    if keep.kinds:
        for api in (old, new):
            if api is not None:
                used |= _reachable(api, keep.kinds)

    def wanted(c: Change) -> bool:
        return ((not keep.groups or c.group in keep.groups)
                and c.stability not in keep.ignore_stability
                and (keep.descriptions or c.change != "description-changed"))

    versions = []
    for c in diff.api_versions:
        if not wanted(c):
            continue
        if keep.kinds:
            replacements = tuple(r for r in c.replacements if r.kind in keep.kinds)
            if not replacements:
                continue
            c = replace(c, replacements=replacements,
                        guidance=guidance(replacements, diff.new_version))
        versions.append(c)
    models = []
    for m in diff.models:
        if keep.kinds and m.kind not in keep.kinds and (m.group, m.api_version, m.kind) not in used:
            continue
        own = tuple(c for c in m.changes if wanted(c))
        fields = tuple(replace(f, changes=kept) for f in m.fields
                       if (kept := tuple(c for c in f.changes if wanted(c))))
        if m.status != "changed" and not own:
            continue
        if own or fields:
            models.append(replace(m, changes=own, fields=fields))
    notes = tuple(n for n in diff.notes if _note_kept(n, keep, used))
    return replace(diff, api_versions=tuple(versions), models=tuple(models), notes=notes)


def _note_kept(note: KnownDifference, keep: DiffFilter, used: set[tuple[str, str, str]]) -> bool:
    """Whether a data note concerns what the filters keep (definitions without an API version,
    Quantity and the like, concern every group)."""
    group, version = package_group_version(note.definition)
    if not version:
        return True
    if keep.groups and group not in {g.split(".")[0] for g in keep.groups}:
        return False
    return not keep.kinds or (group, version, kind_of(note.definition)) in used


# -- text -------------------------------------------------------------------------------------
def word_changes(old: str, new: str, context: int = 4) -> tuple[WordChange, ...]:
    """Word diff of two texts (whitespace-insensitive); empty when the words are equal."""
    if old == new:
        return ()
    a, b = old.split(), new.split()
    if a == b:
        return ()
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return tuple(
        WordChange(" ".join(a[max(0, i1 - context) : i1]), " ".join(a[i1:i2]), " ".join(b[j1:j2]),
                   " ".join(a[i2 : i2 + context]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )


def _required(value: bool) -> str:
    return "required" if value else "optional"


def values_text(values: tuple[Any, ...]) -> str:
    return ", ".join(value_text(v) for v in values) or "none"


def _patch(f: Field) -> str:
    if not f.patch_strategy:
        return "none"
    return f.patch_strategy + (f" (merge key {f.patch_merge_key})" if f.patch_merge_key else "")


def _list_semantics(f: Field) -> str:
    """``atomic`` · ``set`` · ``map (keys a, b)`` as written (``none`` when unset)."""
    if not f.list_type:
        return "none"
    if f.list_type == "map" and f.list_map_keys:
        return f"map (keys {', '.join(f.list_map_keys)})"
    return f.list_type


# -- merge semantics --------------------------------------------------------------------------
def apply_semantics(f: Field) -> str:
    """What server-side apply does with a list field: an unset list type falls back to the patch
    strategy (``merge`` with a merge key → a map keyed by it), else ``atomic``
    (kube-openapi ``schemaconv``)."""
    if f.list_type in ("atomic", "set"):
        return f.list_type
    if f.list_type == "map":
        return "map (keys " + ", ".join(f.list_map_keys) + ")"
    if f.list_type:
        return "atomic"
    if "merge" in f.patch_strategy.split(",") and f.patch_merge_key:
        return f"map (keys {f.patch_merge_key})"
    if "merge" in f.patch_strategy.split(","):
        return "set"
    return "atomic"


def patch_semantics(f: Field) -> str:
    """What strategic merge patch does: lists merge by key or are replaced; objects may retain
    keys; other types ignore the strategy."""
    strategies = set(f.patch_strategy.split(",")) - {""}
    if f.type.kind == "array":
        if "merge" in strategies:
            return f"merge by {f.patch_merge_key}" if f.patch_merge_key else "merge"
        return "replace"
    if f.type.kind in ("ref", "map", "object"):
        return "retainKeys" if "retainKeys" in strategies else "merge"
    return "n/a"


def map_semantics(f: Field) -> str:
    return "atomic" if f.map_type == "atomic" else "granular"


# -- classification ---------------------------------------------------------------------------
@dataclass
class _Context:
    """Where a change is and what classifies it."""

    group: str
    api_version: str
    model: str
    is_list: bool = False
    comparer: StructureComparer | None = None
    out: list[Change] = field(default_factory=list)
    reach: str = "ga"
    """The most stable stage at which a kind uses the model (``analysis.stages``)."""
    via: str = ""
    """The alpha/beta field that lowered ``reach`` (``PodSpec.resourceClaims``)."""
    enforced: bool = False
    """The schema is what the server validates (a CRD's), not documentation of Go validation."""
    young: str = ""
    """Why the field at hand was alpha in the old release (new in it), or ``""``."""

    @property
    def base_stability(self) -> str:
        return least_stable(version_stability(self.api_version), self.reach)

    def add(self, kind: str, severity: str, field_name: str, old: str | None, new: str | None,
            maturity: str = "", reason: str = "", alpha_only: bool = False,
            words: tuple[WordChange, ...] = ()) -> None:
        if self.young:
            maturity = "alpha"
        level = least_stable(self.base_stability, maturity)
        if severity != "info" and self.young:
            reason = "; ".join(t for t in (reason, self.young) if t)
        elif (self.via and severity != "info" and level == self.reach
                and level != version_stability(self.api_version)):
            reason = "; ".join(t for t in (reason, f"used only through {self.via} ({level})") if t)
        self.out.append(Change(kind, severity, self.group, self.api_version, self.model,
                               field_name, old, new, words, level,
                               policy_of(kind, severity, level, alpha_only), reason))


def policy_of(kind: str, severity: str, level: str, alpha_only: bool = False,
              window: str = "allowed") -> str:
    """``violation`` when the deprecation policy forbids the change (see the module doc);
    ``window``: the verdict on a beta removal's lifetime (``Guide.beta_window``)."""
    if severity != "breaking" or level == "alpha" or alpha_only:
        return "allowed"
    if kind in ("api-version-removed", "model-removed") and level == "beta":
        return window
    return "violation"


def _field_changes(old: Field, new: Field, ctx: _Context) -> None:
    if old == new:
        return
    name = new.name
    maturity = "alpha" if ctx.young else (field_maturity(old.description)
                                           or field_maturity(new.description))
    list_reason = LIST_KIND_REASON if ctx.is_list else ""

    if type_text(old.type) != type_text(new.type) or (
            old.type.referenced() != new.type.referenced() and ctx.comparer is not None):
        severity, reason, alpha_only = _type_change(old.type, new.type, ctx.comparer)
        if type_text(old.type) != type_text(new.type) or severity != "info":
            ctx.add("type-changed", severity, name, type_text(old.type), type_text(new.type),
                    maturity, reason, alpha_only)
    if old.required != new.required:
        if not new.required:
            severity, reason = "info", ""
        elif list_reason:
            severity, reason = "info", list_reason
        elif not ctx.enforced and least_stable(ctx.base_stability, maturity) != "alpha":
            severity, reason = "info", REQUIRED_MARKER_REASON
        elif new.has_default:
            severity, reason = "warning", "the server defaults it"
        else:
            severity, reason = "breaking", "no default"
        ctx.add("required-changed", severity, name, _required(old.required),
                _required(new.required), maturity, reason)
    if old.enum != new.enum:
        severity, reason = enum_change(old.enum, new.enum)
        ctx.add("enum-changed", severity, name, values_text(old.enum), values_text(new.enum), maturity,
                reason)
    if (old.has_default, old.default) != (new.has_default, new.default):
        ctx.add("default-changed", "warning", name,
                value_text(old.default) if old.has_default else "none",
                value_text(new.default) if new.has_default else "none", maturity,
                "objects that omit it may behave differently")
    if (old.list_type, old.list_map_keys, old.map_type, old.patch_strategy,
            old.patch_merge_key) != (new.list_type, new.list_map_keys, new.map_type,
                                     new.patch_strategy, new.patch_merge_key):
        _merge_changes(old, new, ctx, maturity, list_reason)
    ctx.out.extend(description_changes(old.description, new.description, _where(ctx), name,
                                       least_stable(ctx.base_stability, maturity)))


def _type_change(old: TypeRef, new: TypeRef,
                 comparer: StructureComparer | None) -> tuple[str, str, bool]:
    """(severity, reason, only alpha fields affected) of a type change."""
    if comparer is not None and (old.referenced() or new.referenced()):
        result: Comparison = comparer.compare(old, new)
        if result.verdict == "same":
            return "info", result.reason(), False
        return ("breaking" if result.breaking else "info"), result.reason(), result.alpha_only
    if narrows(old, new):
        return "breaking", "narrowed", False
    return "info", "widened", False


def enum_change(old: tuple[Any, ...], new: tuple[Any, ...]) -> tuple[str, str]:
    old_values = {value_text(v) for v in old}
    new_values = {value_text(v) for v in new}
    if not new:
        return "info", "any value accepted now"
    if not old:
        return "breaking", "values now limited to the listed ones"
    removed, added = sorted(old_values - new_values), sorted(new_values - old_values)
    if removed:
        return "breaking", "values removed: " + ", ".join(removed)
    if added:
        return "warning", ("values added: " + ", ".join(added)
                           + "; clients with exhaustive switches may need updating")
    return "info", "same values, new order"


def _merge_changes(old: Field, new: Field, ctx: _Context, maturity: str, list_reason: str) -> None:
    """List type, map keys, map type and patch strategy, classed by what server-side apply and
    strategic merge patch do."""
    is_list = old.type.kind == "array" and new.type.kind == "array"
    is_object = old.type.kind in ("ref", "map", "object") and new.type.kind in ("ref", "map", "object")
    apply_changed = is_list and apply_semantics(old) != apply_semantics(new)
    patch_changed = patch_semantics(old) != patch_semantics(new)

    def classify(changed: bool, applies: bool, what: str) -> tuple[str, str]:
        if not applies:
            return "info", "no effect on this type"
        if not changed:
            return "info", f"same {what}"
        if list_reason:
            return "info", list_reason
        return "breaking", f"{what} changes"

    if (old.list_type, old.list_map_keys) != (new.list_type, new.list_map_keys):
        sev, why = classify(apply_changed, is_list, "server-side apply merge")
        if sev == "breaking":
            why = f"server-side apply: {apply_semantics(old)} → {apply_semantics(new)}"
        if old.list_type == new.list_type:
            ctx.add("map-keys-changed", sev, new.name, ", ".join(old.list_map_keys) or "none",
                    ", ".join(new.list_map_keys) or "none", maturity, why)
        else:
            ctx.add("list-type-changed", sev, new.name, _list_semantics(old), _list_semantics(new),
                    maturity, why)
    if old.map_type != new.map_type:
        changed = map_semantics(old) != map_semantics(new)
        sev, why = classify(changed, is_object, "server-side apply merge")
        ctx.add("map-type-changed", sev, new.name, old.map_type or "none", new.map_type or "none",
                maturity, why)
    if (old.patch_strategy, old.patch_merge_key) != (new.patch_strategy, new.patch_merge_key):
        changed = patch_changed or (apply_changed and not (old.list_type or new.list_type))
        sev, why = classify(changed, is_list or is_object, "strategic merge patch")
        if changed and sev == "breaking":
            why = f"strategic merge patch: {patch_semantics(old)} → {patch_semantics(new)}"
        ctx.add("patch-changed", sev, new.name, _patch(old), _patch(new), maturity, why)


def _where(ctx: _Context) -> Change:
    return Change("", "info", ctx.group, ctx.api_version, ctx.model, stability=ctx.reach)


def description_changes(old: str, new: str, where: Change, field_name: str = "",
                        level: str = "") -> list[Change]:
    """Description word diff plus feature gates mentioned or no longer mentioned."""
    out: list[Change] = []
    words = word_changes(old, new)
    level = level or least_stable(version_stability(where.api_version), where.stability)
    if words:
        out.append(Change("description-changed", "info", where.group, where.api_version,
                          where.model, field_name, old, new, words, level))
        old_gates = {g.name for g in feature_gates(old) if g.name}
        new_gates = {g.name for g in feature_gates(new) if g.name}
        for gate in sorted(new_gates - old_gates):
            out.append(Change("gate-added", "info", where.group, where.api_version, where.model,
                              field_name, None, gate, stability=level))
        for gate in sorted(old_gates - new_gates):
            out.append(Change("gate-removed", "info", where.group, where.api_version, where.model,
                              field_name, gate, None, stability=level))
    return out


def diff_models(old: Model, new: Model, where: Change,
                comparer: StructureComparer | None = None, *, via: str = "",
                young: Callable[[str], str] | None = None,
                ) -> tuple[list[Change], list[FieldChange]]:
    """Model-level changes and per-field changes between two versions of one model.
    ``where.stability``: the stage kinds use the model at (``analysis.stages``; ``via`` the field
    that lowered it); ``young(field)``: why a field of the old model was alpha there (new in the
    old release), or ``""`` (``Guide.first_served_in_old``)."""
    model_level = description_changes(old.description, new.description, where)
    fields: list[FieldChange] = []
    old_fields = {f.name: f for f in old.fields}
    new_fields = {f.name: f for f in new.fields}
    is_list = old.is_list and new.is_list
    for name in sorted(old_fields.keys() | new_fields.keys()):
        before, after = old_fields.get(name), new_fields.get(name)
        ctx = _Context(where.group, where.api_version, where.model, is_list, comparer,
                       reach=where.stability, via=via, enforced=_enforced(new),
                       young=young(name) if young is not None and before is not None else "")
        if before is None and after is not None:
            if after.required and not is_list:
                severity, reason = (("warning", "the server defaults it") if after.has_default
                                    else ("breaking", "added as required, no default"))
            else:
                severity, reason = "info", ""
            ctx.add("field-added", severity, name, None,
                    type_text(after.type) + (" (required)" if after.required else ""),
                    field_maturity(after.description), reason)
            fields.append(FieldChange(name, "added", tuple(ctx.out)))
        elif after is None and before is not None:
            ctx.add("field-removed", "breaking", name, type_text(before.type), None,
                    field_maturity(before.description))
            fields.append(FieldChange(name, "removed", tuple(ctx.out)))
        elif before is not None and after is not None:
            _field_changes(before, after, ctx)
            if ctx.out:
                fields.append(FieldChange(name, "changed", tuple(ctx.out)))
    return model_level, fields


def _enforced(model: Model) -> bool:
    """Whether the server validates against this schema (a CRD's, and the inline objects of
    one) rather than the schema documenting validation written in Go (built-in APIs)."""
    return model.crd is not None or bool(model.root)


# -- whole APIs -------------------------------------------------------------------------------
ModelIndexKey = tuple[str, str, str]


def _model_index(api: ApiSpec) -> dict[ModelIndexKey, Model]:
    """(group, API version, kind) → model; a duplicate kind keeps its definition name as kind."""
    out: dict[ModelIndexKey, Model] = {}
    for name, model in api.models.items():
        key = (model.group, model.api_version, model.kind)
        if key in out:
            key = (model.group, model.api_version, name)
        out[key] = model
    return out


def api_groups(api: ApiSpec) -> dict[tuple[str, str], str]:
    """(navigation group, API version) → API group as written (``resource.k8s.io``, ``core``)."""
    exact: dict[tuple[str, str], str] = {}
    by_group: dict[str, str] = {}
    for model in api.models.values():
        for gvk in model.gvks:
            if gvk.group.split(".")[0] == model.group or (
                    gvk.kind == model.kind and gvk.version == model.api_version
                    and model.group not in ("meta", "common")):
                name = gvk.group or "core"
            elif not gvk.group and model.group == "core":
                name = "core"
            else:
                continue
            by_group.setdefault(model.group, name)
            if gvk.version == model.api_version:
                exact[(model.group, model.api_version)] = name
    versions = {(m.group, m.api_version) for m in api.models.values() if m.group in by_group}
    return {gv: exact.get(gv, by_group[gv[0]]) for gv in sorted(versions)}


def diff_apis(old: ApiSpec, new: ApiSpec, history: History | None = None) -> ApiDiff:
    """Every change from ``old`` to ``new``; ``history`` (earlier releases) dates replacements
    and beta lifetimes. Known differences of bundled data that can affect the result become
    ``notes``."""
    groups = {**api_groups(old), **api_groups(new)}

    def api_group(group: str, api_version: str) -> str:
        return groups.get((group, api_version), group)

    guide = Guide(old, new, api_group, history)
    comparer = StructureComparer(old, new)
    stages = model_stages(old, guide.first_served_in_old)
    old_index, new_index = _model_index(old), _model_index(new)
    old_versions = {(k[0], k[1]) for k in old_index if k[1]}
    new_versions = {(k[0], k[1]) for k in new_index if k[1]}
    removed_versions = old_versions - new_versions
    version_changes = [
        Change("api-version-added", "info", api_group(*gv), gv[1], stability=version_stability(gv[1]))
        for gv in new_versions - old_versions
    ] + [
        _version_removed(api_group(*gv), gv[1], old, guide, new.version)
        for gv in removed_versions
    ]
    version_changes.sort(key=lambda c: (c.group, api_version_sort_key(c.api_version), c.change))

    models: list[ModelChange] = []
    for key in sorted(old_index.keys() | new_index.keys(),
                      key=lambda k: (k[0], api_version_sort_key(k[1]), k[2])):
        group, av, kind = key
        before, after = old_index.get(key), new_index.get(key)
        ag = api_group(group, av)
        where = Change("", "info", ag, av, kind)
        level = version_stability(av)
        if after is not None and before is None:
            added = Change("model-added", "info", ag, av, kind, stability=level)
            models.append(ModelChange(group, ag, av, kind, "added", "", after.name,
                                      after.is_kind, (added,)))
        elif before is not None and after is None:
            if (group, av) in removed_versions:
                continue  # the API version's own entry says it all
            removed = _model_removed(before, ag, av, kind, guide, new.version)
            models.append(ModelChange(group, ag, av, kind, "removed", before.name, "",
                                      before.is_kind, (removed,)))
        elif before is not None and after is not None:
            stage, via = stages.get(before.name, ("ga", ""))
            model_level, fields = diff_models(
                before, after, replace(where, stability=stage), comparer, via=via,
                young=partial(guide.first_served_in_old, before.name))
            model_level = [*model_level, *_operation_changes(old, new, before, after, where)]
            if model_level or fields:
                models.append(ModelChange(group, ag, av, kind, "changed", before.name,
                                          after.name, after.is_kind, tuple(model_level),
                                          tuple(fields)))
    return ApiDiff(old.version, new.version, old.source, new.source, tuple(version_changes),
                   tuple(models), data_notes(old.source, new.source))


def _operation_changes(old: ApiSpec, new: ApiSpec, before: Model, after: Model,
                       where: Change) -> list[Change]:
    """``analysis.operations_diff`` for one kind, as ``Change``s of it."""
    level = version_stability(where.api_version)

    def make(change: str, severity: str, was: str | None, now: str | None) -> Change:
        return Change(change, severity, where.group, where.api_version, where.model, old=was, new=now,
                      stability=level, policy=policy_of(change, severity, level))

    return [c for c in operation_changes(old, new, before.name, after.name, make)
            if isinstance(c, Change)]


def _version_removed(api_group: str, version: str, old: ApiSpec, guide: Guide,
                     new_release: str) -> Change:
    level = version_stability(version)
    replacements = tuple(r for kind in guide.kinds_of(api_group, version)
                         for r in guide.replacements(api_group, kind))
    definitions = [m.name for m in old.models.values()
                   if m.api_version == version and guide.old_kinds.get((api_group, version), {})
                   .get(m.kind) is m]
    window, why = guide.beta_window(definitions) if level == "beta" else ("allowed", "")
    reason = f"not served in {new_release}" + (f"; {why}" if why else "")
    return Change("api-version-removed", "breaking", api_group, version, stability=level,
                  policy=policy_of("api-version-removed", "breaking", level, window=window),
                  reason=reason, replacements=replacements,
                  guidance=guidance(replacements, new_release) if replacements else "")


def _model_removed(before: Model, api_group: str, version: str, kind: str, guide: Guide,
                   new_release: str) -> Change:
    level = version_stability(version)
    if not before.is_kind or before.is_list:
        reason = "a list kind" if before.is_kind else "not a kind: fields using it are listed"
        return Change("model-removed", "info", api_group, version, kind, stability=level,
                      reason=reason)
    replacements = guide.replacements(api_group, kind)
    window, why = guide.beta_window([before.name]) if level == "beta" else ("allowed", "")
    return Change("model-removed", "breaking", api_group, version, kind, stability=level,
                  policy=policy_of("model-removed", "breaking", level, window=window),
                  reason=f"not served in {new_release}" + (f"; {why}" if why else ""),
                  replacements=replacements, guidance=guidance(replacements, new_release))
