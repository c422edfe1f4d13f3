"""Tables of contents of CRD sub-pages (issue 34 item 2): on every CRD set of ``../shared/crds``
built as a real site (corpus, cert-manager, Gateway API v1.2.0), every nested-object and
builder-function sub-page has a table of contents whose entries reach every section of the page
(directly, or where the page says the table is cut, through the list under a listed heading:
``helpers.sub_page_toc``), and stays within 500 KB of HTML. The checker's fixtures show it
failing; ``views.crd.toc_headings`` and ``views.builder_toc`` are checked on small inputs.

The sets are slow (a whole-site build each); run one with ``-k argo-cd``."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers.sub_page_toc import BUILDER, NESTED, toc_reach
from test_crd_corpus_pages import LIMIT, SETS, built  # noqa: F401  (built: fixture)

from generator.views.builder_section import IndexLine
from generator.views.builder_toc import TOC_ENTRIES, builder_toc
from generator.views.crd import attr_id, toc_headings


def _entry(anchor: str) -> str:
    return f'<li class="md-nav__item"><a href="#{anchor}" class="md-nav__link"><span>x</span></a></li>'


def _nested(toc: list[str], sections: list[str]) -> str:
    return (f"<nav>{''.join(_entry(a) for a in toc)}</nav><p>{NESTED}</p>"
            + "".join(f'<h3 id="{a}">{a}</h3><table></table>' for a in sections))


def test_the_checker_finds_a_section_the_table_of_contents_does_not_reach() -> None:
    sections = ["object-spec", "object-spec.a", "object-spec.a.b"]
    whole = toc_reach(_nested(sections, sections))
    assert (whole.kind, whole.sections, whole.direct, whole.unreached, whole.dangling) == (
        "nested", 3, 3, [], [])
    # one section left out of the table (the old TOC_SECTIONS cut, silently): found
    assert toc_reach(_nested(sections[:2], sections)).unreached == ["object-spec.a.b"]
    # an entry whose section is not on the page
    assert toc_reach(_nested([*sections, "object-spec.gone"], sections)).dangling == ["object-spec.gone"]
    # a section written without a heading of its own (a <section id>) and not listed: found too
    page = _nested(sections[:2], sections[:2]) + '<section class="k8s-nested" id="object-spec.c">'
    assert toc_reach(page).unreached == ["object-spec.c"]


def _builder(toc: list[str], cut: bool) -> str:
    note = '<p class="k8s-meta k8s-toc-cut">cut</p>' if cut else ""
    return (f"<nav>{''.join(_entry(a) for a in toc)}</nav><p>{BUILDER}</p>{note}"
            '<ul><li id="fn-specwithx">withX</li></ul>'
            '<h2 data-search-exclude id="obj-spectemplate">obj template</h2>'
            '<ul><li id="fn-spectemplatewithy">withY</li>\n'
            '<li id="obj-spectemplatemeta"><a href="../#field-x">obj meta</a><ul>\n'
            '<li id="fn-spectemplatemetawithz">withZ</li>\n</ul></li>\n'
            '<li id="obj-spectemplatemoved"><a href="../#f">obj moved</a>: '
            '<a class="k8s-builder-page" href="../p/">its 9 functions</a></li></ul>'
            '<h2 data-search-exclude id="obj-specother">obj other</h2>'
            '<ul><li id="obj-specotherdeep"><a href="../#f">obj deep</a><ul>\n'
            '<li id="fn-specotherdeepwithw">withW</li>\n</ul></li></ul>')


def test_the_checker_reads_a_builder_page_s_groups_and_its_cut() -> None:
    every = ["obj-spectemplate", "obj-spectemplatemeta", "obj-specother", "obj-specotherdeep"]
    whole = toc_reach(_builder(every, cut=False))
    # the moved group is a link to its page, not a section of this one
    assert (whole.kind, whole.sections, whole.unreached) == ("builder", 4, [])
    # the headings listed and the page saying its table is cut: the deeper groups are reached
    # through their heading's list
    listed = toc_reach(_builder(every[::2], cut=True))
    assert listed.cut and listed.unreached == [] and listed.direct == 2
    # the same without the note: a silent cut
    assert toc_reach(_builder(every[::2], cut=False)).unreached == [
        "obj-spectemplatemeta", "obj-specotherdeep"]
    # a heading left out: its group and the group in its list are not reached
    assert toc_reach(_builder(every[:1], cut=True)).unreached == ["obj-specother", "obj-specotherdeep"]


@dataclass
class _Section:
    path: str
    depth: int
    anchor: str = "object-x"


def test_headings_nest_as_the_tree_and_label_with_the_path_after_the_section_above() -> None:
    paths = [("spec", 1), ("spec.acme", 2), ("spec.acme.solvers[]", 3), ("spec.acme.solvers[].dns01", 4),
             ("spec.acme.solvers[].dns01.acmeDNS", 5), ("spec.acme.solvers[].dns01.acmeDNS.ref", 6),
             ("spec.acme.solvers[].http01", 4), ("spec.ca", 2), ("spec.x_y", 2), ("spec.x_y._a_", 3),
             ("spec.x_y.a*b", 3), ('spec.x_y.a"b', 3)]
    got = [(h.level, h.label) for h in toc_headings([_Section(p, d) for p, d in paths])]  # type: ignore[misc]
    assert got == [(3, ""), (4, "acme"), (5, "solvers[]"), (6, "dns01"), (6, "dns01.acmeDNS"),
                   (6, "dns01.acmeDNS.ref"), (6, "http01"), (4, "ca"), (4, "x_y"),
                   # what Markdown could read as emphasis, or could not keep in the attribute:
                   # the heading's own text (the whole path) labels it
                   (5, ""), (5, ""), (5, "")]
    # an anchor's underscores that Markdown could read as emphasis are escaped in the attribute list
    assert attr_id("object-spec._em_") == "object-spec.\\_em\\_"
    assert attr_id("object-spec.snake_case") == "object-spec.snake_case"


_Line = IndexLine  # the real line type: the table of contents moves lines with its own means


def _index(groups: int, children: int) -> list[_Line]:
    lines = [_Line(0, "fn withA(a)", "fn-a")]
    for g in range(groups):
        lines.append(_Line(0, f"obj top.g{g}", f"obj-g{g}", opens=True))
        lines.append(_Line(1, "fn withB(b)", f"fn-g{g}b"))
        for c in range(children):
            lines.append(_Line(1, f"obj top.g{g}.c{c}", f"obj-g{g}c{c}", opens=True))
            lines.append(_Line(2, "fn withC(c)", f"fn-g{g}c{c}c"))
    return lines


def test_builder_toc_heads_the_levels_that_fit_and_keeps_every_line() -> None:
    lines = _index(3, 2)
    toc = builder_toc(lines, "top")  # type: ignore[arg-type]
    assert (toc.levels, toc.listed, toc.groups, toc.cut) == (2, 9, 9, False)
    assert [(p.level, p.title, p.label) for p in toc.parts][:4] == [
        (1, "", ""), (2, "g0", ""), (3, "g0.c0", "c0"), (3, "g0.c1", "c1")]
    kept = [line.anchor for p in toc.parts for line in ([p.heading] if p.heading else []) + p.lines]
    assert sorted(kept) == sorted(line.anchor for line in lines)  # every line once
    # a part's lines start at depth 0 and each closes the lists the line before opened
    assert [(line.depth, line.closes) for line in toc.parts[1].lines] == [(0, 0)]
    big = builder_toc(_index(TOC_ENTRIES // 2, 3), "top")  # type: ignore[arg-type]
    assert big.cut and big.levels == 1 and big.listed == TOC_ENTRIES // 2
    part = big.parts[1]  # a group's functions and its groups without a heading, nested again
    assert [(line.depth, line.opens, line.closes) for line in part.lines] == [
        (0, False, 0), (0, True, 0), (1, False, 0), (0, True, 1), (1, False, 0), (0, True, 1), (1, False, 0)]


@pytest.mark.slow
@pytest.mark.shared
@pytest.mark.parametrize("name", SETS)
def test_every_sub_page_s_table_of_contents_reaches_every_section(built: Any,  # noqa: F811
                                                                  name: str) -> None:
    site: Path = built(name)
    reached = []
    for path in sorted(site.rglob("index.html")):
        text = path.read_text(encoding="utf-8")
        reach = toc_reach(text)
        if not reach.kind:
            continue
        where = path.relative_to(site).as_posix()
        assert len(text.encode()) <= LIMIT, (where, len(text.encode()))
        assert reach.sections > 0 and reach.direct > 0, (where, reach)
        assert reach.unreached == [] and reach.dangling == [], (
            where, reach.unreached[:5], reach.dangling[:5])
        if reach.kind == "nested":  # every section listed: the plan splits where it would not fit
            assert reach.direct == reach.sections and not reach.cut, (where, reach)
        reached.append(reach)
    if name in ("argo-cd", "../cert-manager", "external-secrets"):
        assert reached, name  # these sets have sub-pages
    if name == "argo-cd":  # ApplicationSet's builder pages: their headings listed, the rest said so
        assert len([r for r in reached if r.kind == "builder"]) >= 10
        assert any(r.cut for r in reached) and all(r.direct >= 10 for r in reached)


def _chain(names: list[str]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {"leaf": {"type": "string"}}}
    for name in reversed(names):
        schema = {"type": "object", "properties": {name: schema, "n": {"type": "integer"}}}
    return schema


def test_every_section_of_a_sub_page_is_in_python_markdown_s_table_of_contents(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile field names and a tree deeper than ``######``, through Python-Markdown (``toc``,
    ``attr_list``): each section's heading keeps its id and is a table-of-contents entry; a
    label is the path after the section above, or the heading's own text where the name is not
    plain."""
    import markdown
    from crd_fixtures import dump, widget_crd

    from generator.config import Release, VersionsOptions
    from generator.pipeline.build import generate
    from generator.views import site

    monkeypatch.setattr(site, "SPLIT_AT", 1)
    monkeypatch.setattr(site, "_SPLIT_MIN", 0)
    spec = _chain(["a1", "a2", "a3", "a4", "a5", "a6"])
    for name in ('q"uote', "_em_", "br}ace", "<b>x</b>", "[l](http://x)", "snake_case"):
        spec["properties"][name] = _chain(["z"])
    schema = {"type": "object", "properties": {"spec": spec}}
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd(schema=schema)), encoding="utf-8")
    pages = generate([Release("w1", str(path))], versions=VersionsOptions(enabled=False)).pages
    text = pages["w1/example.com/v1/widget/spec.md"]
    md = markdown.Markdown(extensions=["toc", "attr_list"], extension_configs={"toc": {"permalink": True}})
    html_ = md.convert(text)
    sections = re.findall(r'<h[3-6] id="(object-[^"]+)"', html_)
    entries: dict[str, str] = {}
    stack = list(md.toc_tokens)  # type: ignore[attr-defined]
    while stack:
        token = stack.pop()
        entries[token["id"]] = token["name"]
        stack.extend(token["children"])
    assert len(sections) == 19 and set(sections) <= set(entries), (sections, entries)
    assert not re.search(r"<h[1-6][^>]*>[^<]*\{ #", html_)  # no attribute list left as text
    assert entries["object-spec.a1.a2"] == "a2"
    assert entries["object-spec.a1.a2.a3"] == "a3"  # ######
    assert entries["object-spec.a1.a2.a3.a4.a5.a6"] == "a3.a4.a5.a6"  # listed under a2 (#####)
    assert entries["object-spec.snake_case"] == "snake_case"
    assert html.unescape(entries["object-spec._em_"]) == "spec._em_"  # its id kept (attr_id)
    hostile = [anchor for anchor in entries if "uote" in anchor or "br-ace" in anchor or "-b-x" in anchor
               or "l-http" in anchor]
    assert len(hostile) == 8 and all(entries[a].startswith("spec.") for a in hostile if ".z" not in a)
    assert all(entries[a] == "z" for a in hostile if ".z" in a), entries
