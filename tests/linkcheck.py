"""The site link check for tests: ``generator.sitebuild.linkcheck`` (which ``build-site
--builder zensical`` runs on its result) plus a helper for tests that walk links themselves.

Usage: ``python tests/linkcheck.py [--no-index] SITE`` (exit 1 and a list when something is
broken). ``--no-index``: check links as a file server without index rewriting serves them
(a site built with ``use_directory_urls: false``): only a link naming a file resolves.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.sitebuild.linkcheck import BrokenLink, broken_links, internal_links, parse_site

__all__ = ["BrokenLink", "broken_links", "internal_links", "parse_site"]


def _target(page: Path, href: str, root: Path, *, index_rewriting: bool = True) -> Path | None:
    """The file ``href`` on ``page`` points at (``dir/`` → ``dir/index.html``; without
    ``index_rewriting`` a directory URL points at the directory itself, which no such server
    serves); None for a server-absolute URL."""
    path = unquote(urlsplit(href).path)
    if path.startswith("/"):
        return None
    target = (page.parent / path).resolve() if path else page.resolve()
    if index_rewriting and (target.is_dir() or path.endswith("/")):
        target = target / "index.html"
    return target


def main(argv: list[str]) -> int:
    index_rewriting = "--no-index" not in argv
    args = [a for a in argv if a != "--no-index"]
    if len(args) != 1:
        print("usage: python tests/linkcheck.py [--no-index] SITE", file=sys.stderr)
        return 2
    broken = broken_links(Path(args[0]), index_rewriting=index_rewriting)
    for link in broken:
        print(link)
    print(f"{len(broken)} broken internal link(s)", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
