"""Shared fixtures.

Tests marked ``shared`` read the real upstream specs in ``../shared`` (next to the repository).
They are skipped only when that directory is absent (a user's clone); in CI (``CI=true``) its
absence is an error.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from release_examples import release_api, release_examples

from generator.build.pipeline import generate
from generator.build.state import GeneratedSite
from generator.config import Release
from generator.examples.snippets import Example
from generator.model.types import ApiSpec

REPO = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHARED = Path(os.environ.get("K8S_API_DOCS_SHARED", REPO.parent / "shared"))
SPECS = SHARED / "specs"
HOSTILE = FIXTURES / "hostile" / "hostile.json"
"""A spec written to attack the generator: hostile names and descriptions (tests/test_hostile.py)."""
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


WHOLE_SITE_FIXTURES = frozenset({"built_site", "built_site_pages", "published_root"})
"""Fixtures that build a whole site of real releases (``mkdocs build`` of the default site, or
``build-site`` of 1.31 + 1.32 for the browser tests of the published site)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that builds the whole default site is ``slow``, also when it only needs the site
    through another fixture, so ``pytest -m "not slow"`` never builds it (tests calling
    ``build_site`` or ``build-site`` carry the marker themselves)."""
    for item in items:
        if WHOLE_SITE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


def need_shared() -> Path:
    """The ``../shared`` directory; skip (or fail in CI) when it is absent."""
    if not SPECS.is_dir():
        if IN_CI:
            pytest.fail(f"CI needs {SHARED} (real upstream specs) beside the repository")
        pytest.skip(f"needs {SHARED} (real upstream specs); absent in this clone")
    return SHARED


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
    """The default site built once per session with ``mkdocs build --strict`` (not ``-q``: quiet
    mode drops warnings before strict mode counts them)."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml"),
         "-d", str(out)],
        cwd=REPO, capture_output=True, text=True, env=env, check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (out.parent / f"{out.name}.log").write_text(result.stdout + result.stderr, encoding="utf-8")
    return out


@pytest.fixture(scope="session")
def built_site_pages(built_site: Path) -> dict[str, Any]:
    """Ids and links of every HTML file of ``built_site``, parsed once for the tests that walk it."""
    from linkcheck import parse_site

    return parse_site(built_site)


def build_log(site: Path) -> str:
    """What ``mkdocs build`` printed for a site of the ``built_site`` fixture."""
    return (site.parent / f"{site.name}.log").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small MkDocs site (the repository's theme and Markdown settings) of the hostile spec."""
    return small_site(tmp_path_factory.mktemp("hostile-site"), "x", str(HOSTILE))


def small_site(root: Path, version: str, source: str) -> Path:
    """``mkdocs build --strict`` in ``root`` of one release (the repository's theme, Markdown
    settings and hand-written pages, the plugin generating ``version`` from ``source``); the
    built site."""
    shutil.copytree(REPO / "site_src", root / "docs")
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": version, "source": source}], "cache_dir": ".cache"}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"], cwd=root,
        capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium for the browser tests (``browserkit.chromium``)."""
    from browserkit import chromium

    yield from chromium()
