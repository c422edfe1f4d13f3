"""Files as the user's umask says (issue 35): what the tool writes is created as ``open()`` and
``mkdir()`` create it, 0666/0777 less the umask (0644/0755 under 022), never the owner-only
modes of ``tempfile`` (0600/0700), which a web server running as another user cannot serve.
``build-site``'s whole output: ``tests/test_file_urls.py``."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import FIXTURES

from generator.atomic import atomic_write, swap_dir, temp_dir
from generator.cli import main
from generator.output.writer import replace_tree


@pytest.fixture(params=[0o022, 0o077, 0o002])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    saved = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(saved)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_atomic_write_creates_files_as_open_would(tmp_path: Path, umask: int) -> None:
    atomic_write(tmp_path / "new" / "a.json", "{}\n")
    assert mode(tmp_path / "new" / "a.json") == 0o666 & ~umask
    assert mode(tmp_path / "new") == 0o777 & ~umask
    with open(tmp_path / "by-open", "w", encoding="utf-8"):
        pass
    assert mode(tmp_path / "new" / "a.json") == mode(tmp_path / "by-open")
    atomic_write(tmp_path / "new" / "a.json", b"replaced")  # a replaced file: the same mode
    assert mode(tmp_path / "new" / "a.json") == 0o666 & ~umask
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["a.json"]  # no temporary left


def test_a_failed_atomic_write_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()  # the rename onto it fails
    with pytest.raises(OSError):
        atomic_write(tmp_path / "a", "text")
    assert [p.name for p in tmp_path.iterdir()] == ["a"] and not any((tmp_path / "a").iterdir())


def test_staging_directories_get_the_umask_mode(tmp_path: Path, umask: int) -> None:
    staging = temp_dir(tmp_path, ".staging-")
    assert mode(staging) == 0o777 & ~umask
    (staging / "page.html").write_text("x", encoding="utf-8")
    swap_dir(staging, tmp_path / "site")
    second = temp_dir(tmp_path, ".staging-")
    swap_dir(second, tmp_path / "site")  # replacing: the old tree goes through another temp dir
    assert mode(tmp_path / "site") == 0o777 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_generated_tree_gets_the_umask_mode(tmp_path: Path, umask: int) -> None:
    replace_tree(tmp_path / "out", {"1.31/index.md": "# Home\n", "1.31/core/v1/pod.md": "# Pod\n"})
    for path in [tmp_path / "out", *(tmp_path / "out").rglob("*")]:
        assert mode(path) == (0o777 if path.is_dir() else 0o666) & ~umask, path


def test_generate_output_is_readable_by_others(tmp_path: Path) -> None:
    saved = os.umask(0o022)
    try:
        code = main(["generate", "--version", "z", "--source", str(FIXTURES / "specs" / "zoo-v2.json"),
                     "--out", str(tmp_path / "out"), "-q"])
    finally:
        os.umask(saved)
    assert code == 0
    paths = [tmp_path / "out", *(tmp_path / "out").rglob("*")]
    assert len(paths) > 5
    assert {p.relative_to(tmp_path).as_posix(): mode(p) for p in paths} == \
        {p.relative_to(tmp_path).as_posix(): 0o755 if p.is_dir() else 0o644 for p in paths}


def test_compiled_template_cache_entries_get_the_umask_mode(tmp_path: Path, umask: int) -> None:
    """Jinja's own cache writer makes its entries 0600; ours writes them as ``open()`` would."""
    import jinja2

    from generator.output.bytecode import bytecode_cache

    cache = bytecode_cache(tmp_path / "jinja")
    env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ x }}"}), bytecode_cache=cache)
    assert env.get_template("t").render(x=1) == "1"
    entries = list((tmp_path / "jinja").iterdir())
    assert len(entries) == 1 and mode(entries[0]) == 0o666 & ~umask
    again = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ x }}"}),
                               bytecode_cache=bytecode_cache(tmp_path / "jinja"))
    assert again.get_template("t").render(x=2) == "2"  # loaded from the entry
