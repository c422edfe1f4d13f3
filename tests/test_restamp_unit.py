"""Restamping in place (``output.restamp``) and the test of which pages may be patched
(``render.raw_html.only_in_quiet_blocks``): unit tests on files and text written here."""

from __future__ import annotations

import os
from pathlib import Path

from generator.output.restamp import restamp_built, restamp_file, restamp_site
from generator.output.writer import sync_tree
from generator.pipeline.incremental import restamp_text
from generator.render.raw_html import only_in_quiet_blocks, raw_block
from generator.views.site import published_url

OLD, NEW = "a" * 64, "b" * 64


def test_restamp_text_keeps_text_without_digest() -> None:
    text = "no digest here"
    assert restamp_text(text, {OLD: NEW}) is text
    assert restamp_text(f"x {OLD} y {OLD}", {OLD: NEW}) == f"x {NEW} y {NEW}"


def test_only_in_quiet_blocks() -> None:
    quiet = raw_block(f"<p>sha256 <code>{OLD}</code></p>", search=False)
    searched = raw_block(f"<p>sha256 <code>{OLD}</code></p>")
    assert only_in_quiet_blocks(f"# Title\n{quiet}", [OLD])
    assert not only_in_quiet_blocks(f"# Title\n{searched}", [OLD])
    assert not only_in_quiet_blocks(f"# Title\n\nsha256 `{OLD}`\n{quiet}", [OLD])
    assert only_in_quiet_blocks("# Title\n", [OLD])


def test_restamp_file_patches_in_place(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(f"<p>é {OLD}</p><p>{OLD}</p>", encoding="utf-8")
    assert restamp_file(page, {OLD: NEW})
    assert page.read_text(encoding="utf-8") == f"<p>é {NEW}</p><p>{NEW}</p>"
    assert not restamp_file(page, {OLD: NEW})


def test_restamp_built_only_where_the_output_is_current(tmp_path: Path) -> None:
    """An output older than its Markdown (not built from it) is left for MkDocs to build."""
    pairs = []
    for name, age in (("current", 0), ("stale", 10)):
        source, output = tmp_path / f"{name}.md", tmp_path / f"{name}.html"
        source.write_text(f"md {OLD}", encoding="utf-8")
        output.write_text(f"html {OLD}", encoding="utf-8")
        now = source.stat().st_mtime_ns
        os.utime(output, ns=(now - age * 10**9, now - age * 10**9))
        pairs.append((source, output))
    pairs.append((tmp_path / "missing.md", tmp_path / "missing.html"))
    assert restamp_built(pairs, {OLD: NEW}) == [tmp_path / "current.md"]
    assert (tmp_path / "current.html").read_text(encoding="utf-8") == f"html {NEW}"
    assert (tmp_path / "current.html").stat().st_mtime_ns >= (tmp_path / "current.md").stat().st_mtime_ns
    assert (tmp_path / "stale.md").read_text(encoding="utf-8") == f"md {OLD}"


def test_restamp_file_again_writes_where_it_wrote_or_reads_a_changed_file(tmp_path: Path) -> None:
    """A second restamp of an unchanged file writes where the first did; a file written since
    (the digest elsewhere) is read again."""
    third = "c" * 64
    page = tmp_path / "page.html"
    page.write_text(f"<p>{OLD}</p><p>x {OLD}</p>", encoding="utf-8")
    assert restamp_file(page, {OLD: NEW})
    assert restamp_file(page, {NEW: third})
    assert page.read_text(encoding="utf-8") == f"<p>{third}</p><p>x {third}</p>"
    page.write_text(f"<p>xx {third}</p><p>{third}</p>", encoding="utf-8")  # same size, moved
    assert restamp_file(page, {third: OLD})
    assert page.read_text(encoding="utf-8") == f"<p>xx {OLD}</p><p>{OLD}</p>"
    assert not restamp_file(page, {NEW: third})


def test_restamp_site_patches_pages_and_their_directory_url_html(tmp_path: Path) -> None:
    pages_dir, site_dir = tmp_path / "pages", tmp_path / "site"
    built = {"a/b.md": "a/b/index.html", "a/index.md": "a/index.html", "index.md": "index.html"}
    for rel, html in built.items():
        for path in (pages_dir / rel, site_dir / html):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"{rel} {OLD}", encoding="utf-8")
    assert restamp_site(pages_dir, site_dir, [*built, "gone.md"], {OLD: NEW}, published_url) == set(built)
    assert all((site_dir / html).read_text(encoding="utf-8") == f"{rel} {NEW}" for rel, html in built.items())


def test_sync_tree_takes_current_pages_as_written(tmp_path: Path) -> None:
    """Pages restamped in place (``current``) are not read again, nor written."""
    out = tmp_path / "out"
    assert sync_tree(out, {"a.md": "a\n", "b.md": "b\n"}) == (2, 0, 0)
    (out / "a.md").write_text("patched\n", encoding="utf-8")
    assert sync_tree(out, {"a.md": "patched\n", "b.md": "b2\n"}, {"a.md"}) == (1, 1, 0)
    assert (out / "b.md").read_text(encoding="utf-8") == "b2\n"
