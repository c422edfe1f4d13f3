"""Build one release site with Zensical (``build-site --builder zensical``).

Zensical reads ``mkdocs.yml`` but runs no MkDocs plugin, so what the ``k8s-api-docs`` plugin
does inside ``mkdocs build`` happens here, before Zensical runs: generate the release's pages at
the docs root (the plugin's ``release`` layout), put the hand-written pages beside them
(``index.md`` published as ``about/``) and write a standalone config with the release's
navigation, ``site_url`` and version selector. Each job runs in its own process
(``python -m generator.sitebuild.zensical JOB.json``), one per core, like ``mkdocs build``.

Zensical resolves relative URLs in raw HTML against the Markdown file, as it does Markdown links
(MkDocs leaves raw HTML alone), so the raw blocks' links are rewritten for that
(``raw_html.source_relative``). It checks Markdown links but not links in raw HTML, where most
of a model page's links are: ``build-site`` checks every internal link of the built releases.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.atomic import atomic_write
from generator.config import plugin_config
from generator.errors import GeneratorError
from generator.output.writer import sync_tree, write_file
from generator.pipeline.build import build
from generator.pipeline.state import GeneratedSite
from generator.render.raw_html import source_relative
from generator.sitebuild.mkdocs_yml import PLUGIN, ParentConfig
from generator.views.nav import ABOUT_TITLE, RELEASES_MARKER, releases_list, rename_in_nav
from generator.views.nav import DOCS_HOME_IN_RELEASE_LAYOUT as DOCS_HOME
from generator.views.search import page_entries, zensical_index


@dataclass(frozen=True)
class ZensicalJob:
    """Everything one release build needs (written as JSON for the job process)."""

    config_file: str
    """The project's ``mkdocs.yml``."""
    version: str
    plugin_options: dict[str, Any]
    """The plugin options of the release's build (``mkdocs_yml.release_plugin_options``): what
    the plugin would generate inside ``mkdocs build``."""
    work_dir: str
    """``CACHE/build-site/<release>/zensical``: the Zensical project (config, docs, site)."""
    site_dir: str
    """Where the built site goes (``SITE/.build-<release>``)."""
    site_url: str = ""

    def save(self, path: Path) -> None:
        write_file(path, json.dumps(asdict(self), indent=1, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: Path) -> ZensicalJob:
        return cls(**json.loads(path.read_text(encoding="utf-8")))


def job_command(job_file: Path) -> list[str]:
    return [sys.executable, "-m", "generator.sitebuild.zensical", str(job_file)]


def run(job: ZensicalJob) -> None:
    """Generate, lay out and build one release; the site ends up in ``job.site_dir``."""
    parent = ParentConfig.load(Path(job.config_file))
    work = Path(job.work_dir)
    config = plugin_config(job.plugin_options, parent.base_dir)
    site, _ = build(config)
    for diagnostic in site.diagnostics:
        print(diagnostic, file=sys.stderr)
    pages = {path: source_relative(text, path) for path, text in site.pages.items()}
    others = [r.version for r in config.siblings if r.version != job.version]
    pages.update(_hand_written(parent.docs_dir, site, others))
    docs = work / "docs"
    sync_tree(docs, pages)
    _sync_assets(parent.docs_dir, docs)
    config_file = work / "mkdocs.yml"
    write_file(config_file, zensical_config(parent, site.nav, job))
    _build(config_file)
    index = work / "site" / "search.json"  # one item per property row, as with MkDocs
    if index.is_file():
        entries = {url: page for api, plan in zip(site.apis, site.plans, strict=True)
                   for url, page in page_entries(api, plan).items()}
        write_file(index, json.dumps(zensical_index(json.loads(index.read_text(encoding="utf-8")), entries),
                                     ensure_ascii=False, separators=(",", ":")))
    target = Path(job.site_dir)
    shutil.rmtree(target, ignore_errors=True)
    shutil.move(str(work / "site"), target)


def _hand_written(docs_dir: Path, site: GeneratedSite, others: list[str]) -> dict[str, str]:
    """The hand-written Markdown pages of ``docs_dir``; ``index.md`` becomes ``about.md`` (the
    release home is the site home) with its releases marker filled in."""
    pages = {}
    for path in sorted(docs_dir.rglob("*.md")):
        rel = path.relative_to(docs_dir).as_posix()
        text = path.read_text(encoding="utf-8")
        if rel == "index.md":
            rel = DOCS_HOME
        if rel in site.pages:
            raise GeneratorError(f"{path}: would overwrite the generated page {rel}")
        if RELEASES_MARKER in text:
            text = text.replace(RELEASES_MARKER, releases_list(
                rel, _file_dir_url(rel), list(zip(site.apis, site.plans, strict=True)), others,
                site.titles))
        pages[rel] = text
    return pages


def _file_dir_url(page: str) -> str:
    """The URL links on ``page`` are relative to under Zensical: its file's directory."""
    return page.rpartition("/")[0] + "/" if "/" in page else ""


def _sync_assets(docs_dir: Path, docs: Path) -> None:
    """Copy the other files of ``docs_dir`` (CSS, images) when changed."""
    for path in sorted(p for p in docs_dir.rglob("*") if p.is_file() and p.suffix != ".md"):
        target = docs / path.relative_to(docs_dir)
        data = path.read_bytes()
        if not target.is_file() or target.read_bytes() != data:
            atomic_write(target, data)


def zensical_config(parent: ParentConfig, nav: list[Any], job: ZensicalJob) -> str:
    """A standalone config (not ``INHERIT``: Zensical appends inherited lists, which would keep
    the project's own ``nav``): the project's settings with this release's docs, nav and URLs."""
    data = dict(parent.data)
    plugins = {name: opts for name, opts in parent.plugins().items() if name != PLUGIN}
    own_nav = data.get("nav")
    if own_nav is None:
        own_nav = ["index.md"] if (parent.docs_dir / "index.md").exists() else []
    data.update({
        "docs_dir": "docs",
        "site_dir": "site",
        "nav": [*nav, *rename_in_nav(own_nav, "index.md", DOCS_HOME, ABOUT_TITLE)],
        "plugins": [{name: opts} if opts else name for name, opts in plugins.items()],
        "extra": {**(data.get("extra") or {}), "version": {"provider": "mike", "default": "latest"}},
    })
    data.pop("INHERIT", None)
    data.pop("validation", None)
    site_url = job.site_url or parent.data.get("site_url")
    if site_url:
        data["site_url"] = f"{str(site_url).rstrip('/')}/{job.version}/"
    header = f"# Generated by k8s-api-docs build-site (Zensical) for release {job.version}; do not edit.\n"
    return header + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _build(config_file: Path) -> None:
    try:
        import zensical
    except ImportError:
        raise GeneratorError("build-site --builder zensical needs Zensical: "
                             "pip install 'k8s-api-docs[zensical]'") from None
    zensical.build(str(config_file.resolve()), {"clean": False, "strict": False})


def main(argv: list[str]) -> int:
    try:
        run(ZensicalJob.load(Path(argv[0])))
    except GeneratorError as exc:
        print(f"ERROR: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
