"""What one ``generate`` call made and what it leaves for the next one (``mkdocs serve``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field

from generator.analysis.timeline import ReleaseIndex, index_api
from generator.config import Release
from generator.errors import Diagnostic
from generator.model.types import ApiSpec
from generator.views.pages import title_of
from generator.views.site import SitePlan


@dataclass
class GeneratedSite:
    """The pages of a site (path → text) with what they were made of."""

    pages: MutableMapping[str, str] = field(default_factory=dict)
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
    restamps: dict[str, str] = field(default_factory=dict)
    """Source digest each reloaded release had → the one it has now (``pipeline.restamp``)."""
    restamped: list[str] = field(default_factory=list)
    """Pages whose only change from the previous site is that digest (kept pages, and rendered
    ones that came out the same): ``restamps`` applied to the previous text (``mkdocs serve
    --dirty`` patches their built HTML the same way, ``output.restamp``)."""
    patchable: list[str] = field(default_factory=list)
    """The Markdown pages of ``restamped`` where the digest is only in blocks search does not
    read (``render.raw_html.only_in_quiet_blocks``): their built HTML may be patched."""


class LoadedRelease:
    """One release as loaded for a site: what its pages were rendered from.

    A sibling taken from the release cache (``pipeline.release_cache``) comes as its plan, index
    and format, with ``api`` a loader called the first time the model is asked for (most
    siblings only lend their plan, index and title to the versions feature)."""

    def __init__(self, release: Release, digest: str, api: ApiSpec | Callable[[], ApiSpec],
                 plan: SitePlan, diagnostics: list[Diagnostic] | None = None, *,
                 index: ReleaseIndex | None = None, api_format: str | None = None) -> None:
        self.release = release
        self.digest = digest
        """``sources.source_digest`` of its source when loaded (empty without a memo)."""
        self.plan = plan
        self.diagnostics = diagnostics if diagnostics is not None else []
        self._api = api if isinstance(api, ApiSpec) else None
        self._loader = None if isinstance(api, ApiSpec) else api
        self._index = index
        self._format = api_format

    @property
    def api(self) -> ApiSpec:
        if self._api is None:
            assert self._loader is not None
            self._api, self._loader = self._loader(), None
        return self._api

    @property
    def index(self) -> ReleaseIndex:
        """Its index for the versions timeline."""
        if self._index is None:
            self._index = index_api(self.api)
        return self._index

    @property
    def api_format(self) -> str:
        """``ApiSpec.format`` (``crd``: a release of CRD sets only)."""
        return self.api.format if self._format is None else self._format

    @property
    def title(self) -> str:
        """``views.pages.title_of`` the release."""
        return title_of(self.release.version, self.api_format == "crd")


class ReleaseApis(Mapping[str, ApiSpec]):
    """The models of loaded releases by version, each loaded when first looked up."""

    def __init__(self, loaded: Mapping[str, LoadedRelease]) -> None:
        self._loaded = loaded

    def __getitem__(self, version: str) -> ApiSpec:
        return self._loaded[version].api

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded)

    def __len__(self) -> int:
        return len(self._loaded)


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
