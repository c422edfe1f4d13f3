"""The two orderings of the project: releases (``1.9`` < ``1.31`` < labels) and API versions
(GA before beta before alpha). Every module sorts releases with ``release_sort_key``."""

from __future__ import annotations

import re

VERSION_RE = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")
_NUMBERS = re.compile(r"\d+")


def release_sort_key(version: str) -> tuple[tuple[int, ...], str]:
    """``1.9`` < ``1.25`` < ``1.31``; labels without numbers (``dra``) sort after every numbered
    release, by text. The plugin, ``build-site`` and the timeline all order releases with this."""
    numbers = tuple(int(n) for n in _NUMBERS.findall(version))
    return (numbers or (1 << 30,), version)


def api_version_sort_key(version: str) -> tuple[int, int, int, str]:
    """Kubernetes order: GA before beta before alpha, newer first (v2, v1, v1beta2, v1alpha1)."""
    match = VERSION_RE.match(version)
    if not match:
        return (3, 0, 0, version)
    major, stage, minor = int(match[1]), match[2], int(match[3] or 0)
    rank = {None: 0, "beta": 1, "alpha": 2}[stage]
    return (rank, -major, -minor, version)
