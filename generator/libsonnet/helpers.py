"""The hand-written helpers k8s-libsonnet adds on top of its generated library, as facts.

k8s-libsonnet's ``main.libsonnet`` is its generated library plus a handful of hand-written patch
files (jsonnet-libs/k8s ``libs/k8s/custom/core``): constructors such as ``container.new(name,
image)`` and ``deployment.new(name, replicas=1, containers, podLabels={})``, ``from*`` helpers,
``mapContainers`` and the ``*VolumeMount`` helpers. Their names and documented arguments (with the
documented defaults, written as k8s-libsonnet's docs print them) are recorded here; the
descriptions are our own. ``tests/test_libsonnet_helpers.py`` checks this table against the real
patch files, so it cannot drift from them.

The patches have been functionally unchanged since March 2024, so they apply to every
k8s-libsonnet release from ``FIRST_RELEASE`` on; earlier releases get none (we do not know theirs).

API::

    helpers_for("apps.v1.deployment", "1.31")   # tuple[Helper, ...], () when none
    library_paths("1.31")                        # every library object with helpers
    helper.name, helper.path, helper.args        # "withScaleTargetRef", ("spec",), (HelperArg, ...)
    helper.signature                             # "new(name, replicas=1, containers, podLabels={})"
    helper.summary                               # what it does, in our words (Markdown)
    helper.replaces                              # True: it replaces the generated function of that name
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.ordering import release_sort_key

FIRST_RELEASE = (1, 29)
"""The first k8s-libsonnet release built with these patches (numbered releases before it get none;
a label such as ``dra`` counts as current)."""


@dataclass(frozen=True, slots=True)
class HelperArg:
    name: str
    default: str | None = None
    """The documented default as k8s-libsonnet's docs print it (``1``, ``{}``, ``'Opaque'``)."""

    @property
    def text(self) -> str:
        return self.name if self.default is None else f"{self.name}={self.default}"


@dataclass(frozen=True, slots=True)
class Helper:
    """One documented hand-written function of a library object."""

    name: str
    args: tuple[HelperArg, ...]
    summary: str
    path: tuple[str, ...] = ()
    """Enclosing ``obj`` groups: ``("spec",)`` for ``spec.withScaleTargetRef``."""

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(a.text for a in self.args)})"

    @property
    def dotted(self) -> str:
        return ".".join((*self.path, self.name))


def _args(text: str) -> tuple[HelperArg, ...]:
    """``"name, replicas=1, containers"`` → HelperArgs (defaults kept as written)."""
    out = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, default = part.partition("=")
        out.append(HelperArg(name, default or None))
    return tuple(out)


def _h(signature: str, summary: str, path: tuple[str, ...] = ()) -> Helper:
    name, _, rest = signature.partition("(")
    return Helper(name, _args(rest.rstrip(")")), summary, path)


_POD_LABELS = ("The pod template and the selector both get the labels `{name: name}` merged with "
               "`podLabels`.")
_MAP_CONTAINERS = (
    _h("mapContainers(f)",
       "Replaces every container of the pod template by `f(container)` (like `std.map`). An "
       "optional `includeInitContainers` (default `false`) also maps the init containers."),
    _h("mapContainersWithName(names, f)",
       "Applies `f` only to the containers named in `names` (an array, or one name); the others "
       "stay as they are."),
)
_MOUNT_NOTE = ("The mount goes into every container, or only those named in `containers`; "
               "`volumeMountMixin` and `volumeMixin` are added to the mount and to the volume.")
_VOLUME_MOUNTS = (
    _h("configMapVolumeMount(configMap, path, volumeMountMixin, volumeMixin, containers)",
       "Takes a ConfigMap object: adds a volume of it (named after the ConfigMap), mounts it at "
       "`path`, and annotates the pod template with a hash of the ConfigMap so pods restart when it "
       "changes. " + _MOUNT_NOTE),
    _h("configVolumeMount(name, path, volumeMountMixin, volumeMixin, containers)",
       "Adds a volume of the ConfigMap `name` to the pod template and mounts it at `path`. "
       + _MOUNT_NOTE),
    _h("csiVolumeMount(name, path, driver, volumeAttributes={}, volumeMountMixin, volumeMixin, "
       "containers)",
       "Adds a read-only CSI volume of `driver` (with `volumeAttributes`) and mounts it at `path`. "
       + _MOUNT_NOTE),
    _h("emptyVolumeMount(name, path, volumeMountMixin, volumeMixin, containers)",
       "Adds an `emptyDir` volume and mounts it at `path`. " + _MOUNT_NOTE),
    _h("hostVolumeMount(name, hostPath, path, readOnly, volumeMountMixin, volumeMixin, containers)",
       "Adds a volume of the node's `hostPath` and mounts it at `path` (read-only when `readOnly`, "
       "default `false`). " + _MOUNT_NOTE),
    _h("pvcVolumeMount(name, path, readOnly, volumeMountMixin, volumeMixin, containers)",
       "Adds a volume of the PersistentVolumeClaim `name` and mounts it at `path` (read-only when "
       "`readOnly`, default `false`). " + _MOUNT_NOTE),
    _h("secretVolumeMount(name, path, defaultMode, volumeMountMixin, volumeMixin, containers)",
       "Adds a volume of the Secret `name` (file mode `defaultMode`, default `256`, i.e. 0400) and "
       "mounts it at `path`. " + _MOUNT_NOTE),
    _h("secretVolumeMountAnnotated(name, path, defaultMode, volumeMountMixin, volumeMixin, "
       "containers)",
       "`secretVolumeMount` plus a pod template annotation derived from the Secret's name, to make "
       "the pods roll when it is added. " + _MOUNT_NOTE),
)
_AUTOSCALING = {
    "crossVersionObjectReference": (
        _h("withApiVersion(apiversion)",
           "Sets `apiVersion` of the referenced object (the generated library has no function for "
           "it)."),
    ),
    "horizontalPodAutoscaler": (
        _h("withScaleTargetRef(object)",
           "Points `spec.scaleTargetRef` at `object` (a Deployment, StatefulSet… built with this "
           "library): copies its `apiVersion`, `kind` and `metadata.name`.", ("spec",)),
    ),
}
_BIND_ROLE = _h("bindRole(role)",
                "Sets `roleRef` to the Role or ClusterRole object `role`: its `metadata.name`, its "
                "`kind` and the API group of its `apiVersion`.")

HELPERS: dict[str, tuple[Helper, ...]] = {
    "apps.v1.daemonSet": (
        _h("new(name, containers, podLabels={})",
           "Creates a DaemonSet named `name` whose pods run `containers`. " + _POD_LABELS),
        *_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    "apps.v1.deployment": (
        _h("new(name, replicas=1, containers, podLabels={})",
           "Creates a Deployment named `name` with `spec.replicas` set to `replicas` (left out when "
           "`null`) and pods running `containers`. " + _POD_LABELS),
        *_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    "apps.v1.replicaSet": (*_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    "apps.v1.statefulSet": (
        _h("new(name, replicas=1, containers, volumeClaims=[], podLabels={})",
           "Creates a StatefulSet named `name` with `replicas` pods running `containers`, and "
           "`volumeClaims` as its volume claim templates when not empty. " + _POD_LABELS),
        *_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    **{f"autoscaling.{v}.{obj}": helpers for v in ("v1", "v2") for obj, helpers in _AUTOSCALING.items()},
    "batch.v1.cronJob": (
        _h("new(name, schedule, containers)",
           "Creates a CronJob named `name` that runs `containers` on the cron `schedule`; the job's "
           "pod template gets the label `{name: name}`. `schedule` and `containers` default to `''` "
           "and `[]`, but both are written."),
        *_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    "batch.v1.job": (*_MAP_CONTAINERS, *_VOLUME_MOUNTS),
    "core.v1.configMap": (
        _h("new(name, data)",
           "Creates a ConfigMap named `name` holding `data` (optional; an empty map writes no "
           "`data`)."),
    ),
    "core.v1.container": (
        _h("new(name, image)", "A container named `name` that runs `image`."),
        _h("withEnvMap(env)",
           "Appends environment variables from a map: a string value becomes `value`, an object "
           "becomes `valueFrom`. Variables come in key order; an empty string value is left out."),
    ),
    "core.v1.containerPort": (
        _h("new(containerPort)", "A port with the number `containerPort`."),
        _h("newNamed(containerPort, name)", "A port `containerPort` called `name`."),
        _h("newNamedUDP(containerPort, name)", "A UDP port `containerPort` called `name`."),
        _h("newUDP(containerPort)", "A UDP port `containerPort`."),
    ),
    "core.v1.envVar": (
        _h("fromFieldPath(name, fieldPath)",
           "A variable `name` whose value is the pod's field at `fieldPath` (`valueFrom.fieldRef`)."),
        _h("fromSecretRef(name, secretRefName, secretRefKey)",
           "A variable `name` read from key `secretRefKey` of the Secret `secretRefName` "
           "(`valueFrom.secretKeyRef`)."),
        _h("new(name, value)", "A variable `name` with the literal `value`."),
    ),
    "core.v1.keyToPath": (
        _h("new(key, path)", "Projects the key `key` to the file `path`."),
    ),
    "core.v1.list": (
        _h("new(items)", "A `v1` `List` of `items`."),
        _h("withItems(items)", "Appends `items` (an array or a single object) to the list."),
    ),
    "core.v1.persistentVolume": (
        _h("new(name)", "Creates a PersistentVolume; `metadata.name` is set unless `name` is empty."),
    ),
    "core.v1.pod": _MAP_CONTAINERS,
    "core.v1.podTemplate": _MAP_CONTAINERS,
    "core.v1.replicationController": _MAP_CONTAINERS,
    "core.v1.secret": (
        _h("new(name, data, type='Opaque')",
           "Creates a Secret named `name` with `data` (base64-encoded values) and `type`."),
    ),
    "core.v1.service": (
        _h("new(name, selector, ports)",
           "Creates a Service named `name` that sends traffic for `ports` to the pods matching "
           "`selector`."),
        _h("newWithoutSelector(name)",
           "Creates a Service named `name` with neither selector nor ports."),
    ),
    "core.v1.servicePort": (
        _h("new(port, targetPort)", "Exposes `port`, forwarded to `targetPort` of the pods."),
        _h("newNamed(name, port, targetPort)",
           "Exposes `port` under the name `name`, forwarded to `targetPort` of the pods."),
    ),
    "core.v1.volume": (
        _h("fromConfigMap(name, configMapName, configMapItems)",
           "A volume `name` of the ConfigMap `configMapName`, limited to `configMapItems` when given."),
        _h("fromCsi(name, driver, volumeAttributes={})",
           "A read-only CSI volume `name` of `driver` with `volumeAttributes`."),
        _h("fromEmptyDir(name, emptyDir={})", "An `emptyDir` volume `name` with the settings `emptyDir`."),
        _h("fromHostPath(name, hostPath)", "A volume `name` of the node's directory `hostPath`."),
        _h("fromPersistentVolumeClaim(name, claimName)",
           "A volume `name` of the PersistentVolumeClaim `claimName`."),
        _h("fromSecret(name, secretName)", "A volume `name` of the Secret `secretName`."),
    ),
    "core.v1.volumeMount": (
        _h("new(name, mountPath, readOnly)",
           "Mounts the volume `name` at `mountPath`; `readOnly` (default `false`) is written only "
           "when true."),
    ),
    "rbac.v1.clusterRoleBinding": (_BIND_ROLE,),
    "rbac.v1.roleBinding": (_BIND_ROLE,),
    "rbac.v1.subject": (
        _h("fromServiceAccount(service_account)",
           "Refers to the ServiceAccount object `service_account` (kind `ServiceAccount`, its name and "
           "namespace)."),
    ),
}
"""Library path → its documented helpers (k8s-libsonnet releases from ``FIRST_RELEASE`` on)."""


def library_paths(version: str) -> tuple[str, ...]:
    """Every library object with helpers in release ``version`` (sorted; none before
    ``FIRST_RELEASE``)."""
    if release_sort_key(version)[0] < FIRST_RELEASE:
        return ()
    return tuple(sorted(HELPERS))


def helpers_for(library_path: str, version: str) -> tuple[Helper, ...]:
    """The helpers of library object ``library_path`` (``apps.v1.deployment``) in release
    ``version``; none before ``FIRST_RELEASE``."""
    if release_sort_key(version)[0] < FIRST_RELEASE:
        return ()
    return HELPERS.get(library_path, ())
