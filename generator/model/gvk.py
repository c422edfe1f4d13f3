"""Group, API version and kind from definition names and ``x-kubernetes-group-version-kind``."""

from __future__ import annotations

import re
from typing import Any

from generator.model.types import COMMON_GROUP, GroupVersionKind

VERSION_RE = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


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


def api_version_sort_key(version: str) -> tuple[int, int, int, str]:
    """Kubernetes order: GA before beta before alpha, newer first (v2, v1, v1beta2, v1alpha1)."""
    match = VERSION_RE.match(version)
    if not match:
        return (3, 0, 0, version)
    major, stage, minor = int(match[1]), match[2], int(match[3] or 0)
    rank = {None: 0, "beta": 1, "alpha": 2}[stage]
    return (rank, -major, -minor, version)


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
