"""Restamping built pages in place (``mkdocs serve --dirty``): after a source edit, the pages
the pipeline kept name the source's old sha256 (``pipeline.build.restamp``). MkDocs would build
each of them again; where the digest is only in a part of the page MkDocs passes through
unchanged (``render.raw_html.only_in_quiet_blocks``), the plugin instead replaces it in the
generated Markdown and in the built HTML: the same bytes a build would write, at a fraction of
the cost (a release has ~650 such pages).

A digest is replaced by one of the same length, so each file is patched where the old digest
is, never truncated: a reader sees the whole page, before or after. The Markdown is patched
first and the HTML after, so the HTML is never older than its Markdown (MkDocs' ``--dirty``
builds a page whose output is older than its source): a page patched halfway is built again.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

_PLACES: dict[Path, tuple[int, int, tuple[tuple[int, bytes], ...]]] = {}
"""Per file this process restamped: its mtime and size after the patch, and where it wrote
which digest (the next restamp of the file, unchanged, writes there without reading it)."""


def restamp_file(path: Path, digests: Mapping[str, str]) -> bool:
    """Replace, in place, each key of ``digests`` in ``path`` by its value (same-length ASCII);
    whether the file held one."""
    old = {k.encode("ascii"): v.encode("ascii") for k, v in digests.items()}
    assert all(len(k) == len(v) for k, v in old.items()), "digests of one length"
    fd = os.open(path, os.O_RDWR)
    try:
        places = _known_places(fd, path, old)
        if places is None:
            data = b""
            while chunk := os.read(fd, 1 << 20):
                data += chunk
            places = []
            for key, value in old.items():
                at = data.find(key)
                while at >= 0:
                    places.append((at, value))
                    at = data.find(key, at + len(key))
        for at, value in places:
            os.pwrite(fd, value, at)
        if places:
            stat = os.fstat(fd)
            _PLACES[path] = (stat.st_mtime_ns, stat.st_size, tuple(places))
        return bool(places)
    finally:
        os.close(fd)


def _known_places(fd: int, path: Path, old: Mapping[bytes, bytes]) -> list[tuple[int, bytes]] | None:
    """Where to write, from the last restamp of ``path``: when the file is as it left it and
    the digests replaced now are those it wrote (then they are where it wrote them, only)."""
    known = _PLACES.get(path)
    if known is None or {value for _, value in known[2]} != old.keys():
        return None
    stat = os.fstat(fd)
    if (stat.st_mtime_ns, stat.st_size) != known[:2]:
        return None
    if any(os.pread(fd, len(value), at) != value for at, value in known[2]):
        return None
    return [(at, old[value]) for at, value in known[2]]


def restamp_built(pages: Iterable[tuple[Path, Path]], digests: Mapping[str, str]) -> list[Path]:
    """For each (Markdown, built HTML) pair whose HTML exists and is not older than the
    Markdown (a build made it from that Markdown): patch the Markdown, then the HTML. Returns
    the Markdown files done; the others are left for the build."""
    done = []
    for source, output in pages:
        try:
            fresh = output.stat().st_mtime_ns >= source.stat().st_mtime_ns
        except OSError:
            continue
        if fresh and restamp_file(source, digests):
            restamp_file(output, digests)
            done.append(source)
    return done


def restamp_site(pages_dir: Path, site_dir: Path, pages: Iterable[str],
                 digests: Mapping[str, str], url_of: Callable[[str], str]) -> set[str]:
    """``restamp_built`` of ``pages`` (``a/b.md``) below ``pages_dir`` and their HTML below
    ``site_dir`` at ``url_of(page)``, the URL the page is published at
    (``views.site.published_url``): a directory URL (``a/b/``) + ``index.html``, or the file
    itself (``a/b.html``: ``use_directory_urls: false``); returns the pages done."""
    by_source = {pages_dir / rel: (rel, _html_file(site_dir, url_of(rel))) for rel in pages}
    done = restamp_built(((source, html) for source, (_, html) in by_source.items()), digests)
    return {by_source[source][0] for source in done}


def _html_file(site_dir: Path, url: str) -> Path:
    return site_dir / url if url and not url.endswith("/") else site_dir / url / "index.html"


def mark_outdated(path: Path) -> None:
    """Make built page ``path`` (if any) older than any source, so that ``mkdocs serve --dirty``
    builds its page again (MkDocs' ``File.is_modified`` compares the two mtimes); the file
    stays served until then."""
    with contextlib.suppress(FileNotFoundError):
        os.utime(path, ns=(0, 0))
