"""What k8s-gen (jsonnet-libs/k8s, the generator of k8s-libsonnet) does differently for a
CustomResourceDefinition, as in the libraries jsonnet-libs publishes for CRD sets
(gateway-api-libsonnet, cert-manager-libsonnet):

- Library path: k8s-gen names a CRD version's definition like ours (the reversed group, the
  version, the kind: ``io.k8s.networking.gateway.v1.HTTPRoute``) and takes the group from it with
  its pattern ``<domain>.[<group>.]<version>.<kind>`` (``group``, ``version`` and ``kind`` word
  characters only, the shortest domain first): ``gateway.v1.httpRoute``,
  ``acme.v1.challenge``; a group whose label is not a word (``cert-manager.io``) is ``nogroup``
  (``nogroup.v1.certificate``).
- ``metadata``: whatever the CRD's schema says, k8s-gen puts its own copy of ObjectMeta there (the
  fields below; ``managedFields`` has no function: its item type is missing from that copy).
- Only ``type``, ``properties`` and ``items`` of the inline schema count: an object with
  properties is an ``obj``, an array whose items have properties gets ``withX``/``withXMixin``
  and an ``obj`` of the same name whose functions build one item (they write relative to the
  item), a map (``additionalProperties``) is a property-less object (``withX``/``withXMixin``);
  enums, formats and int-or-string do not change the functions.

Names (fields and types) are facts of k8s-gen's ObjectMeta copy; descriptions come from the
release's own ObjectMeta when it has one.
"""

from __future__ import annotations

import re

from generator.model.types import OBJECT_META, ApiSpec, Field, Model, TypeRef

NO_GROUP = "nogroup"
ALIAS = "crds"
"""What the docs and the Jsonnet examples call the whole library (``crds.gateway.v1.httpRoute``)."""
_WORD = re.compile(r"[0-9A-Za-z_]*")
GEN_OBJECT_META = OBJECT_META + "@k8s-gen"
"""Name of the model standing for k8s-gen's ObjectMeta copy (not in ``ApiSpec.models``)."""
OWNER_REFERENCE = "io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference"
_STRING = TypeRef("primitive", "string")
_TIME = TypeRef("primitive", "string", "date-time")
_MAP = TypeRef("map", items=_STRING)
_LIST = TypeRef("array", items=_STRING)
GEN_OBJECT_META_FIELDS: tuple[tuple[str, TypeRef], ...] = (
    ("annotations", _MAP),
    ("clusterName", _STRING),
    ("creationTimestamp", _TIME),
    ("deletionGracePeriodSeconds", TypeRef("primitive", "integer", "int64")),
    ("deletionTimestamp", _TIME),
    ("finalizers", _LIST),
    ("generateName", _STRING),
    ("generation", TypeRef("primitive", "integer", "int64")),
    ("labels", _MAP),
    ("name", _STRING),
    ("namespace", _STRING),
    ("ownerReferences", TypeRef("array", items=TypeRef("ref", ref=OWNER_REFERENCE))),
    ("resourceVersion", _STRING),
    ("selfLink", _STRING),
    ("uid", _STRING),
)
"""The fields of k8s-gen's ObjectMeta that get functions, with their types."""


def crd_group_version_kind(model: Model) -> tuple[str, str, str] | None:
    """(``gateway``, ``v1``, ``HTTPRoute``) for the root of a CRD version (the library path is
    ``gateway.v1.httpRoute``); ``None`` for other models or a definition name k8s-gen's pattern
    does not match."""
    if model.crd is None or model.field_path:
        return None
    parts = model.name.split(".")
    if len(parts) < 3 or not (_WORD.fullmatch(parts[-1]) and _WORD.fullmatch(parts[-2])):
        return None
    if len(parts) >= 4 and _WORD.fullmatch(parts[-3]) and ".".join(parts[:-3]):
        group = parts[-3]
    elif ".".join(parts[:-2]):
        group = NO_GROUP
    else:
        return None
    return group, parts[-2], parts[-1]


def gen_object_meta(api: ApiSpec) -> Model:
    """k8s-gen's ObjectMeta as a model (descriptions from the release's ObjectMeta, if any)."""
    own = api.models.get(OBJECT_META)
    fields = []
    for name, t in GEN_OBJECT_META_FIELDS:
        if t.items is not None and t.items.ref and t.items.ref not in api.models:
            t = TypeRef("array", items=TypeRef("object"))
        found = own.field(name) if own is not None else None
        fields.append(Field(name, t, description=found.description if found is not None else ""))
    return Model(GEN_OBJECT_META, "meta", "v1", "ObjectMeta", fields=tuple(fields))
