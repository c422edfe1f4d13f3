"""The normalized API model: Version → API group → API version → Model → Field.

Plain frozen data. ``ApiSpec.to_dict`` is the documented, stable ``export`` schema
(``EXPORT_SCHEMA_VERSION``); see docs/command-line.md "Export format".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.model.operation_types import Operation
from generator.model.ordering import api_version_sort_key
from generator.sources.base import Provenance

EXPORT_SCHEMA_VERSION = 1
COMMON_GROUP = "common"
"""Section for definitions with no API version in their package path (Quantity, IntOrString…)."""

QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity"
OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
CONSTRAINT_KEYS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
                   "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
                   "minProperties", "maxProperties")
"""Schema keywords kept on a field as ``Field.constraints``, in this order."""
NESTED_SEPARATOR = "#"
"""Between the definition a nested object is found in and its field path:
``io.k8s.networking.gateway.v1.HTTPRoute#spec.rules[].matches[]``."""
LIST_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"


@dataclass(frozen=True, slots=True)
class TypeRef:
    """The type of a field (or of a map value / array item)."""

    kind: str
    """``primitive`` · ``array`` · ``map`` · ``ref`` · ``int-or-string`` · ``quantity`` ·
    ``object`` (free-form) · ``any`` (any JSON value: ``x-kubernetes-preserve-unknown-fields``
    with no ``type``) · ``unknown`` (dangling ``$ref`` read with ``--lenient``)."""
    type: str = ""
    """JSON type of a primitive: ``string``, ``integer``, ``number``, ``boolean``."""
    format: str = ""
    items: TypeRef | None = None
    """Element type of an array; value type of a map."""
    ref: str = ""
    """Definition name, for ``ref``, ``int-or-string``/``quantity`` when named, and ``unknown``."""

    def referenced(self) -> str:
        """The definition this type (or its element) points to, if any."""
        if self.items is not None:
            return self.items.referenced()
        return self.ref

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.type:
            out["type"] = self.type
        if self.format:
            out["format"] = self.format
        if self.items is not None:
            out["items"] = self.items.to_dict()
        if self.ref:
            out["ref"] = self.ref
        return out


Rules = tuple[tuple[tuple[str, Any], ...], ...]
"""``x-kubernetes-validations`` entries as sorted key/value tuples (hashable)."""


@dataclass(frozen=True, slots=True)
class Alternatives:
    """A ``oneOf`` / ``anyOf`` / ``not`` of a schema, in words (``model.alternatives``)."""

    kind: str
    """``oneOf`` (exactly one of ``options`` holds) · ``anyOf`` (at least one) · ``not`` (its
    one option must not hold)."""
    options: tuple[str, ...]
    """Each member schema in words: ``exact`` (a member that only requires ``exact``),
    ``type is IPAddress; value (format ipv4 or format ipv6)``."""

    @property
    def label(self) -> str:
        return ALTERNATIVE_LABELS[self.kind]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": list(self.options)}


ALTERNATIVE_LABELS = {"oneOf": "exactly one of", "anyOf": "at least one of", "not": "not"}
"""How a row names each kind of ``Alternatives``."""


@dataclass(frozen=True, slots=True)
class ElementFacts:
    """What the items of an array (or the values of a map) must be beyond their type: one level
    of ``Field.elements``."""

    of: str
    """Which elements, in words: ``each item``, ``each value``; deeper levels ``each item's
    item``, ``each value's item``…"""
    enum: tuple[Any, ...] = ()
    default: Any = None
    has_default: bool = False
    constraints: tuple[tuple[str, Any], ...] = ()
    """In ``CONSTRAINT_KEYS`` order, as ``Field.constraints``."""
    validations: Rules = ()
    alternatives: tuple[Alternatives, ...] = ()
    nullable: bool = False
    description: str = ""
    """The items' (values') own description, when they are not an object with properties (whose
    section shows it): ``LabelName is a valid Prometheus label name…`` of a ``[]string``."""

    @property
    def empty(self) -> bool:
        return not (self.enum or self.has_default or self.constraints or self.validations
                    or self.alternatives or self.nullable or self.description)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"of": self.of}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.has_default:
            out["default"] = self.default
        if self.constraints:
            out["constraints"] = dict(self.constraints)
        if self.validations:
            out["validations"] = [dict(v) for v in self.validations]
        if self.alternatives:
            out["alternatives"] = [a.to_dict() for a in self.alternatives]
        if self.nullable:
            out["nullable"] = True
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True, slots=True)
class GroupVersionKind:
    """The real API group, version and kind (``x-kubernetes-group-version-kind``)."""

    group: str
    version: str
    kind: str

    @property
    def api_version(self) -> str:
        """What to write in ``apiVersion``: ``v1`` for the core group, else ``group/version``."""
        return f"{self.group}/{self.version}" if self.group else self.version


@dataclass(frozen=True, slots=True)
class Field:
    """One property of a model, with its own description (never the referenced type's)."""

    name: str
    type: TypeRef
    description: str = ""
    required: bool = False
    enum: tuple[Any, ...] = ()
    default: Any = None
    has_default: bool = False
    list_type: str = ""
    list_map_keys: tuple[str, ...] = ()
    map_type: str = ""
    patch_strategy: str = ""
    patch_merge_key: str = ""
    preserve_unknown_fields: bool = False
    embedded_resource: bool = False
    validations: Rules = ()
    """``x-kubernetes-validations`` entries as sorted key/value tuples (hashable)."""
    nullable: bool = False
    constraints: tuple[tuple[str, Any], ...] = ()
    """Value limits in ``CONSTRAINT_KEYS`` order: (``minimum``, 1), (``pattern``, ``^a``)…"""
    elements: tuple[ElementFacts, ...] = ()
    """What the items of an array field (values of a map field) must be, one entry per level
    that says something (an item enum, a map value's ``maxLength``, item CEL rules…)."""
    alternatives: tuple[Alternatives, ...] = ()
    """The field's own ``oneOf`` / ``anyOf`` / ``not`` (not the int-or-string spelling)."""

    @property
    def item_validations(self) -> Rules:
        """``x-kubernetes-validations`` of an array's items (each item is checked): the first
        level of items (items of items…, no map values) that has some (export schema 1)."""
        return next((e.validations for e in self.elements
                     if e.validations and "value" not in e.of), ())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type.to_dict(),
                               "required": self.required, "description": self.description}
        if self.enum:
            out["enum"] = list(self.enum)
        if self.has_default:
            out["default"] = self.default
        for key in ("list_type", "map_type", "patch_strategy", "patch_merge_key"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.list_map_keys:
            out["list_map_keys"] = list(self.list_map_keys)
        if self.preserve_unknown_fields:
            out["preserve_unknown_fields"] = True
        if self.embedded_resource:
            out["embedded_resource"] = True
        if self.validations:
            out["validations"] = [dict(v) for v in self.validations]
        if self.item_validations:
            out["item_validations"] = [dict(v) for v in self.item_validations]
        if self.nullable:
            out["nullable"] = True
        if self.constraints:
            out["constraints"] = dict(self.constraints)
        if self.elements:
            out["elements"] = [e.to_dict() for e in self.elements]
        if self.alternatives:
            out["alternatives"] = [a.to_dict() for a in self.alternatives]
        return out


@dataclass(frozen=True, slots=True)
class PrinterColumn:
    """One ``additionalPrinterColumns`` entry: a column of ``kubectl get``."""

    name: str
    type: str
    json_path: str
    description: str = ""
    format: str = ""
    priority: int = 0
    """0: always shown; more: only with ``-o wide``."""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "jsonPath": self.json_path,
                "description": self.description, "format": self.format, "priority": self.priority}


@dataclass(frozen=True, slots=True)
class CrdVersionStatus:
    """One version a CRD lists, and how the API server treats it."""

    name: str
    served: bool
    storage: bool
    deprecated: bool = False


@dataclass(frozen=True)
class CrdInfo:
    """What a CustomResourceDefinition says about one of its versions besides the schema."""

    group: str
    version: str
    kind: str
    plural: str
    singular: str = ""
    list_kind: str = ""
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    scope: str = "Namespaced"
    """``Namespaced`` or ``Cluster``."""
    served: bool = True
    storage: bool = False
    deprecated: bool = False
    deprecation_warning: str = ""
    printer_columns: tuple[PrinterColumn, ...] = ()
    status_subresource: bool = False
    scale_subresource: tuple[tuple[str, str], ...] = ()
    """(``specReplicasPath``, ``.spec.replicas``)… when the scale subresource is on."""
    conversion: str = "None"
    """Conversion strategy: ``None`` or ``Webhook``."""
    versions: tuple[CrdVersionStatus, ...] = ()
    """Every version the CRD lists, in its order."""
    crd_name: str = ""
    """``httproutes.gateway.networking.k8s.io``."""
    selectable_fields: tuple[str, ...] = ()
    """``selectableFields`` JSON paths (``.spec.color``): ``kubectl get --field-selector``."""
    file: str = ""
    schema: Any = field(default=None, repr=False, hash=False)
    """The version's ``openAPIV3Schema`` in the canonical dialect (examples are made from it;
    not exported: the models say the same)."""

    @property
    def namespaced(self) -> bool:
        return self.scope != "Cluster"

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group, "version": self.version, "kind": self.kind, "plural": self.plural,
            "singular": self.singular, "listKind": self.list_kind,
            "shortNames": list(self.short_names), "categories": list(self.categories),
            "scope": self.scope, "served": self.served, "storage": self.storage,
            "deprecated": self.deprecated, "deprecationWarning": self.deprecation_warning,
            "printerColumns": [c.to_dict() for c in self.printer_columns],
            "subresources": {"status": self.status_subresource,
                             "scale": dict(self.scale_subresource) or None},
            "conversion": self.conversion,
            "versions": [{"name": v.name, "served": v.served, "storage": v.storage,
                          "deprecated": v.deprecated} for v in self.versions],
            "name": self.crd_name,
            "selectableFields": list(self.selectable_fields),
        }


@dataclass(frozen=True)
class Model:
    """One definition: an object with fields, a scalar (Time, IntOrString) or free-form."""

    name: str
    """Definition name: ``io.k8s.api.resource.v1alpha3.ResourceClaimStatus``."""
    group: str
    """Navigation group from the package path: ``resource``, ``core``, ``meta``, ``common``."""
    api_version: str
    """Navigation API version: ``v1alpha3``; empty in the common section."""
    kind: str
    """Short name: ``ResourceClaimStatus``."""
    description: str = ""
    shape: str = "object"
    """``object`` (has properties) · ``scalar`` · ``free-form``."""
    scalar: TypeRef | None = None
    """For scalars: the primitive type (``string`` / ``date-time``…)."""
    fields: tuple[Field, ...] = ()
    gvks: tuple[GroupVersionKind, ...] = ()
    pointer: str = ""
    source: str = ""
    referrers: tuple[str, ...] = ()
    """Models with a field whose type refers to this one ("appears in"), sorted."""
    field_path: str = ""
    """A nested object without a name of its own (an inline schema, as in every CRD): its path
    from the definition it is found in (``spec.rules[].matches[]``; ``[]``: array items, ``{}``:
    map values). Its ``name`` is that definition's name, ``#`` and this path. Empty for
    definitions."""
    root: str = ""
    """For a nested object: the definition it is found in (its page holds the object's section)."""
    parent: str = ""
    """For a nested object: the model one level up (the root or another nested object)."""
    validations: Rules = ()
    """``x-kubernetes-validations`` of the object itself (sorted key/value tuples)."""
    crd: CrdInfo | None = None
    """For the root of a CRD version: the CRD's names, scope, versions, columns, subresources."""
    same_shape: str = ""
    """For a nested object: the one definition of the release with its property names and
    types (``model.shapes``: a CRD's inline copy of ``io.k8s.api.core.v1.Toleration``)."""
    same_as: str = ""
    """For a nested object: the earlier nested object of the same tree it repeats exactly
    (``model.repeats``): its page shows that one's fields once and refers to them here."""

    @property
    def is_kind(self) -> bool:
        return bool(self.gvks)

    @property
    def is_nested(self) -> bool:
        return bool(self.field_path)

    @property
    def is_list(self) -> bool:
        """``*List`` kinds and meta ``Status``: their ``metadata`` is ``ListMeta``."""
        meta = self.field("metadata")
        return meta is not None and meta.type.ref == LIST_META

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "group": self.group, "apiVersion": self.api_version,
            "kind": self.kind, "shape": self.shape, "description": self.description,
        }
        if self.scalar is not None:
            out["scalar"] = self.scalar.to_dict()
        if self.gvks:
            out["gvk"] = [{"group": g.group, "version": g.version, "kind": g.kind}
                          for g in self.gvks]
        out["fields"] = [f.to_dict() for f in self.fields]
        out["referrers"] = list(self.referrers)
        if self.field_path:
            out["fieldPath"] = self.field_path
            out["root"] = self.root
            out["parent"] = self.parent
        if self.validations:
            out["validations"] = [dict(v) for v in self.validations]
        if self.crd is not None:
            out["crd"] = self.crd.to_dict()
        if self.same_shape:
            out["sameShape"] = self.same_shape
        if self.same_as:
            out["sameAs"] = self.same_as
        return out


@dataclass(frozen=True)
class ApiSpec:
    """All models of one Kubernetes release (or of one source, labelled ``version``)."""

    version: str
    source: str
    format: str
    models: dict[str, Model] = field(default_factory=dict)
    """Definition name → model, sorted by name."""
    sha256: str = ""
    provenance: Provenance | None = None
    """What the definitions were read from (``sources.base.Provenance``)."""
    operations: dict[str, tuple[Operation, ...]] = field(default_factory=dict)
    """Kind's definition name → its REST operations (``model.operations``)."""
    operations_from: str = ""
    """Where the operations come from (a sentence for the page), empty without any."""

    @cached_property
    def tree(self) -> dict[str, dict[str, list[Model]]]:
        """group → API version → models (sorted by kind), groups and versions in display order.
        Nested objects are not listed (their root's page shows them)."""
        tree: dict[str, dict[str, list[Model]]] = {}
        for model in self.models.values():
            if model.field_path:
                continue
            tree.setdefault(model.group, {}).setdefault(model.api_version, []).append(model)
        ordered: dict[str, dict[str, list[Model]]] = {}
        for group in sorted(tree, key=lambda g: (g == COMMON_GROUP, g)):
            versions = tree[group]
            ordered[group] = {
                v: sorted(versions[v], key=lambda m: (m.kind, m.name))
                for v in sorted(versions, key=api_version_sort_key)
            }
        return ordered

    @cached_property
    def nested(self) -> dict[str, list[Model]]:
        """Definition → the nested objects found in it (``Model.root``), in name order."""
        out: dict[str, list[Model]] = {}
        for model in self.models.values():
            if model.field_path:
                out.setdefault(model.root, []).append(model)
        return out

    @cached_property
    def crd_versions(self) -> dict[tuple[str, str], dict[str, Model]]:
        """(group, kind) of a CRD → its versions' root models by version."""
        out: dict[tuple[str, str], dict[str, Model]] = {}
        for model in self.models.values():
            if model.crd is not None:
                out.setdefault((model.crd.group, model.crd.kind), {})[model.crd.version] = model
        return out

    def _model_dict(self, model: Model) -> dict[str, Any]:
        out = model.to_dict()
        if model.name in self.operations:
            out["operations"] = [op.to_dict() for op in self.operations[model.name]]
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "schemaVersion": EXPORT_SCHEMA_VERSION,
            "version": self.version,
            "source": self.source,
            "format": self.format,
            "sha256": self.sha256,
            "models": [self._model_dict(m) for m in self.models.values()],
            **({"operationsFrom": self.operations_from} if self.operations_from else {}),
        }
