"""YAML read as kubectl reads it, for the tests' oracles, written out again from go-yaml v2 as
``sigs.k8s.io/yaml`` vendors it (``goyaml.v2/resolve.go`` and ``decode.go``: gopkg.in/yaml.v2
v2.4.0 plus one change, big integers; ``sigs.k8s.io/yaml`` turns YAML into JSON through it, then
``encoding/json``), independent of ``generator.sources.yaml_rules``: it imports nothing of
``generator``. PyYAML only parses; every plain scalar is resolved here.

go-yaml v2's ``resolve`` of a plain scalar, step by step:

1. ``resolveTable``: only a first character of ``+ -`` (sign), ``0-9`` (digit),
   ``y Y n N t T f F o O ~`` (word) or ``.`` is a hint; the empty scalar is a word too. Any other
   first character: the scalar is its text (so ``=`` and a ``<<`` value are strings).
2. ``resolveMap`` (looked up for every hinted scalar): ``y Y yes Yes YES true True TRUE on On ON``
   are true, ``n N no No NO false False FALSE off Off OFF`` false, ``"" ~ null Null NULL`` null,
   ``.nan .NaN .NAN`` NaN, ``.inf .Inf .INF +.inf +.Inf +.INF`` +∞, ``-.inf -.Inf -.INF`` -∞.
3. A word hint not in the map: text. A ``.`` hint: Go's ``strconv.ParseFloat`` of the text, else
   text.
4. A sign or digit hint: a timestamp (``2006-1-2`` …) is decoded into ``interface{}`` as its text
   (``decode.go``), as is anything else that is not a number. Underscores removed, then Go's
   ``strconv.ParseInt(s, 0, 64)``, then ``ParseUint(s, 0, 64)`` (base 0: ``0x``/``0o``/``0b``
   prefixes in either case, a leading ``0`` means octal), then a float if ``yamlStyleFloat``
   (``^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$``) matches and ``ParseFloat`` has no
   error (out of range is an error); ``0b``/``-0b`` binary; last, when ``ParseUint`` failed on
   the range only (an unsigned number beyond 64 bits that is no float: ``0x`` hex, octal,
   binary), ``big.Int``'s exact value. Otherwise text. So a decimal beyond 64 bits is a float
   (``99999999999999999999`` is 1e20).

Then ``encoding/json`` writes the value: a float64 in ``%f`` form below 1e21 (so ``1e3`` reads back
as the integer 1000) and refuses NaN and ±∞. Keys become strings (``convertToJSONableObject``):
``true``/``false``, ints in decimal, floats as Go's ``%g``; a null key is refused.

Where this differs from PyYAML's YAML 1.1 rules: ``y``/``n`` (booleans here), ``0o17`` (15),
``1e3`` (1000), ``08`` (8), ``1:20`` (text; PyYAML: 80, base 60), ``=`` (text; PyYAML: the
``value`` tag). Quoted and block scalars are text. Merge keys (``<<``) are applied by PyYAML's
composer (keys of the mapping win over merged ones), not in go-yaml's order: the corpus has none.
Explicit tags are not read here (the corpus has none either): one is refused, so that a file that
needs them cannot pass unread.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

_PLAIN = "tag:kubectl-yaml-oracle:plain"
_MERGE = "tag:yaml.org,2002:merge"
_HINTS = frozenset("+-0123456789yYnNtTfFoO~.")
_TRUE = ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
_FALSE = ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
_NULL = ("", "~", "null", "Null", "NULL")
_NAN = (".nan", ".NaN", ".NAN")
_INF = (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")
_MINUS_INF = ("-.inf", "-.Inf", "-.INF")
_YAML_STYLE_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INT64 = (-(2**63), 2**63 - 1)
_UINT64 = (0, 2**64 - 1)


class NotKubectlJson(ValueError):
    """What kubectl refuses to turn into JSON."""


def _parse_go_uint(text: str, base: int) -> int | None:
    """Go's ``strconv.ParseUint(text, base, 64)`` for base 0 (prefixes) or an explicit base,
    unbounded (the caller checks the range)."""
    if base == 0:
        lower = text[:2].lower()
        if lower == "0x":
            base, text = 16, text[2:]
        elif lower == "0o":
            base, text = 8, text[2:]
        elif lower == "0b":
            base, text = 2, text[2:]
        elif text[:1] == "0" and len(text) > 1:
            base, text = 8, text[1:]
        else:
            base = 10
    if not text:
        return None
    digits = "0123456789abcdef"[:base]
    if any(c.lower() not in digits for c in text):
        return None
    return int(text, base)


def _parse_go_int(text: str, base: int, bounds: tuple[int, int]) -> int | None:
    """Go's ``ParseInt`` (a sign, then ``ParseUint``) or ``ParseUint`` (no sign) within ``bounds``."""
    negative = False
    if bounds[0] < 0 and text[:1] in ("+", "-"):
        negative, text = text[0] == "-", text[1:]
    value = _parse_go_uint(text, base)
    if value is None:
        return None
    value = -value if negative else value
    return value if bounds[0] <= value <= bounds[1] else None


def _parse_go_float(text: str) -> float | None:
    """Go's ``strconv.ParseFloat(text, 64)`` for decimal text: None on a syntax or range error."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def go_yaml_v2_resolve(text: str) -> Any:
    """A plain scalar's value as go-yaml v2 decodes it into ``interface{}`` (floats as float)."""
    hint = text[0] if text else "~"
    if hint not in _HINTS:
        return text
    for words, value in ((_TRUE, True), (_FALSE, False), (_NULL, None), (_NAN, math.nan),
                         (_INF, math.inf), (_MINUS_INF, -math.inf)):
        if text in words:
            return value
    if hint == ".":
        if re.fullmatch(r"\.[0-9]+([eE][-+]?[0-9]+)?", text):
            number = _parse_go_float(text)
            if number is not None:
                return number
        return text
    if hint not in "+-0123456789":
        return text
    plain = text.replace("_", "")
    for bounds in (_INT64, _UINT64):
        number = _parse_go_int(plain, 0, bounds)
        if number is not None:
            return number
    if _YAML_STYLE_FLOAT.match(plain):
        value = _parse_go_float(plain)
        if value is not None:
            return value
    if plain.startswith("0b"):
        for bounds in (_INT64, _UINT64):
            number = _parse_go_int(plain[2:], 2, bounds)
            if number is not None:
                return number
    elif plain.startswith("-0b"):
        number = _parse_go_int("-" + plain[3:], 2, _INT64)
        if number is not None:
            return number
    unsigned = _parse_go_uint(plain, 0) if plain[:1] not in ("+", "-") else None
    if unsigned is not None and unsigned > _UINT64[1]:  # ParseUint's range error: big.Int
        return unsigned
    return text


def encoding_json(value: Any) -> Any:
    """``value`` as ``encoding/json`` writes it, read back: a float with no fraction below 1e21
    is written without a point (an int when read back); NaN and ±∞ are refused."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotKubectlJson(f"json: unsupported value: {value}")
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
    return value


def _go_format_g(value: float) -> str:
    """Go's ``strconv.FormatFloat(value, 'g', -1, 64)``: the shortest digits that read back,
    ``%e`` form when the exponent is below -4 or at least 6 (two-digit exponent at least)."""
    if value == 0:
        return "-0" if math.copysign(1, value) < 0 else "0"
    text = next(t for t in (f"{value:.{d}e}" for d in range(17)) if float(t) == value)  # shortest
    mantissa, _, exponent = text.partition("e")
    exp = int(exponent)
    sign = "-" if mantissa.startswith("-") else ""
    figures = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    if exp < -4 or exp >= 6:
        body = figures[0] + ("." + figures[1:] if len(figures) > 1 else "")
        return f"{sign}{body}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if exp < 0:
        return f"{sign}0.{'0' * (-exp - 1)}{figures}"
    whole = figures.ljust(exp + 1, "0")
    return sign + whole[:exp + 1] + ("." + whole[exp + 1:] if len(whole) > exp + 1 else "")


def json_key(value: Any) -> str:
    """A decoded mapping key as ``convertToJSONableObject`` makes it a string."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _go_format_g(value)
    raise NotKubectlJson(f"unsupported map key of type: {type(value).__name__}")


class _Loader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):  # type: ignore[misc]
    """PyYAML's parser and composer (libyaml's where installed); every plain scalar tagged for
    ``go_yaml_v2_resolve``."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is yaml.ScalarNode and implicit[0]:
            return _MERGE if value == "<<" else _PLAIN
        return super().resolve(kind, value, implicit)

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.ScalarNode) and node.tag not in (_PLAIN, _MERGE,
                                                                   "tag:yaml.org,2002:str"):
            raise NotKubectlJson(f"explicit tag {node.tag} at line {node.start_mark.line + 1}: "
                                 "not read by this oracle")
        return super().construct_object(node, deep)

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[str, Any]:
        """Keys made JSON strings as they are read (``1`` and ``true`` are two keys, not one)."""
        self.flatten_mapping(node)
        return {json_key(self.construct_object(k, deep=deep)): self.construct_object(v, deep=deep)
                for k, v in node.value}


_Loader.yaml_implicit_resolvers = {}
_Loader.add_constructor(_PLAIN, lambda loader, node: go_yaml_v2_resolve(node.value))
_Loader.add_constructor(_MERGE, lambda loader, node: "<<")  # a << value is its text


def as_json(value: Any) -> Any:
    """A decoded document as ``sigs.k8s.io/yaml`` hands it to ``encoding/json``, read back."""
    if isinstance(value, dict):
        return {json_key(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    return encoding_json(value)


def load_all(text: str) -> Iterator[Any]:
    """Every document of ``text`` as kubectl reads it (JSON data)."""
    for document in yaml.load_all(text, Loader=_Loader):
        yield as_json(document)


def load_file(path: Path) -> list[Any]:
    return list(load_all(path.read_text(encoding="utf-8")))
