"""Descriptions as their authors wrote them, on every CRD set of ``../shared/crds`` built as a
real site (issue 34 item 3), read from the CRD files independently of the generator's model
(``test_crd_corpus_pages``' helpers):

- every same-page link (``href="#x"``) has its target on the page;
- every description with a ``-``/``*`` list shows it as a list (one ``<li>`` per item, the
  item's words in it), not run together;
- every description of an array's scalar items (a map's scalar values) is in its field's row
  (``each item: …``);
- no type is ``[]?``; untyped preserve-unknown-fields items are ``[]any`` / ``map[string]any``.

Slow (a whole-site build per set); run one set with ``-k argo-cd``."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.repeats import repeats, shown_at
from test_crd_corpus_pages import SETS, built, camel_lower, crds  # noqa: F401  (built: fixture)

from generator.views.site import path_anchor

pytestmark = [pytest.mark.slow, pytest.mark.shared]

_ID = re.compile(r'\sid="([^"]+)"')
_HREF = re.compile(r'href="#([^"]*)"')
_ROW = re.compile(r'<tr id="(field-[^"]+)"><td>.*?</td><td>(.*?)</td><td>(.*?)</td><td>.*?</td></tr>')
_BULLET = re.compile(r"^\s*[-*]\s+(\S.*)$", re.M)
_TAG = re.compile(r"<[^>]+>")
_BLOCK_TAG = re.compile(r"</?(?:p|ul|ol|li|div|br|em)\b[^>]*>")


def plain(markup: str) -> str:
    """Text of some HTML: block tags part words, other tags (code, a, wbr) join them, entities
    decoded, whitespace collapsed."""
    return " ".join(html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", markup))).split())


def words(source: str, n: int = 4) -> str:
    """The first ``n`` words of description text as a page shows them: code-span backticks and
    Markdown links' brackets and targets gone."""
    text = re.sub(r"\[([^\]]*)\]\(https?://[^)]*\)", r"\1", source).replace("`", "")
    return " ".join(text.split()[:n])


def fields(schema: Any, prefix: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """(field path, schema) of every property under ``schema``, the path as the model writes it
    (``spec.rules[].matches[]``: an array's items add ``[]``, a map's values ``{}``)."""
    if not isinstance(schema, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        path = f"{prefix}.{name}" if prefix else name
        if isinstance(sub, dict):
            yield path, sub
            yield from fields(sub, path)
    yield from fields(schema.get("items"), prefix + "[]")
    yield from fields(schema.get("additionalProperties"), prefix + "{}")


def row_of(rows: dict[str, tuple[str, str]], path: str) -> tuple[str, str] | None:
    """(type cell, description cell) of the row of field ``path``, by the anchor rule of
    ``views.site.path_anchor`` (a long or hostile path cut, a digest added)."""
    return rows.get(path_anchor("field-", path, set()))


def scalar_elements(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(``each item`` / ``each value``…, schema) of an array's items and a map's values, level by
    level, that are not objects with properties (whose sections show their descriptions)."""
    words_, current = "", schema
    while True:
        if current.get("type") == "array" and isinstance(current.get("items"), dict):
            current, of = current["items"], "item"
        elif (current.get("type") in ("object", None) and "properties" not in current
              and isinstance(current.get("additionalProperties"), dict)):
            current, of = current["additionalProperties"], "value"
        else:
            return
        words_ = f"{words_}'s {of}" if words_ else f"each {of}"
        if "properties" not in current and "$ref" not in current:
            yield words_, current


def untyped(schema: dict[str, Any]) -> bool:
    return (not schema.get("type") and schema.get("x-kubernetes-preserve-unknown-fields") is True
            and "additionalProperties" not in schema and not schema.get("properties")
            and "x-kubernetes-int-or-string" not in schema)


@pytest.mark.parametrize("name", SETS)
def test_links_lists_item_descriptions_and_any_types(built: Any, shared: Path,  # noqa: F811
                                                     name: str) -> None:
    site = built(name)
    pages = {p: p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    # every same-page link has its target
    missing = []
    for page, text in pages.items():
        ids = {html.unescape(i) for i in _ID.findall(text)}
        missing += [(page.relative_to(site).as_posix(), h) for h in _HREF.findall(text)
                    if h and html.unescape(h) not in ids]
    assert not missing, missing[:10]
    assert not [p for p, t in pages.items() if re.search(r"(\[\]|&#91;&#93;|map\[string\]|"
                                                         r"map&#91;string&#93;)\?", t)]
    lists = items = anys = checked = ambiguous = 0
    for crd in crds(shared / "crds" / "corpus" / name):
        spec = crd["spec"]
        for version in spec["versions"]:
            if not (version.get("served") or version.get("storage")):
                continue
            directory = site / spec["group"] / version["name"] / camel_lower(spec["names"]["kind"])
            rows: dict[str, tuple[str, str]] = {}
            kind_pages = [pages[page] for page in directory.rglob("index.html")]  # and sub-pages
            for text in kind_pages:
                rows.update((a, (t, d)) for a, t, d in _ROW.findall(text))
            refs = repeats(kind_pages)  # objects shown once: their rows are under the first
            schema = (version.get("schema") or {}).get("openAPIV3Schema") or {}
            for path, sub in fields(schema):
                row = row_of(rows, shown_at(path, refs))
                checked += 1
                if row is None:  # two paths of one anchor on a page (their rows: test_crd_corpus_pages)
                    ambiguous += 1
                    continue
                type_cell, description = row
                bullets = _BULLET.findall(str(sub.get("description", "")))
                if len(bullets) >= 2:  # a list as its author wrote it: one <li> per item
                    shown = [plain(li) for li in re.findall(r"<li>(.*?)</li>", description)]
                    for bullet in bullets:
                        assert any(li.startswith(words(bullet)) for li in shown), (
                            directory, path, bullet, description[:600])
                    lists += 1
                for of, element in scalar_elements(sub):
                    if element.get("description"):
                        assert f"<em>{of}:</em>" in description, (directory, path, of)
                        assert words(element["description"], 6) in plain(description), (directory, path)
                        items += 1
                if untyped(sub.get("items") or {}) and sub.get("type") == "array":
                    assert plain(type_cell) == "[]any", (directory, path, type_cell)
                    anys += 1
                extra = sub.get("additionalProperties")
                if isinstance(extra, dict) and untyped(extra) and not sub.get("properties"):
                    assert plain(type_cell) == "map[string]any", (directory, path, type_cell)
                    anys += 1
    assert checked > 100 and ambiguous < checked / 20, (checked, ambiguous)
    expected = {"argo-cd": (3, 1, 0), "cluster-api": (1, 0, 10), "crossplane": (1, 0, 0)}
    assert (anys, items, lists) >= expected.get(name, (0, 0, 0)), (anys, items, lists)
    print(name, {"checked": checked, "lists": lists, "item descriptions": items, "any": anys})
