"""Property-based fuzzing: random schemas and documents through every loader and the renderer.

Only the tool's own ``GeneratorError`` may escape, and a well-formed document must give a page
per definition with a row per property. Examples are bounded (≈230 in all) and derandomized so
CI runs are fast and reproducible.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import GeneratorError
from generator.model.normalize import build_api
from generator.output.writer import check_relative
from generator.pipeline.build import default_hooks
from generator.render.env import make_env
from generator.render.pages import render_version
from generator.sources import load_document
from generator.sources.reader import parse_document
from generator.views.nav import release_nav
from generator.views.site import plan_site

pytestmark = pytest.mark.integration


def fuzz(examples: int) -> settings:
    """Bounded, reproducible runs (≈230 examples over all tests in this file)."""
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


ENV = make_env()

NAMES = ["io.k8s.api.apps.v1.Deployment", "io.k8s.api.apps.v1.DeploymentSpec",
         "io.k8s.api.core.v1.Pod", "io.k8s.apimachinery.pkg.api.resource.Quantity",
         "x.v1beta2.Thing", "Loose", "../../up", "a/b\\c", "<b>x</b>", "\u03a1od", ""]
BAD_REFS = ["https://example.com/s.json#/x", "#/elsewhere/X", "#", "other.json"]
REF = "\x00REF\x00"
"""Placeholder for the ``$ref`` prefix, replaced by each dialect's own."""

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=16) | st.sampled_from(
    ["<script>alert(1)</script>", "| a | b |\n|---|", "# h\n===", "[x](javascript:alert(1))",
     "`code` https://example.com/a_b", "int-or-string", "date-time", "map", "atomic", "merge"])
scalars = st.none() | st.booleans() | st.integers() | st.floats() | text
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(text, inner, max_size=3), max_leaves=4)
types = st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null", "x"])


def schemas(junk: bool) -> st.SearchStrategy[Any]:
    """Schemas with well-typed keywords; with ``junk``, any keyword may hold any JSON value."""

    def kw(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return valid | json_values if junk else valid

    core = st.fixed_dictionaries({}, optional={
        "type": kw(types | st.lists(types, max_size=3)),
        "format": kw(st.sampled_from(["int-or-string", "int32", "date-time", "quantity", "byte"])),
        "description": kw(text),
        "$ref": st.sampled_from([REF + n for n in NAMES if n] + BAD_REFS) | json_values if junk
        else st.sampled_from([REF + n for n in NAMES if n]),
    })
    extras = {
        "enum": kw(st.lists(json_values, max_size=3)),
        "default": json_values,
        "required": kw(st.lists(text | st.sampled_from(["kind", "metadata"]), max_size=3)),
        "x-kubernetes-list-type": kw(st.sampled_from(["map", "set", "atomic"])),
        "x-kubernetes-list-map-keys": kw(st.lists(text, max_size=2)),
        "x-kubernetes-map-type": kw(st.sampled_from(["granular", "atomic"])),
        "x-kubernetes-patch-strategy": kw(st.sampled_from(["merge", "retainKeys", "merge,retainKeys"])),
        "x-kubernetes-patch-merge-key": kw(text),
        "x-kubernetes-int-or-string": json_values,
        "x-kubernetes-preserve-unknown-fields": json_values,
        "x-kubernetes-embedded-resource": json_values,
        "x-kubernetes-validations": kw(st.lists(st.dictionaries(
            st.sampled_from(["rule", "message"]) | text, json_values, max_size=2), max_size=2)),
        "x-kubernetes-group-version-kind": kw(st.lists(st.fixed_dictionaries(
            {"group": text, "version": text, "kind": text}), max_size=2)),
        "nullable": json_values,
    }
    extra = st.sampled_from(sorted(extras)).flatmap(lambda k: st.fixed_dictionaries({k: extras[k]}))
    leaf = st.builds(lambda base, more: {k: v for d in (base, *more) for k, v in d.items()},
                     core, st.lists(extra, max_size=2))
    tree = st.recursive(leaf, lambda inner: st.one_of(
        inner,
        st.builds(lambda base, props: {**base, "type": "object", "properties": props}, leaf,
                  st.dictionaries(text | st.sampled_from(["kind", "metadata"]), inner, max_size=3)),
        st.builds(lambda base, item: {**base, "type": "array", "items": item}, leaf,
                  inner | st.lists(inner, max_size=2)),
        st.builds(lambda base, extra: {**base, "additionalProperties": extra}, leaf,
                  inner | st.booleans()),
        st.builds(lambda base, key, opts: {**base, key: opts}, leaf,
                  st.sampled_from(["allOf", "oneOf", "anyOf"]), st.lists(inner, max_size=3)),
    ), max_leaves=5)
    model = st.builds(lambda base, props: {**base, "type": "object", "properties": props}, leaf,
                      st.dictionaries(text | st.sampled_from(["kind", "metadata"]), tree,
                                      min_size=1, max_size=4))
    return model | tree


def definitions(junk: bool) -> st.SearchStrategy[Any]:
    names = st.sampled_from(NAMES) | text
    return st.dictionaries(names, schemas(junk) | json_values if junk else schemas(junk),
                           min_size=1, max_size=6)


def with_prefix(value: Any, prefix: str) -> Any:
    if isinstance(value, str):
        return value.replace(REF, prefix)
    if isinstance(value, list):
        return [with_prefix(v, prefix) for v in value]
    if isinstance(value, dict):
        return {k: with_prefix(v, prefix) for k, v in value.items()}
    return value


def wrap(kind: str, defs: Any) -> Any:
    if kind == "swagger":
        return {"swagger": "2.0", "definitions": with_prefix(defs, "#/definitions/")}
    if kind == "openapi":
        return {"openapi": "3.0.0", "components": {"schemas": with_prefix(defs, "#/components/schemas/")}}
    return {"$defs": with_prefix(defs, "#/$defs/")}


def load_and_render(document: Any, lenient: bool) -> bool:
    """The whole pipeline below the CLI: load → normalize → plan → render (+ export, nav);
    whether it loaded (``False``: a ``GeneratorError``, the one failure bad input may cause)."""
    try:
        raw = load_document(document, "fuzz.json")
        api, _ = build_api(raw, "x", lenient=lenient)
        json.dumps(api.to_dict())
        plan = plan_site(api)
        pages = render_version(api, plan, ENV, default_hooks())
        release_nav(api, plan)
    except GeneratorError:
        return False
    assert pages
    for path in pages:
        check_relative(path)
    return True


LOADED: dict[str, list[bool]] = {}
"""Per fuzz test, whether each input loaded: a test whose every input raised proves nothing."""


def _counted(name: str, loaded: bool) -> None:
    LOADED.setdefault(name, []).append(loaded)


@fuzz(80)
@given(st.sampled_from(["swagger", "openapi", "defs"]), definitions(junk=False), st.booleans())
def _schemas(kind: str, defs: Any, lenient: bool) -> None:
    _counted("schemas", load_and_render(wrap(kind, defs), lenient))


@fuzz(50)
@given(st.sampled_from(["swagger", "openapi", "defs"]), definitions(junk=True) | json_values,
       st.booleans())
def _junk(kind: str, defs: Any, lenient: bool) -> None:
    _counted("junk", load_and_render(wrap(kind, defs), lenient))


@fuzz(30)
@given(json_values | st.fixed_dictionaries({}, optional={
    "swagger": json_values, "openapi": json_values, "$defs": json_values,
    "definitions": json_values, "components": json_values})
    | st.builds(wrap, st.sampled_from(["swagger", "openapi", "defs"]), definitions(junk=False)))
def _documents(document: Any) -> None:
    _counted("documents", load_and_render(document, True))


@fuzz(40)
@given(st.binary(max_size=200) | text.map(str.encode) | json_values.map(lambda v: json.dumps(v).encode())
       | definitions(junk=False).map(lambda d: json.dumps(wrap("swagger", d)).encode()),
       st.sampled_from(["fuzz.json", "fuzz.yaml"]))
def _bytes(data: bytes, origin: str) -> None:
    try:
        document = parse_document(data, origin)
    except GeneratorError:
        _counted("bytes", False)
        return
    _counted("bytes", load_and_render(document, False))


@pytest.mark.parametrize(("run", "name", "share"), [
    (_schemas, "schemas", 0.5), (_junk, "junk", 0.05), (_documents, "documents", 0.05),
    (_bytes, "bytes", 0.05)], ids=["schemas", "junk", "documents", "bytes"])
def test_random_input_through_every_loader_and_the_renderer(run: Any, name: str, share: float) -> None:
    """Random schemas, junk, documents and bytes: each loads and renders or raises a
    ``GeneratorError``; a share of them must load (valid schemas: most), so that a loader
    rejecting everything fails here."""
    LOADED.pop(name, None)
    run()
    loaded = LOADED[name]
    assert sum(loaded) >= max(1, share * len(loaded)), (name, sum(loaded), len(loaded))


# -- valid documents: every definition gets its page, every property its row -------------------

GROUPS = ["zoo", "farm", "gadgets", "core"]
VERSIONS = ["v1", "v1beta1", "v2alpha3", ""]
"""``""``: a name without an API version, documented in the common section."""
RESERVED_STEMS = {"index", "changes", "assets", "search", "con", "prn", "aux", "nul"}
"""Page names the site keeps for itself (those get a digest suffix; not what this test is about)."""
PRIMITIVES = {"string": ["", "date-time", "byte"], "integer": ["", "int32", "int64"],
              "number": ["", "double"], "boolean": [""]}
words = st.from_regex(r"[A-Z][a-z]{0,7}( [a-z]{1,8}){0,4}\.", fullmatch=True)
"""Descriptions that Markdown and HTML escaping leave as they are."""
kinds = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True).filter(lambda k: k.lower() not in RESERVED_STEMS)
property_names = st.from_regex(r"[a-z][a-zA-Z0-9]{0,9}", fullmatch=True)


@st.composite
def valid_swagger(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    """A well-formed swagger document of one to five object definitions whose properties are primitives,
    arrays, maps and ``$ref``s to each other; and each definition's expected page path."""
    places = draw(st.lists(st.tuples(st.sampled_from(GROUPS), st.sampled_from(VERSIONS), kinds),
                           min_size=1, max_size=5,
                           unique_by=lambda p: (p[0] if p[1] else "", p[1], p[2].lower())))
    names = {(f"io.example.{g}.{v}.{k}" if v else f"io.example.{k}"): (g, v, k) for g, v, k in places}

    def primitive() -> dict[str, Any]:
        kind = draw(st.sampled_from(sorted(PRIMITIVES)))
        fmt = draw(st.sampled_from(PRIMITIVES[kind]))
        return {"type": kind, **({"format": fmt} if fmt else {})}

    def property_schema() -> dict[str, Any]:
        shape = draw(st.sampled_from(["primitive", "ref", "array", "map"]))
        if shape == "primitive":
            schema = primitive()
        elif shape == "ref":
            schema = {"$ref": "#/definitions/" + draw(st.sampled_from(sorted(names)))}
        elif shape == "array":
            item = draw(st.sampled_from(["primitive", "ref"]))
            schema = {"type": "array", "items": primitive() if item == "primitive"
                      else {"$ref": "#/definitions/" + draw(st.sampled_from(sorted(names)))}}
        else:
            schema = {"type": "object", "additionalProperties": primitive()}
        if draw(st.booleans()):
            schema["description"] = draw(words)
        return schema

    definitions = {}
    for name in names:
        props = {p: property_schema() for p in draw(st.lists(property_names, min_size=1, max_size=5,
                                                                unique=True))}
        schema: dict[str, Any] = {"type": "object", "description": draw(words), "properties": props}
        required = draw(st.lists(st.sampled_from(sorted(props)), unique=True, max_size=2))
        if required:
            schema["required"] = required
        definitions[name] = schema
    pages = {}
    for name, (group, version, kind) in names.items():
        directory = f"{group}/{version}" if version else "common"
        pages[name] = f"x/{directory}/{kind[:1].lower()}{kind[1:]}.md"
    return {"swagger": "2.0", "definitions": definitions}, pages


def type_pattern(schema: dict[str, Any]) -> str:
    """Regular expression the Type cell of a property with ``schema`` must match in full."""
    if "$ref" in schema:
        return '<a href="[^"]+">' + re.escape(schema["$ref"].rsplit(".", 1)[-1]) + "</a>"
    if schema["type"] == "array":
        return "&#91;&#93;" + type_pattern(schema["items"])
    if schema["type"] == "object":
        return "map&#91;string&#93;" + type_pattern(schema["additionalProperties"])
    fmt = schema.get("format")
    return re.escape(f"{schema['type']} ({fmt})" if fmt else schema["type"])


ROW = re.compile(r'<tr id="(field-[a-z0-9-]+)"><td><a class="k8s-field-link" href="#(field-[a-z0-9-]+)" '
                 r'aria-label="Link to this field">#</a><code>([^<]*)</code></td>'
                 r"<td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>")
"""A row of the Properties table (``<wbr>`` break points removed): its id, the id its link icon
points at, field, type, description, notes."""


@fuzz(30)
@given(valid_swagger(), st.sampled_from(["swagger", "openapi"]))
def test_valid_documents_give_a_page_per_definition_with_a_row_per_property(
        case: tuple[dict[str, Any], dict[str, str]], kind: str) -> None:
    document, expected = case
    definitions = document["definitions"]
    if kind == "openapi":
        document = {"openapi": "3.0.0", "components": {"schemas": json.loads(json.dumps(definitions).replace(
            '"#/definitions/', '"#/components/schemas/'))}}
    raw = load_document(document, "valid.json")
    api, diagnostics = build_api(raw, "x")
    assert not diagnostics
    plan = plan_site(api)
    pages = render_version(api, plan, ENV, default_hooks())
    for name, path in expected.items():
        assert path in pages, (name, sorted(pages))
        page = pages[path]
        schema = definitions[name]
        assert page.startswith(f"# {name.rsplit('.', 1)[-1]}\n"), page[:80]
        assert schema["description"] in page
        found = list(ROW.finditer(page.replace("<wbr>", "")))
        assert all(m[1] == m[2] for m in found), path  # each row links to itself
        rows = {m[3]: m.groups()[3:] for m in found}
        assert sorted(rows) == sorted(schema["properties"]), path
        for prop, prop_schema in schema["properties"].items():
            type_cell, description, notes = rows[prop]
            assert re.fullmatch(type_pattern(prop_schema), type_cell), (prop, prop_schema, type_cell)
            assert description == prop_schema.get("description", ""), (prop, description)
            required = prop in schema.get("required", ())
            assert notes.startswith("<strong>required</strong>" if required else "optional"), (prop, notes)
