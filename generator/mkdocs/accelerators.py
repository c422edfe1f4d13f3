"""The one boundary of the plugin's speed code. Each accelerator does what MkDocs or Material
would do, faster, relying on something of theirs that is not a documented promise; each probes
that (a sample or its first pages compared with the theme's own output), falls back to MkDocs'
and Material's own rendering, and says once, in the log, when it turns itself off:

- ``headings_page``: model pages without Python-Markdown (MkDocs' private link processor);
- ``nav_cache``: Material's navigation derived from a sibling page's (its ``nav-item`` macro);
- ``page_cache``: the rest of Material's page cut from another page's (its head and header markup);
- ``search_entries``: generated pages' search entries ours, not Material's parser's (documented
  ``search: exclude`` meta; no probe: ``tests/test_search_sections.py`` compares the two).

``K8S_API_DOCS_ACCELERATORS`` chooses them: unset or ``all``, every one; ``none``; or a comma
list of names (benchmarks and the byte-equality tests build with and without each).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Hashable
from typing import Any

ENV = "K8S_API_DOCS_ACCELERATORS"
NAMES = ("headings_page", "nav_cache", "page_cache", "search_entries")

log = logging.getLogger("mkdocs.plugins.k8s-api-docs")
_said: set[str] = set()


def wanted(name: str) -> bool:
    """Whether the accelerator ``name`` (one of ``NAMES``) is switched on."""
    value = os.environ.get(ENV, "all").strip()
    if value in ("", "all"):
        return True
    return name in {part.strip() for part in value.split(",")}


def turned_off(name: str, why: str) -> None:
    """Log, once per process and accelerator, that ``name`` turned itself off and why."""
    if name in _said:
        return
    _said.add(name)
    log.info("k8s-api-docs: %s off (%s); MkDocs and Material render as without it", name, why)


def to_compare(cache: Any, kind: Hashable) -> bool:
    """Whether a result of ``cache`` is to be compared with the theme's own render: while its
    ``verify`` count lasts, and the first of each ``kind`` (kept in its ``verified``)."""
    if cache.verify <= 0 and kind in cache.verified:
        return False
    cache.verify = max(cache.verify - 1, 0)
    cache.verified.add(kind)
    return True


def same_as_theme(cache: Any, cached: str, theirs: str, what: str) -> bool:
    """Whether the cache's result equals the theme's own for the same page; if not, the cache is
    turned off for the rest of the build, and why is logged (once)."""
    if cached == theirs:
        return True
    turned_off(cache.name, f"{what} differs from the theme's")
    cache.enabled = False
    return False
