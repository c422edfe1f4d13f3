"""Resource names as kubectl resolves them: the kinds a release serves, each with its API group as
written, its plural, singular and short names, and the version kubectl prefers.

Where names come from (the bundled definitions have no REST paths, so no resource names):

- a CRD's ``spec.names`` (plural, singular, short names) when the kind is a custom resource;
- for built-in kinds, the plural is kubectl's guess from the kind
  (``meta.UnsafeGuessKindToResource`` of k8s.io/apimachinery: lower-case, ``…s`` → ``…ses``,
  ``…y`` → ``…ies``, else ``…s``; ``Endpoints`` stays), which is the REST name of every
  built-in kind, and the short names are ``SHORT_NAMES``: what ``kubectl api-resources`` lists
  for the built-in resources (each resource's ``ShortNames()`` in kubernetes/pkg/registry).

The preferred version is the one discovery lists first and kubectl uses when none is given:
GA before beta before alpha, higher numbers first (``version.CompareKubeAwareVersionStrings`` of
k8s.io/apimachinery; ``model.ordering.api_version_sort_key``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from generator.model.ordering import api_version_sort_key
from generator.model.types import ApiSpec, Model

SHORT_NAMES: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "ConfigMap"): ("cm",),
    ("", "Endpoints"): ("ep",),
    ("", "Event"): ("ev",),
    ("", "LimitRange"): ("limits",),
    ("", "Namespace"): ("ns",),
    ("", "Node"): ("no",),
    ("", "PersistentVolumeClaim"): ("pvc",),
    ("", "PersistentVolume"): ("pv",),
    ("", "Pod"): ("po",),
    ("", "ReplicationController"): ("rc",),
    ("", "ResourceQuota"): ("quota",),
    ("", "ServiceAccount"): ("sa",),
    ("", "Service"): ("svc",),
    ("apiextensions.k8s.io", "CustomResourceDefinition"): ("crd", "crds"),
    ("apps", "DaemonSet"): ("ds",),
    ("apps", "Deployment"): ("deploy",),
    ("apps", "ReplicaSet"): ("rs",),
    ("apps", "StatefulSet"): ("sts",),
    ("autoscaling", "HorizontalPodAutoscaler"): ("hpa",),
    ("batch", "CronJob"): ("cj",),
    ("certificates.k8s.io", "CertificateSigningRequest"): ("csr",),
    ("events.k8s.io", "Event"): ("ev",),
    ("networking.k8s.io", "Ingress"): ("ing",),
    ("networking.k8s.io", "NetworkPolicy"): ("netpol",),
    ("policy", "PodDisruptionBudget"): ("pdb",),
    ("policy", "PodSecurityPolicy"): ("psp",),
    ("scheduling.k8s.io", "PriorityClass"): ("pc",),
    ("storage.k8s.io", "StorageClass"): ("sc",),
}
"""(API group, kind) → short names of built-in resources, as ``kubectl api-resources`` lists them."""
UNPLURALIZED = ("endpoints",)
"""Kinds whose resource name is the kind itself (``unpluralizedSuffixes`` of apimachinery)."""


def guess_plural(kind: str) -> str:
    """kubectl's resource name of a kind without discovery (``UnsafeGuessKindToResource``)."""
    singular = kind.lower()
    if not singular or singular.endswith(UNPLURALIZED):
        return singular
    if singular.endswith("s"):
        return singular + "es"
    if singular.endswith("y"):
        return singular[:-1] + "ies"
    return singular + "s"


def api_version_of(group: str, version: str) -> str:
    """``apps/v1``; ``v1`` for the core group."""
    return f"{group}/{version}" if group else version


@dataclass(frozen=True)
class Resource:
    """One kind of one API group (every version of it the release serves)."""

    group: str
    """As written in ``apiVersion`` (``""``: core)."""
    kind: str
    plural: str
    singular: str
    short_names: tuple[str, ...]
    versions: dict[str, Model]
    """API version → root model, preferred first."""

    @property
    def preferred(self) -> str:
        return next(iter(self.versions))

    def names(self) -> tuple[str, ...]:
        """Every lower-case name kubectl accepts for it."""
        return (self.kind.lower(), self.plural, self.singular, *self.short_names)


def served_models(api: ApiSpec) -> Iterable[tuple[str, str, str, Model]]:
    """(API group as written, version, kind, model) of every kind ``api`` serves: kinds of
    definitions (not ``*List``) and served CRD versions."""
    for model in api.models.values():
        if model.crd is not None:
            if model.crd.served:
                yield model.crd.group, model.crd.version, model.crd.kind, model
            continue
        if not model.is_kind or model.is_list or not model.api_version:
            continue
        for gvk in model.gvks:
            if gvk.version == model.api_version and gvk.kind == model.kind:
                yield gvk.group, gvk.version, gvk.kind, model
                break


class Resources:
    """The kinds one release serves, found by any name kubectl accepts."""

    def __init__(self, api: ApiSpec) -> None:
        self.api = api
        found: dict[tuple[str, str], dict[str, Model]] = {}
        for group, version, kind, model in served_models(api):
            found.setdefault((group, kind), {}).setdefault(version, model)
        self.by_group_kind: dict[tuple[str, str], Resource] = {}
        for (group, kind), versions in sorted(found.items()):
            ordered = {v: versions[v] for v in sorted(versions, key=api_version_sort_key)}
            crd = next(iter(ordered.values())).crd
            if crd is not None:
                plural, singular, short = crd.plural, crd.singular or kind.lower(), crd.short_names
            else:
                plural, singular = guess_plural(kind), kind.lower()
                short = SHORT_NAMES.get((group, kind), ())
            self.by_group_kind[(group, kind)] = Resource(group, kind, plural, singular, short,
                                                         ordered)

    @cached_property
    def by_name(self) -> dict[str, list[Resource]]:
        """Lower-case name → resources of that name, core and ``*.k8s.io`` groups first."""
        out: dict[str, list[Resource]] = {}
        for resource in self.by_group_kind.values():
            for name in dict.fromkeys(resource.names()):
                out.setdefault(name, []).append(resource)
        for found in out.values():
            found.sort(key=_group_order)
        return out

    def groups(self) -> set[str]:
        return {group for group, _ in self.by_group_kind}

    def find(self, name: str, group: str | None = None) -> list[Resource]:
        """Resources called ``name`` (any case), in ``group`` when given."""
        found = self.by_name.get(name.lower(), [])
        return [r for r in found if group is None or r.group == group]

    def kinds_of(self, group: str) -> list[Resource]:
        return [r for (g, _), r in self.by_group_kind.items() if g == group]


def _group_order(resource: Resource) -> tuple[int, str]:
    """kubectl's priority among groups with the same resource name: the legacy core group, then
    the built-in ``*.k8s.io`` and un-dotted groups, then the others."""
    group = resource.group
    if not group:
        return 0, group
    if "." not in group or group.endswith(".k8s.io"):
        return 1, group
    return 2, group
