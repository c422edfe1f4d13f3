"""Wires the layers: source → model → views → pages (``build``). The only place that knows them
all; the CLI, the plugin and ``build-site`` call ``build`` with a ``config.SiteConfig``."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import jinja2

from generator.analysis.crd_diff import with_crd_changes
from generator.analysis.diff import diff_apis
from generator.config import Release, SiteConfig
from generator.errors import Diagnostic, Location, UsageError
from generator.memo import DROP_PAGES, MemoDropper
from generator.model.ordering import release_sort_key
from generator.model.types import ApiSpec
from generator.pipeline import parallel
from generator.pipeline.cache import config_digest, template_env
from generator.pipeline.collector import fewer_collections, frozen_heap
from generator.pipeline.history import drop_load_memos, release_timeline, timeline_of
from generator.pipeline.incremental import ChangedModels, PageDependencies, change_olds, restamp_text
from generator.pipeline.load import load_api, package_history, release_digest, select_groups
from generator.pipeline.page_store import EncodedPages
from generator.pipeline.release_cache import LoadedApi, ReleaseCache, Sibling
from generator.pipeline.state import GeneratedSite, GenerationMemo, LoadedRelease, ReleaseApis, SiteState
from generator.render.env import template_error
from generator.render.pages import SectionHook, render_changes, render_indexes, render_models
from generator.render.raw_html import only_in_quiet_blocks
from generator.sources import SourceOptions
from generator.views.builder_section import builders_hook
from generator.views.changes import ChangesPage, changes_page, changes_path
from generator.views.example_sections import ExampleSections
from generator.views.lookup import FIELD_PATHS, field_paths_json
from generator.views.nav import release_nav
from generator.views.operations_section import OperationsHook
from generator.views.pages import IndexPage, Link, release_title
from generator.views.site import SitePlan, plan_site, relative
from generator.views.versions import PublishedReleases, VersionsHook

__all__ = ["build", "generate", "load_api", "release_digest", "release_timeline", "select_groups"]


def default_hooks() -> list[SectionHook]:
    """Sections every model page gets, in page order."""
    examples = ExampleSections()
    return [examples.python, examples.example, OperationsHook(), builders_hook]


def change_pages(version: str, site: PublishedReleases, config: SiteConfig) -> list[ChangesPage]:
    """Change pages of rendered release ``version`` (see ``incremental.change_olds``)."""
    plan, api = site.plans[version], site.apis[version]
    pages = []
    previous = site.previous(version)
    for old in change_olds(version, site.order, config.versions.change_pairs):
        if old in site.apis:
            old_api, old_plan = site.apis[old], site.plans[old]
        else:
            old_api, _ = load_api(Release(old), config.sources, lenient=config.lenient)
            old_api = select_groups(old_api, config.groups) if config.groups else old_api
            old_plan = None
        path = changes_path(plan, old, adjacent=old == previous)
        diff = with_crd_changes(diff_apis(old_api, api, package_history()), old_api, api)
        pages.append(changes_page(diff, path, plan, old_plan, release_title(api)))
    return pages


PageSink = Callable[[Mapping[str, str]], None]
"""Takes pages as they are rendered (``build``'s ``sink``), in whichever process rendered them."""


def build(config: SiteConfig, state: SiteState | None = None, *,
          progress: Callable[[str], None] | None = None, keep: bool = False,
          encoded: bool = False, sink: PageSink | None = None, last: bool = False
          ) -> tuple[GeneratedSite, SiteState | None]:
    """Load, plan and render every release of ``config``: the one entry point of the CLI, the
    plugin and ``build-site``.

    ``state`` (what the previous call returned, kept between the builds of ``mkdocs serve``):
    when no input changed (sources by sha256, templates by content, the config), the previous
    site; when only some sources changed and the hooks are the default ones, the previous site
    with only the pages that can show a changed model rendered again (``pipeline.incremental``).
    Returns the site and the state for the next call (``None`` unless ``state`` or ``keep`` is
    given: only then are the sources' digests taken). ``GeneratedSite.rendered`` lists the pages
    this call rendered. ``progress`` is called with each release as it is loaded. Runs with
    fewer garbage collections (``collector``). ``encoded`` (a caller that only writes the
    pages out, without ``state`` or ``keep``): the pages are kept as ``EncodedPages``, rendered
    a batch of models at a time, in half the memory. ``sink`` (the same callers; ``generate``
    writes them): the model pages are handed to it a batch at a time as they are rendered, by
    the process that rendered them (``pipeline.parallel``), and are not kept in the site's
    ``pages`` (``rendered`` lists them); its first call (maybe of no pages) comes before any fork.
    ``last``: the process makes no other build (``generate``): what the release timeline is made
    from is let go once it is made (``history.drop_load_memos``).
    """
    with fewer_collections():
        return _build(config, state, progress, keep, encoded, sink, last)


def _build(config: SiteConfig, state: SiteState | None, progress: Callable[[str], None] | None,
           keep: bool, encoded: bool = False, sink: PageSink | None = None, last: bool = False
           ) -> tuple[GeneratedSite, SiteState | None]:
    hooks: list[Any] = default_hooks() if config.hooks is None else list(config.hooks)
    env, digest = template_env(config.templates, config.page_format, config.template_cache)
    if state is None and not keep:
        loaded = _load(config, progress, {})
        everything = PageDependencies.everything(_apis(loaded), config.rendered)
        return _render(config, hooks, env, loaded, everything, encoded=encoded, sink=sink, last=last), None
    if sink is not None:
        raise ValueError("build: a sink is for a build without state")
    key = config_digest(config, digest)
    if state is not None and state.key != key:
        state = None
    digests = {v: release_digest(r, config.sources) for v, r in config.loaded().items()}
    if state is not None and state.digests == digests:
        return replace(state.site, rendered=[], restamps={}, restamped=[], patchable=[]), state
    reuse = {v: r for v, r in state.loaded.items() if r.digest == digests[v]} if state else {}
    loaded = _load(config, progress, digests, reuse)
    todo: PageDependencies | None = None
    if state is not None and config.hooks is None:
        todo = _dependencies(state, loaded, config)
    if todo is None:
        site = _render(config, hooks, env, loaded,
                       PageDependencies.everything(_apis(loaded), config.rendered))
    else:
        site = _render(config, hooks, env, loaded, todo, state.site if state else None)
        if state is not None:
            restamp(site, {state.loaded[v].api.sha256: r.api.sha256 for v, r in loaded.items()
                           if state.loaded[v].api.sha256 and state.loaded[v].api.sha256 != r.api.sha256},
                    state.site)
    return site, SiteState(loaded, site, key)


def generate(releases: Iterable[Release], options: SourceOptions | None = None, *,
             progress: Callable[[str], None] | None = None, memo: GenerationMemo | None = None,
             **settings: Any) -> GeneratedSite:
    """Shorthand of ``build(SiteConfig.create(releases, options, **settings))`` (scripts, tests):
    ``memo`` holds the state between calls, by config digest."""
    config = SiteConfig.create(releases, options, **settings)
    if memo is None:
        return build(config, progress=progress)[0]
    site, state = build(config, next(iter(memo.values()), None), progress=progress, keep=True)
    assert state is not None
    memo.clear()
    memo[state.key] = state
    return site


def restamp(site: GeneratedSite, digests: Mapping[str, str], previous: GeneratedSite) -> None:
    """Pages kept from the previous build (``previous``) of a release whose source changed
    still name its old sha256 (the model pages' source footer): name the new one. Every page of
    that release shows the digest, so this keeps an edit from rendering them all again.
    Records the digests and the pages, kept or rendered, whose only change is the digest
    (``GeneratedSite.restamps``, ``restamped``), and of those the ``patchable`` ones: a page
    patchable after the previous edit of the same release still is (the digest it shows is where
    the previous one was), the others are looked at."""
    if not digests:
        return
    site.restamps = dict(digests)
    fresh = set(site.rendered)
    new = list(digests.values())
    known = set(previous.patchable) if set(previous.restamps.values()) == set(digests) else set()
    for path, text in site.pages.items():
        old = previous.pages.get(path)
        stamped = restamp_text(old, digests) if old is not None else None
        if stamped is None or stamped is old:
            continue
        if path not in fresh:
            site.pages[path] = stamped
        elif text != stamped:
            continue
        site.restamped.append(path)
        if path.endswith(".md") and (path in known or only_in_quiet_blocks(stamped, new)):
            site.patchable.append(path)


def _apis(loaded: dict[str, LoadedRelease]) -> ReleaseApis:
    return ReleaseApis(loaded)


def _load(config: SiteConfig, progress: Callable[[str], None] | None, digests: dict[str, str],
          reuse: dict[str, LoadedRelease] | None = None) -> dict[str, LoadedRelease]:
    """Load and plan every release (rendered first), taking unchanged ones from ``reuse``; with
    ``config.release_cache``, from and into that cache (``_load_cached``)."""
    cache = ReleaseCache(config.release_cache) if config.release_cache else None
    compared = _compared(config) if cache else set()
    loaded = {}
    for version, release in config.loaded().items():
        if reuse and version in reuse:
            loaded[version] = reuse[version]
            continue
        if progress:
            progress(version)
        root = "" if config.at_root and version in config.rendered else None
        if cache is not None:
            loaded[version] = _load_cached(cache, config, release, digests.get(version, ""), root,
                                           version in compared)
            continue
        api, diagnostics = _load_api(config, release)
        loaded[version] = LoadedRelease(release, digests.get(version, ""), api,
                                        plan_site(api, root, config.directory_urls),
                                        diagnostics)
    return loaded


def _load_api(config: SiteConfig, release: Release) -> tuple[ApiSpec, list[Diagnostic]]:
    api, diagnostics = load_api(release, config.sources, lenient=config.lenient)
    return (select_groups(api, config.groups) if config.groups else api), diagnostics


def _compared(config: SiteConfig) -> set[str]:
    """Releases whose models the rendered pages read: the rendered ones, and the releases their
    field histories and change pages compare with (``change_olds``)."""
    order = sorted(config.loaded(), key=release_sort_key)
    return {old for version in config.rendered
            for old in [version, *change_olds(version, order, config.versions.change_pairs)]}


def _load_cached(cache: ReleaseCache, config: SiteConfig, release: Release, digest: str,
                 root: str | None, compared: bool) -> LoadedRelease:
    """A release from the cache, loaded and kept there when absent. A release the pages do not
    compare with comes as a ``Sibling`` (its model loaded only if asked for)."""
    key = (release, digest or release_digest(release, config.sources), config.lenient,
           config.groups)

    def api_of() -> LoadedApi:
        found = cache.read("api", key, LoadedApi)
        if found is None:
            found = LoadedApi(*_load_api(config, release))
            cache.write("api", key, found)
        return found

    sibling = None if compared or root is not None else cache.read("sibling", key, Sibling)
    if sibling is not None:
        plan = sibling.plan if sibling.plan.directory_urls == config.directory_urls else \
            replace(sibling.plan, directory_urls=config.directory_urls, memos={})
        return LoadedRelease(release, digest, lambda: api_of().api, plan,
                             index=sibling.index, api_format=sibling.api_format)
    found = api_of()
    plan = plan_site(found.api, root, config.directory_urls)
    loaded = LoadedRelease(release, digest, found.api, plan, found.diagnostics)
    if root is None and not (compared and cache.has("sibling", key)):  # its plan: no memo yet
        cache.write("sibling", key, Sibling(plan, loaded.index, found.api.format))
    return loaded


def _dependencies(state: SiteState, loaded: dict[str, LoadedRelease], config: SiteConfig
                  ) -> PageDependencies | None:
    """Pages to render again after some releases were reloaded, or ``None``: everything."""
    reloaded = {v: r for v, r in loaded.items() if r is not state.loaded.get(v)}
    if loaded.keys() != state.loaded.keys():
        return None
    changed = ChangedModels.between({v: state.loaded[v].api for v in reloaded},
                                    {v: r.api for v, r in reloaded.items()})
    if changed is None or any(r.plan != state.loaded[v].plan for v, r in reloaded.items()):
        return None
    for version, release in reloaded.items():
        release.plan = state.loaded[version].plan  # equal; keeps the link memos of the views
    plans = {v: r.plan for v, r in loaded.items()}
    return PageDependencies.of(changed, _apis(loaded), plans, config.rendered,
                               config.versions.enabled)


def _render(config: SiteConfig, hooks: list[SectionHook], env: jinja2.Environment,
            loaded: dict[str, LoadedRelease], todo: PageDependencies,
            previous: GeneratedSite | None = None, *, encoded: bool = False,
            sink: PageSink | None = None, last: bool = False) -> GeneratedSite:
    """The site: ``todo``'s pages rendered, the others (and their navigation) from ``previous``.
    The loaded releases are left out of garbage collections meanwhile (``frozen_heap``)."""
    with frozen_heap():
        return _render_pages(config, hooks, env, loaded, todo, previous, encoded, sink, last)


ENCODED_BATCH = 32
"""Models rendered at a time into ``EncodedPages``: their pages are ``str`` only until then."""


def _render_pages(config: SiteConfig, hooks: list[SectionHook], env: jinja2.Environment,
                  loaded: dict[str, LoadedRelease], todo: PageDependencies,
                  previous: GeneratedSite | None, encoded: bool = False,
                  sink: PageSink | None = None, last: bool = False) -> GeneratedSite:
    site = GeneratedSite(pages=EncodedPages() if encoded and previous is None else
                         dict(previous.pages) if previous else {})
    apis, plans = _apis(loaded), {v: r.plan for v, r in loaded.items()}
    site.titles = {v: r.title for v, r in loaded.items()}
    versions = config.versions
    published = None
    if versions.enabled:
        timeline = timeline_of({v: r.index for v, r in loaded.items()}, versions.history,
                               all(r.api_format == "crd" for r in loaded.values()))
        published = PublishedReleases(apis, plans, timeline)
        if last:
            drop_load_memos()
        hooks = [VersionsHook(published), *hooks]
    rendered: list[str] = []
    split = _models_split(config, hooks, env, loaded, todo, isinstance(site.pages, EncodedPages), sink)
    for i, version in enumerate(config.rendered):
        api, plan = apis[version], plans[version]
        site.apis.append(api)
        site.plans.append(plan)
        site.diagnostics.extend(loaded[version].diagnostics)
        olds = change_olds(version, published.order, versions.change_pairs) if published else []
        changes = []
        if published and todo.stale_changes(version, olds):
            changes = change_pages(version, published, config)
        pages: MutableMapping[str, str] = EncodedPages() if isinstance(site.pages, EncodedPages) else {}
        try:
            if sink is not None and split is not None:
                rendered.extend(split[version])
            elif split is not None:
                if isinstance(pages, EncodedPages):
                    pages.add_encoded(split[version])
                else:
                    pages.update(split[version])
            elif sink is not None or isinstance(pages, EncodedPages):
                names = list(todo.models[version])
                memos = _memo_dropper(config)
                for at in range(0, len(names), ENCODED_BATCH):
                    chunk = names[at:at + ENCODED_BATCH]
                    batch = render_models(api, plan, env, hooks, chunk)
                    memos.rendered(len(chunk))
                    if sink is not None:
                        sink(batch)
                        rendered.extend(batch)
                    else:
                        pages.update(batch)
            else:
                pages.update(render_models(api, plan, env, hooks, todo.models[version]))
            indexes = todo.indexes[version]
            if indexes is None or indexes:
                pages.update(render_indexes(api, plan, env, _home_links(plan, changes), indexes))
            for page in changes:
                pages[page.path] = render_changes(page, env)
        except jinja2.TemplateError as exc:
            if config.templates is None:
                raise  # a shipped template is broken: a bug, not bad input
            raise template_error(exc, config.templates) from None
        except RecursionError:
            if config.templates is None:
                raise
            raise UsageError("template error: templates extend or include each other in a circle",
                             Location(str(config.templates))) from None
        paths_page = plan.in_root(FIELD_PATHS)
        if version in todo.releases or paths_page not in site.pages:  # else: its release's as kept
            paths_text = field_paths_json(api, plan)
            if site.pages.get(paths_page) != paths_text:
                pages[paths_page] = paths_text
        if isinstance(site.pages, EncodedPages) and isinstance(pages, EncodedPages):
            site.pages.absorb(pages)
        else:
            site.pages.update(pages)
        rendered.extend(pages)
        if version in todo.releases or previous is None:
            site.nav.append(release_nav(api, plan, [(p.title, p.path) for p in changes]))
        else:
            site.nav.append(previous.nav[i])
    site.pages = site.pages.sorted() if isinstance(site.pages, EncodedPages) else \
        dict(sorted(site.pages.items()))
    site.rendered = sorted(rendered)
    return site


PARALLEL_BATCH = 8
"""Model pages a task of ``parallel.split`` renders at most (fewer when there are few: eight
tasks or more)."""


def _models_split(config: SiteConfig, hooks: list[SectionHook], env: jinja2.Environment,
                  loaded: dict[str, LoadedRelease], todo: PageDependencies, encoded: bool,
                  sink: PageSink | None = None) -> dict[str, dict[str, Any]] | None:
    """The model pages of every rendered release (``todo.models``), rendered by this process
    and a forked worker (``pipeline.parallel``), UTF-8 encoded when ``encoded``; with ``sink``,
    handed to it where rendered, only their paths returned (values ``None``). ``None`` when not
    split or when the split failed: the caller renders them (and raises any error) itself. Not
    split with hooks of the caller's (``SiteConfig.hooks``): what a hook does besides returning
    its sections (counting, collecting) would happen in the worker and be lost."""
    if config.hooks is not None:
        return None
    names = {version: [name for name in todo.models[version] if name in loaded[version].plan.model_pages]
             for version in config.rendered}
    total = sum(len(n) for n in names.values())
    if not parallel.worthwhile(total):
        return None
    batch = max(1, min(PARALLEL_BATCH, total // 8))
    jobs = [(version, chunk[at:at + batch]) for version, chunk in names.items()
            for at in range(0, len(chunk), batch)]

    memos = _memo_dropper(config)  # each process counts its own pages after the fork

    def task(version: str, chunk: list[str]) -> dict[str, Any]:
        pages = render_models(loaded[version].api, loaded[version].plan, env, hooks, chunk)
        memos.rendered(len(chunk))
        if sink is not None:
            sink(pages)
            return dict.fromkeys(pages)
        return EncodedPages.encoded(pages) if encoded else pages

    firsts = [next(i for i, (v, _) in enumerate(jobs) if v == version) for version in names if names[version]]
    # a release's first batch rendered before the fork: its release-wide memos made once
    results = parallel.split([partial(task, version, chunk) for version, chunk in jobs], first=firsts)
    if results is None:
        return None
    split: dict[str, dict[str, Any]] = {version: {} for version in config.rendered}
    for (version, _), pages in zip(jobs, results, strict=True):
        split[version].update(pages)
    return split


def _memo_dropper(config: SiteConfig) -> MemoDropper:
    """Drops the render memos every ``memo.DROP_PAGES`` model pages when this build renders one
    release (what they save is nearly all within a page and its neighbours, and their entries
    cost memory for the whole process); a build of several releases keeps them for the next
    release's same names and snippets."""
    return MemoDropper(DROP_PAGES if len(config.rendered) == 1 else 0)


def _home_links(plan: SitePlan, changes: Sequence[ChangesPage]) -> Callable[[IndexPage], None]:
    """Index hook: the release home links to the release's change pages."""

    def hook(page: IndexPage) -> None:
        if page.path == plan.home:
            page.extra_links.extend(Link(c.title, relative(page.path, c.path)) for c in changes)

    return hook
