"""One deterministic sample object per model, derived from its schema.

- The model itself: every property. Nested models: their required fields (and list-map keys);
  one telling optional field when they have none, while shallower than ``MEANINGFUL_DEPTH`` and not
  recursing into a model already being built — so recursion ends and Pod stays readable.
- Values follow type, format and name: enums take a listed value, times are RFC 3339, quantities
  ``500m``/``1Gi``, int-or-string a port number or a percentage, maps one entry, arrays one item,
  names DNS labels. A kind gets ``apiVersion``, ``kind`` and ``metadata.name``.
- A kind's sample is a manifest: no ``status`` (the cluster writes it; ``status()`` gives it apart)
  unless the schema requires one. The kinds people write by hand take the hand-chosen manifests of
  ``manifests``, typed by the release's schema.

The result is a ``Sample`` tree (value + the schema it follows), so the YAML, Python and Jsonnet
renderings all show the same object; ``Sample.data()`` is the plain JSON value.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from generator.examples.manifests import MANIFESTS, STATUSES
from generator.model.gvk import primary_gvk
from generator.model.types import ApiSpec, Field, Model, TypeRef

MEANINGFUL_DEPTH = 4
"""Nested models deeper than this carry only their required fields."""
HARD_DEPTH = 12
"""Required fields are followed at most this deep (no real spec needs it; it only stops cycles)."""
TIME = "2024-01-15T10:00:00Z"
MICRO_TIME = "2024-01-15T10:00:00.123456Z"
UID = "3f1e2d4c-5b6a-4789-8abc-def012345678"
BASE64 = "ZXhhbXBsZQ=="
PREFERRED_FIELDS = ("name", "type", "key", "path", "uid")
"""Which optional field makes a nested model with no required fields meaningful (else the first
scalar field)."""
PREFERRED_BY_KIND = {"ObjectMeta": "labels", "LabelSelector": "matchLabels"}
EXTRA_BY_KIND = {"Container": ("image",), "EphemeralContainer": ("image",),
                 "PodTemplateSpec": ("metadata", "spec"), "Volume": ("emptyDir",)}
"""Optional properties nested models of these kinds show (while shallow) beside the required."""
KIND_STRINGS = {
    "DeploymentStrategy.type": "RollingUpdate",
    "DaemonSetUpdateStrategy.type": "RollingUpdate",
    "StatefulSetUpdateStrategy.type": "RollingUpdate",
    "ServiceSpec.type": "ClusterIP",
    "Secret.type": "Opaque",
    "SeccompProfile.type": "RuntimeDefault",
    "AppArmorProfile.type": "RuntimeDefault",
    "Toleration.operator": "Exists",
    "Container.name": "app",
    "PodSpec.restartPolicy": "Always",
    "Event.type": "Normal",
    "ContainerResizePolicy.resourceName": "cpu",
    "ContainerResizePolicy.restartPolicy": "NotRequired",
    "HPAScalingRules.selectPolicy": "Max",
    "MetricSpec.type": "Resource",
    "MetricStatus.type": "Resource",
    "IngressSpec.ingressClassName": "nginx",
    "ResourceClaimConsumerReference.resource": "pods",
    "ResourceClaimConsumerReference.name": "example-pod",
    "DeviceAllocationConfiguration.source": "FromClaim",
    "AllocatedDeviceStatus.device": "gpu-0",
    "AllocatedDeviceStatus.pool": "node-1",
    "DeviceRequestAllocationResult.device": "gpu-0",
    "DeviceRequestAllocationResult.pool": "node-1",
}
"""Plausible strings for ``Kind.property`` where the property name alone says too little."""

STRINGS = {
    "namespace": "default", "generateName": "example-", "resourceVersion": "123456",
    "apiVersion": "apps/v1", "kind": "Deployment", "apiGroup": "apps", "group": "apps",
    "resource": "deployments", "version": "v1", "image": "registry.k8s.io/nginx:1.27",
    "message": "Example message.", "reason": "ExampleReason", "status": "True",
    "path": "/data", "mountPath": "/data", "devicePath": "/dev/xvdf", "url": "https://example.com/hook",
    "host": "example.com", "hostname": "node-1", "nodeName": "node-1", "topologyKey":
    "topology.kubernetes.io/zone", "storageClassName": "standard", "serviceAccountName": "default",
    "serviceName": "web", "driver": "gpu.example.com", "driverName": "gpu.example.com",
    "expression": "true", "rule": "true", "key": "example-key", "value": "example-value",
    "operator": "In", "protocol": "TCP", "restartPolicy": "Always", "imagePullPolicy": "IfNotPresent",
    "dnsPolicy": "ClusterFirst", "fsType": "ext4", "effect": "NoSchedule", "phase": "Running",
    "scheme": "HTTP", "user": "example-user", "username": "example-user", "selfLink": "/api/v1/pods",
    "continue": "example-token", "description": "An example.", "command": "sh", "args": "--help",
    "fieldPath": "metadata.name", "terminationMessagePath": "/dev/termination-log",
    "terminationMessagePolicy": "File", "workingDir": "/app", "port": "http", "uid": UID, "caBundle": BASE64,
}
"""Plausible strings for common property names (the rest are derived from the name)."""
INTEGERS = {"replicas": 3, "priority": 1000, "weight": 100, "minReplicas": 1, "maxReplicas": 5,
            "generation": 1, "observedGeneration": 1, "count": 1, "ttlSecondsAfterFinished": 600}
MAP_ENTRIES = {
    "labels": ("app", "web"), "matchLabels": ("app", "web"), "selector": ("app", "web"),
    "annotations": ("example.com/owner", "team-a"), "nodeSelector": ("kubernetes.io/os", "linux"),
    "data": ("config.yaml", "key: value"), "stringData": ("password", "example-password"),
}
QUANTITY_KEYS = ("cpu", "500m")
FREE_FORM = {
    "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": {"f:metadata": {"f:labels": {}}},
    "io.k8s.apimachinery.pkg.runtime.RawExtension": {"apiVersion": "v1", "kind": "ConfigMap"},
}
_WORD = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_REFERENCE_SUFFIX = re.compile(r"(Reference|Ref|Spec|Status|Source|Template)$")
_NOT_LABEL = re.compile(r"[^a-z0-9]+")


class SchemaMismatch(ValueError):
    """A hand-chosen value does not fit the schema of the spec at hand."""


_SERIALS = itertools.count()


@dataclass(frozen=True, slots=True)
class Sample:
    """A sample value and the schema it follows."""

    kind: str
    """``model`` · ``array`` · ``map`` · ``value`` (JSON scalar or free-form JSON) · ``time``."""
    model: str = ""
    """Definition name of a ``model``, or of the named scalar/free-form type of a value."""
    value: Any = None
    entries: tuple[tuple[str, Sample], ...] = ()
    """``model``: (JSON property, value); ``map``: (key, value)."""
    items: tuple[Sample, ...] = ()
    uid: int = field(default_factory=lambda: next(_SERIALS), init=False, compare=False, repr=False)
    """A number no other sample of the process gets: the key of memos of what is derived from
    a sample (``id()`` is reused once an object is freed)."""

    def data(self) -> Any:
        """The plain JSON value (what the YAML tab shows)."""
        if self.kind in ("model", "map"):
            return {key: value.data() for key, value in self.entries}
        if self.kind == "array":
            return [item.data() for item in self.items]
        return self.value


def dns_label(text: str) -> str:
    """``ResourceClaimStatus`` → ``resource-claim-status`` (at most 63 characters)."""
    words = _WORD.sub("-", text).lower()
    return _NOT_LABEL.sub("-", words).strip("-")[:63].strip("-") or "example"


class SampleBuilder:
    """Builds samples of the models of one spec (memoizes nothing: samples are cheap)."""

    def __init__(self, api: ApiSpec) -> None:
        self.api = api

    def sample(self, name: str) -> Sample:
        """The sample of definition ``name``: every own property (a value, for scalars); for a kind,
        a manifest (its hand-chosen one when it has one), without ``status``."""
        model = self.api.models[name]
        if model.shape != "object":
            return self.named_value(model, "")
        manifest = self.manifest(name)
        if manifest is not None:
            try:
                return self.typed(model, manifest)
            except SchemaMismatch:  # a spec unlike the releases the manifest was chosen for
                pass
        return self.model_sample(model, stack=(), depth=0, top=True)

    def manifest(self, name: str) -> dict[str, Any] | None:
        """The hand-chosen manifest of kind ``name`` (``apiVersion`` and ``kind`` first), if any; the
        sample uses it when it fits the schema (every bundled release: a test checks)."""
        model = self.api.models[name]
        recipe = _recipe(model, MANIFESTS)
        if recipe is None:
            return None
        body = recipe(self.has_path(model)) if callable(recipe) else recipe
        gvk = primary_gvk(model)
        head = {"apiVersion": gvk.api_version, "kind": gvk.kind} if gvk is not None else {}
        return {k: v for k, v in head.items() if model.field(k)} | body

    def status(self, name: str) -> Sample | None:
        """What the cluster reports in a kind's ``status``, for the kinds where seeing it helps."""
        model = self.api.models[name]
        body = _recipe(model, STATUSES)
        status = model.field("status")
        if body is None or status is None:
            return None
        try:
            return self.typed_value(status.type, body, f"{name}.status")
        except SchemaMismatch:
            return None

    def has_path(self, model: Model) -> Callable[[str], bool]:
        """``has("spec.devices.requests.exactly")``: does the schema have that field path?"""
        def has(path: str) -> bool:
            current: Model | None = model
            for part in path.split("."):
                f = current.field(part) if current is not None else None
                if f is None:
                    return False
                current = self.api.models.get(f.type.referenced())
            return True
        return has

    # -- hand-chosen values, typed by the schema -------------------------------------------
    def typed(self, model: Model, data: dict[str, Any], where: str = "") -> Sample:
        """``data`` (a JSON object) as a sample of ``model``; a key the model lacks is an error."""
        where = where or model.name
        if not isinstance(data, dict):
            raise SchemaMismatch(f"{where}: {model.name} is an object, not {data!r}")
        entries = []
        for key, value in data.items():
            f = model.field(key)
            if f is None:
                raise SchemaMismatch(f"{where}: {model.name} has no field {key!r}")
            entries.append((key, self.typed_value(f.type, value, f"{where}.{key}")))
        return Sample("model", model=model.name, entries=tuple(entries))

    def typed_value(self, t: TypeRef, value: Any, where: str) -> Sample:
        """A JSON value as a sample of type ``t`` (models, arrays, maps, named scalars, times)."""
        if t.kind in ("array", "map") and not isinstance(value, list if t.kind == "array" else dict):
            raise SchemaMismatch(f"{where}: an {t.kind} in the schema, not {value!r}")
        if t.kind == "array" and t.items is not None:
            return Sample("array", items=tuple(self.typed_value(t.items, v, where) for v in value))
        if t.kind == "map" and t.items is not None:
            return Sample("map", entries=tuple((k, self.typed_value(t.items, v, f"{where}.{k}"))
                                               for k, v in value.items()))
        target = self.api.models.get(t.ref) if t.kind == "ref" else None
        if target is not None and target.shape == "object":
            return self.typed(target, value, where)
        if target is not None:
            scalar = target.scalar
            if scalar is not None and scalar.kind == "primitive" and scalar.format == "date-time":
                return Sample("time", model=target.name, value=value)
            return Sample("value", model=target.name, value=value)
        if t.kind == "primitive" and t.format == "date-time":
            return Sample("time", value=value)
        return Sample("value", value=value)

    # -- models ----------------------------------------------------------------------------
    def model_sample(self, model: Model, stack: tuple[str, ...], depth: int, top: bool = False,
                     keys: tuple[str, ...] = ()) -> Sample:
        stack = (*stack, model.name)
        chosen = self.chosen_fields(model, stack, depth, top, keys)
        entries = []
        gvk = primary_gvk(model)
        for f in chosen:
            if gvk is not None and f.name == "apiVersion":
                entries.append((f.name, Sample("value", value=gvk.api_version)))
            elif gvk is not None and f.name == "kind":
                entries.append((f.name, Sample("value", value=gvk.kind)))
            elif gvk is not None and f.name == "metadata" and not model.is_list:
                meta = self.api.models.get(f.type.ref)
                name_field = meta.field("name") if meta else None
                value = Sample("value", value="example-" + dns_label(model.kind))
                entries.append((f.name, Sample("model", model=f.type.ref, entries=(("name", value),)))
                               if name_field else (f.name, self.value(f, f.type, model, stack, depth)))
            else:
                entries.append((f.name, self.value(f, f.type, model, stack, depth)))
        head = [e for e in entries if e[0] in ("apiVersion", "kind", "metadata")]
        head.sort(key=lambda e: ("apiVersion", "kind", "metadata").index(e[0]))
        rest = [e for e in entries if e[0] not in ("apiVersion", "kind", "metadata")]
        return Sample("model", model=model.name, entries=tuple(head + rest))

    def chosen_fields(self, model: Model, stack: tuple[str, ...], depth: int, top: bool,
                      keys: tuple[str, ...]) -> list[Field]:
        if top:  # a kind's manifest carries no status (the cluster writes it) unless its schema
            # requires one (StorageVersion, which only API servers write)
            manifest = model.is_kind and not model.is_list
            return [f for f in model.fields if not (manifest and f.name == "status" and not f.required)]
        wanted = {f.name for f in model.fields if f.required or f.name in keys}
        if model.is_kind and not model.is_list:
            wanted.add("metadata")
        if depth <= MEANINGFUL_DEPTH:
            wanted.update(EXTRA_BY_KIND.get(model.kind, ()))
        if not wanted and depth <= MEANINGFUL_DEPTH:
            optional = [f for f in model.fields if not self.recurses(f.type, stack)]
            by_name = {f.name: f for f in optional}
            names = (PREFERRED_BY_KIND.get(model.kind, ""), *PREFERRED_FIELDS)
            preferred = [by_name[n] for n in names if n in by_name]
            scalars = [f for f in optional if f.type.kind not in ("ref", "array", "map")
                       or self.api.models.get(f.type.ref, model).shape != "object"]
            pick = (preferred or scalars or optional)[:1]
            wanted = {f.name for f in pick}
        return [f for f in model.fields if f.name in wanted]

    def recurses(self, t: TypeRef, stack: tuple[str, ...]) -> bool:
        return bool(t.referenced()) and t.referenced() in stack

    # -- values ----------------------------------------------------------------------------
    def value(self, f: Field, t: TypeRef, owner: Model, stack: tuple[str, ...], depth: int) -> Sample:
        if t.kind == "array" and t.items is not None:
            return Sample("array", items=(self.item(f, t.items, owner, stack, depth),))
        if t.kind == "map" and t.items is not None:
            key, text = MAP_ENTRIES.get(f.name, ("example-key", ""))
            inner = self.value(f, t.items, owner, stack, depth)
            if self.is_quantity(t.items):
                key, inner = QUANTITY_KEYS[0], Sample("value", model=inner.model, value=QUANTITY_KEYS[1])
            if text and inner.kind == "value" and isinstance(inner.value, str) \
                    and t.items.format != "byte":
                inner = Sample("value", value=text)
            return Sample("map", entries=((key, inner),))
        if t.kind == "ref" and t.ref in self.api.models:
            target = self.api.models[t.ref]
            if target.shape == "object":
                if depth >= HARD_DEPTH:
                    return Sample("model", model=target.name)
                return self.model_sample(target, stack, depth + 1, keys=f.list_map_keys)
            return self.named_value(target, f.name)
        return self.scalar(f, t, owner)

    def item(self, f: Field, t: TypeRef, owner: Model, stack: tuple[str, ...], depth: int) -> Sample:
        """One array element; list-map keys are present in it."""
        return self.value(f, t, owner, stack, depth)

    def is_quantity(self, t: TypeRef) -> bool:
        return t.kind == "quantity" or (t.kind == "ref" and getattr(
            (self.api.models.get(t.ref) or Model("", "", "", "")).scalar, "kind", "") == "quantity")

    def named_value(self, model: Model, field_name: str) -> Sample:
        """A value of a definition without properties (Time, Quantity, IntOrString, RawExtension…)."""
        scalar = model.scalar
        if scalar is None:
            return Sample("value", model=model.name, value=FREE_FORM.get(model.name, {"key": "value"}))
        if scalar.kind == "primitive" and scalar.format == "date-time":
            text = MICRO_TIME if model.kind == "MicroTime" else TIME
            return Sample("time", model=model.name, value=text)
        if scalar.kind == "quantity":
            return Sample("value", model=model.name, value=_quantity(field_name))
        if scalar.kind == "int-or-string":
            return Sample("value", model=model.name, value=_int_or_string(field_name))
        return Sample("value", model=model.name, value=self.scalar(Field(field_name, scalar), scalar,
                                                                   model).value)

    def scalar(self, f: Field, t: TypeRef, owner: Model) -> Sample:
        if f.enum:
            return Sample("value", value=f.enum[0])
        if t.kind == "quantity":
            return Sample("value", value=_quantity(f.name))
        if t.kind == "int-or-string":
            return Sample("value", value=_int_or_string(f.name))
        if t.kind == "primitive":
            if t.type == "string":
                if t.format == "date-time":
                    return Sample("time", value=TIME)
                return Sample("value", value=BASE64 if t.format == "byte" else _string(f.name, owner))
            if t.type == "integer":
                return Sample("value", value=_integer(f.name))
            if t.type == "number":
                return Sample("value", value=0.5)
            if t.type == "boolean":
                return Sample("value", value=True)
        return Sample("value", value={"key": "value"})


def _recipe(model: Model, table: dict[tuple[str, str], Any]) -> Any:
    """The entry of a kind (by its API group and kind) in ``MANIFESTS`` or ``STATUSES``."""
    gvk = primary_gvk(model) if model.is_kind and not model.is_list else None
    return table.get((gvk.group, gvk.kind)) if gvk is not None else None


def _string(name: str, owner: Model) -> str:
    if f"{owner.kind}.{name}" in KIND_STRINGS:
        return KIND_STRINGS[f"{owner.kind}.{name}"]
    if name == "name":
        return dns_label(_REFERENCE_SUFFIX.sub("", owner.kind) or owner.kind)
    if name == "type" and owner.kind.endswith("Condition"):
        return "Ready"
    if name in STRINGS:
        return STRINGS[name]
    lowered = name.lower()
    if lowered == "ip" or name.endswith(("IP", "IPs")) or lowered.endswith("address"):
        return "10.0.0.10"
    if name.endswith("Name"):
        return dns_label(name[: -len("Name")])
    return "example-" + dns_label(name)


def _integer(name: str) -> int:
    if name in INTEGERS:
        return INTEGERS[name]
    if name.lower().endswith("port"):
        return 8080
    if name.endswith("Seconds"):
        return 30
    return 1


def _quantity(name: str) -> str:
    return "500m" if "cpu" in name.lower() or "milli" in name.lower() else "1Gi"


def _int_or_string(name: str) -> int | str:
    lowered = name.lower()
    if "unavailable" in lowered or "surge" in lowered:
        return "25%"
    return 8080 if "port" in lowered else 1
