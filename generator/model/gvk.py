"""Group, API version and kind from definition names and ``x-kubernetes-group-version-kind``."""

from __future__ import annotations

from typing import Any

from generator.model.ordering import VERSION_RE
from generator.model.types import COMMON_GROUP, GroupVersionKind, Model


def package_group_version(name: str) -> tuple[str, str]:
    """``io.k8s.api.resource.v1alpha3.X`` → (``resource``, ``v1alpha3``); no version → common."""
    parts = name.split(".")
    for i in range(len(parts) - 2, 0, -1):
        if VERSION_RE.match(parts[i]):
            return parts[i - 1], parts[i]
    return COMMON_GROUP, ""


def kind_of(name: str) -> str:
    """Last segment of a definition name."""
    return name.rsplit(".", 1)[-1]


def stability(version: str) -> str:
    """``ga``, ``beta`` or ``alpha`` for an API version string."""
    match = VERSION_RE.match(version)
    if not match or not match[2]:
        return "ga"
    return match[2]


def gvks_of(schema: dict[str, Any]) -> tuple[GroupVersionKind, ...]:
    """The (group, version, kind) triples a definition declares, sorted."""
    out = set()
    for entry in schema.get("x-kubernetes-group-version-kind", ()):
        group, version, kind = entry.get("group", ""), entry.get("version"), entry.get("kind")
        if isinstance(group, str) and isinstance(version, str) and isinstance(kind, str):
            out.add(GroupVersionKind(group, version, kind))
    return tuple(sorted(out, key=lambda g: (g.group, g.version, g.kind)))


def primary_gvk(model: Model) -> GroupVersionKind | None:
    """The GVK matching the model's package path, else the first one."""
    for gvk in model.gvks:
        if gvk.version == model.api_version and gvk.kind == model.kind and (
            gvk.group.split(".")[0] == model.group or (not gvk.group and model.group == "core")
        ):
            return gvk
    return model.gvks[0] if model.gvks else None
