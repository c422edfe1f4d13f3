"""Small MkDocs sites built by tests, and what their builds printed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from helpers.paths import REPO


def build_log(site: Path) -> str:
    """What ``mkdocs build`` printed for a site of the ``built_site`` fixture."""
    return (site.parent / f"{site.name}.log").read_text(encoding="utf-8")


def small_site(root: Path, version: str, source: str) -> Path:
    """``mkdocs build --strict`` in ``root`` of one release (the repository's theme, Markdown
    settings and hand-written pages, the plugin generating ``version`` from ``source``); the
    built site."""
    return plugin_site(root, {"versions": [{"version": version, "source": source}]})


def plugin_site(root: Path, options: dict[str, object]) -> Path:
    """``mkdocs build --strict`` in ``root`` with the repository's theme, Markdown settings and
    hand-written pages and the plugin's ``options`` (its cache in ``root``); the built site."""
    shutil.copytree(REPO / "site_src", root / "docs")
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
              "plugins": ["search", {"k8s-api-docs": {**options, "cache_dir": ".cache"}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", "site"], cwd=root,
        capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"
