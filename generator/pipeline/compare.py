"""The wiring of ``diff``: load both releases, compare them (CRD changes included), keep what the
filter selects. ``render.reports`` formats the result. No Jinja here: ``diff`` stays fast."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.analysis.crd_diff import with_crd_changes
from generator.analysis.diff import ApiDiff, DiffFilter, diff_apis, filter_diff
from generator.analysis.diff_filters import resolve_filter
from generator.config import Release
from generator.errors import Diagnostic
from generator.model.types import ApiSpec
from generator.pipeline.load import load_api, package_history
from generator.sources import SourceOptions


@dataclass(frozen=True)
class ReleaseDiff:
    """What ``diff`` found: the changes after the filter, and the loaders' diagnostics."""

    diff: ApiDiff
    diagnostics: list[Diagnostic] = field(default_factory=list)


def diff_releases(old: Release, new: Release, options: SourceOptions | None = None, *,
                  lenient: bool = False, keep: DiffFilter | None = None) -> ReleaseDiff:
    """Every change from ``old`` to ``new`` classed by upgrade impact, filtered by ``keep``."""
    diagnostics: list[Diagnostic] = []
    apis: list[ApiSpec] = []
    for release in (old, new):
        api, found = load_api(release, options, lenient=lenient)
        diagnostics.extend(found)
        apis.append(api)
    if keep:
        keep = resolve_filter(keep, *apis)  # before the diff: a typo fails fast
    diff = with_crd_changes(diff_apis(apis[0], apis[1], history=package_history()), *apis)
    if keep:
        diff = filter_diff(diff, keep, *apis)
    return ReleaseDiff(diff, diagnostics)
