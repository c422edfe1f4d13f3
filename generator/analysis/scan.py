"""``scan``: manifests (``sources.manifests``) checked against one release's model, object by
object and field by field, dated with the release timeline.

Classes, worst first (``--fail-on`` trips on its class and every class before it):

- ``error``: the API server of the target refuses it whatever the release it comes from: an
  unknown field (strict field validation), a wrong type, a value outside the enum, a missing
  required field, a bad format, an apiVersion no known release serves, an object without
  apiVersion/kind;
- ``breaking``: it worked before and the target refuses it: an apiVersion/kind the target no
  longer serves, a field the target lacks that an earlier release had; with ``--from``, any
  failure on the target that the ``--from`` release accepts;
- ``warning``: accepted, but worth a look: alpha/beta API versions and fields, deprecated fields,
  an apiVersion served by the target and removed in a later known release;
- ``info``: not checked (a custom resource whose CRD was not given with ``--crds``).

Messages follow the API server's wording (``unknown field "spec.replics"``, ``Unsupported
value: "x": supported values: "a", "b"``, ``Required value``, ``no matches for kind``).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from generator.analysis.config_apis import config_file_text
from generator.analysis.explain import field_stage, is_deprecated, nearest
from generator.analysis.findings import Finding, FindingClass
from generator.analysis.resources import Resource, Resources, api_version_of
from generator.analysis.timeline import ModelKey, Timeline
from generator.analysis.upgrades import guide_removal, no_replacement_text, removal_text
from generator.model.gvk import stability
from generator.model.ordering import api_version_sort_key, release_sort_key
from generator.model.types import ApiSpec, Field, Model, TypeRef

if TYPE_CHECKING:
    from generator.sources.manifests import KeyPath, ManifestObject

QUANTITY = re.compile(r"^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$")
"""A resource quantity (``resource.Quantity``'s ``splitREString`` of k8s.io/apimachinery)."""
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_DATE_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` by its first letter (``an alpha``, ``a beta``)."""
    return "an" if word[:1].lower() in "aeiou" and word else "a"


def template_finding(file: str, line: int, chart: str, target: str) -> Finding:
    """The one ``info`` finding of a Helm template: not scanned, and how to scan what it makes."""
    render = f"helm template {chart}" if chart else "helm template CHART"
    what = "a Helm chart template" if chart else "Helm template syntax {{ … }}"
    return Finding(file, line, None, None, "", None, "info",
                   f"not scanned: {what}; render the chart and scan its output: {render} | "
                   f"k8s-api-docs scan --target {target} -", None, "helm-template")


def path_text(path: KeyPath) -> str:
    """``spec.template.spec.containers[0].image``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def split_api_version(text: str) -> tuple[str, str] | None:
    """(group, version) of an ``apiVersion`` (``v1`` → core), None when malformed."""
    group, _, version = text.rpartition("/")
    if not version or "/" in group or not version.isalnum():
        return None
    return group, version


def nav_groups(api: ApiSpec) -> dict[str, str]:
    """API group as written (``""``: core) → the model's navigation group (``flowcontrol``)."""
    out: dict[str, str] = {}
    for model in api.models.values():
        for gvk in model.gvks:
            if gvk.version == model.api_version and gvk.kind == model.kind and (
                    out.get(gvk.group, "meta") == "meta"):  # meta's kinds are every group's
                out[gvk.group] = model.group
    return out


class Scanner:
    """Checks objects against ``target``; ``before``: the ``--from`` release."""

    def __init__(self, target: ApiSpec, timeline: Timeline, before: ApiSpec | None = None) -> None:
        self.target, self.timeline = target, timeline
        self.resources = Resources(target)
        self.groups = nav_groups(target)
        self.before = Scanner(before, timeline) if before is not None else None
        self.earlier = [r for r in timeline.releases
                        if release_sort_key(r) < release_sort_key(target.version)]
        self.later = [r for r in timeline.releases
                      if release_sort_key(r) > release_sort_key(target.version)]

    # -- objects ---------------------------------------------------------------------------------
    def scan(self, obj: ManifestObject) -> list[Finding]:
        """Every finding of one object, in the order of its lines."""
        found = self._scan(obj)
        if self.before is not None:
            old = self.before.target.version
            refused = {(f.path, f.code) for f in self.before._scan(obj)
                       if f.cls in ("error", "breaking")}
            found = [_against(f, old, (f.path, f.code) in refused) for f in found]
        return sorted(found, key=lambda f: (f.line, f.path or ""))

    def _scan(self, obj: ManifestObject) -> list[Finding]:
        return self._check(obj) + self.duplicates(obj)

    def _check(self, obj: ManifestObject) -> list[Finding]:
        data = obj.data
        api_version, kind = obj.api_version, obj.kind
        shown_av = api_version if isinstance(api_version, str) else None
        shown_kind = kind if isinstance(kind, str) else None

        def finding(cls: FindingClass, message: str, code: str, replacement: str | None = None,
                    line: int | None = None) -> Finding:
            return Finding(obj.file, line or obj.line_of(("apiVersion",)), shown_av, shown_kind,
                           obj.name, None, cls, message, replacement, code)

        if not isinstance(data, dict):
            return [finding("error", "not an object: a manifest document must be a mapping with "
                                     "apiVersion and kind", "object", line=obj.line)]
        missing = [k for k, v in (("apiVersion", api_version), ("kind", kind))
                   if not isinstance(v, str) or not v]
        if missing:
            return [finding("error", f"{' and '.join(missing)} not set", "object",
                            line=obj.line_of(("kind",)) if "apiVersion" in missing else None)]
        assert isinstance(api_version, str) and isinstance(kind, str)
        parsed = split_api_version(api_version)
        if parsed is None:
            return [finding("error", f"apiVersion {api_version!r} is not GROUP/VERSION", "object")]
        group, version = parsed
        resource = self.resources.by_group_kind.get((group, kind))
        if resource is None or version not in resource.versions:
            return [self._not_served(group, version, kind, resource, finding)]
        model = resource.versions[version]
        out = self._object_warnings(group, version, kind, resource, model, finding)
        checker = _FieldChecker(self, obj, shown_av, kind)
        own: tuple[str, ...] = ("apiVersion", "kind")
        if model.crd is not None and model.field("metadata") is None:
            own += ("metadata",)  # every custom resource has one (a CRD set read on its own)
        checker.walk(data, model, (), skip=own)
        meta = data.get("metadata")
        if not isinstance(meta, dict) or not (meta.get("name") or meta.get("generateName")):
            checker.add(("metadata", "name"), "error", "metadata.name: Required value: name or "
                        "generateName is required", "required", line_at=("metadata",))
        return out + checker.findings

    @staticmethod
    def duplicates(obj: ManifestObject) -> list[Finding]:
        """A key given twice in one mapping, whatever else the object is (served or not)."""
        av, kind = obj.api_version, obj.kind
        return [Finding(obj.file, line, av if isinstance(av, str) else None,
                        kind if isinstance(kind, str) else None, obj.name, path_text(at), "error",
                        f"duplicate field \"{path_text(at)}\" (the last value is kept)", None,
                        "duplicate") for at, line in obj.duplicates.items()]

    def _not_served(self, group: str, version: str, kind: str, resource: Resource | None,
                    finding: Any) -> Finding:
        target = self.target.version
        written = api_version_of(group, version)
        replacement = self._replacement(group, kind, resource)
        use = f"; use {replacement}" if replacement else ""
        crds = self.target.crd_versions.get((group, kind))
        if crds is None and (config := config_file_text(written, kind, group)):
            return finding("info", config, "config-file")
        if crds is not None or (group and group not in self.groups and not self.builtin(group)
                                and not self.resources.find(kind)):
            if crds is None:
                return finding("info", f"not checked: {written} {kind} is a custom resource and "
                                       f"no CRD of group {group} was given (--crds)", "unchecked")
            listed = crds.get(version)
            if listed is not None and listed.crd is not None and not listed.crd.served:
                return finding("breaking", f"{written} {kind} is not served: the CRD lists "
                                           f"version {version} as not served{use}",
                               "not-served", replacement)
            served = sorted((v for v, m in crds.items() if m.crd is not None and m.crd.served),
                            key=api_version_sort_key)
            return finding("error", f"no matches for kind \"{kind}\" in version \"{written}\": "
                                    f"the CRD serves {', '.join(served) or 'no version'}{use}",
                           "not-served", replacement)
        key = ModelKey(self.groups.get(group, _first_label(group)), kind)
        lives = self.timeline.releases_of(key, version)
        before = [r for r in lives if r in self.earlier]
        after = [r for r in lives if r in self.later]
        if before:
            last = before[-1]
            removed = self.timeline.releases[self.timeline.releases.index(last) + 1]
            none = "" if replacement else no_replacement_text(written, kind, target)
            return finding("breaking", f"{written} {kind} is not served by {target}: "
                                       f"{removal_text(written, kind, removed, last)}{use}"
                                       + (f"; {none}" if none else ""),
                           "not-served", replacement)
        if (row := guide_removal(written, kind)) is not None and not after:  # no definitions
            none = "" if replacement else no_replacement_text(written, kind, target)
            return finding("breaking", f"{written} {kind} is not served by {target}: removed in "
                                       f"{row.removed_in} (per the deprecation guide; no known "
                                       f"release's definitions have it){use}"
                                       + (f"; {none}" if none else ""), "not-served", replacement)
        if after:
            return finding("error", f"{written} {kind} is not served by {target} (first served "
                                    f"by {after[0]}){use}", "not-served", replacement)
        served = [v for (g, _), r in self.resources.by_group_kind.items() if g == group
                  for v in r.versions]
        if not served and replacement:
            served = [replacement.rpartition("/")[2]]
        if served and api_version_sort_key(version) > min(api_version_sort_key(v) for v in served):
            first = self.timeline.first  # an older version of a group the target serves
            none = "" if replacement else f"; {target} serves no {kind}"
            return finding("breaking", f"{written} {kind} is not served by {target}: removed in "
                                       f"{first} or earlier (no known release serves it){use}{none}",
                           "not-served", replacement)
        return finding("error", f"no matches for kind \"{kind}\" in version \"{written}\" "
                                f"(no known release serves it){use}", "not-served", replacement)

    def _replacement(self, group: str, kind: str, resource: Resource | None) -> str | None:
        """The apiVersion the target serves ``kind`` with: the group's preferred version, else
        the built-in group kubectl ranks first that serves a kind of that name."""
        if resource is not None:
            return api_version_of(group, resource.preferred)
        for other in self.resources.find(kind):
            if other.kind == kind:
                return api_version_of(other.group, other.preferred)
        return None

    def _object_warnings(self, group: str, version: str, kind: str, resource: Resource,
                         model: Model, finding: Any) -> list[Finding]:
        written = api_version_of(group, version)
        preferred = api_version_of(group, resource.preferred)
        other = f"; use {preferred}" if preferred != written else ""
        crd = model.crd
        if crd is not None:
            if crd.deprecated:
                text = crd.deprecation_warning or f"{written} {kind} is deprecated"
                return [finding("warning", text + ("" if preferred in text else other),
                                "deprecated", preferred if other else None)]
            return []
        key = ModelKey(model.group, model.kind)
        lives = self.timeline.releases_of(key, version)
        gone = next((r for r in self.later if r not in lives), None)
        if gone is not None and self.timeline.releases_of(key):
            return [finding("warning", f"{written} {kind} is served by {self.target.version} and "
                                       f"removed in {gone}{other}", "removed-later",
                            preferred if other else None)]
        stage = stability(version)
        if stage != "ga":
            why = ("off unless the cluster enables it" if stage == "alpha" else
                   "new beta APIs are off by default since 1.24: check that the cluster serves it")
            return [finding("warning", f"{written} is {article(stage)} {stage} "
                                       f"API version ({why}){other}", "stage",
                            preferred if other else None)]
        return []

    def builtin(self, group: str) -> bool:
        """Whether an API group the target does not serve is a Kubernetes one: a group some
        known release has models of, or an un-dotted one (``extensions``)."""
        if "." not in group:
            return True
        return group.endswith(".k8s.io") and any(
            key.group == _first_label(group) for key in self.timeline.by_key)

    # -- fields ----------------------------------------------------------------------------------
    def field_history(self, model: Model, name: str) -> tuple[str, str] | None:
        """(last release before the target with field ``name`` in the model, the release after
        it), or None when no earlier release had it."""
        key = ModelKey(model.group, model.kind)
        for release in reversed(self.earlier):
            versions = self.timeline.versions_in(key, release)
            present = versions.get(model.api_version)
            fields = present.fields if present is not None else frozenset().union(
                *(p.fields for p in versions.values()))
            if name in fields:
                i = self.timeline.releases.index(release)
                return release, self.timeline.releases[i + 1]
        return None

    def field_added_later(self, model: Model, name: str) -> str:
        key = ModelKey(model.group, model.kind)
        for release in self.later:
            if any(name in p.fields for p in self.timeline.versions_in(key, release).values()):
                return release
        return ""


def _against(f: Finding, old: str, refused: bool) -> Finding:
    """A failure on the target, classed by what the ``--from`` release does with the object:
    accepted → ``breaking``; refused too → ``error`` (the upgrade changes nothing)."""
    if f.cls == "error" and not refused:
        return replace(f, cls="breaking", message=f"{f.message} (accepted by {old})")
    if f.cls == "breaking" and refused:
        return replace(f, cls="error", message=f"{f.message} (refused by {old} too)")
    return f


def _first_label(group: str) -> str:
    return group.split(".")[0] if group else "core"


class _FieldChecker:
    """The field-level findings of one object."""

    def __init__(self, scanner: Scanner, obj: ManifestObject, api_version: str | None,
                 kind: str) -> None:
        self.scanner, self.obj = scanner, obj
        self.api = scanner.target
        self.models: Mapping[str, Model] = scanner.target.models
        self.api_version, self.kind = api_version, kind
        self.findings: list[Finding] = []
        self.warned: set[tuple[str, str]] = set()
        """(model, field) of the stage and deprecation warnings given (one per object)."""

    def add(self, at: KeyPath, cls: FindingClass, message: str, code: str, line_at: KeyPath | None = None
            ) -> None:
        line = self.obj.line_of(at if line_at is None else line_at)
        self.findings.append(Finding(self.obj.file, line, self.api_version, self.kind,
                                     self.obj.name, path_text(at), cls, message, None, code))

    def walk(self, data: dict[str, Any], model: Model, at: KeyPath, skip: tuple[str, ...] = (),
             free: bool = False) -> None:
        """Each key of ``data`` against ``model``'s fields (``free``: unknown keys are kept,
        ``x-kubernetes-preserve-unknown-fields``), then the required fields it lacks."""
        for key, value in data.items():
            if key in skip:
                continue
            f = model.field(key)
            here = (*at, key)
            if f is None:
                if not free:
                    self.unknown(model, key, here)
                continue
            self.field(model, f, value, here)
        for f in model.fields:
            if f.required and f.name not in data and not f.has_default:
                self.add((*at, f.name), "error", f"{path_text((*at, f.name))}: Required value",
                         "required", line_at=at)

    def unknown(self, model: Model, key: str, here: KeyPath) -> None:
        name = path_text(here)
        dated = self.scanner.field_history(model, key)
        if dated is not None:
            last, removed = dated
            self.add(here, "breaking", f"unknown field \"{name}\": removed in {removed} "
                                       f"(last in {last})", "unknown-field")
            return
        later = self.scanner.field_added_later(model, key)
        if later:
            self.add(here, "error", f"unknown field \"{name}\": added in {later}",
                     "unknown-field")
            return
        close = nearest(key, (f.name for f in model.fields), 1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        self.add(here, "error", f"unknown field \"{name}\"{hint}", "unknown-field")

    def field(self, model: Model, f: Field, value: Any, here: KeyPath) -> None:
        if value is None:
            return
        if f.description and (model.name, f.name) not in self.warned:  # once per object
            stage = field_stage(f.description)
            if stage is not None:
                self.warned.add((model.name, f.name))
                gate = f" (feature gate {stage.name})" if stage.name else ""
                self.add(here, "warning", f"{article(stage.stage)} {stage.stage} field{gate}: "
                                          "dropped unless its feature is enabled", "stage")
            elif is_deprecated(f.description):
                self.warned.add((model.name, f.name))
                self.add(here, "warning", "a deprecated field", "deprecated")
        if f.enum and value not in f.enum and not isinstance(value, (dict, list)):
            allowed = ", ".join(_quote(v) for v in f.enum)
            self.add(here, "error", f"{path_text(here)}: Unsupported value: {_quote(value)}: "
                                    f"supported values: {allowed}", "enum")
            return
        self.value(f.type, value, here, f, f.preserve_unknown_fields)

    def value(self, t: TypeRef, value: Any, here: KeyPath, f: Field | None, free: bool) -> None:
        if value is None:
            return
        kind = t.kind
        if kind == "primitive":
            self.primitive(t, value, here)
            if f is not None:
                self.constraints(f, value, here)
        elif kind == "array":
            if not isinstance(value, list):
                self.type_error(here, value, "array")
                return
            if f is not None:
                self.constraints(f, value, here)
            if t.items is not None:
                for i, item in enumerate(value):
                    self.value(t.items, item, (*here, i), None, free)
        elif kind == "map":
            if not isinstance(value, dict):
                self.type_error(here, value, "object")
                return
            if t.items is not None:
                for k, item in value.items():
                    self.value(t.items, item, (*here, k), None, free)
        elif kind == "int-or-string":
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                self.type_error(here, value, "integer or string")
        elif kind == "quantity":
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                self.type_error(here, value, "string")
            elif isinstance(value, str) and not QUANTITY.match(value):
                self.add(here, "error", f"{path_text(here)}: Invalid value: {_quote(value)}: "
                                        "quantities must match the regular expression "
                                        f"'{QUANTITY.pattern}'", "format")
        elif kind == "ref":
            model = self.models.get(t.ref)
            if model is None:
                return
            if model.shape == "scalar" and model.scalar is not None:
                self.value(model.scalar, value, here, None, free)
            elif model.fields:
                if not isinstance(value, dict):
                    self.type_error(here, value, "object")
                    return
                self.walk(value, model, here, free=free)
        # object (free-form), unknown: anything goes

    def primitive(self, t: TypeRef, value: Any, here: KeyPath) -> None:
        expected = t.type
        ok = {
            "string": isinstance(value, str),
            "boolean": isinstance(value, bool),
            "integer": (isinstance(value, int) and not isinstance(value, bool)) or (
                isinstance(value, float) and value.is_integer()),
            "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        }.get(expected, True)
        if not ok:
            self.type_error(here, value, expected)
            return
        if expected == "integer" and t.format in ("int32", "int64"):
            low, high = _INT32 if t.format == "int32" else _INT64
            if not low <= value <= high:
                self.add(here, "error", f"{path_text(here)}: Invalid value: {value}: out of "
                                        f"range of {t.format}", "format")
        elif expected == "number" and isinstance(value, float) and not math.isfinite(value):
            self.add(here, "error", f"{path_text(here)}: Invalid value: {value}: not a number",
                     "format")
        elif expected == "string" and t.format == "byte" and not _is_base64(value):
            self.add(here, "error", f"{path_text(here)}: Invalid value: {_quote(value)}: illegal "
                                    "base64 data (a Secret's data holds base64: use stringData "
                                    "for text)", "format")
        elif expected == "string" and t.format == "date-time" and not _DATE_TIME.match(value):
            self.add(here, "error", f"{path_text(here)}: Invalid value: {_quote(value)}: must be "
                                    "an RFC 3339 date-time", "format")

    def constraints(self, f: Field, value: Any, here: KeyPath) -> None:
        limits = dict(f.constraints)
        name = path_text(here)

        def bad(text: str) -> None:
            self.add(here, "error", f"{name}: Invalid value: {_quote(value)}: {name} in body "
                                    f"{text}", "format")

        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in limits and value < limits["minimum"]:
                bad(f"should be greater than or equal to {limits['minimum']}")
            if "maximum" in limits and value > limits["maximum"]:
                bad(f"should be less than or equal to {limits['maximum']}")
        elif isinstance(value, str):
            if "minLength" in limits and len(value) < limits["minLength"]:
                bad(f"should be at least {limits['minLength']} chars long")
            if "maxLength" in limits and len(value) > limits["maxLength"]:
                bad(f"may not be more than {limits['maxLength']} bytes long")
            pattern = limits.get("pattern")
            if isinstance(pattern, str):
                try:
                    if not re.search(pattern, value):
                        bad(f"should match '{pattern}'")
                except re.error:
                    pass  # an ECMA/RE2 pattern Python's re cannot read: not checked
        elif isinstance(value, list):
            if "minItems" in limits and len(value) < limits["minItems"]:
                bad(f"should have at least {limits['minItems']} items")
            if "maxItems" in limits and len(value) > limits["maxItems"]:
                bad(f"should have at most {limits['maxItems']} items")

    def type_error(self, here: KeyPath, value: Any, expected: str) -> None:
        name = path_text(here)
        self.add(here, "error", f"{name}: Invalid value: {_json_type(value)}: {name} in body "
                                f"must be of type {expected}: {_quote(value)}", "type")


def _is_base64(text: str) -> bool:
    """Whether ``encoding/base64.StdEncoding`` decodes ``text`` (line breaks ignored)."""
    try:
        base64.b64decode(text.replace("\n", "").replace("\r", ""), validate=True)
    except (binascii.Error, ValueError):
        return False
    return True


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return '"boolean"'
    if isinstance(value, (int, float)):
        return '"integer"' if isinstance(value, int) else '"number"'
    if isinstance(value, str):
        return '"string"'
    if isinstance(value, list):
        return '"array"'
    return '"object"'


def _quote(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "…"

