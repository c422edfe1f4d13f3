"""``check DIR``: exit 0 when committed Markdown is current, 1 naming the stale pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main

pytestmark = pytest.mark.integration

ARGS = ["--version", "1.31", "--history", "site"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("check") / "docs"
    assert main(["generate", *ARGS, "--out", str(out), "-q"]) == 0
    return out


def test_check_fresh_then_edited(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(generated), *ARGS]) == 0
    assert "up to date" in capsys.readouterr().out

    page = generated / "1.31" / "core" / "v1" / "podSpec.md"
    original = page.read_text(encoding="utf-8")
    page.write_text(original.replace("PodSpec", "PodSpecc", 1), encoding="utf-8")
    try:
        assert main(["check", str(generated), *ARGS]) == 1
        out = capsys.readouterr().out
        assert "stale: 1 page edited, 0 pages missing, 0 pages not generated" in out
        assert "page edited         1.31/core/v1/podSpec.md" in out
        assert "--- a/1.31/core/v1/podSpec.md" in out and "-# PodSpecc" in out
    finally:
        page.write_text(original, encoding="utf-8")


def test_check_names_missing_and_extra_pages(generated: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    extra = generated / "1.31" / "stray.md"
    extra.write_text("# not generated\n", encoding="utf-8")
    try:
        assert main(["check", str(generated), "--version", "1.31", "--version", "1.32",
                     "--history", "site"]) == 1
        out = capsys.readouterr().out
        assert "page not generated  1.31/stray.md" in out
        assert "\npage missing        1.32/" in out  # the first ten of 1.32's pages
    finally:
        extra.unlink()


def test_check_bad_dir_exits_2(tmp_path: Path) -> None:
    assert main(["check", str(tmp_path / "nope"), *ARGS]) == 2


def test_check_covers_the_field_path_data(generated: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = generated / "1.31" / "fieldpaths.json"
    original = data.read_text(encoding="utf-8")
    data.write_text(original.replace('"field-spec"', '"field-spek"', 1), encoding="utf-8")
    try:
        assert main(["check", str(generated), *ARGS]) == 1
        assert "page edited         1.31/fieldpaths.json" in capsys.readouterr().out
    finally:
        data.write_text(original, encoding="utf-8")


def test_check_of_a_foreign_directory_summarises(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A directory generate never wrote: one summary, ten pages named, the rest counted (not 700
    lines), in the user's view of the directory."""
    (tmp_path / "1.31").mkdir()
    (tmp_path / "1.31" / "notes.md").write_text("# mine\n", encoding="utf-8")
    assert main(["check", str(tmp_path), *ARGS]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{tmp_path}: stale: 0 pages edited, ")
    assert "pages missing, 1 page not generated" in lines[0]
    assert "has none of the" in lines[1]
    assert sum(line.startswith("page missing        1.31/") for line in lines) == 10
    assert any(line.startswith("page missing        … and ") for line in lines)
    assert "page not generated  1.31/notes.md" in lines
    assert len(lines) < 20
