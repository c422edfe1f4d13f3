"""Loaded releases kept on disk for the other processes of one ``build-site`` run: each release's
``mkdocs build`` loads every release of the site (the versions feature compares them), so the
first process to load a release leaves its normalized model, and its plan, index and format as a
sibling, for the others.

An entry's key is the release's source digest (``load.release_digest``), its label and sources,
the load settings, and a digest of this package's code and the Python version (``code_digest``,
also the entries' directory), so a code change never reuses an entry made by other code. An entry
that cannot be read, is not a pickle of the expected key or is of another shape counts as absent.
What is kept and under which key is decided here; the pickles on disk are ``output.pickles``'s
(atomic writes; the cache directory must be as trusted as the code, like Jinja's compiled
templates beside it).
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.analysis.timeline import ReleaseIndex
from generator.errors import Diagnostic
from generator.model.types import ApiSpec
from generator.output.pickles import PickleStore, other_namespaces
from generator.pipeline.cache import tree_digest
from generator.views.site import SitePlan

_PACKAGE = Path(__file__).resolve().parents[1]
"""The ``generator`` package: its files are the code that makes an entry."""


@cache
def code_digest() -> str:
    """Digest of this package's files and the Python version (once per process)."""
    return hashlib.sha256(f"{tree_digest([_PACKAGE])}\0{sys.version}".encode()).hexdigest()


@dataclass(frozen=True)
class LoadedApi:
    """A release's model as loaded (``load.load_api``, its groups selected) and what loading it
    reported."""

    api: ApiSpec
    diagnostics: list[Diagnostic]


@dataclass(frozen=True)
class Sibling:
    """What a release published beside the rendered one lends to its pages unless their change
    pages or field histories compare with it: its plan (in its own release directory), its
    index for the timeline and its model's ``ApiSpec.format`` (the title)."""

    plan: SitePlan
    index: ReleaseIndex
    api_format: str


@dataclass(frozen=True)
class ReleaseCache:
    directory: Path

    def read(self, kind: str, key: tuple[Any, ...], shape: type | tuple[type, ...]) -> Any:
        """The entry of ``kind`` and ``key`` when it is there, whole, and a ``shape``; else None."""
        found, value = self._store().read((kind, code_digest(), *key))
        return value if found and isinstance(value, shape) else None

    def has(self, kind: str, key: tuple[Any, ...]) -> bool:
        """Whether an entry of ``kind`` and ``key`` is there (whole or not)."""
        return self._store().has((kind, code_digest(), *key))

    def write(self, kind: str, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` as the entry of ``kind`` and ``key`` (replacing one that could not be
        read); a cache that cannot be written costs only the next process's load."""
        self._store().write((kind, code_digest(), *key), value)

    def _store(self) -> PickleStore:
        return PickleStore(self.directory, code_digest())


def stale_entries(directory: Path) -> list[Path]:
    """The entry directories below ``directory`` made by other code (``build-site`` removes
    them: no build of this code reads them)."""
    return other_namespaces(directory, code_digest())
