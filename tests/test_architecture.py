"""The package keeps one direction of flow: no import against it, no import circles."""

from __future__ import annotations

from pathlib import Path

from architecture import cycles, import_graph, layer_violations
from helpers.paths import REPO


def test_no_import_against_the_flow() -> None:
    violations = layer_violations(import_graph(REPO, "generator"))
    assert not violations, "\n".join(map(str, violations))


def test_no_import_circles() -> None:
    found = cycles(import_graph(REPO, "generator"))
    assert not found, found


def test_every_package_says_what_belongs_there() -> None:
    for init in sorted((REPO / "generator").rglob("__init__.py")):
        assert init.read_text().lstrip().startswith('"""'), f"{init} has no docstring"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_check_catches_a_layer_violation_and_a_circle(tmp_path: Path) -> None:
    """The check can fail: a model module importing a view (inside a function, the way such
    imports hide), and two modules importing each other (one only under TYPE_CHECKING)."""
    _write(tmp_path, {
        "generator/__init__.py": '"""x"""\n',
        "generator/model/__init__.py": '"""x"""\n',
        "generator/model/types.py": "def f():\n    from generator.views.pages import page\n",
        "generator/views/__init__.py": '"""x"""\n',
        "generator/views/pages.py": "from generator.views import nav\npage = 1\n",
        "generator/views/nav.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .pages import page\n"),
    })
    graph = import_graph(tmp_path, "generator")
    violations = layer_violations(graph)
    assert [(v.importer, v.imported, v.line) for v in violations] == [
        ("generator.model.types", "generator.views.pages", 2)]
    assert "model must not import views" in str(violations[0])
    assert cycles(graph) == [["generator.views.nav", "generator.views.pages"]]
