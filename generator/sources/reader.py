"""Read a JSON or YAML document from disk with a size cap and located errors."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from pathlib import Path
from typing import Any

from generator.errors import Location, SpecError, pointer
from generator.sources.yaml_rules import json_key, json_value

MAX_SPEC_BYTES = 64 * 1024 * 1024
"""Upstream specs are ~4 MB; anything this large is refused rather than parsed."""
MAX_DATA_DEPTH = 200
"""Deeper YAML nesting than this is refused (real specs nest < 30 levels; JSON is bounded by the
parser and schemas by ``canonical.MAX_DEPTH``)."""


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


def plain_json_data(value: Any, origin: str) -> Any:
    """Check that a parsed YAML document is plain JSON data; scalar keys become strings and
    floats what ``encoding/json`` writes (``yaml_rules``: as kubectl reads YAML).

    Iterative (no recursion limit to hit) and bounded in depth, in document order; raises naming
    the JSON pointer of the first offending value.
    """
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, str, int]] = [(root, 0, "", 0)]
    while stack:
        parent, key, at, depth = stack.pop()
        item = parent[key]
        if depth > MAX_DATA_DEPTH:
            raise SpecError(f"document nested deeper than {MAX_DATA_DEPTH} levels", Location(origin, at))
        if isinstance(item, dict):
            if not all(isinstance(k, str) for k in item):
                item = {k if isinstance(k, str) else string_key(k, origin, at): v for k, v in item.items()}
                parent[key] = item
            stack.extend((item, k, at + pointer(k), depth + 1) for k in reversed(item))
        elif isinstance(item, list):
            stack.extend((item, i, at + pointer(i), depth + 1) for i in reversed(range(len(item))))
        elif type(item) is float:
            try:
                parent[key] = json_value(item)
            except ValueError as exc:
                raise SpecError(str(exc), Location(origin, at)) from None
        elif not isinstance(item, (str, int, bool, type(None))):
            raise SpecError(f"unsupported value of type {type(item).__name__}", Location(origin, at))
    return root[0]


def string_key(key: Any, origin: str, at: str) -> str:
    """A mapping key that is not a string, as kubectl makes it one (``yaml_rules.json_key``)."""
    try:
        return json_key(key)
    except ValueError as exc:
        raise SpecError(str(exc), Location(origin, at)) from None


def json_error_message(exc: json.JSONDecodeError, text: str) -> str:
    where = f"line {exc.lineno}, column {exc.colno}"
    if exc.msg.startswith("Unterminated string"):
        return f"invalid JSON at {where}: the document ends inside a string (truncated?)"
    if exc.pos >= len(text.rstrip()):
        return f"invalid JSON at {where}: the document ends early (truncated?)"
    return f"invalid JSON at {where}: {exc.msg}"


def parse_document(data: bytes, origin: str) -> Any:
    """Parse JSON (or YAML for ``.yaml``/``.yml``) into plain JSON data, naming the line on a
    syntax error."""
    name = origin.removesuffix(".gz")
    if not data.strip():
        raise SpecError(f"empty document ({len(data)} bytes)", Location(origin))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(f"not UTF-8 text (byte {exc.start})", Location(origin)) from None
    if name.endswith((".yaml", ".yml")):
        import yaml

        from generator.sources.yaml_loaders import FirstErrorLoader, StrictYamlLoader

        try:
            document = yaml.load(text, Loader=StrictYamlLoader)  # a SafeLoader subclass
        except yaml.YAMLError as error:
            found: yaml.YAMLError = error
            try:  # the first offending place in the text (PyYAML constructs breadth first)
                yaml.load(text, Loader=FirstErrorLoader)
            except yaml.YAMLError as first:
                found = first
            except RecursionError:
                pass
            mark = getattr(found, "problem_mark", None)
            where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
            problem = getattr(found, "problem", None) or "invalid YAML"
            raise SpecError(f"invalid YAML at {where}: {problem}", Location(origin)) from None
        except RecursionError:
            raise SpecError("YAML nested too deeply", Location(origin)) from None
        return plain_json_data(document, origin)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError(json_error_message(exc, text), Location(origin)) from None
    except RecursionError:
        raise SpecError("JSON nested too deeply", Location(origin)) from None
    except ValueError as exc:  # e.g. an integer with more digits than int() accepts
        raise SpecError(f"invalid JSON: {exc}", Location(origin)) from None
    return document  # already plain JSON data, nested no deeper than json could parse


def read_document(path: Path, max_bytes: int = MAX_SPEC_BYTES) -> tuple[Any, str]:
    """Parsed document and the sha256 of its bytes on disk."""
    data = read_bytes(path, max_bytes)
    return parse_document(data, str(path)), hashlib.sha256(data).hexdigest()
