"""Wires the layers: source → model → views → pages. The only place that knows them all."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import jinja2

from generator.analysis.crd_diff import with_crd_changes
from generator.analysis.diff import diff_apis
from generator.analysis.timeline import ReleaseIndex, Timeline, index_api, index_fields
from generator.build.cache import template_env
from generator.build.incremental import ChangedModels, PageDependencies
from generator.build.state import GeneratedSite, GenerationMemo, LoadedRelease, SiteState
from generator.config import Release, VersionsOptions
from generator.errors import Diagnostic, Location, UsageError
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.render.env import template_error
from generator.render.pages import SectionHook, render_changes, render_indexes, render_models
from generator.sources import (
    SourceOptions,
    available_versions,
    field_names,
    load_source,
    merge_documents,
    source_digest,
)
from generator.sources.jsonschema_pkg import PackageHistory
from generator.views.builder_section import builders_hook
from generator.views.changes import ChangesPage, changes_page, changes_path
from generator.views.example_sections import ExampleSections
from generator.views.lookup import FIELD_PATHS, field_paths_json
from generator.views.nav import release_nav
from generator.views.pages import IndexPage, Link
from generator.views.site import SitePlan, plan_site, relative
from generator.views.versions import Releases, VersionsHook


def load_api(release: Release, options: SourceOptions | None = None, *, lenient: bool = False
             ) -> tuple[ApiSpec, list[Diagnostic]]:
    """A release's model: its source, plus its CRD sets when it has any."""
    raw = load_source(release.spec, options)
    if release.crds:
        raw = merge_documents(raw, [load_source(spec, options) for spec in release.crds])
    return build_api(raw, release.version, lenient=lenient)


def release_digest(release: Release, options: SourceOptions | None = None) -> str:
    """``source_digest`` of a release's source, and of its CRD sets when it has any."""
    digest = source_digest(release.spec, options)
    if not release.crds:
        return digest
    parts = [digest, *(source_digest(spec, options) for spec in release.crds)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def select_groups(api: ApiSpec, groups: Sequence[str]) -> ApiSpec:
    """Keep only models of the given navigation groups (plus ``common`` and ``meta``, which every
    group refers to), so links stay whole."""
    keep = {*groups, "common", "meta"}
    models = {n: m for n, m in api.models.items() if m.group in keep}
    models = {n: replace(m, referrers=tuple(r for r in m.referrers if r in models))
              for n, m in models.items()}
    return replace(api, models=models)


def default_hooks() -> list[SectionHook]:
    """Sections every model page gets, in page order."""
    examples = ExampleSections()
    return [examples.python, examples.example, builders_hook]


def release_timeline(apis: Iterable[ApiSpec], history: str = "all",
                     known: Mapping[str, ReleaseIndex] | None = None) -> Timeline:
    """Timeline of the site's releases plus, with ``history="all"``, every kubernetes-validate
    release (a site release always uses its own definitions; not when every release is a CRD
    set). ``known``: indexes already made of
    some of ``apis``, by version."""
    if history not in ("all", "site"):
        raise UsageError(f"history must be 'all' or 'site', not {history!r}")
    indexes = {}
    apis = list(apis)
    if history == "all" and any(api.format != "crd" for api in apis):  # CRD sets: their own only
        indexes = {v: _package_index(v) for v in available_versions()}
    known = known or {}
    indexes.update({api.version: known.get(api.version) or index_api(api) for api in apis})
    return Timeline.build(indexes)


@cache
def package_history() -> PackageHistory:
    """Presence of definitions in every kubernetes-validate release (dates upgrade guidance)."""
    return PackageHistory()


@cache
def _package_index(version: str) -> ReleaseIndex:
    """Index of a kubernetes-validate release (package data: made once per process)."""
    return index_fields(field_names(version))


def change_olds(version: str, site: Releases, pairs: Sequence[tuple[str, str]]) -> list[str]:
    """Releases rendered release ``version`` gets change pages from: the previous published
    release, and the ``old`` of every configured (old, version) pair."""
    previous = site.previous(version)
    olds = [previous] if previous else []
    return olds + [old for old, new in pairs if new == version and old != version and old not in olds]


def change_pages(version: str, site: Releases, pairs: Sequence[tuple[str, str]],
                 options: SourceOptions | None, lenient: bool,
                 groups: Sequence[str] | None = None) -> list[ChangesPage]:
    """Change pages of rendered release ``version`` (see ``change_olds``)."""
    plan, api = site.plans[version], site.apis[version]
    pages = []
    previous = site.previous(version)
    for old in change_olds(version, site, pairs):
        if old in site.apis:
            old_api, old_plan = site.apis[old], site.plans[old]
        else:
            old_api, _ = load_api(Release(old), options, lenient=lenient)
            old_api = select_groups(old_api, groups) if groups else old_api
            old_plan = None
        path = changes_path(plan, old, adjacent=old == previous)
        diff = with_crd_changes(diff_apis(old_api, api, package_history()), old_api, api)
        pages.append(changes_page(diff, path, plan, old_plan))
    return pages


@dataclass(frozen=True)
class _Settings:
    """Everything ``generate`` reads besides the source bytes."""

    releases: list[Release]
    siblings: Sequence[Release]
    options: SourceOptions | None
    templates: Path | None
    lenient: bool
    hooks: list[SectionHook]
    groups: Sequence[str] | None
    versions: VersionsOptions
    at_root: bool

    @property
    def rendered(self) -> list[str]:
        return [r.version for r in self.releases]

    def loaded(self) -> dict[str, Release]:
        """Rendered releases, then siblings: every release whose pages or data the site shows."""
        return {r.version: r for r in [*self.releases, *(s for s in self.siblings
                                                         if s.version not in self.rendered)]}


def generate(
    releases: Iterable[Release],
    options: SourceOptions | None = None,
    *,
    templates: Path | None = None,
    lenient: bool = False,
    hooks: Sequence[SectionHook] | None = None,
    progress: Callable[[str], None] | None = None,
    groups: Sequence[str] | None = None,
    siblings: Sequence[Release] = (),
    versions: VersionsOptions | None = None,
    at_root: bool = False,
    memo: GenerationMemo | None = None,
    page_format: str = "mkdocs",
) -> GeneratedSite:
    """Load, plan and render every release.

    ``siblings`` are releases published beside these ones (e.g. each release its own MkDocs
    site): loaded and planned for cross-release links and change pages, but not rendered.
    ``at_root``: the one rendered release is a site of its own, its pages at the docs root
    (``build-site``); otherwise each release is a folder (``1.31/…``) of one combined site.
    ``memo`` (kept between the builds of ``mkdocs serve``): when no input changed (sources by
    sha256, templates by content, options), the previous site; when only some sources changed and
    the hooks are the default ones, the previous site with only the pages that can show a changed
    model rendered again (``generator.build.incremental``). It then holds only this call's state.
    ``GeneratedSite.rendered`` lists the pages this call rendered. ``page_format``: ``mkdocs``
    (headings and HTML blocks) or ``gfm`` (plain GitHub-flavoured Markdown, ``templates/gfm/``).
    """
    releases = list(releases)
    if at_root and len(releases) != 1:
        raise UsageError("a release at the docs root needs exactly one release")
    default = hooks is None
    settings = _Settings(releases, siblings, options, templates, lenient,
                         default_hooks() if hooks is None else list(hooks), groups,
                         versions or VersionsOptions(), at_root)
    env, digest = template_env(templates, page_format)
    if memo is None:
        loaded = _load(settings, progress, {})
        return _render(settings, env, loaded, PageDependencies.everything(_apis(loaded)))
    key = settings_key(settings, f"{digest}:{page_format}")
    digests = {v: release_digest(r, options) for v, r in settings.loaded().items()}
    state = memo.get(key)
    if state is not None and state.digests == digests:
        return replace(state.site, rendered=[])
    reuse = {v: r for v, r in state.loaded.items() if r.digest == digests[v]} if state else {}
    loaded = _load(settings, progress, digests, reuse)
    todo = None
    if state is not None and default:
        todo = _dependencies(state, loaded, settings)
    if todo is None:
        site = _render(settings, env, loaded, PageDependencies.everything(_apis(loaded)))
    else:
        site = _render(settings, env, loaded, todo, state.site if state else None)
        if state is not None:
            restamp(site, {state.loaded[v].api.sha256: r.api.sha256 for v, r in loaded.items()
                           if state.loaded[v].api.sha256 and state.loaded[v].api.sha256 != r.api.sha256})
    memo.clear()
    memo[key] = SiteState(loaded, site)
    return site


def restamp(site: GeneratedSite, digests: Mapping[str, str]) -> None:
    """Pages kept from the previous build of a release whose source changed still name its old
    sha256 (the model pages' source footer): name the new one. Every page of that release shows
    the digest, so this keeps an edit from rendering them all again."""
    if not digests:
        return
    pattern = re.compile("|".join(re.escape(d) for d in digests))
    fresh = set(site.rendered)
    for path, text in site.pages.items():
        if path not in fresh and pattern.search(text):
            site.pages[path] = pattern.sub(lambda m: digests[m.group(0)], text)


def settings_key(settings: _Settings, templates_digest: str) -> str:
    """Digest of every input of ``generate`` but the source bytes (``SiteState`` has those)."""
    parts = {
        "rendered": settings.rendered,
        "sources": {v: [r.spec, *r.crds] for v, r in sorted(settings.loaded().items())},
        "options": repr(settings.options), "templates": [str(settings.templates), templates_digest],
        "lenient": settings.lenient, "groups": sorted(settings.groups or []),
        "at_root": settings.at_root,
        "versions": [settings.versions.enabled, settings.versions.history,
                     [list(p) for p in settings.versions.change_pairs]],
        "hooks": [f"{h.__module__}.{getattr(h, '__qualname__', repr(h))}" for h in settings.hooks],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _apis(loaded: dict[str, LoadedRelease]) -> dict[str, ApiSpec]:
    return {v: r.api for v, r in loaded.items()}


def _load(settings: _Settings, progress: Callable[[str], None] | None, digests: dict[str, str],
          reuse: dict[str, LoadedRelease] | None = None) -> dict[str, LoadedRelease]:
    """Load and plan every release (rendered first), taking unchanged ones from ``reuse``."""
    loaded = {}
    for version, release in settings.loaded().items():
        if reuse and version in reuse:
            loaded[version] = reuse[version]
            continue
        if progress:
            progress(version)
        api, diagnostics = load_api(release, settings.options, lenient=settings.lenient)
        if settings.groups:
            api = select_groups(api, settings.groups)
        root = "" if settings.at_root and version in settings.rendered else None
        loaded[version] = LoadedRelease(release, digests.get(version, ""), api, plan_site(api, root),
                                        diagnostics)
    return loaded


def _dependencies(state: SiteState, loaded: dict[str, LoadedRelease], settings: _Settings
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
    return PageDependencies.of(changed, _apis(loaded), plans, settings.rendered,
                               settings.versions.enabled)


def _render(settings: _Settings, env: jinja2.Environment, loaded: dict[str, LoadedRelease],
            todo: PageDependencies, previous: GeneratedSite | None = None) -> GeneratedSite:
    """The site: ``todo``'s pages rendered, the others (and their navigation) from ``previous``."""
    site = GeneratedSite(pages=dict(previous.pages) if previous else {})
    apis, plans = _apis(loaded), {v: r.plan for v, r in loaded.items()}
    versions, hooks = settings.versions, settings.hooks
    published = None
    if versions.enabled:
        known = {v: r.index for v, r in loaded.items()}
        published = Releases(apis, plans, release_timeline(apis.values(), versions.history, known))
        hooks = [VersionsHook(published), *hooks]
    rendered: list[str] = []
    for i, version in enumerate(settings.rendered):
        api, plan = apis[version], plans[version]
        site.apis.append(api)
        site.plans.append(plan)
        site.diagnostics.extend(loaded[version].diagnostics)
        olds = change_olds(version, published, versions.change_pairs) if published else []
        changes = []
        if published and todo.stale_changes(version, olds):
            changes = change_pages(version, published, versions.change_pairs, settings.options,
                                   settings.lenient, settings.groups)
        pages: dict[str, str] = {}
        try:
            pages.update(render_models(api, plan, env, hooks, todo.models[version]))
            indexes = todo.indexes[version]
            if indexes is None or indexes:
                pages.update(render_indexes(api, plan, env, _home_links(plan, changes), indexes))
            for page in changes:
                pages[page.path] = render_changes(page, env)
        except jinja2.TemplateError as exc:
            if settings.templates is None:
                raise  # a shipped template is broken: a bug, not bad input
            raise template_error(exc, settings.templates) from None
        except RecursionError:
            if settings.templates is None:
                raise
            raise UsageError("template error: templates extend or include each other in a circle",
                             Location(str(settings.templates))) from None
        paths_page = plan.in_root(FIELD_PATHS)
        paths_text = field_paths_json(api, plan)
        if site.pages.get(paths_page) != paths_text:
            pages[paths_page] = paths_text
        site.pages.update(pages)
        rendered.extend(pages)
        if version in todo.releases or previous is None:
            site.nav.append(release_nav(api, plan, [(p.title, p.path) for p in changes]))
        else:
            site.nav.append(previous.nav[i])
    site.pages = dict(sorted(site.pages.items()))
    site.rendered = sorted(rendered)
    return site


def _home_links(plan: SitePlan, changes: Sequence[ChangesPage]) -> Callable[[IndexPage], None]:
    """Index hook: the release home links to the release's change pages."""

    def hook(page: IndexPage) -> None:
        if page.path == plan.home:
            page.extra_links.extend(Link(c.title, relative(page.path, c.path)) for c in changes)

    return hook
