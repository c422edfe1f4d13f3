"""Values kept on disk as pickles for other processes: a directory of entries, each named by the
sha256 of its key and holding ``(key, value)``, under a subdirectory per ``namespace`` (a digest of
the code that made them, so other code never reads them). Written atomically (``writer``):
processes that race write the same bytes. An entry that cannot be read or is not a pickle of its
key counts as absent. Pickles run code when read: the directory must be as trusted as the code.
The caller decides what is kept (``pipeline.release_cache``)."""

from __future__ import annotations

import contextlib
import hashlib
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.errors import GeneratorError
from generator.output.writer import write_bytes


@dataclass(frozen=True)
class PickleStore:
    directory: Path
    namespace: str
    """The entries' subdirectory (its first 16 characters)."""

    def read(self, key: tuple[Any, ...]) -> tuple[bool, Any]:
        """``(True, value)`` of the entry of ``key`` when it is there and whole; else
        ``(False, None)``."""
        try:
            stored, value = pickle.loads(self._path(key).read_bytes())
        except Exception:  # missing, truncated, not a pickle of this code's classes: absent
            return False, None
        return (True, value) if stored == key else (False, None)

    def has(self, key: tuple[Any, ...]) -> bool:
        """Whether an entry of ``key`` is there (whole or not)."""
        return self._path(key).is_file()

    def write(self, key: tuple[Any, ...], value: Any) -> None:
        """Keep ``value`` as the entry of ``key`` (replacing one that could not be read); a store
        that cannot be written costs only the next process's work."""
        with contextlib.suppress(GeneratorError):
            write_bytes(self._path(key), pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL))

    def _path(self, key: tuple[Any, ...]) -> Path:
        name = f"{key[0]}-{hashlib.sha256(repr(key).encode()).hexdigest()}.pickle"
        return self.directory / self.namespace[:16] / name


def other_namespaces(directory: Path, namespace: str) -> list[Path]:
    """The entry directories below ``directory`` of namespaces other than ``namespace``."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.is_dir() and p.name != namespace[:16])
