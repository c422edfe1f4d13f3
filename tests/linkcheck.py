"""Walk a built site and report internal links that do not resolve (file or fragment id)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

_HREF = re.compile(r'<a\s[^>]*?href="([^"]*)"', re.IGNORECASE)
_ID = re.compile(r'\sid="([^"]*)"')


@dataclass(frozen=True)
class BrokenLink:
    page: str
    href: str
    reason: str


def _target(page: Path, href: str, root: Path) -> Path | None:
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        return None  # absolute site URLs depend on site_url; we never emit them
    target = (page.parent / path).resolve() if path else page
    if target.is_dir() or path.endswith("/"):
        target = target / "index.html"
    return target


def ids_of(html_file: Path, cache: dict[Path, set[str]]) -> set[str]:
    if html_file not in cache:
        cache[html_file] = set(_ID.findall(html_file.read_text(encoding="utf-8")))
    return cache[html_file]


def internal_links(page: Path) -> Iterator[str]:
    for href in _HREF.findall(page.read_text(encoding="utf-8")):
        href = href.replace("&amp;", "&")
        if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.IGNORECASE) or href.startswith("//"):
            continue  # external (http:, mailto:, …)
        yield href


def broken_links(root: Path, *, check_fragments: bool = True) -> list[BrokenLink]:
    """Every relative link of every HTML page under ``root`` that points nowhere."""
    root = root.resolve()
    id_cache: dict[Path, set[str]] = {}
    broken = []
    for page in sorted(root.rglob("*.html")):
        for href in internal_links(page):
            target = _target(page, href, root)
            if target is None:
                continue
            rel = str(page.relative_to(root))
            if not target.is_relative_to(root) or not target.is_file():
                broken.append(BrokenLink(rel, href, "no such page"))
                continue
            fragment = unquote(urldefrag(href).fragment)
            if check_fragments and fragment and fragment not in ids_of(target, id_cache):
                broken.append(BrokenLink(rel, href, "no such id"))
    return broken
