"""The files at the root of a published site: ``versions.json`` and the landing page. Pure."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

LATEST_ALIAS = "latest"


def versions_json(versions_newest_first: Sequence[str]) -> str:
    """The list Material's version selector reads (the format ``mike`` writes), newest first;
    the newest release carries the alias ``latest``."""
    entries = [{"version": v, "title": v, "aliases": [LATEST_ALIAS] if i == 0 else []}
               for i, v in enumerate(versions_newest_first)]
    return json.dumps(entries, indent=2) + "\n"


def landing_page(site_name: str, versions_newest_first: Sequence[str]) -> str:
    """A page listing every release that sends the reader on to the newest one."""
    newest = html.escape(versions_newest_first[0], quote=True)
    items = "\n".join(
        f'    <li><a href="{html.escape(v, quote=True)}/">Kubernetes {html.escape(v)}</a>'
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
  <meta http-equiv="refresh" content="0; url={newest}/">
  <link rel="canonical" href="{newest}/">
</head>
<body>
  <h1>{title}</h1>
  <p>Redirecting to the newest release,
    <a href="{newest}/">Kubernetes {html.escape(versions_newest_first[0])}</a>.</p>
  <h2>Releases</h2>
  <ul>
{items}
  </ul>
</body>
</html>
"""
