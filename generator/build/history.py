"""The release timeline (``analysis.timeline``) of loaded releases plus every release the
``kubernetes-validate`` package ships: what field histories, ``explain`` and ``scan`` date
things with. No Jinja here: the terminal commands stay fast."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from generator.analysis.timeline import ReleaseIndex, Timeline, index_api, index_fields
from generator.errors import UsageError
from generator.model.types import ApiSpec
from generator.sources import available_versions, field_names


def release_timeline(apis: Iterable[ApiSpec], history: str = "all",
                     known: Mapping[str, ReleaseIndex] | None = None) -> Timeline:
    """Timeline of the site's releases plus, with ``history="all"``, every kubernetes-validate
    release (a site release always uses its own definitions; not when every release is a CRD
    set). ``known``: indexes already made of
    some of ``apis``, by version."""
    apis = list(apis)
    known = known or {}
    return timeline_of({api.version: known.get(api.version) or index_api(api) for api in apis},
                       history, all(api.format == "crd" for api in apis))


def timeline_of(indexes: Mapping[str, ReleaseIndex], history: str, crd_only: bool) -> Timeline:
    """``release_timeline`` of the site's releases' ``indexes``; ``crd_only``: every one is a CRD
    set. A kubernetes-validate release that is a site release is not indexed: the site's wins."""
    if history not in ("all", "site"):
        raise UsageError(f"history must be 'all' or 'site', not {history!r}")
    every = {}
    if history == "all" and not crd_only:  # CRD sets: their own only
        every = {v: _package_index(v) for v in available_versions() if v not in indexes}
    every.update(indexes)
    return Timeline.build(every)


@cache
def _package_index(version: str) -> ReleaseIndex:
    """Index of a kubernetes-validate release (package data: made once per process)."""
    return index_fields(field_names(version))
