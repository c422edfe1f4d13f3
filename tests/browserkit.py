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
