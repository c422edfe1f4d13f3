"""What the browser tests share: Debian's Chromium driven through Playwright, and quiet local
HTTP servers on 127.0.0.1 (the ``browser`` fixture itself is in ``conftest.py``)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, NoReturn

import pytest
from helpers.paths import IN_CI

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--no-first-run", "--disable-sync"]


def missing(reason: str) -> NoReturn:
    """Skip a browser test whose tool is missing; in CI that is a failure."""
    if IN_CI:
        pytest.fail(f"CI must run the browser tests: {reason} (tests/setup_extras.py installs it)")
    pytest.skip(reason)


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # the browser drops connections it no longer needs


def serve(root: Path, handler: type[SimpleHTTPRequestHandler] = QuietHandler
          ) -> tuple[QuietServer, str]:
    """``root`` served on a free port of 127.0.0.1; the server and its origin (no slash)."""
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def served(root: Path, handler: type[SimpleHTTPRequestHandler] = QuietHandler,
           prefix: str = "/") -> Iterator[str]:
    """For fixtures: yield the base URL of ``root`` served (under ``prefix``), then stop."""
    httpd, origin = serve(root, handler)
    yield origin + prefix
    httpd.shutdown()
    httpd.server_close()


def chromium() -> Iterator[Any]:
    """For fixtures: a headless Debian Chromium (Playwright's own download is not used)."""
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()


VISIBLE_RIGHT = """  const vw = document.documentElement.clientWidth;
  const visibleRight = el => {
    let right = vw;
    for (let p = el; p && p !== document.documentElement; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible')
        right = Math.min(right, p.getBoundingClientRect().left + p.clientLeft + p.clientWidth);
    }
    return right;
  };"""
"""JavaScript lines (in a page function): ``visibleRight(el)``, the right edge of what the reader
can see of ``el``: the viewport, cut by every ancestor that clips or scrolls."""


CLIPPED_TEXT = """() => {
  // Every line box of every text node in the article's tables, against the right edge the reader
  // can see: the viewport, cut by any ancestor that clips or scrolls (text in a scrolling box
  // is not excused: it is off-screen until scrolled to). Text kept for screen readers only (a
  // 1 px clipped box, as the stacked tables' headers) is not on the screen at all.
""" + VISIBLE_RIGHT + """
  const srOnly = el => {
    for (let p = el; p; p = p.parentElement) {
      const r = p.getBoundingClientRect();
      if (r.width <= 1 && r.height <= 1 && getComputedStyle(p).overflow !== 'visible') return true;
    }
    return false;
  };
  let lines = 0;
  const clipped = [];
  for (const table of document.querySelectorAll('article table')) {
    const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const el = node.parentElement;
      if (!el.checkVisibility({visibilityProperty: true}) || srOnly(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = visibleRight(el);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        lines++;
        if (r.right > right + 1 || r.left < -1)
          clipped.push(`${Math.round(r.right)} > ${Math.round(right)}: ` +
                       node.textContent.trim().slice(0, 50));
      }
    }
  }
  // A table (or Material's scrolling wrapper) whose content is wider than its box.
  const scrolling = [];
  for (const el of document.querySelectorAll(
      'article table, article .md-typeset__scrollwrap, article .md-typeset__table')) {
    if (el.scrollWidth > el.clientWidth + 1)
      scrolling.push(`${el.tagName}.${el.className} ${el.clientWidth} < ${el.scrollWidth}`);
  }
  return {vw, lines, clipped, scrolling};
}"""
"""What a reader sees of the tables of a page (``page.evaluate``): ``lines`` (text line boxes),
``clipped`` (lines ending past the visible right edge), ``scrolling`` (tables needing sideways
scrolling)."""
