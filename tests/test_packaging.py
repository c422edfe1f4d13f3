"""The wheel carries the templates, and the installed package finds them."""

from __future__ import annotations

import subprocess
import sys
import zipfile

import pytest
from helpers.paths import REPO

pytestmark = pytest.mark.integration


def test_wheel_contains_templates(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(REPO)],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr
    wheel = next(tmp_path.glob("k8s_api_docs-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "generator/_templates/pages/model.md.j2" in names
    assert "generator/_templates/partials/property_table.md.j2" in names
    assert "generator/mkdocs/plugin.py" in names
    # the offline operations of the bundled releases (docs/operations.md)
    assert "generator/sources/operations.json.gz" in names
    # build-site's built-in config (sitebuild.mkdocs_yml.builtin_config) with its docs_dir
    assert {"generator/_site/mkdocs.yml", "generator/_site/site_src/index.md",
            "generator/_site/site_src/assets/k8s-api-docs.css"} <= set(names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "k8s-api-docs = generator.mkdocs.plugin:K8sApiDocsPlugin" in text
