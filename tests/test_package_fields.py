"""The shipped table of the pinned kubernetes-validate's property names
(``sources.package_fields``): the same names as the package's files, used only for the package
it was made from."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from generator.sources import jsonschema_pkg, package_fields
from generator.sources.package_fields import decoded_field_names, shipped_field_names

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "package_fields_data.py"


@pytest.fixture(autouse=True)
def _fresh_memos():
    jsonschema_pkg.forget_field_names()
    yield
    jsonschema_pkg.forget_field_names()


def test_the_table_is_the_installed_package() -> None:
    """``--check`` rebuilds the table from the installed package and compares it byte for byte."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_release_reads_the_same_names_as_its_file() -> None:
    version = jsonschema_pkg.package_version()
    releases = jsonschema_pkg.available_versions()
    assert len(releases) >= 13
    for release in releases:
        data = jsonschema_pkg.package_bytes(release)
        shipped = shipped_field_names(release, version, len(data))
        assert shipped is not None, release  # the table serves the pinned package
        assert shipped == decoded_field_names(data) == dict(jsonschema_pkg.field_names(release))
    pod = jsonschema_pkg.field_names(releases[-1])["io.k8s.api.core.v1.PodSpec"]
    assert {"containers", "nodeName", "volumes"} <= pod


def test_another_package_is_read_from_its_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another version, or a release file of another size, is not served from the table."""
    release = jsonschema_pkg.available_versions()[0]
    size = len(jsonschema_pkg.package_bytes(release))
    version = jsonschema_pkg.package_version()
    assert shipped_field_names(release, version, size + 1) is None
    assert shipped_field_names(release, version + ".post1", size) is None
    assert shipped_field_names("1.99", version, size) is None
    decoded = []
    real = package_fields.decoded_field_names
    monkeypatch.setattr(jsonschema_pkg, "decoded_field_names", lambda data: decoded.append(1) or real(data))
    monkeypatch.setattr(jsonschema_pkg, "_file_size", lambda v: size + 1)
    assert dict(jsonschema_pkg.field_names(release)) == real(jsonschema_pkg.package_bytes(release))
    assert decoded == [1]


def test_the_check_fails_on_a_table_that_differs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import package_fields_data
    finally:
        sys.path.remove(str(SCRIPT.parent))
    table = json.loads(gzip.decompress(package_fields.DATA_FILE.read_bytes()))
    table["sets"][0] = [*table["sets"][0], "madeUp"]
    wrong = tmp_path / "package_fields.json.gz"
    wrong.write_bytes(package_fields.pack(table))
    monkeypatch.setattr(package_fields_data, "DATA_FILE", wrong)
    monkeypatch.setattr(sys, "argv", ["package_fields_data.py", "--check"])
    assert package_fields_data.main() == 1


def test_explain_s_narrow_index_is_the_same_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """``explain`` dates a few models from the table as it did from the package's bytes."""
    from generator.analysis.timeline import ModelKey
    from generator.pipeline import history

    keys = frozenset({ModelKey("apps", "Deployment"), ModelKey("core", "PodSpec"),
                      ModelKey("core", "Container"), ModelKey("resource", "ResourceClaim"),
                      ModelKey("networking", "Ingress"), ModelKey("flowcontrol", "FlowSchema")})
    releases = jsonschema_pkg.available_versions()
    from_table = {v: history._narrow_index(v, keys) for v in releases}
    monkeypatch.setattr(history, "table_field_names", lambda version: None)
    from_bytes = {v: history._narrow_index(v, keys) for v in releases}
    assert from_table == from_bytes
    assert sum(len(i) for i in from_table.values()) > 40  # the models are there
