"""How a YAML scalar becomes JSON data, the way kubectl and the API server read it: the one
table both CRD loaders use (``fast_yaml`` for the libyaml events, ``yaml_loaders`` for PyYAML's
constructor, the slow path and the reader of YAML specs).

kubectl (``apply``/``create -f``) and the API server turn YAML into JSON with
``sigs.k8s.io/yaml.YAMLToJSON`` (every release up to v1.6.0 decodes with go-yaml v2:
``go.yaml.in/yaml/v2``, before that ``sigs.k8s.io/yaml/goyaml.v2``) and then ``encoding/json``.
go-yaml v2's ``resolve.go`` (``resolveTable``/``resolveMap``/``resolve``) is neither PyYAML's
YAML 1.1 resolver nor YAML 1.2's core schema. Encoded here, with where it differs from PyYAML:

- ``resolveMap``: exact words. ``y Y yes Yes YES true True TRUE on On ON`` → true (PyYAML: not
  ``y``/``Y``), ``n N no No NO false False FALSE off Off OFF`` → false (PyYAML: not ``n``/``N``),
  ``"" ~ null Null NULL`` → null, ``.inf``/``.nan`` and their spellings → floats that
  ``encoding/json`` cannot write (``json: unsupported value: +Inf``): refused, as kubectl does.
- Only a first character that ``resolveTable`` hints at (``+ - 0-9 . y Y n N t T f F o O ~``) is
  tried further; anything else is a string: ``=`` (PyYAML 1.1: the ``value`` tag, which its
  constructor refuses) and ``<<`` as a value (PyYAML: the ``merge`` tag) are strings. A plain
  ``<<`` KEY is a merge (go-yaml's ``isMerge``), as in PyYAML.
- Digits and signs: ``_`` removed, then Go's ``strconv.ParseInt(s, 0, 64)`` (``0x1F``, ``0o17``
  and ``0b101`` prefixes, a leading ``0`` is octal: ``0755`` = 493; PyYAML reads ``0o17`` as a
  string) or ``ParseUint``; else a float if it matches ``yamlStyleFloat`` (``1e3`` = 1000 and
  ``08`` = 8: PyYAML reads both as strings, it needs a dot and a signed exponent; a decimal beyond
  64 bits too: ``99999999999999999999`` = 1e20); else, unsigned beyond 64 bits (``0x``…),
  ``big.Int`` (``sigs.k8s.io/yaml``'s ``goyaml.v2``); no base-60 numbers (``1:20`` stays a
  string, PyYAML: 80); a timestamp (``2001-12-14``) decoded into ``interface{}`` is its text
  (``decode.go``).
- A leading ``.``: Go's ``strconv.ParseFloat`` (``.5`` = 0.5).
- ``encoding/json`` then writes a float with no fraction below 1e21 as an integer: ``1.0`` is
  ``1``. Keys become strings (``convertToJSONableObject``): ints in decimal, floats in Go's
  ``%g``, booleans ``true``/``false``; a null key is refused.
- Explicit tags: ``!!str``/``!!int``/``!!float``/``!!bool``/``!!null``/``!!timestamp`` resolve
  the text and must agree (``!!int abc`` is refused; ``!!float 1`` is a number), ``!!binary`` is
  decoded base64; any other tag is ignored (a scalar is then its text).

Aliases and merge keys are structure, not scalars: ``fast_yaml`` expands and applies them as
go-yaml v2 does (its alias ratio refuses a "billion laughs"); see ``docs/crd-pages.md``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from decimal import Decimal
from typing import Any

STR = "tag:yaml.org,2002:str"
MERGE = "tag:yaml.org,2002:merge"
PLAIN = "tag:k8s-api-docs,2026:plain"
"""The tag the PyYAML loaders give every plain scalar: its constructor applies ``resolve_plain``."""
_CORE = "tag:yaml.org,2002:"

WORDS: dict[str, Any] = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"),
                    False),
    **dict.fromkeys(("", "~", "null", "Null", "NULL"), None),
    **dict.fromkeys((".nan", ".NaN", ".NAN"), math.nan),
    **dict.fromkeys((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"), math.inf),
    **dict.fromkeys(("-.inf", "-.Inf", "-.INF"), -math.inf),
}
"""go-yaml v2's ``resolveMap`` (``<<`` aside: a merge only as a key, see the module docstring)."""
_GO_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
"""go-yaml v2's ``yamlStyleFloat``."""
_DOT_FLOAT = re.compile(r"\.[0-9]+([eE][-+]?[0-9]+)?")
"""What Go's ``strconv.ParseFloat`` accepts that starts with a dot."""
_DIGITS = {16: frozenset("0123456789abcdefABCDEF"), 10: frozenset("0123456789"),
           8: frozenset("01234567"), 2: frozenset("01")}


class NotJson(ValueError):
    """A scalar kubectl refuses (``.inf``, ``.nan``, ``!!int abc``); the message says why."""


def _go_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)`` / ``ParseUint`` / ``big.Int.SetString(text, 0)``."""
    body = text[1:] if text[:1] in "+-" else text
    low = body[:2].lower()
    if low in ("0x", "0b", "0o"):
        base, digits = {"0x": 16, "0b": 2, "0o": 8}[low], body[2:]
    elif body.startswith("0") and len(body) > 1:
        base, digits = 8, body[1:]
    else:
        base, digits = 10, body
    if not digits or not set(digits) <= _DIGITS[base]:
        return None
    value = int(digits, base)
    return -value if text.startswith("-") else value


def _number(value: float) -> int | float:
    """What ``encoding/json`` writes for a float, read back: no fraction below 1e21 → an int."""
    if not math.isfinite(value):
        raise NotJson(f"{go_float_g(value)} is not a JSON number (kubectl refuses it too: "
                      f"json: unsupported value)")
    return int(value) if value.is_integer() and abs(value) < 1e21 else value


def _resolve(text: str) -> tuple[str, Any]:
    """go-yaml v2's ``resolve`` of ``text``: (tag name, value before ``encoding/json``)."""
    if text in WORDS:
        value = WORDS[text]
        return ("null" if value is None else "bool" if isinstance(value, bool) else "float"), value
    first = text[0] if text else ""
    if first == ".":
        if _DOT_FLOAT.fullmatch(text) and math.isfinite(float(text)):
            return "float", float(text)
    elif first in _SIGNED:
        if _TIMESTAMP.fullmatch(text):
            return "timestamp", text  # decoded into interface{}: its text (decode.go)
        plain = text.replace("_", "")
        number = _go_int(plain)
        signed = plain[0] in "+-"  # ParseInt only: 64 bits with the sign; ParseUint: unsigned
        if number is not None and _INT64_MIN <= number <= (_INT64_MAX if signed else _UINT64_MAX):
            return "int", number
        # an overflow is a range error in Go's ParseFloat: the text stays a string
        if _GO_FLOAT.fullmatch(plain) and math.isfinite(float(plain)):
            return "float", float(plain)
        if number is not None and number > _UINT64_MAX and not signed:
            return "int", number  # ParseUint's range error, no float: big.Int (hex, octal, binary)
    return "str", text  # words (``yes`` …) were looked up above; other first characters: text


_SIGNED = frozenset("+-0123456789")
_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(2**63), 2**63 - 1, 2**64 - 1


def resolve_plain(text: str, *, raw: bool = False) -> Any:
    """The JSON value of a plain (unquoted, untagged) scalar, as kubectl reads it. ``raw``: a
    float as go-yaml makes it, before ``encoding/json`` (``json_value``; keys need it)."""
    tag, value = _resolve(text)
    if tag != "float":
        return value
    if not math.isfinite(value) and not raw:
        _number(value)
    return value if raw else _number(value)


def json_value(value: Any) -> Any:
    """A float as ``encoding/json`` writes it, read back (``1.0`` → ``1``); other values as
    they are. Refuses what it cannot write (``.inf``)."""
    return _number(value) if type(value) is float else value


def resolve_tagged(tag: str, text: str) -> Any:
    """The value of a scalar with an explicit tag (``!!int "7"``), as go-yaml v2 reads it (a
    float before ``json_value``)."""
    if not tag.startswith(_CORE):
        return text  # "!", "!custom": go-yaml v2 ignores the tag
    name = tag[len(_CORE):]
    if name == "binary":
        try:
            data = base64.b64decode("".join(text.split()), validate=True)
        except (binascii.Error, ValueError):
            raise NotJson("!!binary value contains invalid base64 data") from None
        return data.decode("utf-8", "replace")
    if name not in ("int", "float", "bool", "null", "timestamp"):
        return text  # !!str, and tags go-yaml v2 ignores (!!set, !!omap…)
    found, value = _resolve(text)
    if found == name or (name == "float" and found == "int"):
        return float(value) if name == "float" else value
    raise NotJson(f"cannot decode !!{found} `{text}` as a !!{name}")


_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}"
                        r"(\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?")
"""go-yaml v2's ``parseTimestamp`` (its four layouts)."""


def json_key(value: Any) -> str:
    """A resolved mapping key as ``convertToJSONableObject`` makes it a string; ``ValueError``
    for a null key (kubectl: "unsupported map key of type: <nil>")."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float_g(value)
    if value is None:
        raise ValueError("a null key is not allowed (kubectl: unsupported map key of type <nil>)")
    raise ValueError(f"unsupported object key of type {type(value).__name__}")


def go_float_g(value: float) -> str:
    """Go's ``strconv.FormatFloat(value, 'g', -1, 64)``, with YAML's names for the non-finite."""
    if math.isnan(value):
        return ".nan"
    if math.isinf(value):
        return ".inf" if value > 0 else "-.inf"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0"
    digits_tuple, exponent = Decimal(repr(abs(value))).as_tuple()[1:]
    digits = "".join(map(str, digits_tuple)).rstrip("0")
    assert isinstance(exponent, int)
    point = len(digits_tuple) + exponent  # digits before the decimal point
    exp = point - 1
    if exp < -4 or exp >= 6:  # shortest: %e from an exponent of 6 (Go's eprec)
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if exp < 0 else '+'}{abs(exp):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"
