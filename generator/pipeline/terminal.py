"""The wiring of ``explain`` and ``scan``: load the release (and CRD sets) as the site does
(``load.load_api``), date with the site's timeline (``history``), resolve or check, and hand the
result to ``render.terminal``. No Jinja, MkDocs or Pygments on this path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from generator.analysis.explain import resolve
from generator.analysis.findings import Finding
from generator.analysis.timeline import ModelKey, index_api
from generator.config import Release
from generator.errors import Diagnostic, GeneratorError
from generator.model.ordering import release_sort_key
from generator.model.types import ApiSpec
from generator.pipeline.history import narrow_timeline, timeline_of
from generator.pipeline.load import load_api, select_groups
from generator.sources import UPSTREAM_PREFIX, SourceOptions, available_versions
from generator.views.explain import Explanation, PublishedSite, explanation
from generator.views.site import plan_site
from generator.views.versions import PublishedReleases


def previous_release(version: str) -> str | None:
    """The bundled release just before ``version`` (``1.33`` for ``1.34``), if any."""
    earlier = [v for v in available_versions() if release_sort_key(v) < release_sort_key(version)]
    return earlier[-1] if earlier and version in available_versions() else None


def explain(release: Release, path: str, options: SourceOptions | None = None, *,
            recursive: bool = False, site_url: str = "", lenient: bool = False,
            earlier: Sequence[Release] = (), published: PublishedSite | None = None
            ) -> tuple[Explanation, list[Diagnostic]]:
    """What ``path`` is in ``release``: resolved, with the site's notes, history and URL.
    ``earlier``: releases (CRD sets) that date it instead of the bundled release before it;
    ``published``: the site the URL points into (a URL only for a page it has)."""
    api, diagnostics = load_api(release, options, lenient=lenient)
    found = resolve(api, path)
    apis: dict[str, ApiSpec] = {api.version: api}
    for other in earlier:
        old, found_diagnostics = load_api(other, options, lenient=lenient)
        diagnostics.extend(found_diagnostics)
        apis[old.version] = old
    previous = previous_release(api.version) if not earlier else None
    if previous is not None:
        apis[previous] = _previous_api(release, previous, options)
    keys = {ModelKey(m.group, m.kind) for m in (found.root, found.owner)}
    timeline = narrow_timeline(apis.values(), keys)
    site = PublishedReleases(apis=apis, plans={}, timeline=timeline)
    plan = plan_site(api)
    if published is not None and published.groups and not published.explicit:
        plan = plan_site(select_groups(api, published.groups))  # the pages of the filtered site
    return explanation(found, api, plan, site, recursive=recursive, site_url=site_url,
                       published=published), diagnostics


def _previous_api(release: Release, previous: str, options: SourceOptions | None) -> ApiSpec:
    """The release before, from the same kind of source when it is ``upstream:`` (the site's
    change notes compare like with like), else bundled; bundled when that cannot be read."""
    if release.source.startswith(UPSTREAM_PREFIX):
        try:
            return load_api(Release(previous, f"{UPSTREAM_PREFIX}{previous}"), options)[0]
        except GeneratorError:
            pass
    return load_api(Release(previous), options)[0]


@dataclass
class ScanResult:
    """The findings of every object read, how many objects, and the loaders' diagnostics;
    ``skipped``: (file, why) of the files not read as manifests; ``files``: the files listed."""

    findings: list[Finding]
    objects: int
    target: str
    before: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    files: int = 0
    templates: int = 0


def scan(paths: Sequence[str], target: Release, before: Release | None = None,
         options: SourceOptions | None = None, *, stdin: BinaryIO | Any = None,
         lenient: bool = False, exclude: Sequence[str] = ()) -> ScanResult:
    """Every finding of the objects in ``paths`` (files, directories, ``-``) against ``target``
    (``before``: the ``--from`` release), file by file: a Helm template is one ``info`` finding,
    files that are no manifest are ``skipped``. Bad input raises before anything is checked."""
    from generator.analysis.scan import Scanner, template_finding  # not on explain's path
    from generator.sources.manifests import collect

    files = collect(paths, exclude, stdin)
    api, diagnostics = load_api(target, options, lenient=lenient)
    apis = {api.version: api}
    old = None
    if before is not None:
        old, found = load_api(before, options, lenient=lenient)
        diagnostics.extend(found)
        apis[old.version] = old
    timeline = timeline_of({v: index_api(a) for v, a in apis.items()}, "all",
                           all(a.format == "crd" for a in apis.values()))
    scanner = Scanner(api, timeline, old)
    findings: list[Finding] = []
    for read in files:
        if read.is_template:
            findings.append(template_finding(read.file, read.template_line, read.chart,
                                             api.version))
        findings += [f for obj in read.objects for f in scanner.scan(obj)]
    return ScanResult(findings, sum(len(r.objects) for r in files), api.version,
                      old.version if old else "", diagnostics,
                      [(r.file, r.skipped) for r in files if r.skipped], len(files),
                      sum(r.is_template for r in files))
