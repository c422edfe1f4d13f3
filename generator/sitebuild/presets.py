"""Which releases a published site holds: presets and release ordering."""

from __future__ import annotations

from typing import Literal, get_args

from generator.errors import UsageError
from generator.model.ordering import release_sort_key
from generator.sources import available_versions
from generator.sources.upstream import known_releases

DEFAULT_RELEASES = ("1.31", "1.32")
Preset = Literal["default", "all"]
PRESETS: tuple[Preset, ...] = get_args(Preset)


def preset_versions(name: str, kind: str = "bundled") -> list[str]:
    """``default``: 1.31 + 1.32; ``all``: every release the installed kubernetes-validate ships
    (``kind="upstream"``: every release whose upstream swagger.json digest this tool ships)."""
    if name == "default":
        return list(DEFAULT_RELEASES)
    if name == "all":
        return known_releases() if kind == "upstream" else available_versions()
    raise UsageError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")


def newest_first(versions: list[str]) -> list[str]:
    return sorted(versions, key=release_sort_key, reverse=True)
