"""Which k8s-libsonnet helper calls build (part of) a sample, and what each call writes.

Each matcher looks at a sample of one library object and returns the helper call a Jsonnet user
would write for it (``container.new('app', 'registry.k8s.io/nginx:1.27')``), with the JSON paths
of the sample that call writes exactly; the snippet sets the rest with generated functions (which
replace a value a helper wrote differently, such as labels). A matcher returns ``None`` when the
helper would write something the sample does not have. What each helper writes is taken from the
real patch files (k8s-libsonnet ``custom/core``); the tests evaluate every snippet against them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Union

from generator.examples.samples import Sample

Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Code:
    """Jsonnet text passed as is (``null``, ``k.rbac.v1.role.new('reader')``)."""

    text: str


@dataclass(frozen=True, slots=True)
class Call:
    """A call of another library function as an argument: ``k.rbac.v1.role.new('reader')``."""

    function: str
    args: tuple[Arg, ...]


Arg = Union[Sample, str, Code, Call]  # noqa: UP007 (a runtime alias on 3.10)
"""A sample (rendered like any value), a string (a Jsonnet string literal), ``Code`` or a ``Call``."""


@dataclass(frozen=True, slots=True)
class HelperCall:
    name: str
    """Dotted name below the object: ``new``, ``spec.withScaleTargetRef``."""
    args: tuple[Arg, ...]
    named: tuple[tuple[str, Arg], ...] = ()
    """Named arguments after the positional ones (``podLabels={ app: 'web' }``)."""
    writes: frozenset[Path] = frozenset()
    """Paths of the sample the call writes with the sample's own value."""


def at(sample: Sample | None, *path: str) -> Sample | None:
    """The value at ``path`` of a model/map sample, or ``None``."""
    for name in path:
        if sample is None or sample.kind not in ("model", "map"):
            return None
        sample = next((v for k, v in sample.entries if k == name), None)
    return sample


def _text(sample: Sample | None) -> str | None:
    if sample is not None and sample.kind == "value" and isinstance(sample.value, str):
        return sample.value
    return None


def _without(labels: Sample, key: str) -> Sample:
    return replace(labels, entries=tuple(e for e in labels.entries if e[0] != key))


Matcher = Callable[[Sample, str], "HelperCall | None"]


def _pod_owner(template: Path, selector: Path | None, *, replicas: str, claims: bool = False,
               ) -> Matcher:
    """``deployment.new`` & co.: containers, and labels ``{name: name} + podLabels`` on the pod
    template (and the selector). ``replicas``: ``optional`` (``null`` leaves it out), ``required``
    (always written), ``none`` (no argument)."""
    containers_at = (*template, "spec", "containers")
    labels_at = (*template, "metadata", "labels")

    def match(sample: Sample, name: str) -> HelperCall | None:
        containers = at(sample, *containers_at)
        labels = at(sample, *labels_at)
        chosen = at(sample, *selector) if selector else None
        count = at(sample, "spec", "replicas")
        if containers is None or labels is None or labels.kind != "map" or \
                (selector and chosen is None) or (replicas == "required" and count is None):
            return None
        data = labels.data()
        pod_labels = _without(labels, "name") if data.get("name") == name else None
        written = {"name": name, **(pod_labels.data() if pod_labels else {})}
        writes = {containers_at}
        if written == data:
            writes.add(labels_at)
        if selector and chosen is not None and chosen.data() == written:
            writes.add(selector)
        args: list[Arg] = [name]
        if replicas != "none":
            args.append(count if count is not None else Code("null"))
            if count is not None:
                writes.add(("spec", "replicas"))
        args.append(containers)
        named: list[tuple[str, Arg]] = []
        if claims:
            volume_claims = at(sample, "spec", "volumeClaimTemplates")
            if volume_claims is not None and volume_claims.items:
                named.append(("volumeClaims", volume_claims))
                writes.add(("spec", "volumeClaimTemplates"))
        if pod_labels is not None and pod_labels.entries:
            named.append(("podLabels", pod_labels))
        return HelperCall("new", tuple(args), tuple(named), frozenset(writes))

    return match


def _cron_job(sample: Sample, name: str) -> HelperCall | None:
    template = ("spec", "jobTemplate", "spec", "template")
    schedule = at(sample, "spec", "schedule")
    containers = at(sample, *template, "spec", "containers")
    labels = at(sample, *template, "metadata", "labels")
    if schedule is None or containers is None or labels is None:
        return None
    writes = {("spec", "schedule"), (*template, "spec", "containers")}
    if labels.data() == {"name": name}:
        writes.add((*template, "metadata", "labels"))
    return HelperCall("new", (name, schedule, containers), (), frozenset(writes))


def _service(sample: Sample, name: str) -> HelperCall | None:
    selector, ports = at(sample, "spec", "selector"), at(sample, "spec", "ports")
    if selector is None or ports is None:
        return HelperCall("newWithoutSelector", (name,))
    return HelperCall("new", (name, selector, ports), (),
                      frozenset({("spec", "selector"), ("spec", "ports")}))


def _config_map(sample: Sample, name: str) -> HelperCall | None:
    data = at(sample, "data")
    if data is None or not data.entries:
        return HelperCall("new", (name,))
    return HelperCall("new", (name, data), (), frozenset({("data",)}))


def _secret(sample: Sample, name: str) -> HelperCall | None:
    data, kind = at(sample, "data"), at(sample, "type")
    if data is None or kind is None or _text(kind) is None:
        return None
    args: tuple[Arg, ...] = (name, data) if _text(kind) == "Opaque" else (name, data, kind)
    return HelperCall("new", args, (), frozenset({("data",), ("type",)}))


def _named(sample: Sample, name: str) -> HelperCall | None:
    """``persistentVolume.new(name)``: like the generated ``new``."""
    return HelperCall("new", (name,))


CONSTRUCTORS: dict[str, Matcher] = {
    "apps.v1.deployment": _pod_owner(("spec", "template"), ("spec", "selector", "matchLabels"),
                                     replicas="optional"),
    "apps.v1.statefulSet": _pod_owner(("spec", "template"), ("spec", "selector", "matchLabels"),
                                      replicas="required", claims=True),
    "apps.v1.daemonSet": _pod_owner(("spec", "template"), ("spec", "selector", "matchLabels"),
                                    replicas="none"),
    "batch.v1.cronJob": _cron_job,
    "core.v1.service": _service,
    "core.v1.configMap": _config_map,
    "core.v1.secret": _secret,
    "core.v1.persistentVolume": _named,
}
"""Kinds whose ``new`` is a helper: library path → matcher (called with ``metadata.name``)."""


def _container(sample: Sample) -> HelperCall | None:
    name, image = at(sample, "name"), at(sample, "image")
    if name is None or image is None or _text(name) is None or _text(image) is None:
        return None
    return HelperCall("new", (name, image), (), frozenset({("name",), ("image",)}))


def _container_port(sample: Sample) -> HelperCall | None:
    number, name = at(sample, "containerPort"), at(sample, "name")
    if number is None:
        return None
    udp = _text(at(sample, "protocol")) == "UDP"
    writes = {("containerPort",)} | ({("protocol",)} if udp else set())
    if name is not None:
        return HelperCall("newNamedUDP" if udp else "newNamed", (number, name), (),
                          frozenset(writes | {("name",)}))
    return HelperCall("newUDP" if udp else "new", (number,), (), frozenset(writes))


def _env_var(sample: Sample) -> HelperCall | None:
    name, value = at(sample, "name"), at(sample, "value")
    if name is None:
        return None
    if value is not None:
        return HelperCall("new", (name, value), (), frozenset({("name",), ("value",)}))
    secret = ("valueFrom", "secretKeyRef")
    ref_name, ref_key = at(sample, *secret, "name"), at(sample, *secret, "key")
    if ref_name is not None and ref_key is not None:
        return HelperCall("fromSecretRef", (name, ref_name, ref_key), (),
                          frozenset({("name",), (*secret, "name"), (*secret, "key")}))
    field_path = at(sample, "valueFrom", "fieldRef", "fieldPath")
    if field_path is not None:
        return HelperCall("fromFieldPath", (name, field_path), (),
                          frozenset({("name",), ("valueFrom", "fieldRef", "fieldPath")}))
    return None


def _pair(first: str, second: str) -> Callable[[Sample], HelperCall | None]:
    def match(sample: Sample) -> HelperCall | None:
        a, b = at(sample, first), at(sample, second)
        if a is None or b is None:
            return None
        return HelperCall("new", (a, b), (), frozenset({(first,), (second,)}))
    return match


def _service_port(sample: Sample) -> HelperCall | None:
    port, target, name = at(sample, "port"), at(sample, "targetPort"), at(sample, "name")
    if port is None or target is None:
        return None
    writes = {("port",), ("targetPort",)}
    if name is not None:
        return HelperCall("newNamed", (name, port, target), (), frozenset(writes | {("name",)}))
    return HelperCall("new", (port, target), (), frozenset(writes))


def _volume(sample: Sample) -> HelperCall | None:
    name = at(sample, "name")
    if name is None:
        return None
    config_map = at(sample, "configMap", "name")
    if config_map is not None:
        items = at(sample, "configMap", "items")
        writes = {("name",), ("configMap", "name")}
        if items is not None and items.items:
            writes.add(("configMap", "items"))
            return HelperCall("fromConfigMap", (name, config_map, items), (), frozenset(writes))
        return HelperCall("fromConfigMap", (name, config_map), (), frozenset(writes))
    secret = at(sample, "secret", "secretName")
    if secret is not None:
        return HelperCall("fromSecret", (name, secret), (), frozenset({("name",), ("secret", "secretName")}))
    empty_dir = at(sample, "emptyDir")
    if empty_dir is not None:
        args: tuple[Arg, ...] = (name, empty_dir) if empty_dir.entries else (name,)
        return HelperCall("fromEmptyDir", args, (), frozenset({("name",), ("emptyDir",)}))
    host_path = at(sample, "hostPath", "path")
    if host_path is not None:
        return HelperCall("fromHostPath", (name, host_path), (), frozenset({("name",), ("hostPath", "path")}))
    claim = at(sample, "persistentVolumeClaim", "claimName")
    if claim is not None and _text(claim):
        return HelperCall("fromPersistentVolumeClaim", (name, claim), (),
                          frozenset({("name",), ("persistentVolumeClaim", "claimName")}))
    return None


def _volume_mount(sample: Sample) -> HelperCall | None:
    name, path = at(sample, "name"), at(sample, "mountPath")
    if name is None or path is None:
        return None
    read_only = at(sample, "readOnly")
    if read_only is not None and read_only.value is True:
        return HelperCall("new", (name, path, Code("true")), (),
                          frozenset({("name",), ("mountPath",), ("readOnly",)}))
    return HelperCall("new", (name, path), (), frozenset({("name",), ("mountPath",)}))


def _api_version(sample: Sample) -> HelperCall | None:
    version = at(sample, "apiVersion")
    if version is None:
        return None
    return HelperCall("withApiVersion", (version,), (), frozenset({("apiVersion",)}))


def _bind_role(sample: Sample) -> HelperCall | None:
    group, kind, name = (_text(at(sample, "roleRef", k)) for k in ("apiGroup", "kind", "name"))
    if group != "rbac.authorization.k8s.io" or kind not in ("Role", "ClusterRole") or name is None:
        return None
    role = "role" if kind == "Role" else "clusterRole"
    return HelperCall("bindRole", (Call(f"k.rbac.v1.{role}.new", (name,)),), (),
                      frozenset({("roleRef", "apiGroup"), ("roleRef", "kind"), ("roleRef", "name")}))


VALUE_HELPERS: dict[str, Callable[[Sample], HelperCall | None]] = {
    "core.v1.container": _container,
    "core.v1.containerPort": _container_port,
    "core.v1.envVar": _env_var,
    "core.v1.keyToPath": _pair("key", "path"),
    "core.v1.servicePort": _service_port,
    "core.v1.volume": _volume,
    "core.v1.volumeMount": _volume_mount,
    "autoscaling.v1.crossVersionObjectReference": _api_version,
    "autoscaling.v2.crossVersionObjectReference": _api_version,
    "rbac.v1.roleBinding": _bind_role,
    "rbac.v1.clusterRoleBinding": _bind_role,
}
"""Library path → matcher of a helper for any sample of that object (nested ones too)."""

EMPTY_WRITES_NOTHING: dict[str, tuple[str, ...]] = {"core.v1.configMap": ("data",)}
"""Fields whose patched ``withX`` writes nothing for an empty value (``configMap.withData({})``):
an empty value there is written as a plain field."""
