"""Read a JSON or YAML document from disk with a size cap and located errors."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from pathlib import Path
from typing import Any

import yaml

from generator.errors import Location, SpecError

MAX_SPEC_BYTES = 64 * 1024 * 1024
"""Upstream specs are ~4 MB; anything this large is refused rather than parsed."""


def read_bytes(path: Path, max_bytes: int = MAX_SPEC_BYTES) -> bytes:
    """The file's bytes, gunzipped when it ends in ``.gz``; refuses files over ``max_bytes``."""
    origin = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise SpecError(
                f"spec is {size:,} bytes, over the {max_bytes:,} byte limit", Location(origin)
            )
        data = path.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror or exc}", Location(origin)) from None
    if path.suffix == ".gz":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
                data = fh.read(max_bytes + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise SpecError(f"not a valid gzip file: {exc}", Location(origin)) from None
        if len(data) > max_bytes:
            raise SpecError(f"spec unpacks to over {max_bytes:,} bytes", Location(origin))
    return data



def parse_document(data: bytes, origin: str) -> Any:
    """Parse JSON (or YAML for ``.yaml``/``.yml``), naming the line on a syntax error."""
    name = origin.removesuffix(".gz")
    if not data.strip():
        raise SpecError("empty document", Location(origin))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(f"not UTF-8 text (byte {exc.start})", Location(origin)) from None
    if name.endswith((".yaml", ".yml")):
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
            problem = getattr(exc, "problem", None) or "invalid YAML"
            raise SpecError(f"invalid YAML at {where}: {problem}", Location(origin)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", Location(origin)
        ) from None
    except RecursionError:
        raise SpecError("JSON nested too deeply", Location(origin)) from None


def read_document(path: Path, max_bytes: int = MAX_SPEC_BYTES) -> tuple[Any, str]:
    """Parsed document and the sha256 of its bytes on disk."""
    data = read_bytes(path, max_bytes)
    return parse_document(data, str(path)), hashlib.sha256(data).hexdigest()
