"""Every fact of a CRD schema in the model, in ``export`` and in the row (issue 23): effective
allOf enums, ``any`` for preserve-unknown-fields without type, item and map-value constraints,
oneOf/anyOf/not in words, ``""`` for empty strings, selectableFields; descriptions' Markdown
links for http(s) only."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from crd_facts_fixture import facts_crd
from crd_fixtures import dump

from generator.model.normalize import build_api
from generator.model.types import ApiSpec, Field
from generator.render import markup
from generator.sources import load_source

ROOT = "com.example.v1.Gizmo"


@pytest.fixture
def api(tmp_path: Path) -> ApiSpec:
    path = tmp_path / "gizmo.yaml"
    path.write_text(dump(facts_crd()), encoding="utf-8")
    return build_api(load_source(str(path)), "g1")[0]


def spec_field(api: ApiSpec, name: str) -> Field:
    found = api.models[f"{ROOT}#spec"].field(name)
    assert found is not None
    return found


def test_allof_enums_are_intersected(api: ApiSpec) -> None:
    assert spec_field(api, "action").enum == ("Deny", "Pass")


def test_preserve_unknown_fields_without_type_is_any(api: ApiSpec) -> None:
    config = spec_field(api, "config")
    assert config.type.kind == "any" and config.preserve_unknown_fields
    assert api.models[ROOT].field("metadata").type.kind == "object"  # typed object stays object


def test_item_and_map_value_facts(api: ApiSpec) -> None:
    (usages,) = spec_field(api, "usages").elements
    assert (usages.of, usages.enum) == ("each item", ("sign", "", "verify"))
    (hosts,) = spec_field(api, "hostnames").elements
    assert dict(hosts.constraints) == {"minLength": 1, "maxLength": 253, "pattern": "^[a-z.]+$"}
    assert dict(spec_field(api, "hostnames").constraints) == {"maxItems": 16}
    (labels,) = spec_field(api, "labels").elements
    assert labels.of == "each value" and dict(labels.constraints) == {"maxLength": 63}
    assert dict(labels.validations[0])["rule"] == "self != 'forbidden'"
    assert spec_field(api, "labels").item_validations == ()  # export's key: array items only
    (deep,) = spec_field(api, "matrix").elements
    assert (deep.of, deep.enum, dict(deep.constraints)) == ("each item's item", (0, 1), {"minimum": 0})


def test_oneof_anyof_not_in_words(api: ApiSpec) -> None:
    match = spec_field(api, "match")
    assert [(a.label, a.options) for a in match.alternatives] == [
        ("exactly one of", ("exact", "prefix", "regex")),
        ("at least one of", ("exact and prefix", "regex is a")),
        ("not", ("legacy",))]
    (items,) = spec_field(api, "addresses").elements
    assert items.alternatives[0].options == (
        "type is IPAddress; value (format ipv4 or format ipv6)", "type not (is IPAddress)")


def test_export_carries_the_facts(api: ApiSpec) -> None:
    exported = json.loads(json.dumps(api.to_dict()))
    spec = next(m for m in exported["models"] if m["name"] == f"{ROOT}#spec")
    fields = {f["name"]: f for f in spec["fields"]}
    assert fields["config"]["type"] == {"kind": "any"}
    assert fields["action"]["enum"] == ["Deny", "Pass"]
    assert fields["usages"]["elements"] == [{"of": "each item", "enum": ["sign", "", "verify"]}]
    assert fields["labels"]["elements"][0]["constraints"] == {"maxLength": 63}
    assert fields["match"]["alternatives"][0] == {"kind": "oneOf", "options": ["exact", "prefix", "regex"]}
    assert fields["format"]["default"] == ""
    root = next(m for m in exported["models"] if m["name"] == ROOT)
    assert root["crd"]["selectableFields"] == [".spec.format", ".spec.action"]


@pytest.mark.parametrize(("text", "out"), [
    ("[the guide](https://example.com/guide).", '<a href="https://example.com/guide">the guide</a>.'),
    ("[x](javascript:alert(1))", "&#91;x&#93;(javascript:alert(1))"),
    ("[y](data:text/html,hi)", "&#91;y&#93;(data:text/html,hi)"),
    ("<script>alert(2)</script>", "&#60;script&#62;alert(2)&#60;/script&#62;"),
    ("[a `b`](https://e.com/x)", "&#91;a <code>b</code>&#93;(<a href=\"https://e.com/x\">https://e.com/x</a>)"),
    ('[q](https://e.com/"onmouseover=x)', '&#91;q&#93;(<a href="https://e.com/">https://e.com/</a>&#34;onmouseover&#61;x)'),
])
def test_markdown_links_only_for_http_urls(text: str, out: str) -> None:
    assert markup.inline(text) == out
    assert markup.cell(text) == out


@pytest.mark.integration
def test_rows_and_kind_page_show_every_fact(tmp_path: Path) -> None:
    from generator.config import Release
    from generator.pipeline.build import generate

    path = tmp_path / "gizmo.yaml"
    path.write_text(dump(facts_crd()), encoding="utf-8")
    pages = generate([Release("g1", str(path))]).pages
    page = pages["g1/example.com/v1/gizmo.md"]

    def row(anchor: str) -> str:
        found = re.search(rf'<tr id="{re.escape(anchor)}">.*?</tr>', page)
        assert found, anchor
        return found.group(0)

    def text(anchor: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", row(anchor).replace("<br>", "\n")))

    assert "enum: Deny, Pass" in text("field-spec.action")
    assert "<td>any</td>" in row("field-spec.config")
    assert 'each item enum: sign, "", verify' in text("field-spec.usages")
    hosts = text("field-spec.hostnames")
    assert "each item maxLength: 253" in hosts and "each item pattern: ^[a-z.]+$" in hosts
    assert "maxItems: 16" in hosts
    labels = text("field-spec.labels")
    assert "each value maxLength: 63" in labels
    assert "validation of each value: self != 'forbidden', message: no" in labels
    assert "each item's item enum: 0, 1" in text("field-spec.matrix")
    fmt = text("field-spec.format")
    assert 'enum: "", logfmt, json' in fmt and 'default: ""' in fmt
    match = text("field-spec.match")
    assert "exactly one of: exact, prefix, regex" in match
    assert "at least one of: exact and prefix, regex is a" in match and "not: legacy" in match
    assert ("each item exactly one of: type is IPAddress; value (format ipv4 or format ipv6), "
            "type not (is IPAddress)") in text("field-spec.addresses")
    assert "Selectable fields</th><td><code>.spec.format</code>, <code>.spec.action</code>" in page
    # hostile Markdown in a description: only the http(s) link is a link
    spec = row("field-spec")
    assert '<a href="https://example.com/guide">the guide</a>' in spec
    assert "javascript:" not in re.sub(r"&#91;x&#93;\(javascript:alert\(1\)\)", "", spec)
    assert "<script" not in spec and "<img" not in spec and "data:text" not in spec.replace(
        "&#91;y&#93;(data:text/html,hi)", "")
    external = [h for h in re.findall(r'href="([^"]*)"', spec) if not h.startswith(("#", "../"))]
    assert external == ["https://example.com/guide"]
