"""The site's configuration as the CLI and the plugin give it: ``Release`` (one release and its
source), ``VersionsOptions`` (the versions feature) and ``SiteConfig``, everything one build reads
besides the sources' bytes, made by the factories here from CLI options or plugin options."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

from generator.errors import UsageError
from generator.sources import KV_PREFIX, SOURCE_KINDS, UPSTREAM_PREFIX, SourceOptions, default_source
from generator.sources.upstream import LOCK_NAME, spec_mirror

PageFormat = Literal["mkdocs", "gfm"]
PAGE_FORMATS: tuple[PageFormat, ...] = get_args(PageFormat)
"""How pages are written: ``mkdocs``, Markdown headings with HTML blocks between them (the
MkDocs plugin's fast pages); ``gfm``, plain GitHub-flavoured Markdown without any HTML (the
templates in ``templates/gfm/``, same names, same view-models)."""

HistoryScope = Literal["all", "site"]
HISTORY_SCOPES: tuple[HistoryScope, ...] = get_args(HistoryScope)
"""Releases field history considers: ``all``, every kubernetes-validate release besides the
site's; ``site``, only the site's (``--history``, plugin ``history``)."""
Layout = Literal["combined", "release"]
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
"""The plugin's layouts: ``combined``, every release a folder ``1.31/…`` of one site;
``release``, the one release of ``only`` at the docs root (a per-release site)."""

_Word = TypeVar("_Word", bound=str)


def one_of(value: str, words: tuple[_Word, ...], message: str) -> _Word:
    """``value`` as one of a closed vocabulary's ``words`` (typed as its ``Literal``), else a
    ``UsageError`` of ``message`` (``{value!r}`` and ``{words}`` in it are filled in)."""
    for word in words:
        if value == word:
            return word
    raise UsageError(message.format(value=value, words=", ".join(words)))


@dataclass(frozen=True)
class Release:
    """One release of the site: a version label and where its definitions come from."""

    version: str
    source: str = ""
    crds: tuple[str, ...] = ()
    """CRD sets (files, directories, URLs) documented with this release (``--crds``, plugin
    ``crds:``): their ``metadata`` links to the release's ObjectMeta."""

    @property
    def spec(self) -> str:
        return self.source or default_source(self.version)


@dataclass(frozen=True)
class VersionsOptions:
    """The versions feature: other-versions lines, field history, change pages."""

    enabled: bool = True
    history: HistoryScope = "all"
    """``all``: the timeline also has every kubernetes-validate release; ``site``: only the site's."""
    change_pairs: tuple[tuple[str, str], ...] = ()
    """Extra (old, new) change pages beyond the adjacent pairs; ``new`` must be rendered."""

    @classmethod
    def create(cls, versions: Iterable[str], *, enabled: bool = True, history: str = "all",
               change_pairs: Iterable[tuple[str, str]] = (),
               unknown: str = "changes: {new} is not one of the versions") -> VersionsOptions:
        """Checked options: every pair's ``new`` is one of ``versions`` (else ``unknown``, with
        ``{old}`` and ``{new}``, is the message)."""
        known = set(versions)
        pairs = tuple((str(old), str(new)) for old, new in change_pairs)
        for old, new in pairs:
            if new not in known:
                raise UsageError(unknown.format(old=old, new=new))
        scope = one_of(history, HISTORY_SCOPES, "history must be 'all' or 'site', not {value!r}")
        return cls(enabled, scope, pairs)


def parse_change_pairs(pairs: Iterable[str]) -> list[tuple[str, str]]:
    """``--changes OLD:NEW`` options as (old, new) pairs."""
    out = []
    for pair in pairs:
        old, sep, new = pair.partition(":")
        if not sep or not old or not new:
            raise UsageError(f"--changes wants OLD:NEW, got {pair!r}")
        out.append((old, new))
    return out


def pair_releases(versions: Sequence[str], sources: Sequence[str], kind: str = "bundled",
                  crds: Sequence[str] = ()) -> list[Release]:
    """Pair ``--version`` and ``--source`` options by position; a version without a source reads
    ``kind``'s source (``bundled``: kubernetes-validate; ``upstream``: ``upstream:VERSION``);
    ``--crds`` go with every release."""
    if not versions:
        raise UsageError("give at least one --version")
    if len(sources) > len(versions):
        raise UsageError("more --source than --version options")
    if len(set(versions)) != len(versions):
        raise UsageError("a --version is given twice")
    if kind not in SOURCE_KINDS:
        raise UsageError(f"source kind must be one of {', '.join(SOURCE_KINDS)}, not {kind!r}")
    default = (lambda v: default_source(v, kind)) if kind != "bundled" else (lambda v: "")
    return [Release(v, sources[i] if i < len(sources) else default(v), tuple(crds))
            for i, v in enumerate(versions)]


def diff_side(spec: str) -> Release:
    """A side of ``diff``: ``1.31`` → kubernetes-validate 1.31; ``kubernetes-validate:1.31``;
    ``upstream:1.32`` (labelled ``1.32``); else a path or URL labelled by its file name."""
    if re.fullmatch(r"\d+\.\d+", spec):
        return Release(spec, default_source(spec))
    if spec.startswith(KV_PREFIX):
        return Release(spec[len(KV_PREFIX):], spec)
    if spec.startswith(UPSTREAM_PREFIX):
        return Release(spec[len(UPSTREAM_PREFIX):], spec)
    return Release(spec.rstrip("/").rsplit("/", 1)[-1].partition("#")[0] or spec, spec)


def diff_sides(old: str, new: str) -> tuple[Release, Release]:
    """Both sides of ``diff OLD NEW``; two files of one name are labelled by their full spec."""
    a, b = diff_side(old), diff_side(new)
    if a.version == b.version:
        a, b = Release(old, a.source), Release(new, b.source)
    return a, b


_PAGE_FORMAT_MESSAGE = "page format must be one of {words}, not {value!r}"


@dataclass(frozen=True)
class SiteConfig:
    """Everything one build reads besides the sources' bytes (``pipeline.build.build``)."""

    releases: tuple[Release, ...]
    """The releases rendered."""
    siblings: tuple[Release, ...] = ()
    """Releases published beside these ones (e.g. each release its own MkDocs site): loaded and
    planned for cross-release links and change pages, but not rendered."""
    sources: SourceOptions | None = None
    templates: Path | None = None
    """Directory of template overrides."""
    lenient: bool = False
    groups: tuple[str, ...] = ()
    """Only these navigation groups (empty: all)."""
    versions: VersionsOptions = field(default_factory=VersionsOptions)
    at_root: bool = False
    """The one rendered release is a site of its own, its pages at the docs root (``build-site``);
    otherwise each release is a folder (``1.31/…``) of one combined site."""
    page_format: PageFormat = "mkdocs"
    """``mkdocs`` (headings and HTML blocks) or ``gfm`` (plain GitHub-flavoured Markdown)."""
    hooks: tuple[Callable[..., None], ...] | None = None
    """Model-page section hooks (``render.pages.SectionHook``); ``None``: the default ones (only
    those allow rendering just the pages an edit can change)."""
    template_cache: Path | None = None
    """Where compiled templates are kept for the next process (``pipeline.cache.use_bytecode_cache``:
    the plugin's cache directory, so each release build of ``build-site`` compiles them once);
    ``None``: nowhere. The pages do not depend on it."""
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: the URL style of every link the pages write as a published
    URL (``views.site.SitePlan.directory_urls``); the plugin sets it from the MkDocs config."""
    release_cache: Path | None = None
    """Where loaded releases are kept for the other processes of the same site build
    (``pipeline.release_cache``: ``build-site`` turns it on, each release build loading every
    release of the site); ``None``: nowhere. The pages do not depend on it."""

    def __post_init__(self) -> None:
        if self.at_root and len(self.releases) != 1:
            raise UsageError("a release at the docs root needs exactly one release")
        one_of(self.page_format, PAGE_FORMATS, _PAGE_FORMAT_MESSAGE)

    @classmethod
    def create(cls, releases: Iterable[Release], sources: SourceOptions | None = None, *,
               siblings: Iterable[Release] = (), groups: Iterable[str] | None = None,
               versions: VersionsOptions | None = None,
               hooks: Iterable[Callable[..., None]] | None = None, **settings: Any) -> SiteConfig:
        """A config from plain values (lists, ``None`` for defaults)."""
        return cls(tuple(releases), tuple(siblings), sources, groups=tuple(groups or ()),
                   versions=versions or VersionsOptions(),
                   hooks=None if hooks is None else tuple(hooks), **settings)

    @property
    def rendered(self) -> list[str]:
        return [r.version for r in self.releases]

    def loaded(self) -> dict[str, Release]:
        """Rendered releases, then siblings: every release whose pages or data the site shows."""
        rendered = self.rendered
        return {r.version: r for r in [*self.releases,
                                       *(s for s in self.siblings if s.version not in rendered)]}


def cli_config(versions: Sequence[str], sources: Sequence[str], *, kind: str = "bundled",
               crds: Sequence[str] = (), source_options: SourceOptions | None = None,
               templates: Path | None = None, lenient: bool = False, history: str = "all",
               change_pairs: Sequence[str] = (), no_versions: bool = False,
               page_format: str = "mkdocs") -> SiteConfig:
    """The config of ``generate`` and ``check`` from their options."""
    releases = pair_releases(versions, sources, kind, crds)
    options = VersionsOptions.create(versions, enabled=not no_versions, history=history,
                                     change_pairs=parse_change_pairs(change_pairs),
                                     unknown="--changes {old}:{new}: {new} is not a --version")
    return SiteConfig(tuple(releases), (), source_options, templates, lenient, versions=options,
                      page_format=one_of(page_format, PAGE_FORMATS, _PAGE_FORMAT_MESSAGE))


def cli_source_options(cache_dir: Path, offline: bool, mirror: Path | None, lock: Path | None
                       ) -> SourceOptions:
    """Source options of a command (``--cache-dir``, ``--offline``, ``--spec-mirror``, ``--lock``)."""
    return SourceOptions(cache_dir=cache_dir, offline=offline, spec_mirror=spec_mirror(mirror),
                         lock_file=lock or Path(LOCK_NAME))


RELEASE_CACHE_DIR = "releases"
"""The release cache below the cache directory (``SiteConfig.release_cache``)."""

PLUGIN_DEFAULTS: dict[str, Any] = {
    "versions": [],  # the releases: {version: '1.31', source: (default kubernetes-validate), crds: [...]}
    "cache_dir": ".cache/k8s-api-docs",  # generated Markdown and downloads (relative to mkdocs.yml)
    "templates": None,  # a directory of template overrides
    "offline": False,  # never download URL and ``upstream:`` sources
    "spec_mirror": "",  # ``swagger-1.NN.json`` files read for ``upstream:`` (env K8S_API_DOCS_SPEC_MIRROR)
    "lock_file": LOCK_NAME,  # digests of upstream releases without a shipped digest (commit it)
    "lenient": False,  # dangling $refs rendered as unknown types instead of failing
    "groups": [],  # serve-time filter: only these API groups (env K8S_API_DOCS_GROUPS)
    "versions_feature": True,  # other-versions lines, field since/changed/removed, change pages
    "history": "all",  # releases field history considers: every bundled one, or the site's ("site")
    "changes": [],  # extra change pages: {old: '1.29', new: '1.32'} -> 1.32/changes-from-1.29.md
    "only": [],  # generate only these of ``versions`` (env K8S_API_DOCS_ONLY)
    "layout": "combined",  # ``release``: the one release of ``only`` at the docs root (build-site)
    "release_cache": False,  # loaded releases kept for the site's other release builds (build-site)
    "pages_dir": "",  # where generated Markdown goes (default ``<cache_dir>/pages``)
}
"""The plugin's options, their defaults and what each is: the one definition
(``mkdocs.plugin.PluginConfig`` declares their types with these defaults; build-site and Zensical
builds read them)."""


def plugin_releases(options: Mapping[str, Any]) -> list[Release]:
    """Every release of the plugin's ``versions``."""
    return [Release(str(r["version"]), str(r.get("source") or ""), tuple(r.get("crds") or ()))
            for r in options.get("versions") or []]


def plugin_config(options: Mapping[str, Any], base_dir: Path, *, only: Sequence[str] = (),
                  groups: Sequence[str] = ()) -> SiteConfig:
    """The config of the plugin's options (validated ``PluginConfig`` or the plain mapping of a
    config file), paths relative to ``base_dir`` (the config's directory). ``only``/``groups``
    (the serve-time environment variables) replace the options' own when given."""
    opts = {**PLUGIN_DEFAULTS, **options}
    configured = plugin_releases(opts)
    only = list(only) or list(opts["only"])
    releases = configured
    if only:
        unknown = sorted(set(only) - {r.version for r in configured})
        if unknown:
            raise UsageError(f"only {', '.join(unknown)}: not among the configured versions "
                             f"({', '.join(r.version for r in configured)})")
        releases = [r for r in configured if r.version in only]
    layout: Layout = one_of(str(opts["layout"]), LAYOUTS,
                            "layout must be one of {words}, not {value!r}")
    at_root = layout == "release"
    if at_root and len(releases) != 1:
        raise UsageError("layout 'release' needs exactly one release in 'only'")
    mirror = spec_mirror(str(opts["spec_mirror"]) or None)
    sources = SourceOptions(cache_dir=(base_dir / str(opts["cache_dir"])).resolve(),
                            offline=bool(opts["offline"]),
                            spec_mirror=(base_dir / mirror).resolve() if mirror else None,
                            lock_file=(base_dir / str(opts["lock_file"])).resolve())
    versions = VersionsOptions.create(
        (r.version for r in configured), enabled=bool(opts["versions_feature"]),
        history=str(opts["history"]), change_pairs=[(p["old"], p["new"]) for p in opts["changes"]])
    templates = (base_dir / str(opts["templates"])) if opts["templates"] else None
    return SiteConfig(tuple(releases), tuple(configured), sources, templates, bool(opts["lenient"]),
                      tuple(groups or opts["groups"] or ()), versions, at_root,
                      release_cache=sources.cache_dir / RELEASE_CACHE_DIR if opts["release_cache"] else None)
