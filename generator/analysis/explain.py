"""``explain`` paths as kubectl writes them, resolved in one release's model.

``deployment.spec.template.spec.containers.image``, ``pods.spec`` (plural and short names),
``Deployment.spec``, ``apps/v1/deployment.spec``, ``core/v1/pod.spec``, ``v1/pod``: the first
dot-separated word names the resource (``analysis.resources``), the rest are field names, arrays
and maps walked through without ``[]``. Without a group/version the group kubectl ranks first
and its preferred version are used. An unknown resource or field is an ``ExplainError`` naming
the nearest names.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from generator.analysis.gates import FeatureGate, feature_gates
from generator.analysis.resources import Resource, Resources, api_version_of
from generator.errors import GeneratorError
from generator.memo import render_memo
from generator.model.ordering import VERSION_RE
from generator.model.types import ApiSpec, Field, Model, TypeRef

_DEPRECATED = re.compile(r"(?:^|[.:]\s+|\n)\s*(?:Deprecated|DEPRECATED)\b")


@render_memo(4096)
def is_deprecated(description: str) -> bool:
    """Whether a description starts a sentence with "Deprecated" (the upstream convention)."""
    return bool(_DEPRECATED.search(description))


_FIELD_STAGE = re.compile(r"\b(?:alpha|beta)(?:-level)?\s+field\b|\bfield\s+is\s+(?:an?\s+)?"
                          r"(?:alpha|beta)\b|\bthis\s+is\s+an?\s+(?:alpha|beta)\b", re.IGNORECASE)
"""A stage said of the field itself ("This is an alpha field", "This field is beta-level"), not
of a feature one of its values needs ("allowed to be 0 if the alpha feature gate … is enabled")
or of a feature long GA ("Defaulting is a beta feature")."""


@render_memo(4096)
def field_stage(description: str) -> FeatureGate | None:
    """The stage (and gate) a description gives the field itself (``analysis.gates`` finds the
    stage; ``_FIELD_STAGE`` decides it is the field's), else None."""
    if not _FIELD_STAGE.search(description):
        return None
    return next((g for g in feature_gates(description) if g.stage and not g.of_value), None)


class ExplainError(GeneratorError):
    """An unknown resource, version or field (exit 2), with the nearest names."""


@dataclass(frozen=True)
class Explained:
    """Where a path leads: the resource and version, the fields walked, the last field."""

    resource: Resource
    version: str
    root: Model
    path: tuple[str, ...]
    """Field names after the resource (empty: the kind itself)."""
    owner: Model
    """The model whose property table has the last field (the root when ``path`` is empty)."""
    field: Field | None
    target: Model | None
    """The model the last field's type refers to (through arrays and maps), or the root."""

    @property
    def api_version(self) -> str:
        return api_version_of(self.resource.group, self.version)


def element(t: TypeRef) -> TypeRef:
    """The type inside arrays and maps."""
    while t.kind in ("array", "map") and t.items is not None:
        t = t.items
    return t


def field_model(api: ApiSpec, f: Field) -> Model | None:
    """The model with fields a field's type refers to, if any."""
    ref = element(f.type).ref
    model = api.models.get(ref) if ref else None
    return model if model is not None and model.fields else None


def nearest(word: str, names: Iterable[str], n: int = 3) -> list[str]:
    """The closest names to ``word`` (case-insensitive), best first."""
    names = list(dict.fromkeys(names))
    lowered = {name.lower(): name for name in names}
    found = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[f] for f in found]


def _did_you_mean(found: list[str]) -> str:
    return f" (did you mean {' or '.join(found)}?)" if found else ""


_INDEX = re.compile(r"\[\d*\]$")


def split_path(text: str) -> tuple[str | None, str | None, str, list[str]]:
    """(API group or None, version or None, resource, field names) of a kubectl path."""
    head, _, rest = text.strip().rpartition("/")
    resource, *fields = rest.split(".")
    fields = [_INDEX.sub("", f) for f in fields]  # containers[] or containers[0]: containers
    group: str | None = None
    version: str | None = None
    if head:
        parts = head.split("/")
        if len(parts) == 2:
            group, version = parts
        elif VERSION_RE.match(parts[0]):
            group, version = "", parts[0]
        else:
            group = parts[0]
        if group == "core":
            group = ""
    if any(not f for f in fields) or not resource or (head and len(head.split("/")) > 2):
        raise ExplainError(f"{text!r}: not a path (write RESOURCE.FIELD.FIELD, optionally "
                           f"GROUP/VERSION/ first: apps/v1/deployment.spec.replicas)")
    return group, version, resource, fields


def _served_elsewhere(resources: Resources, name: str, group: str | None, fields: list[str]) -> str:
    """`` (did you mean networking.k8s.io/v1/ingress?)`` when the resource ``name`` is served by
    other groups than ``group`` (``extensions/v1beta1/ingress`` in a release without
    extensions): the groups that serve the kind, in kubectl's order, at their preferred version."""
    if group is None:
        return ""
    others = [r for r in resources.find(name) if r.group != group]
    rest = "".join(f".{f}" for f in fields)
    paths = [f"{api_version_of(r.group, r.preferred) if r.group else 'core/' + r.preferred}/"
             f"{name.lower()}{rest}" for r in others]
    return _did_you_mean(paths)


def resolve(api: ApiSpec, text: str, resources: Resources | None = None) -> Explained:
    """What ``text`` names in ``api``."""
    resources = resources or Resources(api)
    group, version, name, fields = split_path(text)
    elsewhere = _served_elsewhere(resources, name, group, fields)
    if group is not None and group not in resources.groups():
        raise ExplainError(f"{text}: release {api.version} serves no API group {group!r}"
                           + (elsewhere or _did_you_mean(nearest(group, resources.groups()))))
    found = resources.find(name, group)
    if not found:
        names = (n for r in resources.by_group_kind.values()
                 if group is None or r.group == group for n in (r.kind, r.plural, *r.short_names))
        where = f" in {group or 'core'}" if group is not None else ""
        raise ExplainError(f"{text}: release {api.version} serves no resource {name!r}{where}"
                           + (elsewhere or _did_you_mean(nearest(name, names))))
    resource = found[0]
    if version is None:
        version = resource.preferred
    if version not in resource.versions:
        raise ExplainError(f"{text}: release {api.version} does not serve {resource.kind} in "
                           f"{api_version_of(resource.group, version)} (served: "
                           f"{', '.join(api_version_of(resource.group, v) for v in resource.versions)})")
    root = resource.versions[version]
    model: Model | None = root
    owner, f, walked = root, None, []
    for name in fields:
        if model is None:
            assert f is not None
            raise ExplainError(f"{text}: field {'.'.join(walked)} is of type "
                               f"{element(f.type).type or element(f.type).kind} and has no fields")
        f = model.field(name)
        if f is None:
            raise ExplainError(f"{text}: {model.kind} has no field {name!r}"
                               + _did_you_mean(nearest(name, (x.name for x in model.fields))))
        owner = model
        walked.append(name)
        model = field_model(api, f)
    target: Model | None = root if f is None else model
    return Explained(resource, version, root, tuple(walked), owner, f, target)
