"""The package keeps one direction of flow: no import its layer's allowlist entry does not name
(``architecture.ALLOWED``, which docs/architecture.md states), no import circles, no private name
of another module, no write to disk below ``output/``."""

from __future__ import annotations

import re
from pathlib import Path

from architecture import (
    ALLOWED,
    cycles,
    disk_writes,
    import_graph,
    layer_of,
    layer_violations,
    private_imports,
)
from helpers.paths import REPO

ARCHITECTURE = REPO / "docs" / "architecture.md"


def test_no_import_against_the_flow() -> None:
    violations = layer_violations(import_graph(REPO, "generator"))
    assert not violations, "\n".join(map(str, violations))


def test_every_layer_has_an_allowlist_entry() -> None:
    layers = {layer_of(module) for module in import_graph(REPO, "generator")}
    assert layers == set(ALLOWED)


def documented_allowlist(text: str) -> dict[str, str]:
    """docs/architecture.md's table: package or module → its "may import" cell."""
    rows = re.findall(r"^\| `([a-z_]+)(?:\.py|/)` \|.* \| ([^|]*) \|$", text, re.MULTILINE)
    return {layer if layer != "__init__" else "generator": cell for layer, cell in rows}


def allowlist_cell(layer: str) -> str:
    return ", ".join(f"`{entry}`" for entry in ALLOWED[layer]) or "stdlib"


def test_architecture_doc_states_the_allowlist() -> None:
    documented = documented_allowlist(ARCHITECTURE.read_text(encoding="utf-8"))
    assert documented == {layer: allowlist_cell(layer) for layer in ALLOWED}


def test_doc_check_can_fail() -> None:
    """A doc whose table lets ``model`` import all of ``sources`` (or lacks a row) differs."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    wrong = text.replace("| `errors`, `sources.base`, `sources.routes` |", "| `errors`, `sources` |")
    assert wrong != text
    assert documented_allowlist(wrong) != {layer: allowlist_cell(layer) for layer in ALLOWED}
    without_cli = "\n".join(line for line in text.splitlines() if not line.startswith("| `cli.py`"))
    assert "cli" not in documented_allowlist(without_cli)


def test_allowlist_check_can_fail(tmp_path: Path) -> None:
    """Entries by module: ``model`` may read ``sources.routes`` but not ``sources.fetch``;
    ``config`` and ``cli`` are constrained (no pipeline in config, no mkdocs in cli); a package
    without an entry may import nothing."""
    _write(tmp_path, {
        "generator/__init__.py": '"""x"""\n',
        "generator/sources/__init__.py": '"""x"""\n',
        "generator/sources/routes.py": "Route = 1\n",
        "generator/sources/fetch.py": "def get(): ...\n",
        "generator/model/__init__.py": '"""x"""\n',
        "generator/model/operations.py": (
            "from generator.sources.routes import Route\nfrom generator.sources import fetch\n"),
        "generator/pipeline/__init__.py": '"""x"""\n',
        "generator/mkdocs/__init__.py": '"""x"""\n',
        "generator/config.py": "from generator import pipeline\n",
        "generator/cli.py": "from generator import mkdocs, pipeline\n",
        "generator/extra/__init__.py": "from generator import config\n",
    })
    found = [(v.importer, v.imported) for v in layer_violations(import_graph(tmp_path, "generator"))]
    assert found == [("generator.cli", "generator.mkdocs"), ("generator.config", "generator.pipeline"),
                     ("generator.extra", "generator.config"),
                     ("generator.model.operations", "generator.sources.fetch")]


def test_no_import_circles() -> None:
    found = cycles(import_graph(REPO, "generator"))
    assert not found, found


def test_only_output_writes_to_disk() -> None:
    found = disk_writes(REPO, "generator")
    assert not found, "\n".join(map(str, found))


def test_no_module_uses_another_modules_private_name() -> None:
    found = private_imports(REPO, "generator")
    assert not found, "\n".join(map(str, found))


def test_private_name_check_can_fail(tmp_path: Path) -> None:
    """The check catches a private name imported (also renamed, also relatively) or read as an
    attribute of an imported module; a module's own private names, dunders and public names
    imported under a private alias pass."""
    _write(tmp_path, {
        "generator/__init__.py": '"""x"""\n',
        "generator/sources/__init__.py": '"""x"""\n',
        "generator/sources/reader.py": "_key = 1\n__all__ = []\npublic = 2\n",
        "generator/sources/crd.py": (
            "from generator.sources.reader import _key as key, __all__, public as _public\n"
            "from .reader import _key\n"
            "from generator.sources import reader\n"
            "import generator.sources.reader as r\n"
            "_mine = reader._key + r._key + reader.public + _public + key\n"
            "def f():\n    return _mine\n"),
    })
    found = [(v.importer, v.imported, v.line, v.verb) for v in private_imports(tmp_path, "generator")]
    assert found == [
        ("generator.sources.crd", "generator.sources.reader._key", 1, "imports"),
        ("generator.sources.crd", "generator.sources.reader._key", 2, "imports"),
        ("generator.sources.crd", "generator.sources.reader._key", 5, "reads"),
        ("generator.sources.crd", "generator.sources.reader._key", 5, "reads"),
    ]


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
    assert "model may import only errors, sources.base, sources.routes" in str(violations[0])
    assert cycles(graph) == [["generator.views.nav", "generator.views.pages"]]


def test_check_catches_a_write_below_output(tmp_path: Path) -> None:
    """The write check can fail: a build module keeping a cache itself (a direct write, a
    directory made, a file opened for writing), and a view using the atomic writer; the
    download cache of ``sources`` may write through ``atomic_write``, a read is no write."""
    _write(tmp_path, {
        "generator/__init__.py": '"""x"""\n',
        "generator/pipeline/__init__.py": '"""x"""\n',
        "generator/output/__init__.py": '"""x"""\n',
        "generator/output/writer.py": "def write_bytes(path, data): ...\n",
        "generator/pipeline/keep.py": (
            "from generator.output.writer import write_bytes\n"
            "def keep(path, data):\n"
            "    path.parent.mkdir(parents=True)\n"
            "    write_bytes(path, data)\n"
            "    with open(path, 'ab') as f:\n"
            "        f.write(data)\n"
            "    return open(path).read(), ' '.replace(' ', '')\n"),
        "generator/atomic.py": "def atomic_write(path, data): ...\n",
        "generator/views/__init__.py": '"""x"""\n',
        "generator/views/page.py": "from generator import atomic\natomic.atomic_write('p', 'x')\n",
        "generator/sources/__init__.py": '"""x"""\n',
        "generator/sources/fetch.py": "from generator.atomic import atomic_write\natomic_write('p', b'')\n",
    })
    found = disk_writes(tmp_path, "generator")
    assert [(v.importer, v.imported, v.line) for v in found] == [
        ("generator.pipeline.keep", "mkdir", 3), ("generator.pipeline.keep", "write_bytes", 4),
        ("generator.pipeline.keep", "open", 5), ("generator.views.page", "atomic_write", 2)]
    assert "pipeline.keep:3 calls mkdir: pipeline must not write to disk" in str(found[0])
    violations = layer_violations(import_graph(tmp_path, "generator"))
    assert [(v.importer, v.imported) for v in violations] == [("generator.views.page", "generator.atomic")]
