"""Where the CPU of a ``mkdocs build`` goes, phase by phase: the build run in this process with
CPU timers (``time.process_time``) around the plugin's hooks, the accelerators, Material's
search plugin, the theme's top-level blocks of ``base.html`` (``jinja2.Template.blocks``), the
theme's whole page template and MkDocs' writing of the files; medians of ``--runs`` builds,
each in a fresh process (the generator keeps what it loaded and rendered for the next build in
the same process, as ``mkdocs serve`` needs). Timers nest (a block's time includes the
accelerators it calls, the theme's templates the navigation ``nav_cache`` has the theme render);
the timers' own overhead is a few percent, far less than cProfile's.

    python benchmarks/profile_mkdocs.py [--config mkdocs.yml] [--runs 3] [--site-dir DIR]

Run it with ``PYTHONPATH`` naming the checkout to profile; ``--config`` a config of that
checkout (a copy with ``cache_dir`` elsewhere keeps a checkout's cache untouched).
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jinja2
import mkdocs.structure.pages
import mkdocs.utils
from mkdocs.commands import build as mkdocs_build
from mkdocs.config import load_config

from generator.mkdocs import nav_cache, plugin

BLOCKS = ("site_meta", "htmltitle", "styles", "libs", "header", "tabs", "site_nav", "container",
          "footer", "config", "scripts")
"""Material's ``base.html`` blocks timed (``site_nav`` holds the primary navigation and the
table of contents, ``container`` the page content)."""

Timings = dict[str, list[float]]


def _timed(totals: dict[str, float], counts: collections.Counter[str], label: str,
           function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            totals[label] += time.process_time() - start
            counts[label] += 1
    return timed


def _timed_block(totals: dict[str, float], label: str,
                 block: Callable[[Any], Iterator[str]]) -> Callable[[Any], Iterator[str]]:
    """A block render function (a generator) whose CPU is counted while it runs."""
    def timed(context: Any) -> Iterator[str]:
        parts = block(context)
        spent = 0.0
        while True:
            start = time.process_time()
            try:
                part = next(parts)
            except StopIteration:
                totals[label] += spent + time.process_time() - start
                return
            spent += time.process_time() - start
            yield part
    return timed


def profile_build(config_file: Path, site_dir: Path) -> tuple[dict[str, float], dict[str, int]]:
    """One ``mkdocs build`` of ``config_file`` into ``site_dir``: CPU seconds by label, calls."""
    totals: dict[str, float] = collections.defaultdict(float)
    counts: collections.Counter[str] = collections.Counter()
    patched: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        patched.append((owner, name, original))
        setattr(owner, name, _timed(totals, counts, label, original))

    for hook in ("on_config", "on_files", "on_env", "on_page_markdown", "on_page_content",
                 "on_page_context", "on_post_page", "on_post_build"):
        patch(plugin.K8sApiDocsPlugin, hook, f"plugin {hook}")
    patch(nav_cache.NavCache, "render_variables", "nav_cache (whole)")
    patch(nav_cache.NavCache, "_full", "nav_cache: theme renders")
    patch(nav_cache.NavCache, "_derive", "nav_cache: derived")
    patch(mkdocs.structure.pages.Page, "render", "Markdown (Page.render, not headings_page)")
    patch(plugin.HeadingsPage, "render", "page render (headings_page or Markdown)")
    patch(mkdocs.utils, "write_file", "MkDocs write_file")
    patch(jinja2.Template, "render", "theme templates (Template.render)")
    try:
        from material.plugins.search.plugin import SearchPlugin
        patch(SearchPlugin, "on_page_context", "Material search on_page_context")
        patch(SearchPlugin, "on_post_build", "Material search on_post_build")
    except ImportError:  # pragma: no cover - another theme
        pass
    on_env = plugin.K8sApiDocsPlugin.on_env

    def timing_env(self: Any, env: Any, **kwargs: Any) -> Any:
        env = on_env(self, env, **kwargs)
        for name in ("main.html", "base.html"):
            template = env.get_template(name)
            for block in BLOCKS:
                if block in template.blocks:
                    template.blocks[block] = _timed_block(totals, f"block {block}", template.blocks[block])
        return env

    plugin.K8sApiDocsPlugin.on_env = timing_env  # type: ignore[method-assign]
    try:
        config = load_config(str(config_file), site_dir=str(site_dir))
        start = time.process_time()
        config.plugins.on_startup(command="build", dirty=False)
        mkdocs_build.build(config)
        config.plugins.on_shutdown()
        totals["whole build (after imports)"] = time.process_time() - start
    finally:
        plugin.K8sApiDocsPlugin.on_env = on_env  # type: ignore[method-assign]
        for owner, name, original in reversed(patched):
            setattr(owner, name, original)
    return dict(totals), dict(counts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site-dir", type=Path)
    parser.add_argument("--one", action="store_true", help="one build, its timings as JSON")
    args = parser.parse_args()
    site_dir = args.site_dir or Path(tempfile.mkdtemp(prefix="profile-mkdocs-"))
    if args.one:
        print(json.dumps(profile_build(args.config, site_dir)))
        return
    runs: Timings = collections.defaultdict(list)
    calls: dict[str, int] = {}
    for _ in range(args.runs):
        result = subprocess.run([sys.executable, __file__, "--one", "--config", str(args.config),
                                 "--site-dir", str(site_dir)], capture_output=True, text=True,
                                check=True)
        totals, calls = json.loads(result.stdout.strip().splitlines()[-1])
        for label, seconds in totals.items():
            runs[label].append(seconds)
    print(f"# {args.config}: CPU seconds, medians of {args.runs} (calls in the last run)")
    for label, values in sorted(runs.items(), key=lambda item: -statistics.median(item[1])):
        count = calls.get(label)
        print(f"{statistics.median(values):8.3f}  {label}" + (f"  ({count} calls)" if count else ""))


if __name__ == "__main__":
    main()
