"""The layer rule of ``generator/`` as a check: what each package may import (an allowlist),
no circles, no private name of another module, and no writes to disk below ``output/``.

Every import counts: module level, inside functions, and under ``TYPE_CHECKING``. An import of
``pkg.mod`` (or ``from pkg import mod``) is an edge to that module; ``from pkg import name`` where
``name`` is not a module is an edge to ``pkg`` itself (its ``__init__``).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ALLOWED: dict[str, tuple[str, ...]] = {
    # layer (a package or top-level module of generator/): what else it may import. An entry is a
    # layer (``model``: all of it) or one module of it (``sources.base``); ``generator`` is the
    # package's own ``__init__`` (``__version__``). A layer may always import itself.
    "errors": (),
    "atomic": (),
    "memo": (),
    "generator": (),
    "sources": ("errors", "atomic"),
    "model": ("errors", "sources.base", "sources.routes"),
    "config": ("errors", "sources"),
    "analysis": ("memo", "errors", "sources", "model"),
    "libsonnet": ("memo", "errors", "model"),
    "examples": ("memo", "errors", "model", "libsonnet"),
    "views": ("memo", "errors", "sources", "model", "analysis", "libsonnet", "examples"),
    "render": ("memo", "generator", "errors", "sources", "model", "config", "analysis", "libsonnet",
               "examples", "views"),
    "output": ("errors", "atomic"),
    "pipeline": ("memo", "errors", "sources", "model", "config", "analysis", "libsonnet", "examples",
                 "views", "render", "output"),
    "mkdocs": ("errors", "config", "libsonnet", "views", "render", "pipeline", "output"),
    "sitebuild": ("generator", "errors", "atomic", "sources", "model", "config", "views", "render",
                  "pipeline", "output"),
    "cli": ("generator", "errors", "sources", "config", "analysis", "views", "render", "pipeline",
            "output", "sitebuild"),
    "__main__": ("cli",),
}
"""One direction of flow: ``sources`` read every format (only they may use ``atomic``, for their
download cache); ``model`` is made of the sources' records and nothing else: ``sources.base``
(``RawDocument``) and ``sources.routes`` (``Route``/``RouteParam``: the REST routes a kind's
operations are derived from, read by ``sources`` like every other input), no other source module;
the analyses, the k8s-libsonnet engine and the example generators never import views, rendering,
``config`` or the entry points; views never import rendering or ``config``; only ``pipeline``
wires the layers, and only the entry points (``mkdocs``, ``sitebuild``, ``cli``) use it; ``output``
knows nothing above ``atomic``; ``memo`` (the render memos, stdlib only) is for every layer
that renders text, and ``pipeline`` drops them. ``docs/architecture.md``'s table says the same
(a test compares)."""

WRITE_FREE = ("sources", "model", "analysis", "libsonnet", "examples", "views", "render", "pipeline")
"""The layers below ``output``: none writes to disk itself (``pipeline``'s caches keep their entries
through ``output.pickles`` and ``output.bytecode``) ..."""
WRITES_ALLOWED: dict[str, tuple[str, ...]] = {"sources": ("atomic_write",)}
"""... but for ``sources``' download cache, written through ``generator.atomic``."""
WRITE_FUNCTIONS = frozenset({"atomic_write", "write_file", "write_bytes", "write_page", "write_pages",
                             "swap_dir", "rmtree", "makedirs", "FileSystemBytecodeCache",
                             "NamedTemporaryFile", "mkstemp", "mkdtemp", "TemporaryDirectory"})
"""Functions that write to disk, called by name or as an attribute (``shutil.rmtree``)."""
WRITE_METHODS = WRITE_FUNCTIONS | {"write_text", "mkdir", "touch", "unlink", "rmdir", "rename",
                                   "replace", "remove", "symlink_to", "hardlink_to"}
"""Calls that write to disk as an attribute (``path.mkdir()``, ``os.replace()``; ``replace``
only on ``os``). ``open`` counts with a mode that writes."""


@dataclass(frozen=True)
class Violation:
    importer: str
    imported: str
    line: int
    why: str
    verb: str = "imports"
    """``imports`` (a module) or ``calls`` (a write to disk)."""

    def __str__(self) -> str:
        return f"{self.importer}:{self.line} {self.verb} {self.imported}: {self.why}"


def module_files(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name → file, for every module of ``package`` found below ``root``."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_module(node: ast.ImportFrom, importer: str, is_package: bool) -> str:
    """The absolute module a ``from … import`` of module ``importer`` names (relative ones
    resolved against its package)."""
    base = node.module or ""
    if node.level:
        anchor = importer.split(".") if is_package else importer.split(".")[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, *([base] if base else [])])
    return base


def import_graph(root: Path, package: str) -> dict[str, dict[str, int]]:
    """Module → {imported module of ``package``: first line}."""
    modules = module_files(root, package)
    graph: dict[str, dict[str, int]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = imported_module(node, name, is_package)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                if target == package or target.startswith(package + "."):
                    while target not in modules and "." in target:
                        target = target.rsplit(".", 1)[0]
                    if target != name:
                        edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def _writes(call: ast.Call) -> str | None:
    """The name of a call that writes to disk, else None."""
    func = call.func
    if isinstance(func, ast.Name):
        name = func.id
        if name in WRITE_FUNCTIONS:
            return name
    elif isinstance(func, ast.Attribute):
        name = func.attr
        on_os = isinstance(func.value, ast.Name) and func.value.id == "os"
        if name in WRITE_METHODS and (name != "replace" or on_os):
            return name
    else:
        return None
    if name == "open":
        mode = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "mode"), None)
        if mode is not None and not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)
                                     and not set(mode.value) & set("wax+")):
            return "open"
    return None


def disk_writes(root: Path, package: str) -> list[Violation]:
    """Every call that writes to disk in a module of a ``WRITE_FREE`` layer (beyond its
    ``WRITES_ALLOWED``)."""
    found = []
    for name, path in sorted(module_files(root, package).items()):
        layer = layer_of(name)
        if layer not in WRITE_FREE:
            continue
        allowed = WRITES_ALLOWED.get(layer, ())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                call = _writes(node)
                if call is not None and call not in allowed:
                    found.append(Violation(name, call, node.lineno,
                                           f"{layer} must not write to disk (only output does)",
                                           "calls"))
    return sorted(found, key=lambda v: (v.importer, v.line))


def layer_of(module: str) -> str:
    """``generator.sources.base`` → ``sources``; the package itself → ``generator``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def allows(entries: tuple[str, ...], imported: str) -> bool:
    """Whether an allowlist entry covers the module ``imported`` (``generator.model.types``)."""
    name = imported.partition(".")[2] or imported
    return any(name == entry or name.startswith(entry + ".") for entry in entries)


def layer_violations(graph: Mapping[str, Mapping[str, int]],
                     allowed: Mapping[str, tuple[str, ...]] = ALLOWED) -> list[Violation]:
    """Every import of a module its layer's entry in ``allowed`` does not name (a layer with no
    entry may import nothing but itself)."""
    found = []
    for importer, edges in sorted(graph.items()):
        layer = layer_of(importer)
        entries = allowed.get(layer)
        for imported, line in sorted(edges.items()):
            if layer_of(imported) == layer or (entries is not None and allows(entries, imported)):
                continue
            why = (f"{layer} has no entry in the allowlist" if entries is None
                   else f"{layer} may import only {', '.join(entries) or 'the standard library'}")
            found.append(Violation(importer, imported, line, why))
    return found


def cycles(graph: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """Every import circle (strongly connected component of more than one module, or a module
    importing itself), each sorted; Tarjan's algorithm, iterative."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph.get(node, {}):
                    found.append(sorted(component))
    return sorted(found)


def private_imports(root: Path, package: str) -> list[Violation]:
    """Every use of another module's private name (``_name``, not ``__dunder__``): imported
    (``from pkg.mod import _name``, also renamed), or read as an attribute of an imported module
    (``mod._name``)."""
    modules = module_files(root, package)
    found = []

    def private(name: str) -> bool:
        return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))

    for name, path in sorted(modules.items()):
        is_package = path.name == "__init__.py"
        module_aliases: dict[str, str] = {}
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.asname:
                        module_aliases[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = imported_module(node, name, is_package)
                if base != package and not base.startswith(package + "."):
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in modules:
                        module_aliases[alias.asname or alias.name] = sub
                    elif private(alias.name) and base != name:
                        found.append(Violation(name, f"{base}.{alias.name}", node.lineno,
                                               "a private name of another module"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and private(node.attr)
                    and isinstance(node.value, ast.Name) and node.value.id in module_aliases
                    and module_aliases[node.value.id] != name):
                found.append(Violation(name, f"{module_aliases[node.value.id]}.{node.attr}", node.lineno,
                                       "a private name of another module", "reads"))
    return sorted(found, key=lambda v: (v.importer, v.line))
