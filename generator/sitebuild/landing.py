"""The files at the root of a published site: ``versions.json``, the landing page and the alias
directory (``latest/``) that redirects every page to the newest release. Pure.

Their links follow the site's URL style: directory URLs (``1.32/``) by default, the file itself
(``1.32/index.html``) when the site is built with ``use_directory_urls: false`` (served from a
file system or an object store, where nothing turns a directory into its ``index.html``)."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence

from generator.views.pages import title_of

LATEST_ALIAS = "latest"


def versions_json(versions_newest_first: Sequence[str]) -> str:
    """The list Material's version selector reads (the format ``mike`` writes), newest first;
    the newest release carries the alias ``latest``."""
    entries = [{"version": v, "title": v, "aliases": [LATEST_ALIAS] if i == 0 else []}
               for i, v in enumerate(versions_newest_first)]
    return json.dumps(entries, indent=2) + "\n"


def landing_page(site_name: str, versions_newest_first: Sequence[str],
                 titles: Mapping[str, str] | None = None, directory_urls: bool = True) -> str:
    """A page listing every release that sends the reader on to the newest one; ``titles``:
    release → title (``views.pages.title_of``, its default); ``directory_urls``: the site's
    ``use_directory_urls``."""
    home = "" if directory_urls else "index.html"
    newest = html.escape(versions_newest_first[0], quote=True) + "/" + home
    items = "\n".join(
        f'    <li><a href="{html.escape(v, quote=True)}/{home}">{html.escape(_title(v, titles))}</a>'
        f'{" (latest)" if i == 0 else ""}</li>'
        for i, v in enumerate(versions_newest_first)
    )
    title = html.escape(site_name)
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{title}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta http-equiv="refresh" content="0; url={newest}">
  <link rel="canonical" href="{newest}">
</head>
<body>
  <h1>{title}</h1>
  <p>Redirecting to the newest release,
    <a href="{newest}">{html.escape(_title(versions_newest_first[0], titles))}</a>.</p>
  <h2>Releases</h2>
  <ul>
{items}
  </ul>
</body>
</html>
"""


def site_url_of(url: str) -> str:
    """A site URL as ``build-site`` uses it (``https://org.github.io/repo/``): http(s), absolute,
    ending in ``/``; raises ``ValueError`` otherwise."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(f"site URL must be an absolute http(s) URL without query or fragment: {url!r}")
    return url.strip().rstrip("/") + "/"


def release_site_url(site_url: str, version: str) -> str:
    """The ``site_url`` of one release's site: ``https://org.github.io/repo/1.32/``."""
    return f"{site_url}{version}/"


def _title(version: str, titles: Mapping[str, str] | None) -> str:
    return (titles or {}).get(version) or title_of(version)


def alias_pages(pages: Iterable[str], version: str, titles: Mapping[str, str] | None = None,
                alias: str = LATEST_ALIAS, directory_urls: bool = True) -> dict[str, str]:
    """Redirect pages of the alias directory: for each HTML page of release ``version`` (paths
    below its directory, ``core/v1/pod/index.html``), a page at the same path below ``alias/``
    that sends the reader to the release's page, keeping ``?query`` and ``#fragment``; to its
    directory URL (``…/pod/``), or to the file itself without ``directory_urls``."""
    out = {}
    for page in pages:
        depth = page.count("/")
        target = "../" * (depth + 1) + version + "/" + (page.removesuffix("index.html")
                                                        if directory_urls else page)
        out[page] = _redirect(html.escape(target, quote=True), json.dumps(target).replace("<", "\\u003c"),
                              _title(version, titles), alias)
    return out


def _redirect(target_attr: str, target_js: str, title: str, alias: str) -> str:
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{html.escape(title)} ({html.escape(alias)})</title>
  <meta name="robots" content="noindex">
  <meta http-equiv="refresh" content="0; url={target_attr}">
  <link rel="canonical" href="{target_attr}">
  <script>location.replace({target_js} + location.search + location.hash)</script>
</head>
<body>
  <p><a href="{target_attr}">{html.escape(title)}</a> ({html.escape(alias)})</p>
</body>
</html>
"""
