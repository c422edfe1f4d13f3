"""What ``build-site`` compiles ahead of its release builds, so that none of them compiles it
(each ``mkdocs build`` would otherwise compile the templates itself, racing the others for the
cache): the theme's templates into the bytecode cache the plugin gives the theme (``on_env``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path

import jinja2
import jinja2.meta

from generator.pipeline.cache import use_bytecode_cache
from generator.sitebuild.runner import quiet_config


def compile_theme_templates(config_file: Path, bytecode_dir: Path) -> None:
    """Compile into ``bytecode_dir`` the theme templates a build of ``config_file`` renders: the
    page template, the static templates, and what they include, extend or import. A template
    reached only through a computed name, or through the plugin's own loader, is left to the
    build. The config is loaded silently (``quiet_config``)."""
    config = quiet_config(config_file)
    env = config.theme.get_env()
    use_bytecode_cache(env, bytecode_dir)
    for name in _closure(env, ["main.html", *sorted(config.theme.static_templates)]):
        env.get_template(name)


def _closure(env: jinja2.Environment, roots: Iterable[str]) -> list[str]:
    """``roots`` and every template they name, transitively; names that do not load are left out."""
    seen: dict[str, None] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        with contextlib.suppress(jinja2.TemplateError, OSError):
            source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
            seen[name] = None
            todo.extend(ref for ref in jinja2.meta.find_referenced_templates(env.parse(source)) if ref)
    return list(seen)
