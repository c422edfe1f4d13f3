"""Shared fixtures.

Tests marked ``shared`` read the real upstream specs in ``../shared`` (next to the repository).
They are skipped only when that directory is absent (a user's clone); in CI (``CI=true``) its
absence is an error.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import HOSTILE, REPO, need_shared
from helpers.shared_build import build_once
from helpers.sites import small_site
from helpers.xdist_groups import xdist_group
from release_examples import release_api, release_examples

from generator.config import Release
from generator.examples.snippets import Example
from generator.model.types import ApiSpec
from generator.pipeline.build import generate
from generator.pipeline.state import GeneratedSite

WHOLE_SITE_FIXTURES = frozenset({"built_site", "built_site_pages", "published_root"})
"""Fixtures that build a whole site of real releases (``mkdocs build`` of the default site, or
``build-site`` of 1.31 + 1.32 for the browser tests of the published site)."""


REAL_DATA_FIXTURES = frozenset({"shared", "api_131", "api_132", "examples", "default_pages",
                                "hostile_site"})
"""Fixtures that load a real release (or build a small site): their tests are ``integration``."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that builds the whole default site is ``slow``, also when it only needs the site
    through another fixture, so ``pytest -m "not slow"`` never builds it (tests calling
    ``build_site`` or ``build-site`` carry the marker themselves); one that needs a real release
    through a fixture is ``integration``. What is left unmarked is the unit tier (the inner loop:
    ``pytest -m "not integration and not slow and not browser"``)."""
    for item in items:
        item.add_marker(pytest.mark.xdist_group(xdist_group(item)))
        fixtures = set(getattr(item, "fixturenames", ()))
        if WHOLE_SITE_FIXTURES & fixtures:
            item.add_marker(pytest.mark.slow)
        if REAL_DATA_FIXTURES & fixtures:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def shared() -> Path:
    return need_shared()


@pytest.fixture(scope="session")
def api_131() -> ApiSpec:
    return release_api("1.31")


@pytest.fixture(scope="session")
def api_132() -> ApiSpec:
    return release_api("1.32")


@pytest.fixture(scope="session")
def examples() -> dict[str, dict[str, Example]]:
    """Release → definition name → example, for 1.31 and 1.32 (``release_examples``: made once
    per session, shared with the tests of every release)."""
    return {release: release_examples(release) for release in ("1.31", "1.32")}


@pytest.fixture(scope="session")
def default_pages() -> GeneratedSite:
    """Markdown of the default site (1.31 + 1.32 from kubernetes-validate), in memory."""
    return generate([Release("1.31"), Release("1.32")])


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default site built once per test run with ``mkdocs build --strict`` (not ``-q``: quiet
    mode drops warnings before strict mode counts them); once for all xdist workers too
    (``helpers.shared_build``)."""

    def build(out: Path) -> None:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        result = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"),
             "-d", str(out)],
            cwd=REPO, capture_output=True, text=True, env=env, check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        (out.parent / f"{out.name}.log").write_text(result.stdout + result.stderr, encoding="utf-8")

    return build_once(tmp_path_factory, "site", build)


@pytest.fixture(scope="session")
def gateway_crd_site(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> Path:
    """A small MkDocs site (the repository's theme and hand-written pages) of one release,
    ``gateway-v1.2.0``: the Gateway API v1.2.0 CRDs; built once per test run for the browser
    tests of CRD pages and of reading (``helpers.shared_build``)."""
    def build(out: Path) -> None:
        small_site(out, "gateway-v1.2.0", str(shared / "crds" / "gateway-api" / "v1.2.0"))

    return build_once(tmp_path_factory, "gateway-site", build) / "site"


@pytest.fixture(scope="session")
def built_site_pages(built_site: Path) -> dict[str, Any]:
    """Ids and links of every HTML file of ``built_site``, parsed once for the tests that walk it."""
    from linkcheck import parse_site

    return parse_site(built_site)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small MkDocs site (the repository's theme and Markdown settings) of the hostile spec."""
    return small_site(tmp_path_factory.mktemp("hostile-site"), "x", str(HOSTILE))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium for the browser tests (``browserkit.chromium``): one browser for
    every browser test of the session (each test opens its own context or page)."""
    from browserkit import chromium

    yield from chromium()
