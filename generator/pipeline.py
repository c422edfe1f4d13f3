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
from generator.render.env import make_env, shipped_templates
from generator.render.pages import SectionHook, render_version
from generator.sources import SourceOptions, default_source, load_source, source_digest
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


@dataclass(frozen=True)
class ReleaseOutput:
    """Everything generated for one release."""

    api: ApiSpec
    plan: SitePlan
    pages: dict[str, str]
    nav: object
    diagnostics: tuple[Diagnostic, ...]


GenerationMemo = dict[str, ReleaseOutput]
"""Release outputs by ``release_memo_key``; kept between builds (``mkdocs serve``) so a rebuild
re-renders only releases whose inputs changed."""


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
    return []


def release_memo_key(release: Release, options: SourceOptions | None, *, templates: Path | None,
                     lenient: bool, hooks: Sequence[SectionHook], groups: Sequence[str] | None,
                     at_root: bool) -> str:
    """Digest of everything the pages of ``release`` depend on. A feature that makes a release's
    pages depend on other releases must add their digests here."""
    parts = {
        "version": release.version, "spec": release.spec,
        "source": source_digest(release.spec, options),
        "templates": tree_digest([p for p in (templates, shipped_templates()) if p]),
        "lenient": lenient, "groups": sorted(groups or []), "at_root": at_root,
        "hooks": [f"{h.__module__}.{getattr(h, '__qualname__', repr(h))}" for h in hooks],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def generate_release(release: Release, options: SourceOptions | None, env: jinja2.Environment, *,
                     lenient: bool, hooks: Sequence[SectionHook], groups: Sequence[str] | None,
                     at_root: bool) -> ReleaseOutput:
    api, diagnostics = load_api(release, options, lenient=lenient)
    if groups:
        api = select_groups(api, groups)
    plan = plan_site(api, "" if at_root else None)
    return ReleaseOutput(api, plan, render_version(api, plan, env, hooks), release_nav(api, plan),
                         tuple(diagnostics))


def generate(
    releases: Iterable[Release],
    options: SourceOptions | None = None,
    *,
    templates: Path | None = None,
    lenient: bool = False,
    hooks: Sequence[SectionHook] | None = None,
    progress: Callable[[str], None] | None = None,
    groups: Sequence[str] | None = None,
    at_root: bool = False,
    memo: GenerationMemo | None = None,
) -> GeneratedSite:
    """Load, plan and render every release.

    ``at_root``: the (single) release is a site of its own, its pages at the docs root
    (``build-site``); otherwise each release is a folder (``1.31/…``) of one combined site.
    ``memo``: reuse the output of releases whose inputs did not change since the call that filled
    it (entries of releases not generated this time are dropped).
    """
    releases = list(releases)
    if at_root and len(releases) != 1:
        raise UsageError("a release at the docs root needs exactly one release")
    env = make_env(templates)
    site = GeneratedSite()
    hooks = default_hooks() if hooks is None else list(hooks)
    fresh: GenerationMemo = {}
    for release in releases:
        if progress:
            progress(release.version)
        key = ""
        output = None
        if memo is not None:
            key = release_memo_key(release, options, templates=templates, lenient=lenient,
                                   hooks=hooks, groups=groups, at_root=at_root)
            output = memo.get(key)
        if output is None:
            output = generate_release(release, options, env, lenient=lenient, hooks=hooks,
                                      groups=groups, at_root=at_root)
        fresh[key] = output
        site.apis.append(output.api)
        site.plans.append(output.plan)
        site.diagnostics.extend(output.diagnostics)
        site.pages.update(output.pages)
        site.nav.append(output.nav)
    if memo is not None:
        memo.clear()
        memo.update(fresh)
    site.pages = dict(sorted(site.pages.items()))
    return site
