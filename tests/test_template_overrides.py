"""Template overrides replace single blocks of the shipped pages; one that recurses is one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.paths import FIXTURES

from generator.cli import main

pytestmark = pytest.mark.integration

ZOO = FIXTURES / "specs" / "zoo-v2.json"
ONE_BLOCK = """{% extends "pages/_base/model.md.j2" %}
{% block appears_in %}
{{ super() }}
Custom footer for {{ page.model.kind | md_inline }}.
{% endblock %}
"""


def _overrides(root: Path, text: str, name: str = "pages/model.md.j2") -> Path:
    path = root / "templates" / name
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return root / "templates"


def _generate(out: Path, *extra: str) -> int:
    return main(["generate", "--version", "x", "--source", str(ZOO), "--out", str(out), "-q", *extra])


def _model_pages(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(out.rglob("*.md")) if "Properties" in p.read_text(encoding="utf-8")}


def test_one_block_override_from_the_cli(tmp_path: Path) -> None:
    assert _generate(tmp_path / "plain") == 0
    assert _generate(tmp_path / "custom", "--templates", str(_overrides(tmp_path, ONE_BLOCK))) == 0
    plain, custom = _model_pages(tmp_path / "plain"), _model_pages(tmp_path / "custom")
    assert plain.keys() == custom.keys() and plain
    for path, text in custom.items():
        kind = Path(path).stem
        assert "Custom footer for" in text and "Custom footer for" not in plain[path], path
        # every other block is the shipped one, byte for byte: only the footer line is new (the
        # source block follows it)
        footer = text[text.index("Custom footer for"):].split("\n", 1)[0]
        assert re.sub(re.escape(footer) + "\n+", "", text).rstrip("\n") == plain[path].rstrip("\n"), kind


def _plugin_build(root: Path, templates: Path) -> None:
    """``mkdocs build --strict`` in ``root`` of the zoo spec as release ``x`` with the plugin's
    ``templates`` option; the site is ``root/site``."""
    docs = root / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "zoo", "docs_dir": "docs", "theme": {"name": "material"},
        "markdown_extensions": [{"toc": {"permalink": True}}, "attr_list"],
        "plugins": [{"k8s-api-docs": {"versions": [{"version": "x", "source": str(ZOO)}],
                                      "templates": str(templates), "cache_dir": ".cache"}}]}),
        encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr


def test_one_block_override_from_the_plugin(tmp_path: Path) -> None:
    _plugin_build(tmp_path, _overrides(tmp_path, ONE_BLOCK))
    pages = [p for p in (tmp_path / "site" / "x").rglob("index.html")
             if "Custom footer for" in p.read_text(encoding="utf-8")]
    assert pages, "the overridden block is on no built page"


BADGE = """{% macro badge(kind, text, name="", title="") -%}
<mark class="my-badge my-{{ kind | e }}"{% if title %} title="{{ title | e }}"{% endif %}>
{{- text | md_inline }}{% if name %} {{ name | wbr }}{% endif %}</mark>
{%- endmacro %}
"""
"""An override of the badge partial: one file, every badge of the pages becomes a ``<mark>``."""


def _shipped_badges(text: str) -> str:
    """``text`` with BADGE's badges written back as the shipped partial writes them."""
    return re.sub(r'<mark class="my-badge my-([^"]*)"([^>]*)>(.*?)</mark>',
                  r'<span class="k8s-badge k8s-\1"\2>\3</span>', text)


def test_badge_partial_override_from_the_cli(tmp_path: Path) -> None:
    templates = _overrides(tmp_path, BADGE, "partials/badge.html.j2")
    assert _generate(tmp_path / "plain") == 0
    assert _generate(tmp_path / "custom", "--templates", str(templates)) == 0
    plain, custom = _model_pages(tmp_path / "plain"), _model_pages(tmp_path / "custom")
    assert plain.keys() == custom.keys() and plain
    kinds = [path for path, text in plain.items() if '<span class="k8s-badge k8s-kind">kind</span>' in text]
    assert kinds
    for path in kinds:
        assert '<mark class="my-badge my-kind">kind</mark>' in custom[path], path
    for path, text in custom.items():
        assert "k8s-badge" not in text, path
        assert _shipped_badges(text) == plain[path], path  # only the badges changed


def test_badge_partial_override_from_the_plugin(tmp_path: Path) -> None:
    _plugin_build(tmp_path, _overrides(tmp_path, BADGE, "partials/badge.html.j2"))
    pages = {p: p.read_text(encoding="utf-8") for p in (tmp_path / "site" / "x").rglob("index.html")}
    kinds = [p for p, text in pages.items() if '<mark class="my-badge my-kind">kind</mark>' in text]
    assert kinds, "the overridden badge is on no built page"
    assert not [p for p, text in pages.items() if 'class="k8s-badge' in text]


@pytest.mark.parametrize("name", ["pages/model.md.j2", "pages/index.md.j2"])
def test_override_extending_itself_is_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    templates = _overrides(tmp_path, f'{{% extends "{name}" %}}\n', name)
    assert _generate(tmp_path / "out", "--templates", str(templates)) == 2
    err = capsys.readouterr().err
    base = name.replace("pages/", "pages/_base/")
    assert err == (f"error: {templates / name}: template override {name} extends or includes itself: "
                   f'extend "{base}" instead\n')
    assert not (tmp_path / "out").exists()


def test_overrides_including_each_other_are_one_line_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    templates = _overrides(tmp_path, '{% include "partials/a.md.j2" %}\n')
    (templates / "partials").mkdir()
    (templates / "partials" / "a.md.j2").write_text('{% include "pages/model.md.j2" %}\n')
    assert _generate(tmp_path / "out", "--templates", str(templates)) == 2
    err = capsys.readouterr().err
    assert err == (f"error: {templates}: template error: templates extend or include each other in "
                   "a circle\n")
