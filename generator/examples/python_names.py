"""Names of the official ``kubernetes`` Python client for a whole spec (openapi-generator rules).

Client ``N.x`` is generated from Kubernetes ``1.N``; its generator changed twice, so the rules are
per client release (``ClientRules``, chosen by the spec's release label):

- clients 25-35 (openapi-generator ``python-legacy``): ``podIPs`` → ``pod_i_ps``; types
  ``list[T]``, ``dict(str, T)``; ``format: byte`` → ``str``.
- client 36: ``podIPs`` → ``pod_ips`` (an acronym splits only before a word of two or more lower-case
  letters); types ``list[T]``, ``dict[str, T]``.
- clients 37 on (pydantic models): names as 36; types ``List[T]``, ``Dict[str, T]``; ``format: byte``
  → ``bytes``.

Rules common to all:

- Class: the last two segments of the definition name, camel-cased (``v1alpha3.ResourceClaimStatus``
  → ``V1alpha3ResourceClaimStatus``); definitions that would collide take one more segment, until
  no two collide (``CoreV1EndpointPort`` / ``DiscoveryV1EndpointPort``). Decided over the whole spec.
- Definitions without properties have no class; they are inlined as their primitive.
- Attributes: openapi-generator's ``underscore``, ``$`` dropped (``$ref`` → ``ref``), reserved words
  prefixed with ``_`` (``_continue``).
- Types: ``str``, ``int``, ``float``, ``bool``, ``datetime``, ``object``, and the list/map forms above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.memo import render_memo
from generator.model.types import ApiSpec, Field, Model, TypeRef

RESERVED_WORDS = frozenset({
    # names the generated API methods use for locals, and the @property decorator
    "all_params", "resource_path", "path_params", "query_params", "header_params", "form_params",
    "local_var_files", "body_params", "auth_settings", "property",
    # Python keywords (of the Python 2 era, as the generator lists them)
    "and", "del", "from", "not", "is", "or", "yield", "while", "elif", "global", "as", "with",
    "if", "else", "import", "pass", "print", "class", "exec", "in", "raise", "continue",
    "finally", "try", "def", "for", "lambda", "return", "except", "break", "assert",
    "None", "True", "False",
})
_RELEASE = re.compile(r"^1\.(\d+)(?:$|[.-])")
_WORD_START = re.compile(r"([a-z\d])([A-Z])")
_ALL_UPPER = re.compile(r"^[A-Z_]*$")
_SEPARATORS = re.compile(r"[\[(.\-| /\\]")
_NON_WORD = re.compile(r"[^A-Za-z0-9_]")
_NAME_PARTS = re.compile(r"[^A-Za-z0-9]+")


@dataclass(frozen=True, slots=True)
class ClientRules:
    """What differs between client releases' generators."""

    first: int
    """The first client major release these rules name (up to the next rules' ``first``)."""
    acronym_word: re.Pattern[str]
    """``underscore``'s split between an acronym and the next word."""
    list_open: str
    list_close: str
    dict_open: str
    dict_close: str
    byte_type: str
    """The type of a ``format: byte`` string."""


LEGACY = ClientRules(0, re.compile(r"([A-Z]+)([A-Z][a-z])"), "list[", "]", "dict(str, ", ")", "str")
CLIENT_RULES = (
    LEGACY,
    ClientRules(36, re.compile(r"([A-Z]+)([A-Z][a-z][a-z]+)"), "list[", "]", "dict[str, ", "]", "str"),
    ClientRules(37, re.compile(r"([A-Z]+)([A-Z][a-z][a-z]+)"), "List[", "]", "Dict[str, ", "]", "bytes"),
)
"""By first client release; releases before 25 and labels that are not ``1.N`` use ``LEGACY``."""


def client_major(version: str) -> str:
    """Major version of the official Python client for a release (``1.31`` → ``31``), if any."""
    match = _RELEASE.match(version)
    return match.group(1) if match else ""


def client_rules(version: str) -> ClientRules:
    """The naming rules of the client of release ``version`` (``1.36`` → client 36's)."""
    major = client_major(version)
    if not major:
        return LEGACY
    return [r for r in CLIENT_RULES if r.first <= int(major)][-1]


@render_memo(16384)
def attribute_name(json_name: str, rules: ClientRules = LEGACY) -> str:
    """The client's attribute for a JSON property: ``reservedFor`` → ``reserved_for``.

    openapi-generator's ``sanitizeName`` (separators → ``_``, other non-word characters such as
    ``$`` dropped), then ``underscore``; leading ``_`` dropped, reserved words get one back."""
    name = json_name.replace("[]", "")
    name = _SEPARATORS.sub("_", name.replace("]", "").replace(")", ""))
    name = _NON_WORD.sub("", name)
    if _ALL_UPPER.match(name):
        name = name.lower()
    name = rules.acronym_word.sub(r"\1_\2", name)
    name = _WORD_START.sub(r"\1_\2", name)
    name = name.lower().lstrip("_")
    if name in RESERVED_WORDS or name[:1].isdigit() or not name:
        name = "_" + name
    return name


def camelize(dotted: str) -> str:
    """``core.v1.EndpointPort`` → ``CoreV1EndpointPort``."""
    return "".join(part[:1].upper() + part[1:] for part in _NAME_PARTS.split(dotted) if part)


def class_names(definitions: list[str]) -> dict[str, str]:
    """Definition name → short dotted name, with the least segments that keep all unique."""
    segments = dict.fromkeys(definitions, 2)
    while True:
        short = {name: ".".join(name.split(".")[-n:]) for name, n in segments.items()}
        seen: dict[str, list[str]] = {}
        for name, value in short.items():
            seen.setdefault(value, []).append(name)
        clashes = [name for names in seen.values() if len(names) > 1 for name in names]
        clashes = [n for n in clashes if segments[n] < n.count(".") + 1]
        if not clashes:
            return short
        for name in clashes:
            segments[name] += 1


@dataclass(frozen=True, slots=True)
class PythonType:
    """A client type as ``prefix`` + ``name`` + ``suffix``; ``ref`` is the class's definition."""

    prefix: str
    name: str
    suffix: str = ""
    ref: str = ""

    def __str__(self) -> str:
        return f"{self.prefix}{self.name}{self.suffix}"


@dataclass(frozen=True, slots=True)
class PythonAttribute:
    name: str
    field: Field
    type: PythonType


class PythonNames:
    """Client class, attribute and type names of every model of one spec."""

    def __init__(self, api: ApiSpec, rules: ClientRules | None = None) -> None:
        self.api = api
        self.rules = rules or client_rules(api.version)
        self._attributes: dict[str, str] = {}
        short = class_names(list(api.models))
        self.classes: dict[str, str] = {
            name: camelize(short[name]) for name, model in api.models.items()
            if model.shape == "object"
        }
        """Definition name → client class name (only models with properties)."""

    def class_name(self, name: str) -> str | None:
        return self.classes.get(name)

    def attribute(self, json_name: str) -> str:
        """The attribute of a JSON property under this client's rules."""
        name = self._attributes.get(json_name)
        if name is None:
            name = self._attributes[json_name] = attribute_name(json_name, self.rules)
        return name

    def type_of(self, t: TypeRef) -> PythonType:
        """The ``openapi_types`` string of a field type, split around the class it names."""
        if t.kind == "array" and t.items is not None:
            inner = self.type_of(t.items)
            return PythonType(self.rules.list_open + inner.prefix, inner.name,
                              inner.suffix + self.rules.list_close, inner.ref)
        if t.kind == "map" and t.items is not None:
            inner = self.type_of(t.items)
            return PythonType(self.rules.dict_open + inner.prefix, inner.name,
                              inner.suffix + self.rules.dict_close, inner.ref)
        if t.kind == "primitive":
            if t.type == "string" and t.format == "byte":
                return PythonType("", self.rules.byte_type)
            return PythonType("", _primitive(t.type, t.format))
        if t.kind == "quantity":
            return PythonType("", "str")
        if t.kind == "ref":
            if t.ref in self.classes:
                return PythonType("", self.classes[t.ref], "", t.ref)
            target = self.api.models.get(t.ref)
            if target is not None and target.scalar is not None:
                return self.type_of(target.scalar)
        return PythonType("", "object")

    def attributes(self, model: Model) -> list[PythonAttribute]:
        return [PythonAttribute(self.attribute(f.name), f, self.type_of(f.type)) for f in model.fields]

    def openapi_types(self, model: Model) -> dict[str, str]:
        """What the client class's ``openapi_types`` holds."""
        return {a.name: str(a.type) for a in self.attributes(model)}


def _primitive(json_type: str, fmt: str) -> str:
    if json_type == "string":
        return "datetime" if fmt == "date-time" else "str"
    return {"integer": "int", "number": "float", "boolean": "bool"}.get(json_type, "object")
