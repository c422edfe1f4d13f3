"""The table of contents of a builder-function sub-page (``pages/builders.md.j2``): its ``obj``
groups as Markdown headings, the page's compact index cut into one list per heading.

The groups of the upper levels have a heading each (the table of contents lists them, nested as
the index), as many levels as keep the entries within ``TOC_ENTRIES``: each entry is in the page
twice (the theme's sidebar and its phone drawer's copy), and a sub-page can hold hundreds of
groups. A deeper group stays a line of its heading's list (its anchor kept), and the page says
how deep the table of contents goes (``BuilderToc.cut``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from generator.views.crd import EMPHASIS, PLAIN_LABEL, attr_id

TOC_ENTRIES = 120
"""Most ``obj`` groups a builder sub-page lists in its table of contents (all of the levels that
fit, at least the first)."""
TOP_LEVEL = 2
"""The heading level of the page's first-level groups (under its ``#`` title)."""


class Line(Protocol):
    """A line of a compact builder index (``views.builder_section.IndexLine``)."""

    @property
    def depth(self) -> int: ...
    @property
    def label(self) -> str: ...
    @property
    def anchor(self) -> str: ...
    @property
    def opens(self) -> bool: ...
    @property
    def closes(self) -> int: ...
    def _replace(self, *, depth: int, closes: int) -> Line: ...


@dataclass(frozen=True)
class IndexPart:
    """A heading (``None``: the lines before the first one) and the index lines under it that
    have no heading of their own, their depths from 0."""

    heading: Line | None
    level: int
    title: str
    """The group's path after the page's top (``template.spec``)."""
    label: str
    """The table-of-contents label: the path after the group it is listed under; ``""``: as the
    title."""
    lines: list[Line]
    anchor: str = ""
    """The heading's anchor as its attribute list writes it (``views.crd.attr_id``)."""
    path: str = ""
    """The group's whole path (``spec.generators.matrix.template``), where it is plain text a
    Markdown link's title keeps as it is (else ``""``)."""


@dataclass(frozen=True)
class BuilderToc:
    parts: list[IndexPart]
    levels: int
    """How many levels of groups have a heading."""
    listed: int
    """Groups with a heading (table-of-contents entries)."""
    groups: int
    """Groups whose members are on the page."""

    @property
    def cut(self) -> bool:
        """Some groups are not in the table of contents (only in their heading's list)."""
        return self.listed < self.groups


@dataclass
class _Node:
    line: Line | None
    children: list[_Node]


def _tree(lines: Sequence[Line]) -> _Node:
    root = _Node(None, [])
    stack = [root]
    for line in lines:
        del stack[line.depth + 1:]
        node = _Node(line, [])
        stack[-1].children.append(node)
        stack.append(node)
    return root


def _is_group(node: _Node) -> bool:
    return node.line is not None and node.line.opens and node.line.label.startswith("obj ")


def builder_toc(lines: Sequence[Line], top: str) -> BuilderToc:
    """``lines`` (a sub-page's index, depths from 0) as headed parts; ``top``: the dotted path of
    the page's ``obj`` (``spec.generators.matrix``)."""
    root = _tree(lines)
    counts: dict[int, int] = {}
    stack = [(c, 0) for c in root.children]
    while stack:
        node, depth = stack.pop()
        if _is_group(node):
            counts[depth] = counts.get(depth, 0) + 1
            stack.extend((c, depth + 1) for c in node.children)
    levels, listed = (1, counts[0]) if counts.get(0) else (0, 0)
    while levels and levels in counts and listed + counts[levels] <= TOC_ENTRIES \
            and TOP_LEVEL + levels <= 6:
        listed += counts[levels]
        levels += 1
    parts: list[IndexPart] = []

    def flat(node: _Node, shift: int, out: list[tuple[Line, int]]) -> None:
        assert node.line is not None
        out.append((node.line, node.line.depth - shift))
        for child in node.children:
            flat(child, shift, out)

    def walk(node: _Node, depth: int, parent: str) -> None:
        """``node``'s part (its own lines and groups without a heading), then its groups with
        one; ``parent``: the title of the group it is listed under."""
        lines_: list[tuple[Line, int]] = []
        headed = []
        for child in node.children:
            if depth < levels and _is_group(child):
                headed.append(child)
            else:
                flat(child, depth, lines_)
        title = _relative(node.line.label.removeprefix("obj "), top) if node.line else ""
        if node.line is not None or lines_:
            label = _relative(title, parent) if parent else ""
            if label == title or not PLAIN_LABEL.fullmatch(label) or EMPHASIS.search(label):
                label = ""
            whole = node.line.label.removeprefix("obj ") if node.line else ""
            parts.append(IndexPart(node.line, TOP_LEVEL + depth - 1, title, label, _closed(lines_),
                                   attr_id(node.line.anchor) if node.line else "",
                                   whole if PLAIN_LABEL.fullmatch(whole) and not EMPHASIS.search(whole)
                                   else ""))
        for child in headed:
            walk(child, depth + 1, title)

    walk(root, 0, "")
    groups = sum(counts.values())
    return BuilderToc(parts, levels, listed, groups)


def _relative(path: str, top: str) -> str:
    return path[len(top) + 1:] if top and path.startswith(top + ".") else path


def _closed(lines: list[tuple[Line, int]]) -> list[Line]:
    """``lines`` at their new depths, with how many lists end before each recounted
    (``IndexLine.closes``)."""
    out: list[Line] = []
    before = 0
    for i, (line, depth) in enumerate(lines):
        closes = max(before - depth, 0) if i else 0
        before = depth
        same = line.depth == depth and line.closes == closes
        out.append(line if same else line._replace(depth=depth, closes=closes))
    return out
