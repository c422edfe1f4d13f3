"""Compiled templates kept on disk for the next process: Jinja's ``FileSystemBytecodeCache`` (it
writes each entry to a temporary file and renames it into place) in a directory made here. The
caller picks the directory (``pipeline.cache.use_bytecode_cache``: one per compile settings)."""

from __future__ import annotations

from pathlib import Path

import jinja2


def bytecode_cache(directory: Path) -> jinja2.BytecodeCache | None:
    """A bytecode cache in ``directory`` (created), or ``None`` when it cannot be created: an
    unwritable cache only costs the compile time."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(str(directory))
