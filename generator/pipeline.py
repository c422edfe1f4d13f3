"""Wires the layers: source → model → views → pages. The only place that knows them all."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from generator.digests import tree_digest
from generator.errors import Diagnostic, UsageError
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.render.env import make_env, shipped_templates, template_error
from generator.render.pages import SectionHook, render_changes, render_version
from generator.sources import SourceOptions, default_source, load_source, source_digest
from generator.views.builder_section import builders_hook
from generator.views.changes import ChangesPage, changes_page, changes_path
from generator.views.diff import diff_apis
from generator.views.example_sections import ExampleSections
from generator.views.lifetimes import Timeline, index_api, index_fields
from generator.views.nav import release_nav
from generator.views.pages import IndexPage, Link
from generator.views.site import SitePlan, plan_site, relative
from generator.views.versions import Releases, VersionsHook


@dataclass(frozen=True)
class Release:
    """One release of the site: a version label and where its definitions come from."""

    version: str
    source: str = ""

    @property
    def spec(self) -> str:
        return self.source or default_source(self.version)


@dataclass
class GeneratedSite:
    pages: dict[str, str] = field(default_factory=dict)
    apis: list[ApiSpec] = field(default_factory=list)
    plans: list[SitePlan] = field(default_factory=list)
    nav: list[object] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


GenerationMemo = dict[str, GeneratedSite]
"""The last generated site by ``memo_key``; kept between builds (``mkdocs serve``) so a rebuild
whose inputs did not change (a hand-written page was edited) renders nothing."""


def pair_releases(versions: Sequence[str], sources: Sequence[str]) -> list[Release]:
    """Pair ``--version`` and ``--source`` options by position."""
    if not versions:
        raise UsageError("give at least one --version")
    if len(sources) > len(versions):
        raise UsageError("more --source than --version options")
    if len(set(versions)) != len(versions):
        raise UsageError("a --version is given twice")
    return [Release(v, sources[i] if i < len(sources) else "") for i, v in enumerate(versions)]


def load_api(release: Release, options: SourceOptions | None = None, *, lenient: bool = False
             ) -> tuple[ApiSpec, list[Diagnostic]]:
    return build_api(load_source(release.spec, options), release.version, lenient=lenient)


def select_groups(api: ApiSpec, groups: Sequence[str]) -> ApiSpec:
    """Keep only models of the given navigation groups (plus ``common`` and ``meta``, which every
    group refers to), so links stay whole."""
    from dataclasses import replace

    keep = {*groups, "common", "meta"}
    models = {n: m for n, m in api.models.items() if m.group in keep}
    models = {n: replace(m, referrers=tuple(r for r in m.referrers if r in models))
              for n, m in models.items()}
    return replace(api, models=models)


def default_hooks() -> list[SectionHook]:
    """Sections every model page gets, in page order."""
    examples = ExampleSections()
    return [examples.python, examples.example, builders_hook]


@dataclass(frozen=True)
class VersionsOptions:
    """The versions feature: other-versions lines, field history, change pages."""

    enabled: bool = True
    history: str = "all"
    """``all``: the timeline also has every kubernetes-validate release; ``site``: only the site's."""
    change_pairs: tuple[tuple[str, str], ...] = ()
    """Extra (old, new) change pages beyond the adjacent pairs; ``new`` must be rendered."""


def release_timeline(apis: Iterable[ApiSpec], history: str = "all") -> Timeline:
    """Timeline of the site's releases plus, with ``history="all"``, every kubernetes-validate
    release (a site release always uses its own definitions)."""
    from generator.sources.jsonschema_pkg import available_versions, field_names

    if history not in ("all", "site"):
        raise UsageError(f"history must be 'all' or 'site', not {history!r}")
    indexes = {}
    if history == "all":
        indexes = {v: index_fields(field_names(v)) for v in available_versions()}
    indexes.update({api.version: index_api(api) for api in apis})
    return Timeline.build(indexes)


def change_pages(version: str, site: Releases, pairs: Sequence[tuple[str, str]],
                 options: SourceOptions | None, lenient: bool,
                 groups: Sequence[str] | None = None) -> list[ChangesPage]:
    """Change pages of rendered release ``version``: from the previous published release, and
    from the ``old`` of every configured (old, version) pair."""
    plan, api = site.plans[version], site.apis[version]
    pages = []
    previous = site.previous(version)
    olds = [previous] if previous else []
    olds += [old for old, new in pairs if new == version and old != version and old not in olds]
    for old in olds:
        if old in site.apis:
            old_api, old_plan = site.apis[old], site.plans[old]
        else:
            old_api, _ = load_api(Release(old), options, lenient=lenient)
            old_api = select_groups(old_api, groups) if groups else old_api
            old_plan = None
        path = changes_path(plan, old, adjacent=old == previous)
        pages.append(changes_page(diff_apis(old_api, api), path, plan, old_plan))
    return pages


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
) -> GeneratedSite:
    """Load, plan and render every release.

    ``siblings`` are releases published beside these ones (e.g. each release its own MkDocs
    site): loaded and planned for cross-release links and change pages, but not rendered.
    ``at_root``: the one rendered release is a site of its own, its pages at the docs root
    (``build-site``); otherwise each release is a folder (``1.31/…``) of one combined site.
    ``memo``: return the site of the previous call when no input changed (sources by sha256,
    templates by content, options); it then holds only this call's site.
    """
    releases = list(releases)
    if at_root and len(releases) != 1:
        raise UsageError("a release at the docs root needs exactly one release")
    hooks = default_hooks() if hooks is None else list(hooks)
    versions = versions or VersionsOptions()
    key = ""
    if memo is not None:
        key = memo_key(releases, siblings, options, templates=templates, lenient=lenient,
                       hooks=hooks, groups=groups, versions=versions, at_root=at_root)
        if key in memo:
            return memo[key]
    site = _generate(releases, options, templates=templates, lenient=lenient, hooks=hooks,
                     progress=progress, groups=groups, siblings=siblings, versions=versions,
                     at_root=at_root)
    if memo is not None:
        memo.clear()
        memo[key] = site
    return site


def memo_key(releases: Sequence[Release], siblings: Sequence[Release], options: SourceOptions | None,
             *, templates: Path | None, lenient: bool, hooks: Sequence[SectionHook],
             groups: Sequence[str] | None, versions: VersionsOptions, at_root: bool) -> str:
    """Digest of every input of ``generate``: a page may show any loaded release (history,
    other versions, change pages), so every source counts."""
    loaded = {r.version: r for r in [*siblings, *releases]}
    parts = {
        "rendered": [r.version for r in releases],
        "sources": {v: [r.spec, source_digest(r.spec, options)] for v, r in sorted(loaded.items())},
        "templates": tree_digest([p for p in (templates, shipped_templates()) if p]),
        "lenient": lenient, "groups": sorted(groups or []), "at_root": at_root,
        "versions": [versions.enabled, versions.history, [list(p) for p in versions.change_pairs]],
        "hooks": [f"{h.__module__}.{getattr(h, '__qualname__', repr(h))}" for h in hooks],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def _generate(releases: list[Release], options: SourceOptions | None, *, templates: Path | None,
              lenient: bool, hooks: list[SectionHook], progress: Callable[[str], None] | None,
              groups: Sequence[str] | None, siblings: Sequence[Release], versions: VersionsOptions,
              at_root: bool) -> GeneratedSite:
    env = make_env(templates)
    site = GeneratedSite()
    rendered = [r.version for r in releases]
    apis: dict[str, ApiSpec] = {}
    plans: dict[str, SitePlan] = {}
    for release in [*releases, *(s for s in siblings if s.version not in rendered)]:
        if progress:
            progress(release.version)
        api, diagnostics = load_api(release, options, lenient=lenient)
        if groups:
            api = select_groups(api, groups)
        root = "" if at_root and release.version in rendered else None
        apis[release.version], plans[release.version] = api, plan_site(api, root)
        if release.version in rendered:
            site.diagnostics.extend(diagnostics)
    published = None
    if versions.enabled:
        published = Releases(apis, plans, release_timeline(apis.values(), versions.history))
        hooks = [VersionsHook(published), *hooks]
    for version in rendered:
        api, plan = apis[version], plans[version]
        site.apis.append(api)
        site.plans.append(plan)
        changes = (change_pages(version, published, versions.change_pairs, options, lenient, groups)
                   if published else [])
        try:
            site.pages.update(render_version(api, plan, env, hooks, index_hook=_home_links(plan, changes)))
            for page in changes:
                site.pages[page.path] = render_changes(page, env)
        except jinja2.TemplateError as exc:
            if templates is None:
                raise  # a shipped template is broken: a bug, not bad input
            raise template_error(exc, templates) from None
        site.nav.append(release_nav(api, plan, [(p.title, p.path) for p in changes]))
    site.pages = dict(sorted(site.pages.items()))
    return site


def _home_links(plan: SitePlan, changes: Sequence[ChangesPage]) -> Callable[[IndexPage], None]:
    """Index hook: the release home links to the release's change pages."""

    def hook(page: IndexPage) -> None:
        if page.path == plan.home:
            page.extra_links.extend(Link(c.title, relative(page.path, c.path)) for c in changes)

    return hook
