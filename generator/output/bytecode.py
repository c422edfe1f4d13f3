"""Compiled templates kept on disk for the next process: Jinja's ``FileSystemBytecodeCache`` in a
directory made here, each entry written through ``atomic.atomic_write`` (a temporary file renamed
into place, with the mode ``open()`` gives: Jinja's own writer makes its entries 0600). The caller
picks the directory (``pipeline.cache.use_bytecode_cache``: one per compile settings)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket

from generator.atomic import atomic_write


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    def dump_bytecode(self, bucket: Bucket) -> None:
        data = io.BytesIO()
        bucket.write_bytecode(data)
        with contextlib.suppress(OSError):  # an unwritable cache only costs the compile time
            atomic_write(Path(self.directory) / (self.pattern % (bucket.key,)), data.getvalue())


def bytecode_cache(directory: Path) -> jinja2.BytecodeCache | None:
    """A bytecode cache in ``directory`` (created), or ``None`` when it cannot be created: an
    unwritable cache only costs the compile time."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _BytecodeCache(str(directory))
