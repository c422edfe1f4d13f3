"""The site link check for tests: ``generator.sitebuild.linkcheck`` (which ``build-site
--builder zensical`` runs on its result) plus a helper for tests that walk links themselves.

Usage: ``python tests/linkcheck.py SITE`` (exit 1 and a list when something is broken).
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from generator.sitebuild.linkcheck import BrokenLink, broken_links, internal_links, parse_site

__all__ = ["BrokenLink", "broken_links", "internal_links", "parse_site"]


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
