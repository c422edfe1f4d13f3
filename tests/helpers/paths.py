"""Where the tests find the repository, the fixtures and the real data of ``../shared``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
SHARED = Path(os.environ.get("K8S_API_DOCS_SHARED", REPO.parent / "shared"))
SPECS = SHARED / "specs"
HOSTILE = FIXTURES / "hostile" / "hostile.json"
"""A spec written to attack the generator: hostile names and descriptions (tests/test_hostile.py)."""
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need_shared() -> Path:
    """The ``../shared`` directory; skip (or fail in CI) when it is absent."""
    if not SPECS.is_dir():
        if IN_CI:
            pytest.fail(f"CI needs {SHARED} (real upstream specs) beside the repository")
        pytest.skip(f"needs {SHARED} (real upstream specs); absent in this clone")
    return SHARED


def need_installed(path: Path, what: str) -> Path:
    """``path``, which the test command installs (``tests/setup_extras.py``): skip when it is
    absent, but fail in CI, where the test command has installed it."""
    if not path.exists():
        if IN_CI:
            pytest.fail(f"CI needs {what} at {path} (the test command installs it: tests/setup_extras.py)")
        pytest.skip(f"{what} not installed (tests/setup_extras.py)")
    return path
