"""Wires the layers: source → model → views → pages. The only place that knows them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from generator.errors import Diagnostic, UsageError
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.render.env import make_env
from generator.render.pages import SectionHook, render_version
from generator.sources import SourceOptions, default_source, load_source
from generator.views.example_sections import ExampleSections
from generator.views.nav import release_nav
from generator.views.site import SitePlan, plan_site


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
    return [examples.python, examples.example]


def generate(
    releases: Iterable[Release],
    options: SourceOptions | None = None,
    *,
    templates: Path | None = None,
    lenient: bool = False,
    hooks: Sequence[SectionHook] | None = None,
    progress: Callable[[str], None] | None = None,
    groups: Sequence[str] | None = None,
) -> GeneratedSite:
    """Load, plan and render every release."""
    env = make_env(templates)
    site = GeneratedSite()
    hooks = default_hooks() if hooks is None else list(hooks)
    for release in releases:
        if progress:
            progress(release.version)
        api, diagnostics = load_api(release, options, lenient=lenient)
        if groups:
            api = select_groups(api, groups)
        plan = plan_site(api)
        site.apis.append(api)
        site.plans.append(plan)
        site.diagnostics.extend(diagnostics)
        site.pages.update(render_version(api, plan, env, hooks))
        site.nav.append(release_nav(api, plan))
    site.pages = dict(sorted(site.pages.items()))
    return site
