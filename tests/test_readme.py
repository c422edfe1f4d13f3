"""The README is the front door: at most 400 lines, and every ``python3 -m generator`` command in
it parses with the command line as it is (options renamed or removed fail here)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from generator.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    found = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("python3 -m generator "):
                found.append(shlex.split(line.split(">", 1)[0])[3:])
    return found


ELSEWHERE = {"crd-pages.md", "crd-facts.md", "gate.md", "site-reading.md", "operations.md", "terminal.md"}
"""Guide pages other issues write (linked here, present once their work is merged)."""


def test_readme_is_at_most_400_lines_and_links_existing_docs() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.count("\n") <= 400
    assert len(_commands()) >= 8
    for target in set(re.findall(r"\]\(((?:docs|benchmarks)/[^)#]+)", text)):
        assert (README.parent / target).is_file() or Path(target).name in ELSEWHERE, target


@pytest.mark.parametrize("argv", _commands(), ids=lambda argv: " ".join(argv)[:60])
def test_readme_generator_commands_parse(argv: list[str]) -> None:
    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[attr-defined]
    if argv[0] not in subcommands:
        pytest.skip(f"{argv[0]!r} is not a command of this checkout yet")
    args = parser.parse_args(argv)
    assert args.command == argv[0]
