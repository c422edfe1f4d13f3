"""Known differences between the bundled ``kubernetes-validate`` data and the upstream
``swagger.json`` of the same release (plain data; checked by ``tests/test_sources.py``).

Releases 1.28 to 1.36 were compared field by field (every model key and every field key of the
normalized model); the other bundled releases (1.25 to 1.27, 1.37) have no upstream document to
compare with here. ``diff`` names the differences that can change its result (``analysis.diff``);
docs/sources.md "Known differences between sources" lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass

COMPARED_RELEASES = tuple(f"1.{n}" for n in range(28, 37))
"""Bundled releases compared with their upstream ``swagger.json``."""


@dataclass(frozen=True, slots=True)
class KnownDifference:
    """One way the bundled data of ``release`` differs from upstream."""

    release: str
    definition: str
    field: str
    """Field name (the upstream one); empty for the model itself."""
    aspect: str
    """What differs: ``description`` · ``required`` · ``field name``."""
    bundled: str
    upstream: str


def _all(release: str, *items: tuple[str, str, str, str, str]) -> tuple[KnownDifference, ...]:
    stripped = (
        ("io.k8s.apimachinery.pkg.api.resource.Quantity", "", "description", "none", "described"),
        ("io.k8s.apimachinery.pkg.util.intstr.IntOrString", "", "description", "none",
         "described"),
    )
    return tuple(KnownDifference(release, *item) for item in (*stripped, *items))


_EFFECTIVELY_REQUIRED = ("description", "lacks the sentence saying the name is effectively "
                         "required", "has it")
_V1 = "io.k8s.api.core.v1."

KNOWN_DIFFERENCES: dict[str, tuple[KnownDifference, ...]] = {
    "1.28": _all("1.28", ("io.k8s.api.batch.v1.PodFailurePolicyRule", "onPodConditions",
                          "required", "required", "optional")),
    "1.29": _all("1.29"),
    "1.30": _all(
        "1.30",
        (_V1 + "HostAlias", "ip", "required", "optional (required from kubernetes-validate 1.31)",
         "required"),
        *((_V1 + model, "name", *_EFFECTIVELY_REQUIRED) for model in (
            "ConfigMapEnvSource", "ConfigMapKeySelector", "ConfigMapProjection",
            "ConfigMapVolumeSource", "LocalObjectReference", "SecretEnvSource",
            "SecretKeySelector", "SecretProjection")),
        (_V1 + "ServiceSpec", "trafficDistribution", "description",
         "does not say it is an alpha field", "says it is an alpha field behind a feature gate"),
    ),
    "1.31": _all("1.31", ("io.k8s.api.resource.v1alpha3.ResourceSliceList", "metadata",
                          "field name", "listMeta", "metadata")),
    "1.32": _all(
        "1.32",
        *((f"io.k8s.api.resource.{v}.ResourceClaimStatus", "reservedFor", "description",
           "says at most 32 reservations", "says at most 256") for v in ("v1alpha3", "v1beta1")),
    ),
    **{release: _all(release) for release in ("1.33", "1.34", "1.35", "1.36")},
}
"""Release → every known difference of its bundled data from upstream."""


def differences_for(release: str) -> tuple[KnownDifference, ...]:
    """Known differences of bundled ``release`` (empty when none are known or not compared)."""
    return KNOWN_DIFFERENCES.get(release, ())
