"""``generate --format gfm``: plain GitHub-flavoured Markdown, read by a GFM renderer
(markdown-it-py with GFM tables and strikethrough, raw HTML recognised so that any would show)."""

from __future__ import annotations

import difflib
import json
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import FIXTURES, HOSTILE
from markdown_it import MarkdownIt

from generator.cli import main
from generator.config import Release, VersionsOptions
from generator.pipeline.build import generate
from generator.pipeline.state import GeneratedSite
from generator.render import gfm

pytestmark = pytest.mark.integration

RENDERER = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
STATUS_132 = "1.32/resource/v1beta1/resourceClaimStatus.md"
STATUS_131 = "1.31/resource/v1alpha3/resourceClaimStatus.md"


@pytest.fixture(scope="module")
def gfm_site() -> GeneratedSite:
    return generate([Release("1.31"), Release("1.32")], page_format="gfm")


@pytest.fixture(scope="module")
def gfm_pages(gfm_site: GeneratedSite) -> dict[str, str]:
    return gfm_site.pages


def tokens(text: str) -> Iterator[Any]:
    def walk(items: list[Any]) -> Iterator[Any]:
        for token in items:
            yield token
            yield from walk(token.children or [])
    return walk(RENDERER.parse(text))


def html_of(text: str) -> list[str]:
    """Raw HTML the renderer found in a page (none is allowed)."""
    return [t.content for t in tokens(text) if t.type in ("html_block", "html_inline")]


def test_pages_of_131_and_132_contain_no_html(gfm_pages: dict[str, str]) -> None:
    assert len(gfm_pages) > 1300
    found = {path: html_of(text) for path, text in gfm_pages.items()}
    assert {path: tags for path, tags in found.items() if tags} == {}
    assert not any("k8s-api-docs:html" in text or "<table" in text for text in gfm_pages.values())


def _property_rows(page: str) -> list[list[str]]:
    """Cells (rendered HTML) of the body rows of the table under ``## Properties``."""
    html = RENDERER.render(page)
    table = html[html.index('<h2>Properties</h2>'):]
    table = table[:table.index("</table>")]
    body = table[table.index("<tbody>"):]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)
    return [re.findall(r"<td>(.*?)</td>", row, re.DOTALL) for row in rows]


def test_property_table_renders_as_a_table_with_one_row_per_field(
        gfm_site: GeneratedSite, gfm_pages: dict[str, str], api_132: Any, api_131: Any) -> None:
    rows = _property_rows(gfm_pages[STATUS_132])
    fields = api_132.models["io.k8s.api.resource.v1beta1.ResourceClaimStatus"].fields
    assert [r[0] for r in rows] == [f"<code>{f.name}</code>" for f in fields]
    assert all(len(r) == 4 for r in rows)
    devices = next(r for r in rows if r[0] == "<code>devices</code>")
    assert '<a href="allocatedDeviceStatus.md">AllocatedDeviceStatus</a>' in devices[1]
    assert "Devices contains the status of each device" in devices[2]
    assert "since 1.32" in devices[3]
    old_rows = _property_rows(gfm_pages[STATUS_131])
    old_fields = api_131.models["io.k8s.api.resource.v1alpha3.ResourceClaimStatus"].fields
    assert [r[0] for r in old_rows] == [f"<code>{f.name}</code>" for f in old_fields]
    assert "<code>deallocationRequested</code>" in [r[0] for r in old_rows]
    # every model page of both releases: one row per field, four cells each (a stray | would
    # split a cell, a newline would end the table)
    for api, plan in zip(gfm_site.apis, gfm_site.plans, strict=True):
        for name, path in plan.model_pages.items():
            fields = api.models[name].fields
            if fields:
                assert [len(r) for r in _property_rows(gfm_pages[path])] == [4] * len(fields), path


def test_every_relative_link_resolves_to_a_generated_page(gfm_pages: dict[str, str]) -> None:
    checked = 0
    for path, text in gfm_pages.items():
        for token in tokens(text):
            if token.type != "link_open":
                continue
            href = str(token.attrs["href"])
            if href.startswith(("https://", "http://")):
                continue
            assert "#" not in href and href.endswith(".md"), (path, href)
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), href))
            assert target in gfm_pages, (path, href)
            checked += 1
    assert checked > 25_000
    assert "](../../../1.31/resource/v1alpha3/resourceClaimStatus.md)" in gfm_pages[STATUS_132]


def _spec_with(tmp_path: Path, name: str, description: str) -> Path:
    spec = json.loads((FIXTURES / "versions" / "gadget-new.json").read_text(encoding="utf-8"))
    color = spec["definitions"]["io.example.api.gadgets.v1.GadgetSpec"]["properties"]["color"]
    color["description"] = description
    path = tmp_path / name
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


def test_one_changed_field_description_is_a_one_line_diff(tmp_path: Path) -> None:
    old = FIXTURES / "versions" / "gadget-old.json"
    pages = []
    for i, text in enumerate(("Paint to use. At most 5 coats.", "Paint to use. At most 6 coats.")):
        new = _spec_with(tmp_path, f"new-{i}.json", text)
        site = generate([Release("1.0", str(old)), Release("2.0", str(new))], page_format="gfm",
                        versions=VersionsOptions(history="site"))
        pages.append(site.pages)
    page = "2.0/gadgets/v1/gadgetSpec.md"
    lines = difflib.unified_diff(pages[0][page].splitlines(), pages[1][page].splitlines(),
                                 lineterm="", n=0)
    diff = [line for line in lines if not line.startswith(("---", "+++", "@@"))]
    assert len(diff) == 2 and diff[0].startswith("-| `color` |") and diff[1].startswith("+| `color` |")
    assert "6 coats" in diff[1]
    changed = [p for p in pages[0] if pages[0][p] != pages[1][p]]
    assert changed == ["2.0/changes.md", page]  # and the change page lists the edit


def test_hostile_text_stays_inert(tmp_path: Path) -> None:
    pages = generate([Release("x", str(HOSTILE))], page_format="gfm").pages
    for path, text in pages.items():
        assert html_of(text) == [], path
        rendered = RENDERER.render(text)
        assert "<script" not in rendered and "<img" not in rendered and "<iframe" not in rendered, path
        for href in re.findall(r'href="([^"]*)"', rendered):
            assert href.startswith(("https://", "http://")) or href.endswith(".md"), (path, href)


def test_escaping_rules() -> None:
    assert gfm.cell("a | b `c|d` <b>x</b> *y* _z_ [l](u) $m$ ~~s~~ &amp;") == (
        "a \\| b `c\\|d` \\<b\\>x\\</b\\> \\*y\\* \\_z\\_ \\[l\\](u) \\$m\\$ \\~\\~s\\~\\~ \\&amp;")
    assert gfm.block("# Title\n- item\n1. one\n+ plus\n=====") == (
        "\\# Title\n\n- item\n  1\\. one\n  \\+ plus\n  \\=====")
    assert gfm.code("a`b") == "``a`b``" and gfm.code("`x") == "`` `x ``"
    link = RENDERER.render(gfm.inline("see https://k8s.io/docs/(x)."))  # trailing ")." is text
    assert link == '<p>see <a href="https://k8s.io/docs/%28x">https://k8s.io/docs/(x</a>).</p>\n'
    assert gfm.inline("javascript:alert(1) file:///etc/passwd") == "javascript:alert(1) file:///etc/passwd"
    rendered = RENDERER.render("| a |\n| --- |\n| " + gfm.cell("x | y `p|q` <script>") + " |\n")
    assert rendered.count("<td>") == 1 and "<code>p|q</code>" in rendered and "&lt;script&gt;" in rendered


def test_check_works_on_gfm_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs"
    args = ["--version", "1.0", "--source", str(FIXTURES / "versions" / "gadget-old.json"),
            "--version", "2.0", "--source", str(FIXTURES / "versions" / "gadget-new.json"),
            "--history", "site"]
    assert main(["generate", *args, "--format", "gfm", "--out", str(out), "-q"]) == 0
    assert main(["check", str(out), *args]) == 0  # the format recorded in DIR
    assert "up to date (" in capsys.readouterr().out
    assert main(["check", str(out), *args, "--format", "mkdocs"]) == 1
    page = out / "2.0" / "gadgets" / "v1" / "gadgetSpec.md"
    page.write_text(page.read_text(encoding="utf-8").replace("5 coats", "7 coats"), encoding="utf-8")
    assert main(["check", str(out), *args]) == 1
    report = capsys.readouterr().out
    assert "page edited         2.0/gadgets/v1/gadgetSpec.md" in report and "+| `color` |" in report


def test_gfm_template_override_extends_its_base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "templates" / "gfm" / "pages"
    overrides.mkdir(parents=True)
    wrapper = overrides / "model.md.j2"
    wrapper.write_text('{% extends "pages/_base/model.md.j2" %}\n{% block appears_in %}{{ super() }}\n'
                       "Maintained by the platform team.\n{% endblock %}\n", encoding="utf-8")
    args = ["generate", "--version", "1.0", "--source", str(FIXTURES / "versions" / "gadget-new.json"),
            "--templates", str(tmp_path / "templates"), "-q"]
    assert main([*args, "--format", "gfm", "--out", str(tmp_path / "gfm")]) == 0
    page = (tmp_path / "gfm" / "1.0" / "gadgets" / "v1" / "gadgetSpec.md").read_text(encoding="utf-8")
    assert page.endswith("- [Gadget](gadget.md) (gadgets/v1)\n\nMaintained by the platform team.\n")
    assert main([*args, "--out", str(tmp_path / "html")]) == 0  # the mkdocs pages ignore gfm/
    assert "platform team" not in (tmp_path / "html" / "1.0" / "gadgets" / "v1" / "gadgetSpec.md").read_text()
    wrapper.write_text('{% extends "pages/model.md.j2" %}\n', encoding="utf-8")
    assert main([*args, "--format", "gfm", "--out", str(tmp_path / "gfm")]) == 2
    assert 'extend "pages/_base/model.md.j2" instead' in capsys.readouterr().err


def test_stage_notes_read_as_the_html_badges() -> None:
    """A stage without a named gate, or said of a value, reads as on the MkDocs pages."""
    from types import SimpleNamespace

    from generator.analysis.gates import FeatureGate
    from generator.render.env import macro, make_env
    from generator.views.notes import row_notes

    def row(*gates: FeatureGate) -> Any:
        return SimpleNamespace(required=False, notes=(), code_notes=(), gates=gates, history=None)

    gfm_notes = macro(make_env(page_format="gfm"), "partials/notes.md.j2", "notes")

    def notes(r: Any) -> str:  # the GFM notes partial over the row's notes
        return str(gfm_notes(row_notes(r.required, r.notes, r.code_notes, r.gates, r.history)))

    assert notes(row(FeatureGate("", "alpha"))) == "optional; alpha field"
    assert notes(row(FeatureGate("FooBar", "beta"))) == "optional; beta · feature gate `FooBar`"
    assert notes(row(FeatureGate("FooBar", "alpha", of_value=True))) == (
        "optional; alpha value · feature gate `FooBar`")
    assert notes(row(FeatureGate("FooBar", ""))) == "optional; feature gate `FooBar`"
