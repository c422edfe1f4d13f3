"""Read the parts of a generated model page that tests assert on (the tables and lists are raw
HTML blocks, one row or item per line)."""

from __future__ import annotations

import html
import re

_ROW = re.compile(r'^<tr id="field-[a-z0-9-]+"><td>(?:<a class="k8s-field-link"[^>]*>#</a>)?'
                  r'<code>((?:[^<]|<wbr>)+)</code></td>')
_CELL = re.compile(r"<td>(.*?)</td>")


def table_rows(page: str) -> dict[str, str]:
    """Property-table rows (``<tr>…</tr>`` lines) by field name, without the ``<wbr>`` line-break
    opportunities in identifiers (``render.env.wbr``)."""
    rows = {}
    for line in page.splitlines():
        match = _ROW.match(line)
        if match:
            rows[match.group(1).replace("<wbr>", "")] = line.replace("<wbr>", "")
    return rows


def cells(row: str) -> list[str]:
    """The cells of a table row: field, type, description, notes."""
    return _CELL.findall(row)


def notes(row: str) -> str:
    return cells(row)[-1]


def other_versions_line(page: str) -> str:
    """The ``Other versions:`` line of a model page."""
    return next(ln for ln in page.splitlines() if "<strong>Other versions:</strong>" in ln)


_CODE = re.compile(
    r'<div class="language-([\w-]+) highlight"><pre><span></span><code>(.*?)</code></pre></div>', re.S)
_TAG = re.compile(r"<[^>]+>")


def code_blocks(page: str) -> list[tuple[str, str]]:
    """``(language, code)`` of each highlighted code block, the code as a reader copies it."""
    return [(lang, html.unescape(_TAG.sub("", body))) for lang, body in _CODE.findall(page)]


def example_blocks(page: str) -> dict[str, str]:
    """The Example tabs' code by language (not the status block after them)."""
    section = page.split("\n## Example", 1)[1].split('<div class="k8s-example-status">', 1)[0]
    return dict(code_blocks(section))


def example_status(page: str) -> str:
    """The code of the status block after the Example tabs ("" when the page has none)."""
    parts = page.split('<div class="k8s-example-status">', 1)
    return code_blocks(parts[1])[0][1] if len(parts) == 2 else ""


def html_rows(page: str, heading: str) -> list[str]:
    """Every body row (a ``<tr …>…</tr>`` line) of the first table after ``## heading``."""
    part = page.split(f"\n## {heading}\n", 1)[1]
    table = part[part.index("<tbody>"): part.index("</tbody>")]
    return [line for line in table.splitlines() if line.startswith("<tr")]
