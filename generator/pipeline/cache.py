"""What the builds remember between runs: content digests of inputs (build manifests, the
config of a build) and the Jinja environment, kept while no template file changed."""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import jinja2

from generator.config import SiteConfig
from generator.output.bytecode import bytecode_cache
from generator.render.env import make_env, shipped_templates


def tree_digest(roots: Iterable[Path]) -> str:
    """sha256 over the relative paths and bytes of every file below ``roots`` (in order); a root
    may also be a single file; a missing root counts as empty."""
    digest = hashlib.sha256()
    for root in roots:
        digest.update(f"root\0{root.name}\n".encode())
        if root.is_dir():
            files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        else:
            files = [root] if root.is_file() else []
        for path in files:
            rel = path.relative_to(root).as_posix() if root.is_dir() else path.name
            digest.update(f"{rel}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return digest.hexdigest()


_ENVIRONMENTS: dict[tuple[str, str, str], jinja2.Environment] = {}
"""The last environment by (override dir, templates digest, page format): compiled templates are
kept."""


def templates_digest(templates: Path | None) -> str:
    return tree_digest([p for p in (templates, shipped_templates()) if p])


def template_env(templates: Path | None, page_format: str = "mkdocs",
                 bytecode_dir: Path | None = None) -> tuple[jinja2.Environment, str]:
    """The Jinja environment of ``templates`` (overrides) and the shipped templates, reused while
    no template file changed; and the templates' digest. With ``bytecode_dir``, compiled
    templates are kept there for other processes (``use_bytecode_cache``), also for the later
    calls without it that get the same environment."""
    digest = templates_digest(templates)
    key = (str(templates or ""), digest, page_format)
    env = _ENVIRONMENTS.get(key)
    if env is None:
        env = make_env(templates, page_format)
        _ENVIRONMENTS.clear()
        _ENVIRONMENTS[key] = env
    if bytecode_dir is not None and env.bytecode_cache is None:
        use_bytecode_cache(env, bytecode_dir)
    return env, digest


def compile_templates(templates: Path | None, bytecode_dir: Path, page_format: str = "mkdocs") -> None:
    """Compile every template of ``template_env(templates, page_format)`` into ``bytecode_dir``,
    for the builds that follow to load (``build-site`` does this beside its own start-up, on the
    core that would idle)."""
    env, _ = template_env(templates, page_format, bytecode_dir)
    other = "" if page_format == "gfm" else "gfm/"  # the other format's templates
    for name in env.list_templates():
        if not (other and name.startswith(other)):
            env.get_template(name)


def config_digest(config: SiteConfig, templates_digest: str) -> str:
    """Digest of every input of a build but the source bytes (``SiteState`` has those)."""
    hooks = config.hooks
    parts = {
        "rendered": config.rendered,
        "sources": {v: [r.spec, *r.crds] for v, r in sorted(config.loaded().items())},
        "options": repr(config.sources), "templates": [str(config.templates), templates_digest],
        "lenient": config.lenient, "groups": sorted(config.groups),
        "at_root": config.at_root, "page_format": config.page_format,
        "directory_urls": config.directory_urls,
        "versions": [config.versions.enabled, config.versions.history,
                     [list(p) for p in config.versions.change_pairs]],
        "hooks": None if hooks is None else
        [f"{h.__module__}.{getattr(h, '__qualname__', repr(h))}" for h in hooks],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


_COMPILE_SETTINGS = ("block_start_string", "block_end_string", "variable_start_string",
                     "variable_end_string", "comment_start_string", "comment_end_string",
                     "line_statement_prefix", "line_comment_prefix", "trim_blocks", "lstrip_blocks",
                     "newline_sequence", "keep_trailing_newline", "optimized", "is_async")
"""What a template's compiled code depends on besides its source (Jinja's own cache key is only
the template's name, file and source)."""


def use_bytecode_cache(env: jinja2.Environment, directory: Path) -> None:
    """Compiled templates of ``env`` kept in ``directory`` (``output.bytecode``), so the next
    process, e.g. the next release of ``build-site``, loads them instead of compiling. A
    subdirectory per Python and Jinja version and compile settings: a cache never serves code
    compiled another way."""
    autoescape = env.autoescape
    settings = (sys.version, jinja2.__version__, sorted(env.extensions),
                autoescape if isinstance(autoescape, bool) else getattr(autoescape, "__qualname__", "?"),
                [getattr(env, name) for name in _COMPILE_SETTINGS])
    found = bytecode_cache(directory / hashlib.sha256(repr(settings).encode()).hexdigest()[:16])
    if found is not None:  # an unwritable cache only costs the compile time
        env.bytecode_cache = found
