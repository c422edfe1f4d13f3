"""Upgrade guidance: for a group/version or kind no longer served, what to use instead.

The deprecation guide computed for any pair of releases: the same kind served by another version
of the same API group in the new release (most stable first) and since which release it is
served. When that version is not served by the old release too, the most stable version served
by both is named as well: manifests can move to it before the upgrade.

"Since" comes from a ``History`` (the releases ``kubernetes-validate`` ships and, before them,
the shipped history table of 1.10-1.24: ``pipeline.load.package_history``): the first release of
the unbroken run of releases, ending just before the new one, whose definitions have the
replacement. A run reaching the oldest known release is reported as "or earlier".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from generator.model.ordering import api_version_sort_key
from generator.model.types import ApiSpec, Model

BETA_WINDOW = 3
"""Releases a beta API version is served at least (after its deprecation, which comes at the
earliest with its introduction) before it may be removed: Kubernetes deprecation policy, rule 4a."""


class History(Protocol):
    """Which definitions earlier releases have (cheap presence checks)."""

    @property
    def releases(self) -> Sequence[str]:
        """Every known release, oldest first."""
        ...

    def has(self, release: str, definition: str) -> bool:
        """Whether ``release`` has a definition named ``definition``."""
        ...


def release_number(label: str) -> tuple[int, int] | None:
    """``1.32`` → (1, 32); ``swagger-1.33.json`` → (1, 33); labels without one → None."""
    match = re.search(r"(?<![\d.])(\d+)\.(\d+)(?![\d])", label)
    return (int(match[1]), int(match[2])) if match else None


@dataclass(frozen=True, slots=True)
class Replacement:
    """One way to keep using ``kind`` in the new release (``api_version`` empty: none)."""

    kind: str
    api_version: str = ""
    """As written in ``apiVersion``: ``flowcontrol.apiserver.k8s.io/v1`` (``v1`` for core)."""
    since: str = ""
    """First release known to serve it (empty when unknown)."""
    since_or_earlier: bool = False
    """``since`` is the oldest release known: it may be served longer."""
    served_in_old: bool = False
    """The old release serves it too: manifests can move before the upgrade."""

    @property
    def served_since(self) -> str:
        if not self.since:
            return ""
        return f"served since {self.since}" + (" or earlier" if self.since_or_earlier else "")


def api_version_text(api_group: str, version: str) -> str:
    """What goes in ``apiVersion``: ``v1`` for the core group, else ``group/version``."""
    return version if api_group in ("", "core") else f"{api_group}/{version}"


def guidance(replacements: Iterable[Replacement], new_release: str,
             code: Callable[[str], str] = str, text: Callable[[str], str] = str) -> str:
    """``use a/v1 (served since 1.29) for FlowSchema, PriorityLevelConfiguration``; kinds
    without a replacement: ``no replacement in 1.32 for X``. ``code`` formats API versions,
    ``text`` release labels and kinds (Markdown escaping)."""
    by_option: dict[tuple[str, ...], list[str]] = {}
    for kind, options in _per_kind(replacements):
        texts = []
        for r in options:
            if not r.api_version:
                continue
            details = [t for t in (r.served_since, "also served by the old release"
                                   if r.served_in_old and len(options) > 1 else "") if t]
            texts.append(code(r.api_version) + (f" ({text(', '.join(details))})" if details else ""))
        by_option.setdefault(tuple(texts), []).append(text(kind))
    parts: list[str] = []
    for option, kinds in by_option.items():
        if option:
            parts.append(f"use {' or '.join(option)} for {', '.join(kinds)}")
        else:
            parts.append(f"no replacement in {text(new_release)} for {', '.join(kinds)}")
    return "; ".join(parts)


def _per_kind(replacements: Iterable[Replacement]) -> list[tuple[str, list[Replacement]]]:
    out: dict[str, list[Replacement]] = {}
    for r in replacements:
        out.setdefault(r.kind, []).append(r)
    return list(out.items())


ApiGroupOf = Callable[[str, str], str]
"""(navigation group, API version) → API group as written in ``apiVersion``."""


def served_kinds(api: ApiSpec, api_group_of: ApiGroupOf) -> dict[tuple[str, str], dict[str, Model]]:
    """(API group as written, version) → kind → model, for kinds other than ``*List``."""
    out: dict[tuple[str, str], dict[str, Model]] = {}
    for model in api.models.values():
        if not model.is_kind or model.is_list or not model.api_version:
            continue
        if not any(g.version == model.api_version and g.kind == model.kind for g in model.gvks):
            continue  # a shared kind (WatchEvent…) declared for other groups
        key = (api_group_of(model.group, model.api_version), model.api_version)
        out.setdefault(key, {}).setdefault(model.kind, model)
    return out


class Guide:
    """Replacements of unserved kinds between two releases."""

    def __init__(self, old: ApiSpec, new: ApiSpec, api_group_of: ApiGroupOf,
                 history: History | None = None) -> None:
        self.old, self.new, self.history = old, new, history
        self.old_kinds = served_kinds(old, api_group_of)
        self.new_kinds = served_kinds(new, api_group_of)
        self._earlier = self._earlier_releases(new.version)
        self._before_old: tuple[str, Callable[[str, str], frozenset[str] | None]] | None = None

    def _earlier_releases(self, label: str) -> list[str]:
        """Known releases before ``label``, newest first (none when ``label`` has no number)."""
        number = release_number(label)
        if self.history is None or number is None:
            return []
        return [r for r in reversed(self.history.releases)
                if (n := release_number(r)) is not None and n < number]

    def kinds_of(self, api_group: str, version: str) -> list[str]:
        """Kinds the old release serves in ``api_group``/``version``, sorted."""
        return sorted(self.old_kinds.get((api_group, version), {}))

    def replacements(self, api_group: str, kind: str) -> tuple[Replacement, ...]:
        """Where ``kind`` of ``api_group`` is served in the new release: the most stable version,
        plus the most stable one the old release serves too when that differs."""
        versions = sorted((v for (g, v), kinds in self.new_kinds.items()
                           if g == api_group and kind in kinds), key=api_version_sort_key)
        if not versions:
            return (Replacement(kind),)
        in_old = [v for v in versions if kind in self.old_kinds.get((api_group, v), {})]
        chosen = [versions[0]] + ([in_old[0]] if in_old and in_old[0] != versions[0] else [])
        out = []
        for version in chosen:
            model = self.new_kinds[(api_group, version)][kind]
            since, earlier = self.first_served(model.name, version in in_old)
            out.append(Replacement(kind, api_version_text(api_group, version), since, earlier,
                                   version in in_old))
        return tuple(out)

    def first_served(self, definition: str, in_old: bool) -> tuple[str, bool]:
        """(first release of the unbroken run of known releases ending with the new one that
        has ``definition``, whether the run may go back further than what is known)."""
        start = self.old.version if in_old else self.new.version
        number = release_number(start)
        if number is None:
            return "", False
        since, earlier = f"{number[0]}.{number[1]}", in_old
        for release in self._earlier:
            if release_number(release) >= number:  # type: ignore[operator]
                continue
            if not self.history or not self.history.has(release, definition):
                return since, False
            since, earlier = release, True
        return since, earlier

    def beta_window(self, definitions: Iterable[str]) -> tuple[str, str]:
        """The deprecation policy's verdict on removing a beta API version (or kind) whose
        definitions are ``definitions`` in the old release: (``allowed`` | ``violation`` |
        ``unknown``, why). It must have been served for at least ``BETA_WINDOW`` releases: the
        unbroken run of known releases that last served it is counted; a run shorter than that
        which reaches the oldest known release proves nothing (``unknown``, "history starts at
        1.10"), nor does a release history that does not have it at all."""
        names = list(definitions)
        if self.history is None or not names:
            return "unknown", "no release history to count the releases it was served"
        run: list[str] = []
        for release in self._earlier:  # newest first
            if any(self.history.has(release, n) for n in names):
                run.append(release)
                if len(run) >= BETA_WINDOW:
                    break
            elif run:
                break
        if not run:
            return "unknown", "not in the known releases"
        if len(run) >= BETA_WINDOW:
            return "allowed", ""
        span = run[-1] if len(run) == 1 else f"{run[-1]} to {run[0]}"
        if run[-1] == self._earlier[-1]:
            return "unknown", f"served in {span}; history starts at {run[-1]}"
        return "violation", f"served for fewer than {BETA_WINDOW} releases ({span})"

    def first_served_in_old(self, definition: str, field: str) -> str:
        """Why field ``field`` of ``definition`` was an alpha field in the old release, or
        ``""``: the known release just before the old one has the definition without it, so the
        old release added it to an existing API version, where a new field starts as an
        optional alpha field behind a feature gate (API changes, "New field in existing API
        version"); it cannot be GA in its first release."""
        if self._before_old is None:
            self._before_old = self._release_before_old()
        release, lookup = self._before_old
        if not release:
            return ""
        previous = lookup(release, definition)
        if previous is None or field in previous:
            return ""
        number = release_number(self.old.version)
        return (f"new in {number[0]}.{number[1]}: a field added to an existing API "  # type: ignore[index]
                f"version starts as alpha")

    def _release_before_old(self) -> tuple[str, Callable[[str, str], frozenset[str] | None]]:
        """(the known release just before the old one, the history's field lookup); ``""``
        when the history has no field lookup or no earlier release."""
        lookup = getattr(self.history, "fields", None)
        number = release_number(self.old.version)
        if lookup is None or number is None or self.history is None:
            return "", _no_fields
        before = [r for r in self.history.releases
                  if (n := release_number(r)) is not None and n < number]
        return (before[-1], lookup) if before else ("", _no_fields)


def _no_fields(release: str, definition: str) -> frozenset[str] | None:
    return None


@dataclass(frozen=True, slots=True)
class GuideRemoval:
    """One row of the Kubernetes deprecation guide
    (https://kubernetes.io/docs/reference/using-api/deprecation-guide/): facts only."""

    api_version: str
    kind: str
    removed_in: str
    """The release that stopped serving it."""
    replacement: str = ""
    """The API version the guide says to migrate to (empty: none)."""
    note: str = ""
    """What to do instead when there is no replacement."""


def _rows(removed_in: str, replacement: str, rows: Iterable[tuple[str, str]]
          ) -> tuple[GuideRemoval, ...]:
    """Rows of one section: (API version, space-separated kinds) → one row per kind."""
    return tuple(GuideRemoval(api_version, kind, removed_in, replacement)
                 for api_version, kinds in rows for kind in kinds.split())


PSA = ("use Pod Security Admission (the pod-security.kubernetes.io/ labels of a namespace) or a "
       "third-party admission webhook")
DEPRECATION_GUIDE: tuple[GuideRemoval, ...] = (
    # v1.16: served no longer by default; the definitions stayed in the OpenAPI until 1.18
    *_rows("1.16", "networking.k8s.io/v1", [("extensions/v1beta1", "NetworkPolicy")]),
    *_rows("1.16", "policy/v1beta1", [("extensions/v1beta1", "PodSecurityPolicy")]),
    *_rows("1.16", "apps/v1", [
        ("extensions/v1beta1", "DaemonSet Deployment ReplicaSet"),
        ("apps/v1beta1", "Deployment StatefulSet ReplicaSet"),
        ("apps/v1beta2", "DaemonSet Deployment StatefulSet ReplicaSet")]),
    # v1.22
    *_rows("1.22", "admissionregistration.k8s.io/v1", [(
        "admissionregistration.k8s.io/v1beta1",
        "MutatingWebhookConfiguration ValidatingWebhookConfiguration")]),
    *_rows("1.22", "apiextensions.k8s.io/v1",
           [("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition")]),
    *_rows("1.22", "apiregistration.k8s.io/v1", [("apiregistration.k8s.io/v1beta1", "APIService")]),
    *_rows("1.22", "authentication.k8s.io/v1", [("authentication.k8s.io/v1beta1", "TokenReview")]),
    *_rows("1.22", "authorization.k8s.io/v1", [(
        "authorization.k8s.io/v1beta1",
        "LocalSubjectAccessReview SelfSubjectAccessReview SubjectAccessReview")]),
    *_rows("1.22", "certificates.k8s.io/v1",
           [("certificates.k8s.io/v1beta1", "CertificateSigningRequest")]),
    *_rows("1.22", "coordination.k8s.io/v1", [("coordination.k8s.io/v1beta1", "Lease")]),
    *_rows("1.22", "networking.k8s.io/v1", [
        ("extensions/v1beta1", "Ingress"), ("networking.k8s.io/v1beta1", "Ingress IngressClass")]),
    *_rows("1.22", "rbac.authorization.k8s.io/v1", [(
        "rbac.authorization.k8s.io/v1beta1", "ClusterRole ClusterRoleBinding Role RoleBinding")]),
    *_rows("1.22", "scheduling.k8s.io/v1", [("scheduling.k8s.io/v1beta1", "PriorityClass")]),
    *_rows("1.22", "storage.k8s.io/v1", [
        ("storage.k8s.io/v1beta1", "CSIDriver CSINode StorageClass VolumeAttachment")]),
    # v1.25
    *_rows("1.25", "batch/v1", [("batch/v1beta1", "CronJob")]),
    *_rows("1.25", "discovery.k8s.io/v1", [("discovery.k8s.io/v1beta1", "EndpointSlice")]),
    *_rows("1.25", "events.k8s.io/v1", [("events.k8s.io/v1beta1", "Event")]),
    *_rows("1.25", "autoscaling/v2", [("autoscaling/v2beta1", "HorizontalPodAutoscaler")]),
    *_rows("1.25", "policy/v1", [("policy/v1beta1", "PodDisruptionBudget")]),
    GuideRemoval("policy/v1beta1", "PodSecurityPolicy", "1.25", "", PSA),
    *_rows("1.25", "node.k8s.io/v1", [("node.k8s.io/v1beta1", "RuntimeClass")]),
    # v1.26, v1.27, v1.29, v1.32
    *_rows("1.26", "flowcontrol.apiserver.k8s.io/v1beta3", [(
        "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema PriorityLevelConfiguration")]),
    *_rows("1.26", "autoscaling/v2", [("autoscaling/v2beta2", "HorizontalPodAutoscaler")]),
    *_rows("1.27", "storage.k8s.io/v1", [("storage.k8s.io/v1beta1", "CSIStorageCapacity")]),
    *_rows("1.29", "flowcontrol.apiserver.k8s.io/v1", [(
        "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema PriorityLevelConfiguration")]),
    *_rows("1.32", "flowcontrol.apiserver.k8s.io/v1", [(
        "flowcontrol.apiserver.k8s.io/v1beta3", "FlowSchema PriorityLevelConfiguration")]),
)
"""The guide's removals (sections v1.16 to v1.32; it lists none after v1.32). Where they differ
from the definitions, both are said: the v1.16 workload and policy API versions stopped being
served by default in 1.16, while their definitions stayed in the OpenAPI until 1.18."""

_GUIDE = {(r.api_version, r.kind): r for r in DEPRECATION_GUIDE}


def guide_removal(api_version: str, kind: str) -> GuideRemoval | None:
    """The deprecation guide's row of ``api_version`` (as written) and ``kind``, if any."""
    return _GUIDE.get((api_version, kind))


def removal_text(api_version: str, kind: str, removed: str, last: str) -> str:
    """``removed in 1.22 (last served by 1.21)`` from the definitions (``removed``: the first
    release without them, ``last``: the one before); where the deprecation guide dates it
    earlier, its release first and the definitions' after: ``removed in 1.16 (no longer served
    by default, per the deprecation guide; its definitions stayed until 1.17)``."""
    row = guide_removal(api_version, kind)
    if row is None or not last or row.removed_in == removed or (
            release_number(row.removed_in) or (0, 0)) > (release_number(last) or (0, 0)):
        return f"removed in {removed} (last served by {last})"
    return (f"removed in {row.removed_in} (no longer served by default, per the deprecation "
            f"guide; its definitions stayed until {last})")


def no_replacement_text(api_version: str, kind: str, target: str) -> str:
    """Why there is nothing to use instead in ``target``, following the guide's replacements:
    ``1.32 serves no PodSecurityPolicy: policy/v1beta1 was removed in 1.25 without a
    replacement: use Pod Security Admission …`` (empty when the guide says nothing)."""
    seen = set()
    row = guide_removal(api_version, kind)
    while row is not None and row.replacement and (row.replacement, kind) not in seen:
        seen.add((row.replacement, kind))
        nxt = guide_removal(row.replacement, kind)
        if nxt is None:
            break
        row = nxt
    if row is None or row.replacement:
        return ""
    via = ("nothing replaces it" if row.api_version == api_version else
           f"{row.api_version} was removed in {row.removed_in} without a replacement")
    return f"{target} serves no {kind}: {via}" + (f": {row.note}" if row.note else "")
