"""``generate`` replaces only the releases it writes: other releases in DIR stay, and a run
killed at any point (while writing, between two release swaps) leaves every release whole."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, REPO, SPECS, need_shared

from generator.cli import main
from generator.errors import GeneratorError, UsageError
from generator.output.writer import MANAGED_MARKER, check_relative, page_format_of

pytestmark = pytest.mark.integration

OLD, NEW = FIXTURES / "versions" / "gadget-old.json", FIXTURES / "versions" / "gadget-new.json"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def release_tree(root: Path, release: str) -> dict[str, bytes]:
    return {k: v for k, v in tree(root).items() if k.startswith(f"{release}/")}


@pytest.mark.shared
def test_readme_generate_examples_in_order_keep_every_release(tmp_path: Path) -> None:
    need_shared()
    out = tmp_path / "docs-md"
    assert main(["generate", "--version", "1.31", "--version", "1.32", "--out", str(out), "-q"]) == 0
    first = tree(out)
    assert main(["generate", "--version", "1.33", "--source", str(SPECS / "swagger-1.33.json"),
                 "--out", str(out), "-q"]) == 0
    assert sorted(p.name for p in out.iterdir()) == [MANAGED_MARKER, "1.31", "1.32", "1.33"]
    for release in ("1.31", "1.32"):  # untouched, byte for byte
        assert release_tree(out, release) == {k: v for k, v in first.items() if k.startswith(release)}
    assert (out / "1.33" / "resource" / "v1beta1" / "resourceClaimStatus.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs-md"]  # no staging left beside it


def _generate(out: Path, old: Path, new: Path, *extra: str) -> list[str]:
    return ["generate", "--version", "1.0", "--source", str(old), "--version", "2.0", "--source",
            str(new), "--history", "site", "--out", str(out), "-q", *extra]


# Runs the CLI and kills itself (SIGKILL, no clean-up) at a chosen point of the writer.
KILLER = """
import os, signal, sys
import generator.output.writer as writer
where, count = sys.argv[1], int(sys.argv[2])
done = [0]
def killing(real):
    def wrapper(*args):
        real(*args)
        done[0] += 1
        if done[0] == count:
            os.kill(os.getpid(), signal.SIGKILL)
    return wrapper
setattr(writer, where, killing(getattr(writer, where)))
from generator.cli import main
sys.exit(main(sys.argv[3:]))
"""


def _edited(tmp_path: Path, source: Path, name: str) -> Path:
    spec = json.loads(source.read_text(encoding="utf-8"))
    for definition in spec["definitions"].values():
        definition["description"] = definition.get("description", "") + " Edited."
    path = tmp_path / name
    path.write_text(json.dumps(spec), encoding="utf-8")
    return path


@pytest.mark.parametrize(("where", "count"), [("write_page", 3), ("swap_dir", 1)])
def test_a_killed_run_leaves_every_release_whole(tmp_path: Path, where: str, count: int) -> None:
    out = tmp_path / "out"
    assert main(_generate(out, OLD, NEW)) == 0
    before = {r: release_tree(out, r) for r in ("1.0", "2.0")}
    old2, new2 = _edited(tmp_path, OLD, "old2.json"), _edited(tmp_path, NEW, "new2.json")
    fresh = tmp_path / "fresh"
    assert main(_generate(fresh, old2, new2)) == 0
    after = {r: {k: v for k, v in tree(fresh).items() if k.startswith(f"{r}/")} for r in ("1.0", "2.0")}
    assert before["1.0"] != after["1.0"] and before["2.0"] != after["2.0"]

    proc = subprocess.run([sys.executable, "-c", KILLER, where, str(count), *_generate(out, old2, new2)],
                          cwd=REPO, capture_output=True, check=False)
    assert proc.returncode == -signal.SIGKILL
    now = {r: release_tree(out, r) for r in ("1.0", "2.0")}
    for release in ("1.0", "2.0"):
        assert now[release] in (before[release], after[release]), release  # whole: old or new
    if where == "write_page":  # killed while staging: nothing swapped in yet
        assert now == before
    else:  # killed right after the first swap: 1.0 is new, 2.0 still the old one
        assert now == {"1.0": after["1.0"], "2.0": before["2.0"]}
    assert main(_generate(out, old2, new2)) == 0  # the next run completes the job
    assert {r: release_tree(out, r) for r in ("1.0", "2.0")} == after


def test_refuses_a_foreign_directory_and_the_other_format(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(_generate(foreign, OLD, NEW)) == 2
    assert "was not written by k8s-api-docs" in capsys.readouterr().err
    assert tree(foreign) == {"notes.txt": b"keep me"}

    out = tmp_path / "out"
    assert main(_generate(out, OLD, NEW)) == 0
    assert page_format_of(out) == "mkdocs"
    before = tree(out)
    assert main(_generate(out, OLD, NEW, "--format", "gfm")) == 2
    assert "holds mkdocs pages" in capsys.readouterr().err
    assert tree(out) == before


def test_unsafe_paths_are_generator_errors() -> None:
    for path in ("../x.md", "/etc/x.md", "a/../../x.md", "a\\b.md", "", "a/\x00.md"):
        with pytest.raises(UsageError, match="unsafe output path"):
            check_relative(path)
    assert issubclass(UsageError, GeneratorError)


def test_disk_failures_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from generator.output.writer import read_tree, sync_tree

    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    with pytest.raises(UsageError, match="cannot write output"):
        sync_tree(blocker / "pages", {"a.md": "# A\n"})
    bad = tmp_path / "committed"
    (bad / "1.0").mkdir(parents=True)
    (bad / "1.0" / "x.md").write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(UsageError, match="UTF-8"):
        read_tree(bad)
    assert main(["generate", "--version", "1.0", "--source", str(OLD), "--out", str(blocker / "out"),
                 "-q"]) == 2
    assert "error: " in capsys.readouterr().err
