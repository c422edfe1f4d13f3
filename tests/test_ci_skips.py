"""What a test needs that the test command installs or CI provides is skipped only outside CI:
in CI (``CI=true``) its absence fails the test (``helpers.paths``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import paths


@pytest.mark.parametrize("in_ci", [False, True])
def test_a_missing_install_skips_only_outside_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 in_ci: bool) -> None:
    monkeypatch.setattr(paths, "IN_CI", in_ci)
    assert paths.need_installed(tmp_path, "the clients") == tmp_path
    expected = pytest.fail.Exception if in_ci else pytest.skip.Exception
    with pytest.raises(expected, match="clients"):
        paths.need_installed(tmp_path / "absent", "the clients")


@pytest.mark.parametrize("in_ci", [False, True])
def test_missing_shared_data_skips_only_outside_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   in_ci: bool) -> None:
    monkeypatch.setattr(paths, "IN_CI", in_ci)
    monkeypatch.setattr(paths, "SPECS", tmp_path / "absent")
    with pytest.raises(pytest.fail.Exception if in_ci else pytest.skip.Exception):
        paths.need_shared()
