"""The shipped data tables (``history.json.gz``, ``package_fields.json.gz``): JSON in gzip
without a timestamp, so that remaking one from the same facts gives the same bytes."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def encode(document: Mapping[str, Any]) -> str:
    """A table's JSON text: sorted keys, no spaces (deterministic)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def pack(text: str) -> bytes:
    """A data file's bytes for its JSON text."""
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def read(path: Path, format_version: int) -> dict[str, Any]:
    """The table in ``path``, or ``{}`` when it is missing, unreadable or of another format."""
    try:
        data = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == format_version else {}
