"""``RawDocument`` → ``ApiSpec``: typed fields, groups, kinds, and who refers to whom."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from generator.errors import Diagnostic, Diagnostics, Level, Location, SpecError, escape_pointer_token
from generator.model.alternatives import alternatives_of
from generator.model.gvk import gvks_of, kind_of, package_group_version
from generator.model.operations import build_operations
from generator.model.repeats import mark_repeats
from generator.model.shapes import same_shapes
from generator.model.types import (
    CONSTRAINT_KEYS,
    NESTED_SEPARATOR,
    OBJECT_META,
    QUANTITY,
    ApiSpec,
    CrdInfo,
    CrdVersionStatus,
    ElementFacts,
    Field,
    GroupVersionKind,
    Model,
    PrinterColumn,
    TypeRef,
)
from generator.sources.base import RawDocument

PRIMITIVE_TYPES = frozenset({"string", "integer", "number", "boolean"})
_CONSTRAINTS = frozenset(CONSTRAINT_KEYS)
# The model is frozen data, so equal types are shared: one TypeRef per primitive type, per
# resolvable reference and for every free-form object (thousands of fields build far fewer).
_OBJECT = TypeRef("object")
_ANY = TypeRef("any")
_INT_OR_STRING = TypeRef("int-or-string")


class _Normalizer:
    def __init__(self, doc: RawDocument, lenient: bool) -> None:
        self.doc = doc
        self.lenient = lenient
        self.diagnostics = Diagnostics(doc.diagnostics)
        self._targets: dict[str, str] = {}
        self.nested: dict[str, tuple[dict[str, Any], str, str]] = {}
        """Nested object name → (schema, parent model, field path), in the order found."""
        self.pointers: dict[str, str] = {}
        self.roots: dict[str, str] = {}
        """Nested object name → the definition it is found in."""
        self._refs: dict[str, TypeRef] = {}
        self._primitives: dict[tuple[str, str], TypeRef] = {}

    def root_of(self, name: str) -> str:
        return self.roots.get(name, name)

    def pointer_of(self, name: str) -> str:
        return self.pointers.get(name) or self.doc.pointer_of(name)

    def location(self, name: str, at: str = "") -> Location:
        return Location(self.doc.file_of(self.root_of(name)), self.pointer_of(name) + at)

    def nest(self, schema: dict[str, Any], owner: str, at: str, path: str) -> str:
        """Name a nested object (an inline schema with properties) found in ``owner`` at ``at``."""
        root = self.root_of(owner)
        name = f"{root}{NESTED_SEPARATOR}{path}"
        self.nested[name] = (schema, owner, path)
        self.pointers[name] = self.pointer_of(owner) + at
        self.roots[name] = root
        return name

    # -- aliases ($ref-only definitions) ---------------------------------------------------
    def resolve_alias(self, name: str) -> str:
        """Follow definitions that are only a ``$ref``; a cycle is an error."""
        seen = [name]
        current = name
        while True:
            schema = self.doc.definitions.get(current)
            if schema is None or "$ref" not in schema or "properties" in schema:
                return current
            current = schema["$ref"]
            if current in seen:
                chain = " → ".join([*seen, current])
                raise SpecError(f"$ref cycle: {chain}", self.location(name, "/$ref"))
            seen.append(current)

    # -- types -----------------------------------------------------------------------------
    def ref_type(self, target: str, owner: str, at: str) -> TypeRef:
        found = self._refs.get(target)
        if found is None:
            found = self._ref_type(target, owner, at)
            if found.kind != "unknown":  # a dangling $ref warns at each use
                self._refs[target] = found
        return found

    def _ref_type(self, target: str, owner: str, at: str) -> TypeRef:
        if target not in self.doc.definitions:
            if not self.lenient:
                raise SpecError(f"dangling $ref to {target!r}", self.location(owner, at))
            self.diagnostics.append(Diagnostic(
                Level.WARNING, f"dangling $ref to {target!r}: shown as unknown type",
                self.location(owner, at)))
            return TypeRef("unknown", ref=target)
        resolved = self.resolve_alias(target)
        schema = self.doc.definitions.get(resolved, {})
        if schema.get("format") == "int-or-string":
            return TypeRef("int-or-string", ref=target)
        if target == QUANTITY or schema.get("format") == "quantity":
            return TypeRef("quantity", ref=target)
        return TypeRef("ref", ref=target)

    def type_of(self, schema: dict[str, Any], owner: str, at: str, path: str | None = None) -> TypeRef:
        """The type of ``schema`` (at ``at`` in ``owner``); with the field ``path``, an inline
        object with properties becomes a nested model of its own."""
        if "$ref" in schema:
            return self.ref_type(schema["$ref"], owner, at + "/$ref")
        kind = schema.get("type", "")
        fmt = schema.get("format", "")
        if fmt == "int-or-string" or schema.get("x-kubernetes-int-or-string"):
            return _INT_OR_STRING
        if kind == "array":
            items = schema.get("items")
            item = (self.type_of(items, owner, at + "/items", None if path is None else path + "[]")
                    if items else _OBJECT)
            return TypeRef("array", items=item)
        if path is not None and schema.get("properties") and kind in ("object", ""):
            return TypeRef("ref", ref=self.nest(schema, owner, at, path))
        if (not kind and schema.get("x-kubernetes-preserve-unknown-fields") is True
                and "additionalProperties" not in schema and not schema.get("properties")):
            return _ANY  # no type: any JSON value, not only objects
        if kind == "object" or (not kind and "additionalProperties" in schema):
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and "properties" not in schema:
                return TypeRef("map", items=self.type_of(
                    extra, owner, at + "/additionalProperties", None if path is None else path + "{}"))
            return _OBJECT
        if kind in PRIMITIVE_TYPES:
            found = self._primitives.get((kind, fmt))
            if found is None:
                found = self._primitives[kind, fmt] = TypeRef("primitive", type=kind, format=fmt)
            return found
        return _OBJECT

    # -- fields and models -----------------------------------------------------------------
    def field(self, owner: str, name: str, schema: dict[str, Any], required: bool,
              path: str = "") -> Field:
        """Field ``name`` of model ``owner`` (``path``: the owner's field path, for nested objects)."""
        at = "/properties/" + escape_pointer_token(name)
        if _PLAIN_FIELD_KEYS.issuperset(schema):  # most fields: what the other keys give is the default
            return Field(name=name,
                         type=self.field_type(schema, owner, at, f"{path}.{name}" if path else name),
                         description=str(schema.get("description", "")), required=required,
                         elements=elements_of(schema))
        validations = rules_of(schema)
        return Field(
            name=name,
            type=self.field_type(schema, owner, at, f"{path}.{name}" if path else name),
            description=str(schema.get("description", "")),
            required=required,
            enum=tuple(schema.get("enum", ())),
            default=schema.get("default"),
            has_default="default" in schema,
            list_type=schema.get("x-kubernetes-list-type", ""),
            list_map_keys=tuple(schema.get("x-kubernetes-list-map-keys", ())),
            map_type=schema.get("x-kubernetes-map-type", ""),
            patch_strategy=schema.get("x-kubernetes-patch-strategy", ""),
            patch_merge_key=schema.get("x-kubernetes-patch-merge-key", ""),
            preserve_unknown_fields=schema.get("x-kubernetes-preserve-unknown-fields") is True,
            embedded_resource=schema.get("x-kubernetes-embedded-resource") is True,
            validations=validations,
            nullable=schema.get("nullable") is True,
            constraints=constraints_of(schema),
            elements=elements_of(schema),
            alternatives=alternatives_of(schema) if _ALTERNATIVES & schema.keys() else (),
        )

    def field_type(self, schema: dict[str, Any], owner: str, at: str, path: str) -> TypeRef:
        """A field's type; the free-form ``metadata`` of a CRD is ObjectMeta when the source has
        it (a CRD set combined with a Kubernetes release)."""
        if (path == "metadata" and owner in self.doc.crds and OBJECT_META in self.doc.definitions
                and not schema.get("properties") and schema.get("type", "object") == "object"):
            return TypeRef("ref", ref=OBJECT_META)
        return self.type_of(schema, owner, at, path)

    def model(self, name: str, schema: dict[str, Any], parent: str = "", path: str = ""
              ) -> dict[str, Any]:
        """The ``Model`` arguments of definition (or nested object) ``name``, all but its
        referrers (known once every model is built)."""
        crd = crd_info(self.doc.crds[name], schema) if name in self.doc.crds else None
        root = self.root_of(name)
        if crd is not None:
            group, api_version = crd.group, crd.version
        elif path:
            top = self.doc.crds.get(root)
            group, api_version = (top["group"], top["name"]) if top else package_group_version(root)
        else:
            group, api_version = package_group_version(name)
        required = set(schema.get("required", ()))
        properties = schema.get("properties")
        scalar: TypeRef | None = None
        fields: tuple[Field, ...] = ()
        at = self.pointer_of(name)
        if properties:
            shape = "object"
            fields = tuple(
                self.field(name, prop, properties[prop], prop in required, path)
                for prop in sorted(properties)
            )
        elif "$ref" in schema:
            shape, scalar = "scalar", self.type_of(schema, name, "")
        elif schema.get("type") in PRIMITIVE_TYPES or schema.get("format") == "int-or-string":
            shape, scalar = "scalar", self.type_of(schema, name, "")
            if name == QUANTITY:
                scalar = TypeRef("quantity")
        else:
            shape = "free-form"
        if crd is not None:
            gvks: tuple[GroupVersionKind, ...] = (GroupVersionKind(crd.group, crd.version, crd.kind),)
            kind = crd.kind
        else:
            kind, gvks = kind_of(root) + ("." + path if path else ""), () if path else gvks_of(schema)
        return dict(
            name=name, group=group, api_version=api_version, kind=kind,
            description=str(schema.get("description", "")), shape=shape, scalar=scalar,
            fields=fields, gvks=gvks, pointer=at,
            source=self.doc.file_of(root), field_path=path, root=root if path else "",
            parent=parent, crd=crd, validations=rules_of(schema),
        )


_ALTERNATIVES = frozenset({"oneOf", "anyOf", "not"})
_PLAIN_FIELD_KEYS = frozenset({"type", "description", "format", "properties", "required", "items",
                               "additionalProperties", "$ref", "title", "x-kubernetes-int-or-string"})
"""Schema keys that make no ``Field`` attribute but its type, description and elements: a field
whose schema has no other key takes the defaults of all the others (``_Normalizer.field``)."""


def constraints_of(schema: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The ``CONSTRAINT_KEYS`` of one schema, in that order."""
    if _CONSTRAINTS.isdisjoint(schema):
        return ()
    return tuple((k, schema[k]) for k in CONSTRAINT_KEYS if k in schema)


def elements_of(schema: dict[str, Any]) -> tuple[ElementFacts, ...]:
    """What the items of an array schema (the values of a map schema) must be, level by level
    (``[][]string``: the items, then the items' items); levels that say nothing are left out.
    A map is an object with ``additionalProperties`` and no ``properties`` (as ``type_of``)."""
    out: list[ElementFacts] = []
    words = ""
    while True:
        kind = schema.get("type", "")
        if kind == "array" and isinstance(schema.get("items"), dict):
            schema, of = schema["items"], "item"
        elif (kind in ("object", "") and isinstance(schema.get("additionalProperties"), dict)
              and "properties" not in schema and "$ref" not in schema):
            schema, of = schema["additionalProperties"], "value"
        else:
            return tuple(out)
        words = f"{words}'s {of}" if words else f"each {of}"
        facts = ElementFacts(
            words, enum=tuple(schema.get("enum", ())), default=schema.get("default"),
            has_default="default" in schema, constraints=constraints_of(schema),
            validations=rules_of(schema),
            alternatives=alternatives_of(schema) if _ALTERNATIVES & schema.keys() else (),
            nullable=schema.get("nullable") is True,
            description=_element_description(schema))
        if not facts.empty:
            out.append(facts)


def _element_description(schema: dict[str, Any]) -> str:
    """An item's (a map value's) own description, unless its object has a section that shows it
    (properties, a reference)."""
    text = schema.get("description")
    if not text or "properties" in schema or "$ref" in schema:
        return ""
    return str(text)


def rules_of(schema: dict[str, Any]) -> tuple[tuple[tuple[str, Any], ...], ...]:
    """``x-kubernetes-validations`` of one schema as sorted key/value tuples."""
    rules = schema.get("x-kubernetes-validations")
    if not rules:
        return ()
    return tuple(tuple(sorted((str(k), v) for k, v in rule.items())) for rule in rules)


def crd_info(data: dict[str, Any], schema: dict[str, Any] | None = None) -> CrdInfo:
    """``RawDocument.crds`` data of one CRD version as model data."""
    columns = tuple(PrinterColumn(c["name"], c["type"], c["jsonPath"], c["description"], c["format"],
                                  c["priority"]) for c in data["printerColumns"])
    subresources = data["subresources"]
    return CrdInfo(
        group=data["group"], version=data["name"], kind=data["kind"], plural=data["plural"],
        singular=data["singular"], list_kind=data["listKind"], short_names=tuple(data["shortNames"]),
        categories=tuple(data["categories"]), scope=data["scope"], served=data["served"],
        storage=data["storage"], deprecated=data["deprecated"],
        deprecation_warning=data["deprecationWarning"], printer_columns=columns,
        status_subresource=bool(subresources.get("status")),
        scale_subresource=tuple(sorted(subresources.get("scale", {}).items())),
        conversion=data["conversion"]["strategy"],
        versions=tuple(CrdVersionStatus(v["name"], v["served"], v["storage"], v["deprecated"])
                       for v in data["versions"]),
        crd_name=data["crdName"], selectable_fields=tuple(data.get("selectableFields", ())),
        file=data["file"], schema=schema,
    )


def build_api(doc: RawDocument, version: str, *, lenient: bool = False
              ) -> tuple[ApiSpec, list[Diagnostic]]:
    """Normalize every definition of ``doc``; ``version`` labels the result (``1.31``)."""
    worker = _Normalizer(doc, lenient)
    parts = {name: worker.model(name, doc.definitions[name]) for name in sorted(doc.definitions)}
    done = 0
    while done < len(worker.nested):  # nested objects, found while building their parents
        found = list(worker.nested)[done:]
        for name in found:
            schema, parent, path = worker.nested[name]
            parts[name] = worker.model(name, schema, parent, path)
        done += len(found)
    referrers: dict[str, set[str]] = {}
    for name, part in parts.items():
        for f in part["fields"]:
            target = f.type.referenced()
            if target and target != name and target in parts:
                referrers.setdefault(target, set()).add(name)
    models = {name: Model(**parts[name], referrers=tuple(sorted(referrers.get(name, ()))))
              for name in sorted(parts)}
    for name, target in same_shapes(models).items():
        models[name] = replace(models[name], same_shape=target)
    mark_repeats(models)
    operations = build_operations(models, doc.routes)
    api = ApiSpec(version=version, source=doc.label or doc.origin, format=doc.format, models=models,
                  sha256=doc.sha256, provenance=doc.provenance, operations=operations,
                  operations_from=doc.routes_from if doc.routes else
                  ("the routes the API server serves for custom resources" if operations else ""))
    return api, worker.diagnostics
