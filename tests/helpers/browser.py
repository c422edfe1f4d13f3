"""Waiting in browser tests for events, never for a fixed time."""

from __future__ import annotations

from typing import Any

NEXT_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def settle(page: Any) -> None:
    """Until the page has no network requests in flight and has painted twice since: the
    scripts its events started (Material's bundle, search results) have run."""
    page.wait_for_load_state("networkidle")
    page.evaluate(NEXT_FRAMES)


def in_view(page: Any, element_id: str) -> None:
    """Until the element with ``element_id`` is scrolled into the viewport."""
    page.wait_for_function(
        "id => { const r = document.getElementById(id)?.getBoundingClientRect();"
        " return !!r && r.top >= 0 && r.top < innerHeight; }", arg=element_id)
