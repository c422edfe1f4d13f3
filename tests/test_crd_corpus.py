"""The corpus test: every property of every version of every CRD of real projects has its row,
and the row shows what the CRD file says of it (name, type, required, effective enum, default
with ``""``, constraints, CEL rules, item and map-value constraints, oneOf/anyOf/not rules).

The facts are read from the CRD files by ``helpers.crd_schema_facts`` (its own YAML walk, nothing
of the generator's model); the rows from the Markdown pages ``generate`` writes (the property
tables are raw HTML in them: what the reader sees)."""

from __future__ import annotations

import hashlib
import html
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from crd_facts_fixture import facts_crd
from crd_fixtures import dump
from helpers.crd_schema_facts import CrdVersion, crd_versions
from helpers.paths import SHARED
from helpers.repeats import repeats, shown_at

from generator.config import Release
from generator.pipeline.build import generate

pytestmark = pytest.mark.integration

CRDS = SHARED / "crds"
CORPUS = CRDS / "corpus"
PROJECTS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []
SETS = {**{p: CORPUS / p for p in PROJECTS}, "cert-manager": CRDS / "cert-manager",
        "gateway-api-v1.2.0": CRDS / "gateway-api" / "v1.2.0"}
_ROW = re.compile(r'<tr id="(field-[^"]*)">(.*?)</tr>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_NOTE = re.compile(r"^(.*?): ((?:<code>.*?</code>(?:, )?)+)$", re.DOTALL)
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
Notes = Counter[tuple[str, tuple[str, ...]]]
Rows = dict[str, tuple[str, str, Notes, bool]]


def text(fragment: str) -> str:
    return html.unescape(_TAG.sub("", fragment.replace("<wbr>", "")))


def anchors(path: str) -> tuple[str, ...]:
    """Link targets a row of field ``path`` may have (docs/crd-facts.md: the path without ``[]``
    and ``{}``; a digest of the path added when it has other characters or clashes)."""
    plain = path.replace("[]", "").replace("{}", "")
    safe = _UNSAFE.sub("-", plain)[:120]
    digest = hashlib.sha256(path.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return ("field-" + plain, f"field-{safe}-{digest}")


def parse_rows(pages: list[str]) -> Rows:
    """Row id → (name, type, code notes, required) of every property row of ``pages``."""
    out = {}
    for page in pages:
        for anchor, body in _ROW.findall(page):
            cells = body.removeprefix("<td>").removesuffix("</td>").split("</td><td>")
            name, type_cell, _, notes = cells
            found: Notes = Counter()
            parts = notes.split("<br>")
            for part in parts:
                match = _NOTE.match(part)
                if match:
                    codes = re.findall(r"<code>(.*?)</code>", match.group(2))
                    values = tuple(html.unescape(v) for v in codes)
                    found[(text(match.group(1)), values)] += 1
            out[anchor] = (text(name).lstrip("#"), text(type_cell.split("<br>")[0]).strip(), found,
                           text(parts[0]) == "required")
    return out


def kind_pages(pages: dict[str, str], release: str) -> dict[tuple[str, str, str], list[str]]:
    """(group, version, kind) → its kind page and sub-pages."""
    out: dict[tuple[str, str, str], list[str]] = {}
    for path, page in pages.items():
        parts = path.split("/")
        if len(parts) == 4 and parts[0] == release and page.startswith("# "):
            kind = page.split("\n", 1)[0][2:].strip()
            stem = path.removesuffix(".md")
            out[(parts[1], parts[2], kind)] = [page] + [
                p for other, p in pages.items() if other.startswith(stem + "/")]
    return out


def check_version(crd: CrdVersion, rows: Rows, refs: dict[str, str] | None = None) -> list[str]:
    """What the rows of one CRD version miss or say wrongly (empty: all right)."""
    problems = []
    where = f"{crd.kind} {crd.version}"
    for facts in crd.properties:
        at = shown_at(facts.path, refs or {})
        row = next((rows[a] for a in anchors(at) if a in rows), None)
        if row is None:
            problems.append(f"{where} {facts.path}: no row")
            continue
        name, type_text, notes, required = row
        if name != facts.name:
            problems.append(f"{where} {facts.path}: name {name!r}")
        if type_text != facts.type:
            problems.append(f"{where} {facts.path}: type {type_text!r}, not {facts.type!r}")
        if required != facts.required:
            problems.append(f"{where} {facts.path}: required is {required}")
        for label, values in facts.notes:
            if label.endswith("enum"):
                ok = any(lab == label and sorted(v) == sorted(values) for lab, v in notes)
            else:
                ok = notes[(label, tuple(values))] > 0
            if not ok:
                problems.append(f"{where} {facts.path}: no note {label}: {values[:5]}")
    return problems


def checked(source: Path, release: str, edit: Callable[[str], str] = lambda page: page) -> list[str]:
    """Problems of the pages ``generate`` writes for the CRDs at ``source`` (each page passed
    through ``edit`` first)."""
    versions = list(crd_versions(source))
    assert versions, f"no CRD read from {source}"
    site = generate([Release(release, str(source))])
    pages = kind_pages({path: edit(page) for path, page in site.pages.items()}, release)
    problems: list[str] = []
    for crd in versions:
        found = pages.get((crd.group, crd.version, crd.kind))
        if found is None:
            problems.append(f"{crd.kind} {crd.version}: no page")
            continue
        problems += check_version(crd, parse_rows(found), repeats(found))
        header = found[0].split("</table>", 1)[0]  # the CRD header table of the kind page
        selectable = text(header).split("Selectable fields", 1)[-1] if "Selectable fields" in header else ""
        problems += [f"{crd.kind} {crd.version}: selectable field {path} not on the kind page"
                     for path in crd.selectable_fields if path not in selectable]
    return problems


def test_the_check_finds_a_missing_fact(tmp_path: Path) -> None:
    """The fixture CRD of every fact passes; its pages with one fact, one row or one selectable
    field taken out do not."""
    path = tmp_path / "gizmo.yaml"
    path.write_text(dump(facts_crd()), encoding="utf-8")
    assert checked(path, "g1") == []
    assert checked(path, "g1", lambda p: p.replace("each item enum:", "enum:")) == [
        "Gizmo v1 spec.usages: no note each item enum: ['sign', '\"\"', 'verify']"]
    assert checked(path, "g1", lambda p: p.replace("exactly one of", "one of")) == [
        "Gizmo v1 spec.addresses: no note each item exactly one of: "
        "['type is IPAddress; value (format ipv4 or format ipv6)', 'type not (is IPAddress)']",
        "Gizmo v1 spec.match: no note exactly one of: ['exact', 'prefix', 'regex']"]
    empty = "default: <code>&#34;&#34;</code>"
    assert checked(path, "g1", lambda p: p.replace(empty, "default: <code></code>")) == [
        "Gizmo v1 spec.format: no note default: ['\"\"']"]
    every = "".join(f"<code>{v}</code>, " for v in ("Allow", "Deny", "Log"))  # not the intersection
    assert checked(path, "g1", lambda p: p.replace("enum: <code>Deny</code>, ", "enum: " + every)) == [
        "Gizmo v1 spec.action: no note enum: ['Deny', 'Pass']"]
    assert checked(path, "g1", lambda p: p.replace('<tr id="field-spec.labels">', "<tr>")) == [
        "Gizmo v1 spec.labels: no row"]
    assert checked(path, "g1", lambda p: p.replace("<td>any</td>", "<td>object</td>")) == [
        "Gizmo v1 spec.config: type 'object', not 'any'"]
    assert checked(path, "g1", lambda p: p.replace("<code>.spec.action</code>", "")) == [
        "Gizmo v1: selectable field .spec.action not on the kind page"]


@pytest.mark.shared
@pytest.mark.parametrize("name", list(SETS))
def test_every_property_of_every_crd_version_has_its_row_with_every_fact(shared: Path, name: str) -> None:
    problems = checked(SETS[name], name)
    total = sum(len(v.properties) for v in crd_versions(SETS[name]))
    assert not problems, f"{len(problems)} problems in {total} properties:\n" + "\n".join(problems[:25])
