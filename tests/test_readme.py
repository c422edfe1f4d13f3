"""The README is the front door: at most 400 lines, every link to a doc resolves, every
``python3 -m generator`` command in it parses with the command line as it is (a command or option
renamed or removed fails here), and every command of the command line is shown in it (a README
command removed fails here)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from generator.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def _commands(text: str | None = None) -> list[list[str]]:
    text = README.read_text(encoding="utf-8") if text is None else text
    blocks = re.findall(r"```sh\n(.*?)```", text, re.DOTALL)
    found = []
    for block in blocks:
        for line in block.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("python3 -m generator "):
                found.append(shlex.split(line.split(">", 1)[0])[3:])
    return found


def test_readme_is_at_most_400_lines_and_links_existing_docs() -> None:
    text = README.read_text(encoding="utf-8")
    assert text.count("\n") <= 400
    assert len(_commands()) >= 8
    for target in set(re.findall(r"\]\(((?:docs|benchmarks)/[^)#]+)", text)):
        assert (README.parent / target).is_file(), target


def subcommands() -> dict[str, object]:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[attr-defined]


def unshown(commands: list[list[str]]) -> list[str]:
    """Commands of the command line no README command shows."""
    return sorted(set(subcommands()) - {argv[0] for argv in commands})


def test_every_command_is_shown_in_the_readme() -> None:
    assert unshown(_commands()) == []


def test_readme_checks_can_fail() -> None:
    """The README without its ``scan`` line leaves ``scan`` unshown; a README command the command
    line does not have is no command (the parse test fails on it, it does not skip)."""
    text = README.read_text(encoding="utf-8")
    scan = "python3 -m generator scan"
    without = "\n".join(line for line in text.splitlines() if not line.startswith(scan))
    assert unshown(_commands(without)) == ["scan"]
    assert "serve-docs" not in subcommands()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve-docs"])


@pytest.mark.parametrize("argv", _commands(), ids=lambda argv: " ".join(argv)[:60])
def test_readme_generator_commands_parse(argv: list[str]) -> None:
    assert argv[0] in subcommands(), f"README shows {argv[0]!r}, not a command of the command line"
    args = build_parser().parse_args(argv)
    assert args.command == argv[0]
