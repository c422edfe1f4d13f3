"""Golden tree: what ``generate`` writes for the fixture specs we wrote ourselves, file by file.

Every ``tests/fixtures/specs/*.json`` is a case of one release, plus ``gadget-versions`` (two
releases: change page, since/removed notes). The expected Markdown is committed under
``tests/golden/<case>/``; a renderer change makes this test fail with a unified diff per file.
After reviewing the diff, rewrite the tree with::

    UPDATE_GOLDEN=1 PYTHONPATH=$PWD python3 -m pytest tests/test_golden.py

and commit ``tests/golden/`` with the change. ``--history site`` keeps the pages independent of
the installed kubernetes-validate releases.
"""

from __future__ import annotations

import difflib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

import pytest
from helpers.paths import FIXTURES

from generator.cli import main

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")
MAX_DIFF_LINES = 400
"""A report longer than this is cut (a template change can touch every page)."""

CASES: dict[str, list[str]] = {
    spec.stem: ["--version", "x", "--source", f"specs/{spec.name}"]
    for spec in sorted((FIXTURES / "specs").glob("*.json"))
}
CASES["gadget-versions"] = [
    "--version", "1.0", "--source", "versions/gadget-old.json",
    "--version", "1.1", "--source", "versions/gadget-new.json",
]
"""Sources are given relative to ``tests/fixtures`` (the working directory of the run), so pages
that name their source are the same in every checkout."""


def read_tree(root: Path) -> dict[str, str]:
    """Every file below ``root`` (the tool's ownership marker aside), by POSIX path."""
    return {p.relative_to(root).as_posix(): p.read_bytes().decode("utf-8")
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".k8s-api-docs"}


def golden_report(case: str, golden: Mapping[str, str], generated: Mapping[str, str]) -> str:
    """Empty when the trees are equal; else the missing and new files and a unified diff of
    each changed one, golden → generated."""
    lines: list[str] = []
    for path in sorted(golden.keys() - generated.keys()):
        lines.append(f"missing: {path} (in tests/golden/{case}, not generated any more)")
    for path in sorted(generated.keys() - golden.keys()):
        lines.append(f"new: {path} (generated, not in tests/golden/{case})")
    for path in sorted(golden.keys() & generated.keys()):
        if golden[path] != generated[path]:
            lines.extend(difflib.unified_diff(
                golden[path].splitlines(), generated[path].splitlines(),
                f"tests/golden/{case}/{path}", f"generated/{path}", lineterm=""))
    if not lines:
        return ""
    if len(lines) > MAX_DIFF_LINES:
        lines = [*lines[:MAX_DIFF_LINES], f"… ({len(lines) - MAX_DIFF_LINES} more lines)"]
    return "\n".join([
        f"generated pages of case {case!r} differ from tests/golden/{case}/:", *lines,
        "If the change is intended: UPDATE_GOLDEN=1 PYTHONPATH=$PWD python3 -m pytest "
        "tests/test_golden.py, then review and commit tests/golden/."])


def generate_case(case: str, out: Path) -> dict[str, str]:
    cwd = Path.cwd()
    os.chdir(FIXTURES)
    try:
        assert main(["generate", *CASES[case], "--history", "site", "--out", str(out.resolve()),
                     "-q"]) == 0
    finally:
        os.chdir(cwd)
    return read_tree(out)


@pytest.mark.parametrize("case", sorted(CASES))
def test_generated_pages_equal_the_golden_tree(case: str, tmp_path: Path) -> None:
    generated = generate_case(case, tmp_path / "out")
    assert len(generated) >= 5
    if UPDATE:
        shutil.rmtree(GOLDEN / case, ignore_errors=True)
        for path, text in generated.items():
            target = GOLDEN / case / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
        return
    if not (GOLDEN / case).is_dir():
        pytest.fail(f"no golden tree for case {case!r}: run UPDATE_GOLDEN=1 PYTHONPATH=$PWD python3 -m "
                    "pytest tests/test_golden.py, then review and commit tests/golden/", pytrace=False)
    report = golden_report(case, read_tree(GOLDEN / case), generated)
    if report:
        pytest.fail(report, pytrace=False)


def test_every_golden_tree_has_a_case() -> None:
    stale = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir() and p.name not in CASES)
    assert not stale, f"tests/golden/ has trees of no case (delete them): {stale}"


def test_golden_report_shows_each_difference_as_a_unified_diff() -> None:
    golden = {"x/index.md": "# x\n\nkept\n", "x/a.md": "# A\n\none\ntwo\n", "x/gone.md": "# Gone\n"}
    generated = {"x/index.md": "# x\n\nkept\n", "x/a.md": "# A\n\none\n2\n", "x/b.md": "# B\n"}
    report = golden_report("demo", golden, generated)
    assert report.splitlines()[:11] == [
        "generated pages of case 'demo' differ from tests/golden/demo/:",
        "missing: x/gone.md (in tests/golden/demo, not generated any more)",
        "new: x/b.md (generated, not in tests/golden/demo)",
        "--- tests/golden/demo/x/a.md",
        "+++ generated/x/a.md",
        "@@ -1,4 +1,4 @@",
        " # A",
        " ",
        " one",
        "-two",
        "+2",
    ]
    assert "UPDATE_GOLDEN=1" in report.splitlines()[-1]
    assert golden_report("demo", golden, dict(golden)) == ""
