"""Internal link check of a built site: every relative ``href``/``src`` in every HTML file must
point at a file inside the site, and a ``#fragment`` of a link to a page at an element id on it.

``build-site --builder zensical`` runs it on the releases it built before swapping them in
(Zensical checks Markdown links, not those in raw HTML blocks); the tests run it on built sites.
``404.html`` pages are not checked: they are written with server-absolute URLs because a web
server serves them in place of any missing URL.

Without ``index_rewriting`` (a site built with ``use_directory_urls: false``, for servers that
do not turn a directory into its ``index.html``: a file system, an object store) a link resolves
only when it names a file: ``a/`` and ``a`` for a directory ``a`` are broken.

``roots`` maps a top directory of the site to where it really is (a release built into a
staging directory beside the published one), so a site can be checked before it is swapped in.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

LINK_ATTRS = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src"}


class PageParser(HTMLParser):
    """Element ids and links of one HTML file."""

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


def is_external(url: str) -> bool:
    parts = urlsplit(url)
    return bool(parts.scheme or parts.netloc) or url.startswith("//")


def parse_page(path: Path) -> PageParser:
    parser = PageParser()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser


@dataclass
class SiteFiles:
    """The files of a site by site-relative path, ``roots`` overlaid; each page parsed once."""

    site: Path
    roots: Mapping[str, Path] = field(default_factory=dict)
    parsed: dict[str, PageParser] = field(default_factory=dict)
    index_rewriting: bool = True
    """A directory URL (``a/``) is served as its ``index.html``, as most web servers do; False:
    only a URL naming a file resolves (``use_directory_urls: false``)."""

    def path(self, rel: str) -> Path:
        top, _, rest = rel.partition("/")
        root = self.roots.get(top)
        if root is not None:
            return root / rest if rest else root
        return self.site / rel

    def page(self, rel: str) -> PageParser:
        if rel not in self.parsed:
            self.parsed[rel] = parse_page(self.path(rel))
        return self.parsed[rel]

    def html_files(self, top: str = "") -> list[str]:
        """Site-relative paths of the HTML files (below the top directory ``top``)."""
        base = self.path(top) if top else self.site
        prefix = f"{top}/" if top else ""
        return sorted(prefix + p.relative_to(base).as_posix() for p in base.rglob("*.html"))

    def target(self, rel: str) -> str | None:
        """The file a site-relative path is served from (``a/`` → ``a/index.html``; without
        ``index_rewriting`` only a file)."""
        if not self.index_rewriting:
            return rel if rel and self.path(rel).is_file() else None
        candidates = [rel] if rel.endswith(".html") or "." in posixpath.basename(rel) else []
        candidates.append(posixpath.join(rel, "index.html") if rel else "index.html")
        for candidate in candidates:
            if self.path(candidate).is_file():
                return candidate
        return None


def check_pages(files: SiteFiles, pages: Iterable[str], *, check_fragments: bool = True
                ) -> list[BrokenLink]:
    """The broken internal links on ``pages`` (site-relative HTML paths)."""
    broken = []
    for page in pages:
        if posixpath.basename(page) == "404.html":
            continue
        for tag, url in files.page(page).links:
            url = url.strip()
            if not url or is_external(url) or url.startswith(("mailto:", "javascript:", "data:")):
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
                if not files.index_rewriting and (parts.path.endswith("/") or joined == "."):
                    broken.append(BrokenLink(page, url, "directory URL: a server without index "
                                                        "rewriting has no file there"))
                    continue
                target = files.target("" if joined == "." else joined)
            else:
                target = page
            if target is None:
                broken.append(BrokenLink(page, url, "no such file"))
            elif check_fragments and tag == "a" and parts.fragment and target.endswith(".html") \
                    and unquote(parts.fragment) not in files.page(target).ids:
                broken.append(BrokenLink(page, url, f"no id {parts.fragment!r} in {target}"))
    return broken


def parse_site(site: Path) -> dict[str, PageParser]:
    """Ids and links of every HTML file of ``site``, by site-relative path."""
    files = SiteFiles(site.resolve())
    return {rel: files.page(rel) for rel in files.html_files()}


def broken_links(site: Path, *, check_fragments: bool = True,
                 pages: dict[str, PageParser] | None = None,
                 index_rewriting: bool = True) -> list[BrokenLink]:
    """Every broken internal link of the site (empty when all resolve); ``pages``: the site
    already parsed (``parse_site``), when it has not changed since; ``index_rewriting``: as
    ``SiteFiles``."""
    files = SiteFiles(site.resolve(), parsed=dict(pages) if pages is not None else {},
                      index_rewriting=index_rewriting)
    return check_pages(files, list(pages) if pages is not None else files.html_files(),
                       check_fragments=check_fragments)


def internal_links(page: Path, parsed: PageParser | None = None) -> Iterator[str]:
    """The relative ``<a href>`` URLs of one HTML file (``parsed``: it, already parsed)."""
    for tag, url in (parsed or parse_page(page)).links:
        url = url.strip()
        if tag == "a" and url and not is_external(url) \
                and not url.startswith(("mailto:", "javascript:", "data:")):
            yield url
