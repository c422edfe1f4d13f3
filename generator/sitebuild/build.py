"""Build every release as its own site side by side, plus ``versions.json`` and a landing page at
the root. Releases whose inputs did not change are not rebuilt. Each release is built by
``mkdocs build`` (the plugin generates its pages) or by Zensical (``sitebuild.zensical``, whose
result is link-checked here before it is swapped in)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from tqdm import tqdm

from generator.config import RELEASE_CACHE_DIR, Release, VersionsOptions, plugin_config
from generator.errors import GeneratorError, UsageError
from generator.output.writer import (
    MANAGED_MARKER,
    claim_dir,
    refuse_foreign,
    remove_dir,
    remove_file,
    swap_dir,
    write_file,
    write_pages,
)
from generator.pipeline.cache import compile_templates
from generator.pipeline.incremental import ReleaseInputs, release_shape
from generator.pipeline.load import release_digest
from generator.pipeline.release_cache import stale_entries
from generator.render.env import shipped_templates
from generator.sitebuild.inputs import Manifest, ManifestEntry, SiteInputs, page_set_digest, release_key
from generator.sitebuild.landing import (
    LATEST_ALIAS,
    alias_pages,
    landing_page,
    site_url_of,
    versions_json,
)
from generator.sitebuild.linkcheck import SiteFiles, check_pages
from generator.sitebuild.mkdocs_yml import ParentConfig, release_mkdocs_yml, release_plugin_options
from generator.sitebuild.parts import SITE_FACTS, SiteFacts, site_facts
from generator.sitebuild.presets import newest_first
from generator.sitebuild.runner import (
    BUILDERS,
    BuildJob,
    BuildResult,
    default_jobs,
    run_builds,
    start_workers,
)
from generator.sitebuild.warm import compile_theme_templates
from generator.sources import DEFAULT_CACHE, SourceOptions
from generator.sources.upstream import LOCK_NAME
from generator.views.pages import title_of
from generator.views.site import version_dir

STAGING_PREFIX = ".build-"


@dataclass
class BuildSiteOptions:
    releases: list[Release]
    out: Path
    config_file: Path | None = None
    """The MkDocs config every release inherits; ``None``: the built-in one (the project's)."""
    cache_dir: Path = DEFAULT_CACHE
    offline: bool = False
    jobs: int = field(default_factory=default_jobs)
    force: bool = False
    groups: Sequence[str] = ()
    progress: bool = True
    log: Callable[[str], None] | None = None
    """Where progress lines go when there is no progress bar (output not a terminal): each
    release started, and done with its time."""
    spec_mirror: Path | None = None
    """Directory of ``swagger-1.NN.json`` files for ``upstream:`` sources."""
    lock_file: Path | None = None
    """Lock file of upstream digests (default: ``k8s-api-docs.lock`` next to ``config_file``)."""
    builder: str = "mkdocs"
    """``mkdocs`` (``mkdocs build`` with the plugin) or ``zensical`` (``sitebuild.zensical``)."""
    site_url: str | None = None
    """Where the site is published (``https://org.github.io/repo/``); default: ``site_url`` of
    the config. Without one the version selector opens the other release's home page: it maps
    pages through each release's ``sitemap.xml``, whose ``<loc>``s MkDocs writes only with a
    site URL."""
    only: Sequence[str] = ()
    """Build only these of the site's ``releases``: a part of the site for ``assemble`` (a CI
    matrix job per release); its pages are those of the whole site's build."""


@dataclass
class BuildSummary:
    out: Path
    built: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    pages_built: int = 0
    pages_skipped: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    """What the user should know about the result (said once, by the CLI)."""

    def line(self) -> str:
        releases = len(self.built) + len(self.skipped)
        return (f"{releases} release(s), {self.pages_built + self.pages_skipped:,} pages in "
                f"{self.seconds:.1f} s: built {len(self.built)} ({self.pages_built:,} pages), "
                f"skipped {len(self.skipped)} as unchanged ({self.pages_skipped:,} pages) → {self.out}")


def html_pages(site: Path) -> list[str]:
    """Pages of a built release: its HTML files, except the 404 page."""
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html") if p.name != "404.html")


@dataclass
class BuildPlan:
    """What ``plan_site`` found: the site's releases, their inputs and keys, and which releases
    changed (``todo``). Nothing is written while planning."""

    options: BuildSiteOptions
    out: Path
    cache_dir: Path
    parent: ParentConfig
    site_url: str
    source_options: SourceOptions
    releases: dict[str, Release]
    oldest_first: list[str]
    titles: dict[str, str]
    shapes: dict[str, tuple[str, str]]
    digests: dict[str, str]
    keys: dict[str, str]
    manifest: Manifest
    entries: dict[str, ManifestEntry]
    """The manifest's entries of ``out`` (updated by ``publish``)."""
    todo: list[str]
    notes: list[str] = field(default_factory=list)
    site_digest: str = ""
    """``SiteInputs.digest``: what every release of the site shares (parts of one site share it)."""

    @property
    def newest(self) -> str:
        return self.oldest_first[-1]

    @property
    def part(self) -> list[str]:
        """The releases this output holds: every one, or ``--only``'s."""
        only = self.options.only
        return [v for v in self.releases if not only or v in only]

    def staging(self, version: str) -> Path:
        return self.out / f"{STAGING_PREFIX}{version}"


def build_site(options: BuildSiteOptions) -> BuildSummary:
    """``plan_site`` → ``build_releases`` → ``publish``. A failure removes what this run
    created: the staging directories, and ``--out`` itself when this run made it."""
    start = time.perf_counter()
    if options.builder == "mkdocs":
        start_workers()  # while the plan is made
    plan = plan_site(options)
    created = not plan.out.exists()
    marked = (plan.out / MANAGED_MARKER).exists()
    try:
        claim_dir(plan.out)
        for stale in stale_entries(plan.cache_dir / RELEASE_CACHE_DIR):  # releases of other code
            remove_dir(stale)
        if options.log:
            unchanged = [v for v in plan.releases if v not in plan.todo]
            if unchanged:
                options.log(f"build-site: {', '.join(unchanged)} unchanged, not rebuilt")
        built = build_releases(plan, plan.todo)
        moved = [v for v in plan.todo if v in plan.entries and plan.entries[v].page_set
                 != page_set_digest(built[v])]
        if moved:  # pages appeared or vanished: cross-release links of the others may change
            built.update(build_releases(plan, [v for v in plan.part if v not in plan.todo]))
        summary = publish(plan, built)
    except BaseException:
        for version in plan.releases:
            remove_dir(plan.staging(version))
        remove_dir(plan.staging(LATEST_ALIAS))
        if created:
            remove_dir(plan.out)
        elif not marked:
            (plan.out / MANAGED_MARKER).unlink(missing_ok=True)
        raise
    summary.seconds = time.perf_counter() - start
    summary.notes = plan.notes
    return summary


def plan_site(options: BuildSiteOptions) -> BuildPlan:
    """Check the options, read the config, the releases' sources and the manifest, and decide
    which releases to build."""
    releases = {r.version: r for r in options.releases}
    if not releases:
        raise UsageError("no release to build")
    if options.builder not in BUILDERS:
        raise UsageError(f"unknown builder {options.builder!r}: {' or '.join(BUILDERS)}")
    if len(releases) != len(options.releases):
        raise UsageError("a release is given twice")
    for version in releases:
        if version_dir(version) != version:
            raise UsageError(f"release label {version!r} cannot be a directory name")
    if LATEST_ALIAS in releases:
        raise UsageError(f"{LATEST_ALIAS!r} is the alias of the newest release, not a release label")
    unknown = sorted(set(options.only) - set(releases))
    if unknown:
        raise UsageError(f"--only {', '.join(unknown)}: not among the site's releases "
                         f"({', '.join(releases)})")
    out = options.out.resolve()
    refuse_foreign(out)
    cache_dir = options.cache_dir.resolve()
    parent = ParentConfig.load(options.config_file)
    site_url = _site_url(options.site_url or parent.site_url)
    template_dirs = tuple(d for d in (parent.template_dir(), shipped_templates()) if d)
    site_digest = SiteInputs(parent.path, parent.docs_dir, template_dirs,
                             tuple((r.version, r.spec, *r.crds) for r in options.releases),
                             tuple(options.groups), options.builder, site_url).digest()
    spec_mirror = options.spec_mirror.resolve() if options.spec_mirror else None
    lock_dir = Path.cwd() if parent.builtin else parent.base_dir
    lock_file = (options.lock_file or lock_dir / LOCK_NAME).resolve()
    source_options = SourceOptions(cache_dir=cache_dir, offline=options.offline,
                                   spec_mirror=spec_mirror, lock_file=lock_file)
    manifest = Manifest(cache_dir / "build-site" / "manifest.json")
    entries = manifest.entries(out)
    digests = {v: release_digest(r, source_options) for v, r in releases.items()}
    shapes: dict[str, tuple[str, str]] = {
        v: (entries[v].shape, entries[v].title)
        if v in entries and entries[v].source == digests[v] and entries[v].shape and entries[v].title
        else _shape_and_title(r, source_options) for v, r in releases.items()}
    oldest_first = newest_first(list(releases))[::-1]
    pairs = _versions_options(parent, oldest_first).change_pairs
    inputs = {v: ReleaseInputs.of(v, oldest_first, pairs) for v in releases}
    keys = {v: release_key(site_digest, v, digests[v],
                           [digests[d] for d in inputs[v].content if d in digests]
                           + [f"{o}={shapes[o][0]}" for o in inputs[v].shape])
            for v in releases}
    todo = [v for v in releases if options.force or v not in entries or entries[v].key != keys[v]
            or not (out / v / "index.html").is_file()]
    todo = [v for v in todo if not options.only or v in options.only]
    notes = []
    if parent.builtin:
        notes.append(f"no MkDocs config given: built with the built-in one ({parent.path})")
    if not site_url and len(releases) > 1:
        notes.append("no --site-url: the version selector opens the other release's home page "
                     "(with the site's URL it keeps the page)")
    return BuildPlan(options, out, cache_dir, parent, site_url, source_options, releases,
                     oldest_first, {v: title for v, (_, title) in shapes.items()}, shapes, digests,
                     keys, manifest, entries, todo, notes, site_digest)


def build_releases(plan: BuildPlan, versions: list[str]) -> dict[str, list[str]]:
    """Build ``versions`` into their staging directories in ``plan.out`` (the newest one's
    ``latest/`` alias staged too); their HTML pages. On a failed build: every staging directory
    removed, the cause in a ``GeneratorError``, the full output in the release's ``build.log``."""
    options, cache_dir = plan.options, plan.cache_dir
    site_releases = [plan.releases[v] for v in plan.oldest_first]
    listed: dict[str, list[str]] = {}
    jobs = []
    for version in versions:
        work = cache_dir / "build-site" / version
        plugin_options = release_plugin_options(
            plan.parent, plan.releases[version], site_releases, cache_dir=cache_dir,
            pages_dir=work / "pages", groups=list(options.groups),
            spec_mirror=plan.source_options.spec_mirror, lock_file=plan.source_options.lock_file,
            offline=options.offline)
        if options.builder == "zensical":
            jobs.append(zensical_job(plan.parent, version, plugin_options, work, plan.staging(version),
                                     plan.site_url))
            continue
        config_file = work / "mkdocs.yml"
        write_file(config_file, release_mkdocs_yml(plan.parent, plan.releases[version], plugin_options,
                                                   site_dir=plan.staging(version),
                                                   site_url=plan.site_url))
        jobs.append(BuildJob(version, config_file))
    warm = prepare = None
    if jobs and options.builder == "mkdocs":  # the templates, compiled once for all builds
        warm = partial(compile_theme_templates, jobs[0].config_file, cache_dir / "jinja")
        prepare = partial(compile_templates, plan.parent.template_dir(), cache_dir / "jinja")
    with tqdm(total=len(jobs), desc="build-site", unit="release",
              disable=not options.progress or not jobs, leave=False) as bar:
        def done(result: BuildResult) -> None:
            if options.log:
                options.log(f"build-site: {result.version} "
                            f"{'done' if result.ok else 'failed'} in {result.seconds:.1f} s")
            bar.set_postfix_str(f"{result.version} {result.seconds:.1f} s")
            bar.update(1)
            if result.ok:  # done while the other releases still build
                listed[result.version] = html_pages(plan.staging(result.version))
                if result.version == plan.newest:
                    _stage_alias(plan.staging(LATEST_ALIAS), plan.newest, plan.titles,
                                 listed[plan.newest], plan.parent.directory_urls)
        # newest (largest) releases first: the last build to finish is a small one
        rank = {v: i for i, v in enumerate(newest_first([job.version for job in jobs]))}
        log = options.log
        results = run_builds(sorted(jobs, key=lambda j: rank[j.version]), max(1, options.jobs),
                             done, warm=warm, prepare=prepare,
                             on_start=(lambda j: log(f"build-site: {j.version} started"))
                             if log else None)
    failed = [r for r in results if not r.ok]
    if failed:
        remove_dir(plan.staging(LATEST_ALIAS))
        for result in results:
            remove_dir(plan.staging(result.version))
        for result in failed:
            write_file(cache_dir / "build-site" / result.version / "build.log", result.output + "\n")
        details = "; ".join(f"{r.version}: {cause_line(r.output)}" for r in failed)
        raise GeneratorError(f"{options.builder} build failed for {details} (full output: "
                             f"{cache_dir / 'build-site' / failed[0].version / 'build.log'})")
    return listed


def publish(plan: BuildPlan, built: dict[str, list[str]]) -> BuildSummary:
    """Swap the releases built into ``plan.out`` (Zensical's link-checked first), drop releases
    no longer in the site, write ``latest/``, ``versions.json``, the landing page, the manifest."""
    out, entries, newest = plan.out, plan.entries, plan.newest
    if plan.options.builder == "zensical" and built:  # Zensical does not check links in raw HTML
        check_links(out, list(built), STAGING_PREFIX, plan.parent.directory_urls)
    summary = BuildSummary(out)
    for version in sorted(built, key=list(plan.releases).index):
        pages = built[version]
        swap_dir(plan.staging(version), out / version)
        entries[version] = ManifestEntry(plan.keys[version], len(pages), page_set_digest(pages),
                                         plan.digests[version], *plan.shapes[version])
        summary.built.append(version)
        summary.pages_built += len(pages)
    for version in plan.part:
        if version not in built:
            summary.skipped.append(version)
            summary.pages_skipped += entries[version].pages
    for version in sorted(set(entries) - set(plan.part)):
        remove_dir(out / version)
        del entries[version]
    facts = site_facts(plan.parent.site_name, plan.site_url, plan.oldest_first, plan.titles,
                       {v: plan.keys[v] for v in plan.part}, plan.site_digest, plan.parent.directory_urls)
    if plan.options.only:  # a part: the root files are made by ``assemble`` of all parts
        remove_dir(plan.staging(LATEST_ALIAS))  # staged when the newest release was built
        remove_dir(out / LATEST_ALIAS)
        for name in ("versions.json", "index.html"):
            remove_file(out / name)
        write_file(out / SITE_FACTS, facts.to_json())
        plan.manifest.save()
        return summary
    alias_staging = plan.staging(LATEST_ALIAS)
    alias_home = out / LATEST_ALIAS / "index.html"
    staged = newest in built and alias_staging.is_dir()  # as the newest release's build finished
    if not staged and (not alias_home.is_file() or alias_home.read_text(
            encoding="utf-8") != alias_pages(["index.html"], newest, plan.titles,
                                             directory_urls=plan.parent.directory_urls)["index.html"]):
        _stage_alias(alias_staging, newest, plan.titles, html_pages(out / newest),
                     plan.parent.directory_urls)
        staged = True
    if staged:
        swap_dir(alias_staging, out / LATEST_ALIAS)
    write_site_root(out, facts)
    plan.manifest.save()
    return summary


def write_site_root(out: Path, facts: SiteFacts) -> None:
    """The root files of a whole site (``build-site``, ``assemble``): ``versions.json`` for
    Material's selector, the landing page and the site facts, all from ``facts``."""
    order = list(facts.releases)[::-1]
    write_file(out / "versions.json", versions_json(order))
    write_file(out / "index.html", landing_page(facts.site_name, order, facts.titles, facts.directory_urls))
    write_file(out / SITE_FACTS, facts.to_json())


def zensical_job(parent: ParentConfig, version: str, plugin_options: dict[str, Any], work: Path,
                 site_dir: Path, site_url: str) -> BuildJob:
    """The job that builds one release with Zensical (``sitebuild.zensical``, imported here:
    the MkDocs builder does not load it)."""
    from generator.sitebuild.zensical import ZensicalJob, job_command

    job_file = work / "zensical-job.json"
    ZensicalJob(str(parent.path), version, plugin_options, str(work / "zensical"), str(site_dir),
                site_url).save(job_file)
    return BuildJob(version, job_file, tuple(job_command(job_file)))


def _versions_options(parent: ParentConfig, versions: list[str]) -> VersionsOptions:
    """The versions feature as every release's build sees it (the project's plugin options)."""
    options = {**parent.plugin_options(), "versions": [{"version": v} for v in versions],
               "only": [], "layout": "combined", "templates": None}
    return plugin_config(options, parent.base_dir).versions


def check_links(out: Path, built: list[str], staging_prefix: str, directory_urls: bool = True) -> None:
    """Fail on a broken internal link of the releases just built, still in their staging
    directories (links to other releases resolve against those or the published ones); on
    failure the staging directories go and the published site stays as it was."""
    roots = {v: out / f"{staging_prefix}{v}" for v in built}
    files = SiteFiles(out, roots, index_rewriting=directory_urls)
    broken = [b for v in built for b in check_pages(files, files.html_files(v))]
    if broken:
        for root in roots.values():
            remove_dir(root)
        shown = "; ".join(str(b) for b in broken[:3])
        raise GeneratorError(f"{len(broken)} broken internal link(s) in the built site: {shown}"
                             + (" …" if len(broken) > 3 else ""))


def _site_url(url: str) -> str:
    """The site's URL (``landing.site_url_of``), or ``""``: then MkDocs writes no page addresses
    into the sitemaps the version selector reads, so it opens the other release's home page."""
    if not url:
        return ""
    try:
        return site_url_of(url)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _stage_alias(staging: Path, newest: str, titles: dict[str, str], pages: list[str],
                 directory_urls: bool = True) -> None:
    """The next ``out/latest/`` in ``staging``: a redirect to the newest release's page for each
    of its ``pages``."""
    remove_dir(staging)
    write_pages(staging, alias_pages(pages, newest, titles, directory_urls=directory_urls))


_LOG_PREFIX = re.compile(r"^(?:ERROR|WARNING)\s*-\s*")
_NOT_A_CAUSE = ("Aborted with", "Error: Aborted", "Traceback (most recent call last)")


def cause_line(output: str) -> str:
    """The line of a failed build's output that says why: its first error or warning (MkDocs'
    closing "Aborted with a BuildError!" says only that it failed), without the log prefix."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in lines:
        if ("ERROR" in line or "WARNING" in line or "Error" in line) \
                and not _LOG_PREFIX.sub("", line).startswith(_NOT_A_CAUSE):
            return _LOG_PREFIX.sub("", line)
    return lines[-1] if lines else "no output"


def _shape_and_title(release: Release, options: SourceOptions) -> tuple[str, str]:
    """A release's ``shape_digest`` and its title (``views.pages.title_of``: a release that is
    only CRD sets is titled as such), from one read of its sources."""
    shape, crd_only = release_shape(release, options)
    return shape, title_of(release.version, crd_only)
