"""What one ``generate`` call made and what it leaves for the next one (``mkdocs serve``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from generator.analysis.timeline import ReleaseIndex, index_api
from generator.config import Release
from generator.errors import Diagnostic
from generator.model.types import ApiSpec
from generator.views.site import SitePlan


@dataclass
class GeneratedSite:
    """The pages of a site (path → text) with what they were made of."""

    pages: dict[str, str] = field(default_factory=dict)
    apis: list[ApiSpec] = field(default_factory=list)
    plans: list[SitePlan] = field(default_factory=list)
    nav: list[object] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    """Release → its title (``views.pages.release_title``), for every loaded release (siblings
    too: lists of the site's releases name them)."""
    rendered: list[str] = field(default_factory=list)
    """Pages the ``generate`` call that returned this site rendered (the others came from its
    memo; empty when nothing changed)."""


@dataclass
class LoadedRelease:
    """One release as loaded for a site: what its pages were rendered from."""

    release: Release
    digest: str
    """``sources.source_digest`` of its source when loaded (empty without a memo)."""
    api: ApiSpec
    plan: SitePlan
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @cached_property
    def index(self) -> ReleaseIndex:
        """Its index for the versions timeline."""
        return index_api(self.api)


@dataclass
class SiteState:
    """What one ``build`` leaves for the next (``mkdocs serve``): the loaded releases and the
    site made of them, so a rebuild renders only what its changed inputs can show."""

    loaded: dict[str, LoadedRelease]
    site: GeneratedSite
    key: str = ""
    """``cache.config_digest`` of the config it was built with: another config starts afresh."""

    @property
    def digests(self) -> dict[str, str]:
        return {v: r.digest for v, r in self.loaded.items()}


GenerationMemo = dict[str, SiteState]
"""The state of the last ``generate`` call by its ``key`` (``pipeline.generate``, a shorthand
of ``pipeline.build`` for scripts and tests)."""
