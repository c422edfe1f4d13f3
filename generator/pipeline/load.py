"""Loading a release: its source (plus CRD sets) into the model, the digest of what it was loaded
from, and the group filter. No Jinja here: ``diff`` and ``export`` stay fast."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from generator.config import Release
from generator.errors import Diagnostic
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.sources import SourceOptions, load_source, merge_documents, source_digest
from generator.sources.jsonschema_pkg import PackageHistory
from generator.sources.release_history import CombinedHistory


def load_api(release: Release, options: SourceOptions | None = None, *, lenient: bool = False
             ) -> tuple[ApiSpec, list[Diagnostic]]:
    """A release's model: its source, plus its CRD sets when it has any."""
    raw = load_source(release.spec, options)
    if release.crds:
        raw = merge_documents(raw, [load_source(spec, options) for spec in release.crds])
    return build_api(raw, release.version, lenient=lenient)


def release_digest(release: Release, options: SourceOptions | None = None) -> str:
    """``source_digest`` of a release's source, and of its CRD sets when it has any."""
    digest = source_digest(release.spec, options)
    if not release.crds:
        return digest
    parts = [digest, *(source_digest(spec, options) for spec in release.crds)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def select_groups(api: ApiSpec, groups: Sequence[str]) -> ApiSpec:
    """Keep only models of the given navigation groups (plus ``common`` and ``meta``, which every
    group refers to), so links stay whole."""
    keep = {*groups, "common", "meta"}
    models = {n: m for n, m in api.models.items() if m.group in keep}
    models = {n: replace(m, referrers=tuple(r for r in m.referrers if r in models))
              for n, m in models.items()}
    return replace(api, models=models)


@cache
def package_history() -> CombinedHistory:
    """Presence of definitions in every kubernetes-validate release and, before those, the
    shipped history table's (dates upgrade guidance): package data, the same for the whole
    process."""
    return CombinedHistory(PackageHistory())
