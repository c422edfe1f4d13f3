"""MkDocs plugin ``k8s-api-docs``: generates the release pages during ``mkdocs build``/``serve``.

Pages are written to a cache directory (never into ``docs_dir``), rewriting only files whose text
changed, so ``mkdocs serve --dirty`` rebuilds only what changed; pages whose only change is a
new source digest are patched in place instead, HTML included (``output.restamp``).

Two layouts: ``combined`` (every release a folder ``1.31/…`` of one site) and ``release`` (one
release, chosen by ``only``, at the docs root: the per-release sites of ``build-site``; the
hand-written ``index.md`` is then published as ``about.md`` since the release home is the site home).

Serve-time filter for the template-editing loop: the ``only``/``groups`` options, or the
environment variables ``K8S_API_DOCS_ONLY=1.32[,1.31]`` and ``K8S_API_DOCS_GROUPS=apps,batch``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files

from generator.config import HISTORY_SCOPES, LAYOUTS, PLUGIN_DEFAULTS, SiteConfig, plugin_config
from generator.errors import GeneratorError, Level
from generator.mkdocs import accelerators, nav_cache
from generator.mkdocs.headings_page import HeadingsPage, renders_headings_alike
from generator.output.restamp import mark_outdated, restamp_site
from generator.output.writer import sync_tree, write_file
from generator.pipeline.build import build
from generator.pipeline.cache import use_bytecode_cache
from generator.pipeline.collector import fewer_collections
from generator.pipeline.state import GeneratedSite, SiteState
from generator.render import raw_html
from generator.render.search_sections import page_sections
from generator.views.nav import (
    DOCS_HOME_IN_RELEASE_LAYOUT,
    RELEASES_MARKER,
    nav_titles,
    releases_list,
    site_nav,
)
from generator.views.search import SiteSearch
from generator.views.site import RELEASES, published_url, releases_json

log: logging.LoggerAdapter[logging.Logger] = get_plugin_logger(__name__)
ONLY_ENV, GROUPS_ENV = "K8S_API_DOCS_ONLY", "K8S_API_DOCS_GROUPS"


class _VersionString(c.Type):
    """A release label; must be a YAML string (unquoted 1.30 would read as 1.3)."""

    def __init__(self) -> None:
        super().__init__(str)

    def run_validation(self, value: object) -> str:
        if not isinstance(value, str):
            raise c.ValidationError(f"version must be a quoted string such as '1.31', got {value!r}")
        return value


class ReleaseEntry(base.Config):
    version = _VersionString()
    source = c.Type(str, default="")
    crds = c.ListOfItems(c.Type(str), default=[])


class ChangePairEntry(base.Config):
    old = _VersionString()
    new = _VersionString()


class PluginConfig(base.Config):
    """The options of ``config.PLUGIN_DEFAULTS`` (what each is, and its default), typed."""

    enabled = c.Type(bool, default=True)  # page generation on or off
    versions = c.ListOfItems(c.SubConfig(ReleaseEntry), default=PLUGIN_DEFAULTS["versions"])
    cache_dir = c.Type(str, default=PLUGIN_DEFAULTS["cache_dir"])
    templates = c.Optional(c.Dir(exists=True))
    offline = c.Type(bool, default=PLUGIN_DEFAULTS["offline"])
    spec_mirror = c.Type(str, default=PLUGIN_DEFAULTS["spec_mirror"])
    lock_file = c.Type(str, default=PLUGIN_DEFAULTS["lock_file"])
    lenient = c.Type(bool, default=PLUGIN_DEFAULTS["lenient"])
    groups = c.ListOfItems(c.Type(str), default=PLUGIN_DEFAULTS["groups"])
    versions_feature = c.Type(bool, default=PLUGIN_DEFAULTS["versions_feature"])
    history = c.Choice(HISTORY_SCOPES, default=PLUGIN_DEFAULTS["history"])
    changes = c.ListOfItems(c.SubConfig(ChangePairEntry), default=PLUGIN_DEFAULTS["changes"])
    only = c.ListOfItems(_VersionString(), default=PLUGIN_DEFAULTS["only"])
    layout = c.Choice(LAYOUTS, default=PLUGIN_DEFAULTS["layout"])
    pages_dir = c.Type(str, default=PLUGIN_DEFAULTS["pages_dir"])
    release_cache = c.Type(bool, default=PLUGIN_DEFAULTS["release_cache"])


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


class _DirtyServeNotice(logging.Filter):
    """``mkdocs serve --dirty`` is the intended editing loop, yet MkDocs logs its dirty-build
    notice as a WARNING, which aborts every build of a ``strict: true`` config. Log it as INFO."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and str(record.msg).startswith("A 'dirty' build"):
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


_DIRTY_NOTICE = _DirtyServeNotice()


def fast_headings(config: MkDocsConfig) -> bool:
    """Whether generated pages are rendered by ``headings_page`` (says why not, once)."""
    if not accelerators.running("headings_page", config):
        return False
    try:
        if renders_headings_alike(config):
            return True
    except Exception as exc:  # whatever it is, MkDocs renders
        accelerators.broke("headings_page", exc)
        return False
    accelerators.turned_off("headings_page", "a sample page renders otherwise")
    return False


PRUNE, EXPAND = "navigation.prune", "navigation.expand"


def prune_navigation(config: MkDocsConfig) -> None:
    """Material's ``navigation.prune`` on, said once: without it every page of the site carries
    the navigation of every generated page (hundreds of KB a page). With ``navigation.expand``
    (which Material documents as incompatible) pages still open the sections on their own path."""
    if getattr(config.theme, "name", None) != "material":
        return
    features = config.theme.get("features")
    if not isinstance(features, list) or PRUNE in features:
        return
    features.append(PRUNE)
    expand = f"; {EXPAND} then opens only the sections on a page's own path" \
        if EXPAND in features else ""
    accelerators.log.info(f"k8s-api-docs: theme feature {PRUNE} turned on: every page would "
                          f"otherwise carry the navigation of every generated page{expand}")


class K8sApiDocsPlugin(BasePlugin[PluginConfig]):
    def __init__(self) -> None:
        self.site: GeneratedSite | None = None
        self.pages_dir: Path | None = None
        self.cache_dir: Path | None = None
        self._raw_blocks: dict[str, list[raw_html.RawBlock]] = {}
        """Raw HTML blocks lifted out of each page's Markdown (``render.raw_html``), until the
        page is finished."""
        self._fast_headings = False
        self._state: SiteState | None = None
        """What the last build left (``pipeline.build.build``): the plugin has ``on_startup``, so
        MkDocs keeps this instance across the rebuilds of ``mkdocs serve``; ``build`` starts
        afresh when the config changed."""
        self._search = SiteSearch()
        """The search index's model-page entries and reshaped pages, kept across rebuilds."""
        self._sections: dict[str, list[dict[str, str]] | None] = {}
        """Each page's search entries by URL, in build order (``None``: Material's), kept across
        ``serve --dirty`` rebuilds."""
        self._inserted: dict[str, str] = {}
        """What ``on_page_markdown`` put into each hand-written page at ``RELEASES_MARKER``."""
        self._in_memory = False
        """``mkdocs build``: generated pages are handed to MkDocs as text, not written to
        ``pages_dir`` (only ``mkdocs serve`` reads them again, for ``--dirty`` rebuilds)."""
        self._dirty = False
        """``mkdocs serve --dirty``: restamped pages are patched, not built again."""
        self._until_shutdown = contextlib.ExitStack()
        """What ``on_shutdown`` undoes: fewer garbage collections during ``mkdocs build``."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self._in_memory = command == "build"
        if command == "build":  # the whole build, MkDocs' pages too (not a server's lifetime)
            self._until_shutdown.enter_context(fewer_collections())
        self._dirty = command == "serve" and dirty
        if self._dirty:
            logging.getLogger("mkdocs.commands.build").addFilter(_DIRTY_NOTICE)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        if not self.config.enabled:
            return config
        base_dir = Path(config.config_file_path or ".").resolve().parent
        cache = (base_dir / self.config.cache_dir).resolve()
        self.pages_dir = (base_dir / self.config.pages_dir).resolve() if self.config.pages_dir \
            else cache / "pages"
        self.cache_dir = cache
        try:
            # compiled templates kept in the cache directory: the next release of build-site
            # loads them instead of compiling
            site_config = replace(self.site_config(base_dir), template_cache=cache / "jinja",
                                  directory_urls=config.use_directory_urls)
            self.site, self._state = build(site_config, self._state, keep=True)
        except GeneratorError as exc:
            raise PluginError(f"k8s-api-docs: {exc}") from None
        for diagnostic in self.site.diagnostics:
            (log.info if diagnostic.level is Level.INFO else log.warning)(str(diagnostic))
        if self._in_memory:
            log.info(f"{len(self.site.pages)} pages generated")
        else:
            patched = restamp_site(self.pages_dir, Path(config.site_dir), self.site.patchable,
                                   self.site.restamps,
                                   partial(published_url, directory_urls=config.use_directory_urls)
                                   ) if self._dirty else set()
            written, unchanged, removed = sync_tree(self.pages_dir, self.site.pages, patched)
            log.info(f"{len(self.site.pages)} pages ({written} written, {unchanged} unchanged, "
                     f"{removed} removed) in {self.pages_dir}")
        config.nav = site_nav(config.nav, self.site.nav, self._release_layout,
                              (Path(config.docs_dir) / "index.md").exists())
        prune_navigation(config)
        return config

    def site_config(self, base_dir: Path) -> SiteConfig:
        """The build's config: the plugin's options, paths relative to ``base_dir`` (the config's
        directory); the serve-time environment variables replace ``only`` and ``groups``."""
        return plugin_config(self.config, base_dir, only=_env_list(ONLY_ENV),
                             groups=_env_list(GROUPS_ENV))

    @property
    def _release_layout(self) -> bool:
        return self.config.layout == "release"

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if self.site is None or self.pages_dir is None:
            return files
        accelerators.start_build()  # before the first accelerator runs, after every on_config
        self._fast_headings = fast_headings(config)
        docs_home = files.get_file_from_path("index.md")
        if self._release_layout and docs_home is not None and docs_home.abs_src_path:
            files.remove(docs_home)
            files.append(File.generated(config, DOCS_HOME_IN_RELEASE_LAYOUT,
                                        abs_src_path=docs_home.abs_src_path))
        self._search.update(zip(self.site.apis, self.site.plans, strict=True), self.site.rendered)
        for uri, text in self._inserted.items():  # --dirty: its list changed (a model added)
            page = files.get_file_from_path(uri)
            if page is not None and self._releases_list(page) != text:
                mark_outdated(Path(page.abs_dest_path))
        titles, theirs = nav_titles(config.nav or []), set(files.src_uris)
        for rel in self.site.pages:
            if rel in theirs:
                raise PluginError(f"k8s-api-docs: {rel} exists in docs_dir and would be "
                                  "overwritten by a generated page")
            file = File.generated(config, rel, content=self.site.pages[rel]) if self._in_memory \
                else File(rel, str(self.pages_dir), config.site_dir, config.use_directory_urls)
            files.append(file)
            if not rel.endswith(".md"):
                continue  # data for the site's script (views.lookup.FIELD_PATHS)
            # The page object now, not when MkDocs reads the nav (which then uses this one):
            # model pages are rendered without a Python-Markdown instance (headings_page).
            HeadingsPage(titles.get(rel), file, config, self._fast_headings)
        releases = None if self._release_layout else releases_json(self.site.plans, self.site.titles)
        if releases is not None and files.get_file_from_path(RELEASES) is None:
            files.append(File.generated(config, RELEASES, content=releases))  # the release switcher's
        # each page's entries kept (pages gone leave the index), in the order MkDocs builds them
        urls = [f.url.removeprefix("./") for f in files.documentation_pages()]  # as page.url
        self._sections = {url: self._sections.get(url) for url in urls}
        return files

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        """Material's navigation is derived from a sibling page's (``nav_cache``); the theme's
        compiled templates are kept in the cache directory."""
        if self.site is not None and accelerators.running("nav_cache", config):
            try:
                nav_cache.install(env)
            except Exception as exc:  # the theme's own navigation then
                accelerators.broke("nav_cache", exc)
        if self.cache_dir is not None and env.bytecode_cache is None:
            use_bytecode_cache(env, self.cache_dir / "jinja")
        return env

    def on_page_markdown(self, markdown: str, *, page: Any, config: MkDocsConfig,
                         files: Files) -> str | None:
        markdown, blocks = raw_html.lift(markdown)
        if blocks:
            self._raw_blocks[page.file.src_uri] = blocks
        if self.site is None or RELEASES_MARKER not in markdown:
            return markdown
        self._inserted[page.file.src_uri] = lines = self._releases_list(page.file)
        return markdown.replace(RELEASES_MARKER, lines)

    def _releases_list(self, file: File) -> str:
        assert self.site is not None
        built = {api.version for api in self.site.apis}
        others = [r.version for r in self.config.versions
                  if r.version not in built] if self._release_layout else []
        return releases_list(file.src_uri, file.url, list(zip(self.site.apis, self.site.plans, strict=True)),
                             others, self.site.titles)

    def on_page_content(self, html: str, *, page: Any, config: MkDocsConfig, files: Files) -> str | None:
        """Searchable raw blocks go back before the search plugin reads the content. The ids of
        all blocks join the page's anchors, which MkDocs checks links to other pages against.
        Generated pages' search entries are ours (``render.search_sections``), not Material's."""
        blocks = self._raw_blocks.get(page.file.src_uri)
        if blocks and getattr(page, "present_anchor_ids", None) is not None:
            page.present_anchor_ids.update(raw_html.element_ids(blocks))
        html = raw_html.restore(html, blocks, search=True) if blocks else html
        ours = self.site is not None and page.file.src_uri in self.site.pages and \
            accelerators.running("search_entries", config)
        sections = None
        try:
            sections = page_sections(page.url, html, page.title) if ours else None
        except Exception as exc:  # Material's parser indexes the page then
            accelerators.broke("search_entries", exc)
        if sections is not None:  # Material's documented per-page exclusion (``search: exclude``)
            page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        self._sections[page.url] = sections
        return html

    @event_priority(-100)  # after the search plugin read the meta
    def on_page_context(self, context: Any, *, page: Any, config: MkDocsConfig, nav: Any) -> Any:
        """That meta goes again: Material's templates write more for a page with meta."""
        if self._sections.get(page.url) is not None:
            page.meta.pop("search", None)
        return context

    def on_post_page(self, output: str, *, page: Any, config: MkDocsConfig) -> str | None:
        """The other raw blocks go straight into the finished page."""
        blocks = self._raw_blocks.pop(page.file.src_uri, None)
        return raw_html.restore(output, blocks, search=False) if blocks else output

    @event_priority(-100)  # after the search plugin wrote the index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Model pages' entries of the search index reshaped (``views.search``): titles that tell
        releases and API versions apart, one entry per property row and builder function."""
        path = Path(config.site_dir) / "search" / "search_index.json"
        if self.site is None or not path.is_file():
            return
        write_file(path, self._search.text(json.loads(path.read_text(encoding="utf-8")), self._sections))

    def on_shutdown(self) -> None:
        self._until_shutdown.close()

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.config.templates:
            server.watch(self.config.templates)
        from generator.render.env import shipped_templates

        server.watch(str(shipped_templates()))
        for release in self.config.versions:
            for path in (release.source, *release.crds):
                if path and Path(path).exists():
                    server.watch(path)
        return server

