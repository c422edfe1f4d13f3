"""MkDocs plugin ``k8s-api-docs``: generates the release pages during ``mkdocs build``/``serve``.

Pages are written to a cache directory (never into ``docs_dir``), rewriting only files whose text
changed, so ``mkdocs serve --dirty`` rebuilds only what changed.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files

from generator.errors import GeneratorError
from generator.pipeline import GeneratedSite, Release, VersionsOptions, generate
from generator.sources import SourceOptions
from generator.writer import sync_tree

log: logging.LoggerAdapter[logging.Logger] = get_plugin_logger(__name__)
RELEASES_MARKER = "<!-- k8s-api-docs:releases -->"


class _VersionString(c.Type):
    """A release label; must be a YAML string (unquoted 1.30 would read as 1.3)."""

    def __init__(self) -> None:
        super().__init__(str)

    def run_validation(self, value: object) -> str:
        if not isinstance(value, str):
            raise c.ValidationError(f"version must be a quoted string such as '1.31', got {value!r}")
        return value


class ReleaseConfig(base.Config):
    version = _VersionString()
    """Kubernetes release label, e.g. ``'1.31'``."""
    source = c.Type(str, default="")
    """Source spec; default ``kubernetes-validate:<version>``."""


class ChangePairConfig(base.Config):
    old = _VersionString()
    new = _VersionString()


class PluginConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn page generation off (e.g. to build only hand-written pages)."""
    versions = c.ListOfItems(c.SubConfig(ReleaseConfig), default=[])
    """The releases to document."""
    cache_dir = c.Type(str, default=".cache/k8s-api-docs")
    """Where generated Markdown and downloads go (relative to mkdocs.yml)."""
    templates = c.Optional(c.Dir(exists=True))
    """Directory of template overrides."""
    offline = c.Type(bool, default=False)
    """Never download URL sources."""
    lenient = c.Type(bool, default=False)
    """Render dangling $refs as unknown types instead of failing."""
    groups = c.ListOfItems(c.Type(str), default=[])
    """Serve-time filter: only these API groups (empty: all)."""
    versions_feature = c.Type(bool, default=True)
    """Other versions lines, field since/changed/removed notes and change pages."""
    history = c.Choice(("all", "site"), default="all")
    """Releases field history considers: every kubernetes-validate release, or only the site's."""
    changes = c.ListOfItems(c.SubConfig(ChangePairConfig), default=[])
    """Extra change pages: ``{old: '1.29', new: '1.32'}`` → ``1.32/changes-from-1.29.md``."""


class K8sApiDocsPlugin(BasePlugin[PluginConfig]):
    def __init__(self) -> None:
        self.site: GeneratedSite | None = None
        self.pages_dir: Path | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        base_dir = Path(config.config_file_path or ".").resolve().parent
        cache = (base_dir / self.config.cache_dir).resolve()
        self.pages_dir = cache / "pages"
        releases = [Release(r.version, r.source) for r in self.config.versions]
        templates = Path(self.config.templates) if self.config.templates else None
        try:
            self.site = generate(releases, SourceOptions(cache_dir=cache,
                                                         offline=self.config.offline),
                                 templates=templates, lenient=self.config.lenient,
                                 groups=self.config.groups or None,
                                 versions=self._versions_options())
        except GeneratorError as exc:
            raise PluginError(f"k8s-api-docs: {exc}") from None
        for diagnostic in self.site.diagnostics:
            log.warning(str(diagnostic))
        written, unchanged, removed = sync_tree(self.pages_dir, self.site.pages)
        log.info(f"{len(self.site.pages)} pages ({written} written, {unchanged} unchanged, "
                 f"{removed} removed) in {self.pages_dir}")
        nav = config.nav
        if nav is None:
            nav = ["index.md"] if (Path(config.docs_dir) / "index.md").exists() else []
        config.nav = [*nav, *self.site.nav]
        return config

    def _versions_options(self) -> VersionsOptions:
        rendered = {r.version for r in self.config.versions}
        pairs = []
        for pair in self.config.changes:
            if pair.new not in rendered:
                raise PluginError(f"k8s-api-docs: changes: {pair.new} is not one of the versions")
            pairs.append((pair.old, pair.new))
        return VersionsOptions(enabled=self.config.versions_feature, history=self.config.history,
                               change_pairs=tuple(pairs))

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if self.site is None or self.pages_dir is None:
            return files
        for rel in self.site.pages:
            if files.get_file_from_path(rel) is not None:
                raise PluginError(f"k8s-api-docs: {rel} exists in docs_dir and would be "
                                  "overwritten by a generated page")
            files.append(File(rel, str(self.pages_dir), config.site_dir,
                              config.use_directory_urls))
        return files

    def on_page_markdown(self, markdown: str, *, page: Any, config: MkDocsConfig,
                         files: Files) -> str | None:
        if self.site is None or RELEASES_MARKER not in markdown:
            return markdown
        lines = []
        for api, plan in zip(self.site.apis, self.site.plans, strict=True):
            lines.append(f"- [Kubernetes {api.version}]({plan.home}) — "
                         f"{len(api.models)} models, from `{api.source}`")
        return markdown.replace(RELEASES_MARKER, "\n".join(lines))

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.config.templates:
            server.watch(self.config.templates)
        from generator.render.env import shipped_templates

        server.watch(str(shipped_templates()))
        for release in self.config.versions:
            if release.source and Path(release.source).exists():
                server.watch(release.source)
        return server
