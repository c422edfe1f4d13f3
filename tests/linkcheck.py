"""Internal link checker for a built site: every relative ``href``/``src`` in every HTML file must
point at a file inside the site, and a ``#fragment`` of a link to a page at an element id on it.

``404.html`` pages are not checked: MkDocs writes them with server-absolute URLs (from
``site_url``, else ``/``) because a web server serves them in place of any missing URL.

Usage: ``python tests/linkcheck.py SITE`` (exit 1 and a list when something is broken).
"""

from __future__ import annotations

import posixpath
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK_ATTRS = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src"}


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str]] = []
        """(tag, url)"""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("id", "name") if tag == "a" else ("id",):
            if values.get(key):
                self.ids.add(str(values[key]))
        attr = LINK_ATTRS.get(tag)
        url = values.get(attr) if attr else None
        if url is not None:
            self.links.append((tag, url))


@dataclass(frozen=True)
class BrokenLink:
    page: str
    href: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.href} ({self.reason})"


def _is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc) or url.startswith("//")


def _target_file(site: Path, target: str) -> str | None:
    """The site file a site-relative path is served from (``a/`` → ``a/index.html``)."""
    candidates = [target] if target.endswith(".html") or "." in posixpath.basename(target) else []
    candidates.append(posixpath.join(target, "index.html") if target else "index.html")
    for candidate in candidates:
        if (site / candidate).is_file():
            return candidate
    return None


def parse_site(site: Path) -> dict[str, _PageParser]:
    """Ids and links of every HTML file of ``site``, by site-relative path."""
    site = site.resolve()
    return {path.relative_to(site).as_posix(): _parse(path) for path in sorted(site.rglob("*.html"))}


def broken_links(site: Path, *, check_fragments: bool = True,
                 pages: dict[str, _PageParser] | None = None) -> list[BrokenLink]:
    """Every broken internal link of the site (empty when all resolve); ``pages``: the site
    already parsed (``parse_site``), when it has not changed since."""
    site = site.resolve()
    pages = parse_site(site) if pages is None else pages
    broken = []
    for page, parsed in pages.items():
        if posixpath.basename(page) == "404.html":
            continue
        for tag, url in parsed.links:
            url = url.strip()
            if not url or _is_external(url) or url.startswith(("mailto:", "javascript:", "data:")):
                continue
            parts = urlsplit(url)
            if parts.path.startswith("/"):
                broken.append(BrokenLink(page, url, "absolute path: breaks when the site moves"))
                continue
            if parts.path:
                joined = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path)))
                if joined == ".." or joined.startswith("../"):
                    broken.append(BrokenLink(page, url, "leaves the site"))
                    continue
                target = _target_file(site, "" if joined == "." else joined)
            else:
                target = page
            if target is None:
                broken.append(BrokenLink(page, url, "no such file"))
            elif check_fragments and tag == "a" and parts.fragment and target in pages \
                    and unquote(parts.fragment) not in pages[target].ids:
                broken.append(BrokenLink(page, url, f"no id {parts.fragment!r} in {target}"))
    return broken


# Helpers for tests that walk links themselves (e.g. only the links between releases).

def _parse(page: Path) -> _PageParser:
    parser = _PageParser()
    parser.feed(page.read_text(encoding="utf-8", errors="replace"))
    return parser


def internal_links(page: Path, parsed: _PageParser | None = None) -> Iterator[str]:
    """The relative ``<a href>`` URLs of one HTML file (``parsed``: it, already parsed)."""
    for tag, url in (parsed or _parse(page)).links:
        url = url.strip()
        if tag == "a" and url and not _is_external(url) \
                and not url.startswith(("mailto:", "javascript:", "data:")):
            yield url


def _target(page: Path, href: str, root: Path) -> Path | None:
    """The file ``href`` on ``page`` points at (``dir/`` → ``dir/index.html``); None for a
    server-absolute URL."""
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        return None
    target = (page.parent / path).resolve() if path else page.resolve()
    if target.is_dir() or path.endswith("/"):
        target = target / "index.html"
    return target


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tests/linkcheck.py SITE", file=sys.stderr)
        return 2
    broken = broken_links(Path(argv[0]))
    for link in broken:
        print(link)
    print(f"{len(broken)} broken internal link(s)", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
