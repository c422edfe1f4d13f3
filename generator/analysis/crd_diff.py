"""What changed between two releases of CRDs beyond their schemas, as ``analysis.diff`` change
records: version status (served, storage, deprecated), scope, and ``x-kubernetes-validations``
(CEL) rules on every field and nested object. ``with_crd_changes`` adds them to an ``ApiDiff``.

Classes (the upgrade's impact on users of the CRD):

- ``crd-version-not-served`` — a version listed before is no longer served (or no longer
  listed while it was served): ``breaking``, whatever its stability: clients of it fail;
- ``crd-scope-changed``: ``breaking``;
- ``crd-storage-version-changed`` — objects are now stored in another version (a storage
  migration is due before the old one can go): ``warning``;
- ``crd-version-deprecated`` (with the deprecation warning): ``warning``;
- ``validation-rule-added`` / ``validation-rule-changed`` — a CEL rule added or rewritten
  (tightened or not, existing objects may be rejected on update): ``warning``;
- ``selectable-field-removed`` — a ``selectableFields`` path gone: ``breaking`` (a
  ``--field-selector`` on it is refused);
- ``validation-rule-removed``, ``crd-version-served`` (served again), printer-column changes,
  ``selectable-field-added``: ``info``;
- ``enum-changed`` of an array's items or a map's values (``each item: a, b``): as a field's
  enum change;
- a version removed that no CRD of its group served (``api-version-removed``): ``info``.

Every change says the stability of the CRD version it is about (``v1alpha1``: alpha, ``v2beta3``:
beta), so ``--ignore-stability alpha`` drops them. Each change is reported once: a nested
object's own description (or other model-level change) is the same schema as its parent's field,
where it is reported already.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from generator.analysis.diff import (
    ApiDiff,
    Change,
    FieldChange,
    ModelChange,
    enum_change,  # a field's enum rule, for items
    values_text,
    version_stability,
)
from generator.model.ordering import api_version_sort_key
from generator.model.types import ApiSpec, CrdInfo, Field, Model

CRD_CHANGE_KINDS = (
    "crd-version-not-served", "crd-scope-changed", "crd-storage-version-changed",
    "crd-version-deprecated", "crd-version-served", "validation-rule-added",
    "validation-rule-changed", "validation-rule-removed", "printer-columns-changed",
    "selectable-field-removed", "selectable-field-added",
)
"""Every ``change`` value this module makes, in report order."""

Key = tuple[str, str, str]
"""(group, API version, kind): how ``analysis.diff`` matches models."""


def _crds(api: ApiSpec) -> dict[tuple[str, str], dict[str, CrdInfo]]:
    """(group, kind) → version → CRD info of that version."""
    out: dict[tuple[str, str], dict[str, CrdInfo]] = {}
    for model in api.models.values():
        if model.crd is not None:
            out.setdefault((model.crd.group, model.crd.kind), {})[model.crd.version] = model.crd
    return out


def _statuses(versions: dict[str, CrdInfo]) -> dict[str, Any]:
    any_info = next(iter(versions.values()))
    return {v.name: v for v in any_info.versions}


def version_changes(old: ApiSpec, new: ApiSpec) -> dict[Key, list[Change]]:
    """CRD-level changes, keyed by the model (version) they belong to."""
    out: dict[Key, list[Change]] = {}
    old_crds, new_crds = _crds(old), _crds(new)
    for (group, kind) in sorted(old_crds.keys() & new_crds.keys()):
        before, after = old_crds[(group, kind)], new_crds[(group, kind)]
        was, now = _statuses(before), _statuses(after)

        def add(version: str, change: str, severity: str, old_value: str | None = None,
                new_value: str | None = None, group: str = group, kind: str = kind) -> None:
            out.setdefault((group, version, kind), []).append(
                Change(change, severity, group, version, kind, "", old_value, new_value,
                       stability=version_stability(version)))

        for name, status in was.items():
            later = now.get(name)
            if status.served and (later is None or not later.served):
                add(name, "crd-version-not-served", "breaking", "served",
                    "not served" if later is not None else "removed")
            if later is not None and later.served and not status.served:
                add(name, "crd-version-served", "info", "not served", "served")
            if later is not None and later.deprecated and not status.deprecated:
                warning = after[name].deprecation_warning if name in after else ""
                add(name, "crd-version-deprecated", "warning", None, warning or "deprecated")
        old_storage = next((n for n, s in was.items() if s.storage), "")
        new_storage = next((n for n, s in now.items() if s.storage), "")
        if old_storage and new_storage and old_storage != new_storage:
            add(new_storage, "crd-storage-version-changed", "warning", old_storage, new_storage)
        any_old, any_new = next(iter(before.values())), next(iter(after.values()))
        if any_old.scope != any_new.scope:
            for version in sorted(before.keys() & after.keys()):
                add(version, "crd-scope-changed", "breaking", any_old.scope, any_new.scope)
        for version in sorted(before.keys() & after.keys()):
            cols = [(c.name, c.json_path, c.priority) for c in before[version].printer_columns]
            new_cols = [(c.name, c.json_path, c.priority) for c in after[version].printer_columns]
            if cols != new_cols:
                add(version, "printer-columns-changed", "info", _columns(cols), _columns(new_cols))
            was_selectable = before[version].selectable_fields
            now_selectable = after[version].selectable_fields
            for path in sorted(set(was_selectable) - set(now_selectable)):
                add(version, "selectable-field-removed", "breaking", path, None)
            for path in sorted(set(now_selectable) - set(was_selectable)):
                add(version, "selectable-field-added", "info", None, path)
    return out


def _columns(columns: list[tuple[str, str, int]]) -> str:
    return ", ".join(f"{name} ({path})" for name, path, _ in columns) or "none"


def _rules(entries: Iterable[tuple[tuple[str, Any], ...]], prefix: str = "") -> dict[str, str]:
    """rule text → message (``prefix`` marks rules on each item)."""
    out = {}
    for entry in entries:
        rule = dict(entry)
        text = str(rule.get("rule", ""))
        out[prefix + text] = str(rule.get("message") or rule.get("messageExpression") or "")
    return out


def rule_changes(old: dict[str, str], new: dict[str, str], group: str, version: str, kind: str,
                 field: str) -> list[Change]:
    """Rules added, rewritten (same message, new rule) and removed."""
    out = []
    level = version_stability(version)
    gone = {r: m for r, m in old.items() if r not in new}
    came = {r: m for r, m in new.items() if r not in old}
    by_message = {m: r for r, m in gone.items() if m}
    for rule, message in sorted(came.items()):
        previous = by_message.pop(message, None) if message else None
        if previous is not None:
            gone.pop(previous)
            out.append(Change("validation-rule-changed", "warning", group, version, kind, field,
                              previous, rule, stability=level))
        else:
            out.append(Change("validation-rule-added", "warning", group, version, kind, field,
                              None, rule + (f" ({message})" if message else ""), stability=level))
    if len(gone) == 1 and len(out) == 1 and out[0].change == "validation-rule-added":
        (previous, _), = gone.items()  # one rule replaced by another: rewritten
        gone = {}
        out = [replace(out[0], change="validation-rule-changed", old=previous)]
    for rule, message in sorted(gone.items()):
        out.append(Change("validation-rule-removed", "info", group, version, kind, field,
                          rule + (f" ({message})" if message else ""), None, stability=level))
    return out


def _index(api: ApiSpec) -> dict[Key, Model]:
    return {(m.group, m.api_version, m.kind): m for m in api.models.values()
            if m.crd is not None or m.field_path}


def validation_changes(old: ApiSpec, new: ApiSpec) -> dict[Key, tuple[list[Change], dict[str, list[Change]]]]:
    """CEL rule changes of models present in both: (object-level, field name → changes)."""
    out: dict[Key, tuple[list[Change], dict[str, list[Change]]]] = {}
    old_index, new_index = _index(old), _index(new)
    for key in sorted(old_index.keys() & new_index.keys()):
        before, after = old_index[key], new_index[key]
        group, version, kind = key
        own = [] if after.field_path else rule_changes(  # a nested object's: on its parent's field
            _rules(before.validations), _rules(after.validations), group, version, kind, "")
        fields: dict[str, list[Change]] = {}
        for f in after.fields:
            was = before.field(f.name)
            if was is None:
                continue
            changes = rule_changes(_field_rules(was), _field_rules(f), group, version, kind, f.name)
            changes += element_enum_changes(was, f, group, version, kind)
            if changes:
                fields[f.name] = changes
        if own or fields:
            out[key] = (own, fields)
    return out


def element_enum_changes(old: Field, new: Field, group: str, version: str, kind: str) -> list[Change]:
    """``enum-changed`` of an array's items or a map's values (``each item: a, b``), classed as
    a field's enum change is (``analysis.diff``): values removed or newly limited: breaking."""
    was = {e.of: e.enum for e in old.elements}
    now = {e.of: e.enum for e in new.elements}
    out: list[Change] = []
    for of in sorted(was.keys() | now.keys()):
        before, after = was.get(of, ()), now.get(of, ())
        if before != after:
            severity, reason = enum_change(before, after)
            out.append(Change("enum-changed", severity, group, version, kind, new.name,
                              f"{of}: {values_text(before)}", f"{of}: {values_text(after)}",
                              stability=version_stability(version), reason=reason))
    return out


def _field_rules(f: Field) -> dict[str, str]:
    """The rules of a field and of its items / map values (``each item: …``)."""
    out = _rules(f.validations)
    for element in f.elements:
        out.update(_rules(element.validations, f"{element.of}: "))
    return out


def with_crd_changes(diff: ApiDiff, old: ApiSpec, new: ApiSpec) -> ApiDiff:
    """``diff`` plus the CRD changes between ``old`` and ``new`` (unchanged without CRDs)."""
    if not any(m.crd for m in old.models.values()) or not any(m.crd for m in new.models.values()):
        return diff
    extra_model: dict[Key, list[Change]] = version_changes(old, new)
    extra_fields: dict[Key, dict[str, list[Change]]] = {}
    for key, (own, own_fields) in validation_changes(old, new).items():
        extra_model.setdefault(key, []).extend(own)
        extra_fields[key] = own_fields
    models = {(m.group, m.api_version, m.kind): m for m in diff.models
              if not _nested_coming_or_going(m, old, new)}
    old_models, new_models = _all(old), _all(new)
    for key in sorted(extra_model.keys() | extra_fields.keys()):
        current = models.get(key)
        if current is None:
            before, after = old_models.get(key), new_models.get(key)
            model = after or before
            if model is None:
                continue
            current = ModelChange(key[0], key[0], key[1], key[2],
                                  "changed" if before and after else ("removed" if before else "added"),
                                  before.name if before else "", after.name if after else "", model.is_kind)
        fields = {f.field: f for f in current.fields}
        for name, changes in extra_fields.get(key, {}).items():
            entry = fields.get(name)
            fields[name] = (replace(entry, changes=entry.changes + tuple(changes)) if entry
                            else FieldChange(name, "changed", tuple(changes)))
        models[key] = replace(current, changes=current.changes + tuple(extra_model.get(key, [])),
                              fields=tuple(fields[n] for n in sorted(fields)))
    models = _once(models, old, new)
    ordered = sorted(models.values(), key=lambda m: (m.group, api_version_sort_key(m.api_version), m.kind))
    unserved = _unserved(old)
    api_versions = tuple(
        replace(c, severity="info", policy="allowed", replacements=(), guidance="",
                reason="was not served: no client could use it")
        if c.change == "api-version-removed" and (c.group, c.api_version) in unserved else c
        for c in diff.api_versions)
    return replace(diff, api_versions=api_versions, models=tuple(ordered))


def _once(models: dict[Key, ModelChange], old: ApiSpec, new: ApiSpec) -> dict[Key, ModelChange]:
    """``models`` without the model-level changes of nested objects that their parent's field
    reports already (a nested object's description is its field's: one change, said twice)."""
    out = dict(models)
    for key, change in models.items():
        if not change.changes or change.status != "changed":
            continue
        model = new.models.get(change.new_name)
        if model is None or not model.field_path or not model.parent:
            continue
        parent = new.models.get(model.parent)
        parent_change = models.get((parent.group, parent.api_version, parent.kind)) if parent else None
        if parent is None or parent_change is None:
            continue
        name = _field_of(model, parent)
        said = {(c.change, c.old, c.new) for f in parent_change.fields if f.field == name
                for c in f.changes}
        kept = tuple(c for c in change.changes if (c.change, c.old, c.new) not in said)
        if len(kept) != len(change.changes):
            out[key] = replace(change, changes=kept)
            if not kept and not change.fields:
                del out[key]
    return out


def _field_of(model: Model, parent: Model) -> str:
    """The field of ``parent`` that holds nested object ``model``."""
    rest = model.field_path
    if parent.field_path and rest.startswith(parent.field_path + "."):
        rest = rest[len(parent.field_path) + 1:]
    for mark in ("[", "{"):
        rest = rest.split(mark, 1)[0]
    return rest


def _unserved(api: ApiSpec) -> set[tuple[str, str]]:
    """(group, version) pairs of CRDs none of which serves that version: removing such a version
    breaks nobody (Gateway API v1.2.0 drops the unserved ``v1alpha2`` versions)."""
    served: dict[tuple[str, str], bool] = {}
    for model in api.models.values():
        if model.crd is not None and not model.field_path:
            key = (model.crd.group, model.crd.version)
            served[key] = served.get(key, False) or model.crd.served
    return {key for key, is_served in served.items() if not is_served}


def _nested_coming_or_going(change: ModelChange, old: ApiSpec, new: ApiSpec) -> bool:
    """A nested object added or removed: its parent's field (or its kind) says so already."""
    if change.status not in ("added", "removed"):
        return False
    model = new.models.get(change.new_name) or old.models.get(change.old_name)
    return model is not None and bool(model.field_path)


def _all(api: ApiSpec) -> dict[Key, Model]:
    return {(m.group, m.api_version, m.kind): m for m in api.models.values()}


__all__ = ["CRD_CHANGE_KINDS", "validation_changes", "version_changes", "with_crd_changes"]
