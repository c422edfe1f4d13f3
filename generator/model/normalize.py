"""``RawDocument`` → ``ApiSpec``: typed fields, groups, kinds, and who refers to whom."""

from __future__ import annotations

from typing import Any

from generator.errors import Diagnostic, Diagnostics, Level, Location, SpecError, pointer
from generator.model.gvk import gvks_of, kind_of, package_group_version
from generator.model.types import QUANTITY, ApiSpec, Field, Model, TypeRef
from generator.sources.base import RawDocument

PRIMITIVE_TYPES = frozenset({"string", "integer", "number", "boolean"})


class _Normalizer:
    def __init__(self, doc: RawDocument, lenient: bool) -> None:
        self.doc = doc
        self.lenient = lenient
        self.diagnostics = Diagnostics(doc.diagnostics)
        self._targets: dict[str, str] = {}

    def location(self, name: str, at: str = "") -> Location:
        return Location(self.doc.file_of(name), self.doc.pointer_of(name) + at)

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

    def type_of(self, schema: dict[str, Any], owner: str, at: str) -> TypeRef:
        if "$ref" in schema:
            return self.ref_type(schema["$ref"], owner, at + "/$ref")
        kind = schema.get("type", "")
        fmt = schema.get("format", "")
        if fmt == "int-or-string" or schema.get("x-kubernetes-int-or-string"):
            return TypeRef("int-or-string")
        if kind == "array":
            items = schema.get("items")
            item = self.type_of(items, owner, at + "/items") if items else TypeRef("object")
            return TypeRef("array", items=item)
        if kind == "object" or (not kind and "additionalProperties" in schema):
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and "properties" not in schema:
                return TypeRef("map", items=self.type_of(extra, owner, at + "/additionalProperties"))
            return TypeRef("object")
        if kind in PRIMITIVE_TYPES:
            return TypeRef("primitive", type=kind, format=fmt)
        return TypeRef("object")

    # -- fields and models -----------------------------------------------------------------
    def field(self, owner: str, name: str, schema: dict[str, Any], required: bool) -> Field:
        at = pointer("properties", name)
        validations = tuple(
            tuple(sorted((str(k), v) for k, v in rule.items()))
            for rule in schema.get("x-kubernetes-validations", ())
        )
        return Field(
            name=name,
            type=self.type_of(schema, owner, at),
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
            pointer=self.doc.pointer_of(owner) + at,
        )

    def model(self, name: str, schema: dict[str, Any]) -> Model:
        group, api_version = package_group_version(name)
        required = set(schema.get("required", ()))
        properties = schema.get("properties")
        scalar: TypeRef | None = None
        fields: tuple[Field, ...] = ()
        if properties:
            shape = "object"
            fields = tuple(
                self.field(name, prop, properties[prop], prop in required)
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
        return Model(
            name=name, group=group, api_version=api_version, kind=kind_of(name),
            description=str(schema.get("description", "")), shape=shape, scalar=scalar,
            fields=fields, gvks=gvks_of(schema), pointer=self.doc.pointer_of(name),
            source=self.doc.file_of(name),
        )


def build_api(doc: RawDocument, version: str, *, lenient: bool = False
              ) -> tuple[ApiSpec, list[Diagnostic]]:
    """Normalize every definition of ``doc``; ``version`` labels the result (``1.31``)."""
    worker = _Normalizer(doc, lenient)
    models = {name: worker.model(name, doc.definitions[name]) for name in sorted(doc.definitions)}
    referrers: dict[str, set[str]] = {}
    for model in models.values():
        for f in model.fields:
            target = f.type.referenced()
            if target and target != model.name and target in models:
                referrers.setdefault(target, set()).add(model.name)
    for name, refs in referrers.items():
        models[name] = _with_referrers(models[name], tuple(sorted(refs)))
    api = ApiSpec(version=version, source=doc.origin, format=doc.format, models=models,
                  sha256=doc.sha256)
    return api, worker.diagnostics


def _with_referrers(model: Model, referrers: tuple[str, ...]) -> Model:
    from dataclasses import replace

    return replace(model, referrers=referrers)
