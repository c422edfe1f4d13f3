"""Which releases a published site holds: presets and release ordering."""

from __future__ import annotations

import re

from generator.errors import UsageError
from generator.sources.jsonschema_pkg import available_versions

DEFAULT_RELEASES = ("1.31", "1.32")
PRESETS = ("default", "all")
_NUMBERS = re.compile(r"\d+")


def preset_versions(name: str) -> list[str]:
    """``default``: 1.31 + 1.32; ``all``: every release the installed kubernetes-validate ships."""
    if name == "default":
        return list(DEFAULT_RELEASES)
    if name == "all":
        return available_versions()
    raise UsageError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})")


def release_sort_key(version: str) -> tuple[tuple[int, ...], str]:
    """Orders ``1.9`` before ``1.10``; labels without numbers sort first, by text."""
    return tuple(int(n) for n in _NUMBERS.findall(version)), version


def newest_first(versions: list[str]) -> list[str]:
    return sorted(versions, key=release_sort_key, reverse=True)
