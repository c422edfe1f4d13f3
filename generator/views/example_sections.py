"""Model-page sections ``python`` (the client's view of the property table) and ``example``
(one sample object as YAML | Python | Jsonnet). Both are ``SectionHook``s; see ``pipeline``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from generator.examples.python_names import client_major
from generator.examples.snippets import Example, ExampleBuilder
from generator.model.types import ApiSpec, TypeRef
from generator.views.pages import ModelPage
from generator.views.properties import PropertyRow, TypeLabel
from generator.views.site import SitePlan, relative


@dataclass(frozen=True, slots=True)
class PythonRow:
    attribute: str
    type: TypeLabel
    """Linked when it names a client class (``list[`` + V1PodIP + ``]``)."""
    row: PropertyRow
    """The property-table row: its anchor and notes."""


@dataclass(frozen=True)
class PythonSection:
    template: ClassVar[str] = "partials/python.md.j2"
    client: str
    """Client major version (``31``); empty for a release label that is not ``1.N``."""
    class_name: str | None
    rows: list[PythonRow]
    inline_type: str
    """For models without a class: the Python type the client uses instead (``str``)."""


@dataclass(frozen=True)
class ExampleSection:
    template: ClassVar[str] = "partials/example.md.j2"
    example: Example
    client: str
    unchecked: tuple[str, ...] = ()
    """CEL rules of a custom resource the example was not checked against."""
    unsatisfied: tuple[str, ...] = ()


class ExampleSections:
    """Builds both sections; keeps one ``ExampleBuilder`` per release for a whole run."""

    def __init__(self) -> None:
        self._builders: dict[str, ExampleBuilder] = {}
        """Release → the builder of its model (one hook set serves one build)."""

    def builder(self, api: ApiSpec) -> ExampleBuilder:
        builder = self._builders.get(api.version)
        if builder is None or builder.api is not api:
            builder = self._builders[api.version] = ExampleBuilder(api)
        return builder

    def python(self, page: ModelPage, api: ApiSpec, plan: SitePlan) -> PythonSection | None:
        if page.model.crd is not None:
            return None  # the client has no classes for custom resources (see the example section)
        names = self.builder(api).names
        model = page.model
        rows_by_field = {row.field.name: row for row in page.rows}
        rows = []
        for attribute in names.attributes(model):
            t, row = attribute.type, rows_by_field[attribute.field.name]
            # the property row links the same referenced model (its link is already worked out)
            href = url = None
            if t.ref and row.type.href:
                href, url = row.type.href, row.type.url
            elif t.ref and (target := plan.page_of(t.ref)):
                href, url = relative(page.path, target), plan.page_url(page.path, target)
            rows.append(PythonRow(attribute.name, TypeLabel(t.prefix, t.name, href, t.suffix, url), row))
        inline = "" if model.shape == "object" else str(names.type_of(TypeRef("ref", ref=model.name)))
        return PythonSection(client_major(api.version), names.class_name(model.name), rows, inline)

    def example(self, page: ModelPage, api: ApiSpec, plan: SitePlan) -> ExampleSection | None:
        if page.model.crd is not None:
            from generator.examples.crd import crd_example  # CRDs only: a release alone skips it

            custom = crd_example(page.model, api)
            if custom is None:
                return None
            return ExampleSection(custom.example, "", custom.unchecked, custom.unsatisfied)
        return ExampleSection(self.builder(api).example(page.model.name), client_major(api.version))

