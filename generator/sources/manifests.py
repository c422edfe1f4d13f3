"""Kubernetes objects of manifest files with the line of every key, for ``scan``.

Files, directories (their ``.yaml``/``.yml``/``.json`` files, as ``crd.manifest_files`` lists
them) or ``-`` (standard input). YAML is read with the project's strict loader
(``yaml_loaders.FastLoader``: the same implicit tags and scalar constructors as every other YAML
this tool reads, then ``reader.plain_json_data`` as for every YAML document); only the compose step is
our own, so that each key keeps its line. JSON is parsed
by ``json`` (its exact semantics) and composed as YAML only for the lines. Aliases and merge
keys load as kubectl reads them (``fast_yaml``: go-yaml v2's order and alias ratio); the keys of
aliased or merged content carry the line where that content is written. A ``List`` (or any
``*List`` kind with ``items``) is unpacked into its items, as kubectl does.

Bad input is one ``SpecError`` naming the file: not UTF-8, not YAML/JSON, a document that is a
plain value (a text file read as YAML), excessive aliasing (go-yaml's ratio), a Helm template (``{{ … }}``
outside prose and ``data``: ``HelmTemplateSyntax``). An array item that is not an object is
returned as one too (``scan`` reports it: not fatal).

``collect`` reads what a repository holds, as ``scan`` does: Helm chart templates (under a chart's
``templates/``, or with template syntax) are not read but listed, with the line of their first
template action; files that are YAML but no Kubernetes manifest (``Chart.yaml``, ``values*.yaml``,
``kustomization.yaml``, pre-commit and GitHub workflow files, YAML without ``apiVersion`` and
``kind``) are skipped with the reason; ``--exclude`` globs leave files out.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import Location, SpecError, UsageError
from generator.sources.crd import manifest_files, template_line
from generator.sources.fast_yaml import allowed_alias_ratio
from generator.sources.reader import (
    MAX_DATA_DEPTH,
    MAX_SPEC_BYTES,
    json_error_message,
    plain_json_data,
    read_bytes,
    string_key,
)

STDIN = "-"
_STR = "tag:yaml.org,2002:str"
KeyPath = tuple[str | int, ...]
"""A position in an object: keys and array indexes (``("spec", "containers", 0, "image")``)."""

_TEMPLATE = re.compile(r"\{\{-?\s*(?:[.$]|(?:include|template|if|else|end|range|with|toYaml|"
                       r"tpl|default|quote|required|printf|lookup)\b).*?\}\}", re.DOTALL)
"""A Go-template action of a Helm chart (``{{ .Values.x }}``, ``{{- include "x" . }}``)."""
_TEMPLATE_LINE = re.compile(r"^\s*\{\{-?\s", re.MULTILINE)
_FREE_TEXT = frozenset({"data", "stringData", "binaryData", "annotations", "description",
                        "message", "messageExpression", "rule"})
"""Keys whose values may hold Go templates of their own (a ConfigMap of alerting templates)."""


@dataclass(frozen=True)
class ManifestObject:
    """One object of a manifest (a document, or one item of a ``List``)."""

    file: str
    """As given (``-`` for standard input), a directory's files below it."""
    document: int
    """1-based document number in the file."""
    data: Any
    lines: dict[KeyPath, int] = field(default_factory=dict, repr=False)
    """Line (1-based) of each key and array item, by its path in the object."""
    line: int = 1
    """Where the object starts."""
    duplicates: dict[KeyPath, int] = field(default_factory=dict, repr=False)
    """Keys given twice in one mapping: the line of the repeat (the last value is kept)."""

    def line_of(self, path: KeyPath) -> int:
        """Line of the key at ``path``, or of its nearest ancestor with one."""
        while path:
            found = self.lines.get(path)
            if found is not None:
                return found
            path = path[:-1]
        return self.line

    @property
    def api_version(self) -> Any:
        return self.data.get("apiVersion") if isinstance(self.data, dict) else None

    @property
    def kind(self) -> Any:
        return self.data.get("kind") if isinstance(self.data, dict) else None

    @property
    def name(self) -> str:
        meta = self.data.get("metadata") if isinstance(self.data, dict) else None
        name = meta.get("name") if isinstance(meta, dict) else None
        if not isinstance(name, str) and isinstance(meta, dict):
            name = meta.get("generateName")
        return name if isinstance(name, str) else ""


class HelmTemplateSyntax(SpecError):
    """A file holding Helm template syntax (``{{ .Values.x }}``): not a manifest until rendered."""

    def __init__(self, line: int, origin: str, document: int = 0) -> None:
        where = f"{origin} (document {document + 1})" if document else origin
        super().__init__(f"Helm template syntax {{{{ … }}}} at line {line}: render the chart "
                         "first (helm template), then scan its output", Location(where))
        self.line = line


def input_files(paths: Sequence[str], exclude: Sequence[str] = ()) -> list[str]:
    """Files to read, in order: each file as given, each directory's manifest files, ``-``;
    none that an ``exclude`` glob matches (``excluded``)."""
    return [name for name, relative, _ in _listed(paths)
            if not excluded(name, relative, exclude)]


def _listed(paths: Sequence[str]) -> Iterator[tuple[str, str, bool]]:
    """(file, its path relative to the directory given or as given, whether it was given by
    name) of every input."""
    for given in paths:
        if given == STDIN:
            yield STDIN, STDIN, True
            continue
        path = Path(given)
        if path.is_dir():
            for p in manifest_files(path):
                yield str(p), p.relative_to(path).as_posix(), False
        elif path.is_file():
            yield given, Path(given).as_posix(), True
        else:
            raise UsageError(f"{given}: no such file or directory")


def excluded(name: str, relative: str, globs: Sequence[str]) -> bool:
    """Whether a glob matches the file (its path as listed, or relative to the directory given,
    ``./`` left out) or a directory it is in: ``vendor``, ``charts/*/values.yaml``, ``*.json``.
    ``*`` matches across ``/`` (``fnmatch``)."""
    if not globs or name == STDIN:
        return False
    candidates: set[str] = set()
    for path in (Path(name).as_posix(), relative):
        parts = [p for p in path.split("/") if p not in ("", ".")]
        candidates.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
        candidates.add(parts[-1] if parts else path)
    return any(fnmatch.fnmatchcase(c, g.strip("/").removeprefix("./"))
               for g in globs for c in candidates)


_NOT_MANIFESTS: tuple[tuple[str, str], ...] = (
    ("Chart.yaml", "a Helm chart's Chart.yaml"),
    ("Chart.yml", "a Helm chart's Chart.yaml"),
    ("values*.yaml", "Helm values"),
    ("values*.yml", "Helm values"),
    ("values*.json", "Helm values"),
    ("kustomization.yaml", "a kustomization (kustomize build DIR | k8s-api-docs scan - checks "
                           "what it makes)"),
    ("kustomization.yml", "a kustomization (kustomize build DIR | k8s-api-docs scan - checks "
                          "what it makes)"),
    (".pre-commit-config.yaml", "pre-commit configuration"),
    (".pre-commit-hooks.yaml", "pre-commit hook definitions"),
    (".gitlab-ci.yml", "GitLab CI configuration"),
    ("action.yml", "a GitHub Action"),
    ("action.yaml", "a GitHub Action"),
)
"""File names (globs) of YAML that is no Kubernetes manifest although it may hold ``apiVersion``
or ``kind`` (a chart's ``apiVersion: v2``, kustomize's own kind)."""


def not_a_manifest(name: str) -> str:
    """Why the file ``name`` is known not to be a manifest by its name and place (``""``: it may
    be one)."""
    if name == STDIN:
        return ""
    path = Path(name)
    for pattern, why in _NOT_MANIFESTS:
        if fnmatch.fnmatchcase(path.name, pattern):
            return why
    parts = path.parts
    if ".github" in parts and parts.index(".github") < len(parts) - 1:
        return ("a GitHub workflow" if "workflows" in parts[parts.index(".github"):]
                else "GitHub configuration")
    return ""


def chart_of(name: str) -> str:
    """The chart directory of a file under a chart's ``templates/`` (a directory whose parent has
    ``Chart.yaml``), else ``""``."""
    if name == STDIN:
        return ""
    for parent in Path(name).parents:
        if parent.name == "templates" and (parent.parent / "Chart.yaml").is_file():
            return str(parent.parent)
    return ""


@dataclass(frozen=True)
class FileRead:
    """What one input file is: its objects, or a Helm template (``template_line``), or skipped."""

    file: str
    objects: list[ManifestObject] = field(default_factory=list)
    template_line: int = 0
    """The line of the first template action of a Helm template (1 when none is found)."""
    chart: str = ""
    """The chart directory of a template under a chart's ``templates/``."""
    skipped: str = ""
    """Why the file was left out: no manifest (its name, or no ``apiVersion``/``kind``), or
    ``excluded``."""

    @property
    def is_template(self) -> bool:
        return self.template_line > 0


_MANIFEST_KEY = re.compile(r'^\s*(?:-\s+)?"?(?:apiVersion|kind)"?\s*:', re.MULTILINE)


def collect(paths: Sequence[str], exclude: Sequence[str] = (), stdin: Any = None
            ) -> list[FileRead]:
    """Every input file in order (``input_files``), read as ``scan`` reads a repository. A file
    of a directory that is not YAML this tool reads and has no ``apiVersion`` or ``kind`` key is
    skipped; a file given by name is bad input then (``SpecError``)."""
    out: list[FileRead] = []
    for name, relative, named in _listed(paths):
        if excluded(name, relative, exclude):
            out.append(FileRead(name, skipped="excluded (--exclude)"))
            continue
        why = not_a_manifest(name)
        if why:
            out.append(FileRead(name, skipped=why))
            continue
        chart = chart_of(name)
        data = stdin.read() if name == STDIN and stdin is not None else (
            b"" if name == STDIN else read_bytes(Path(name)))
        if chart:
            out.append(FileRead(name, template_line=_template_line(data), chart=chart))
            continue
        try:
            objects = read_objects(name, data)
        except HelmTemplateSyntax as exc:
            out.append(FileRead(name, template_line=exc.line))
            continue
        except SpecError:
            if named or _MANIFEST_KEY.search(data.decode("utf-8", "replace")):
                raise
            out.append(FileRead(name, skipped="not YAML this tool reads, and no apiVersion or "
                                              "kind in it"))
            continue
        if objects and not any(isinstance(o.data, dict) and ("apiVersion" in o.data
                                                             or "kind" in o.data)
                               for o in objects):
            out.append(FileRead(name, skipped="no Kubernetes object (no apiVersion or kind)"))
            continue
        out.append(FileRead(name, objects))
    return out


def _template_line(data: bytes) -> int:
    """The line of the first Go-template action in ``data``, 1 when there is none."""
    lines = data.decode("utf-8", "replace").splitlines()
    for test in (_TEMPLATE.search, lambda line: "{{" in line):
        found = next((n for n, line in enumerate(lines, 1) if test(line)), 0)
        if found:
            return found
    return 1


def _refuse_template_text(text: str, origin: str) -> None:
    """A file YAML cannot parse because it is a Helm template: say so, with the line."""
    found = template_line(text, _TEMPLATE)
    if found is not None:
        raise HelmTemplateSyntax(found[0], origin, found[1])


def read_objects(origin: str, data: bytes) -> list[ManifestObject]:
    """The objects of one file's bytes (``origin`` names it in messages)."""
    if len(data) > MAX_SPEC_BYTES:
        raise SpecError(f"input is {len(data):,} bytes, over the {MAX_SPEC_BYTES:,} byte limit",
                        Location(origin))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SpecError(f"not UTF-8 text (byte {exc.start})", Location(origin)) from None
    if not text.strip():
        return []
    start = text.lstrip()[:1]
    if start == "{" or (start == "[" and origin.lower().endswith(".json")):
        return _json_objects(text, origin)
    return [obj for number, value, lines, line, duplicates in _yaml_documents(text, origin)
            for obj in _unpack(origin, number, value, lines, line, duplicates)]


def read_file(origin: str, stdin: Any = None) -> list[ManifestObject]:
    """The objects of file ``origin`` (``-``: ``stdin``'s bytes)."""
    if origin == STDIN:
        return read_objects(STDIN, stdin.read() if stdin is not None else b"")
    return read_objects(origin, read_bytes(Path(origin)))


def _json_objects(text: str, origin: str) -> list[ManifestObject]:
    """A stream of JSON values (kubectl reads any input that starts with ``{`` so: one object,
    or several one after the other), each composed again as YAML for the lines of its keys."""
    decoder = json.JSONDecoder()
    out: list[ManifestObject] = []
    at, number = _skip_space(text, 0), 0
    while at < len(text):
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise SpecError(json_error_message(exc, text), Location(origin)) from None
        except (RecursionError, ValueError) as exc:
            raise SpecError(f"invalid JSON: {exc}", Location(origin)) from None
        number += 1
        first = text.count("\n", 0, at)
        try:  # JSON is YAML: composed again only for the lines of its keys
            (_, _, lines, line, duplicates), = _yaml_documents(text[at:end], origin)
            lines = {path: first + n for path, n in lines.items()}
            duplicates = {path: first + n for path, n in duplicates.items()}
            line += first
        except (SpecError, ValueError):
            lines, line, duplicates = {}, first + 1, {}
        out.extend(_unpack(origin, number, value, lines, line, duplicates))
        at = _skip_space(text, end)
    return out


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _unpack(origin: str, number: int, value: Any, lines: dict[KeyPath, int], line: int,
            duplicates: dict[KeyPath, int]) -> Iterator[ManifestObject]:
    """The document itself, the items of a ``List`` kind, or those of a top-level array; a
    document that is a plain value (a text file read as YAML) is not a manifest."""
    if not isinstance(value, (dict, list)):
        where = f" (document {number})" if number > 1 else ""
        raise SpecError(f"not a manifest: the document{where} at line {line} is a "
                        f"{type(value).__name__}, not an object with apiVersion and kind",
                        Location(origin))
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield ManifestObject(origin, number, item, _below(lines, (i,)), lines.get((i,), line),
                                 _below(duplicates, (i,)))
        return
    if (isinstance(value, dict) and isinstance(value.get("kind"), str)
            and value["kind"].endswith("List") and isinstance(value.get("items"), list)
            and isinstance(value.get("apiVersion"), str)):
        for i, item in enumerate(value["items"]):
            yield ManifestObject(origin, number, item, _below(lines, ("items", i)),
                                 lines.get(("items", i), line), _below(duplicates, ("items", i)))
        return
    yield ManifestObject(origin, number, value, lines, line, duplicates)


def _below(lines: dict[KeyPath, int], prefix: KeyPath) -> dict[KeyPath, int]:
    size = len(prefix)
    return {path[size:]: at for path, at in lines.items()
            if len(path) > size and path[:size] == prefix}


def _yaml_documents(text: str, origin: str
                    ) -> Iterator[tuple[int, Any, dict[KeyPath, int], int, dict[KeyPath, int]]]:
    """(1-based document number, data, lines, first line, repeated keys) of each non-empty YAML
    document."""
    import yaml

    from generator.sources.yaml_loaders import FastLoader

    if _TEMPLATE_LINE.search(text):
        _refuse_template_text(text, origin)
    loader = FastLoader(text)
    number = 0
    try:
        while True:
            try:
                if not loader.check_node():
                    break
                node = loader.get_node()
            except yaml.YAMLError as exc:
                _refuse_template_text(text, origin)
                mark = getattr(exc, "problem_mark", None)
                where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "?"
                problem = getattr(exc, "problem", None) or "invalid YAML"
                raise SpecError(f"invalid YAML at {where}: {problem}", Location(origin)) from None
            number += 1
            if node is None:
                continue
            lines: dict[KeyPath, int] = {}
            composer = _Composer(loader, origin, lines)
            try:
                value = composer.value(node, ())
            except SpecError:
                if "{{" in text:  # {{ … }} parsed as a flow mapping: say it is a template
                    _refuse_template_text(text, origin)
                raise
            if value is not None:  # the reader's own last step (floats as encoding/json writes)
                yield (number, plain_json_data(value, origin), lines, node.start_mark.line + 1,
                       composer.duplicates)
    finally:
        loader.dispose()


class _Composer:
    """JSON data and key lines from a composed node tree, scalars built by the loader's own
    constructors (the strict loader's tags)."""

    def __init__(self, loader: Any, origin: str, lines: dict[KeyPath, int]) -> None:
        self.loader, self.origin, self.lines = loader, origin, lines
        self.seen: set[int] = set()  # nodes decoded once: a second visit is an alias
        self.decoded = self.aliased = 0
        self.duplicates: dict[KeyPath, int] = {}

    def fail(self, node: Any, problem: str) -> None:
        mark = node.start_mark
        raise SpecError(f"invalid YAML at line {mark.line + 1}, column {mark.column + 1}: "
                        f"{problem}", Location(self.origin))

    def value(self, node: Any, at: KeyPath) -> Any:
        import yaml

        if len(at) > MAX_DATA_DEPTH:
            self.fail(node, f"nested deeper than {MAX_DATA_DEPTH} levels")
        self.decoded += 1
        if id(node) in self.seen:  # go-yaml v2 expands aliases; its ratio refuses a "billion laughs"
            self.aliased += 1
            if self.aliased > 100 and self.decoded > 1000 and \
                    self.aliased / self.decoded > allowed_alias_ratio(self.decoded):
                self.fail(node, "document contains excessive aliasing (kubectl refuses it too)")
        self.seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == _STR:  # a quoted or block scalar: its text (construct_yaml_str)
                value = node.value
            else:
                try:
                    value = self.loader.construct_object(node)
                except yaml.YAMLError as exc:
                    self.fail(node, getattr(exc, "problem", None) or "unsupported value")
            if isinstance(value, str) and "{{" in value and _TEMPLATE.search(value) and \
                    not any(k in _FREE_TEXT for k in at if isinstance(k, str)):
                raise HelmTemplateSyntax(node.start_mark.line + 1, self.origin)
            return value
        if isinstance(node, yaml.SequenceNode):
            out: list[Any] = []
            for i, item in enumerate(node.value):
                here: KeyPath = (*at, i)
                self.lines[here] = item.start_mark.line + 1
                out.append(self.value(item, here))
            return out
        if isinstance(node, yaml.MappingNode):
            mapping: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.merge(mapping, value_node, at)
                    continue
                if not isinstance(key_node, yaml.ScalarNode):
                    self.fail(key_node, "a key must be a plain value")
                key = self.loader.construct_object(key_node)
                if not isinstance(key, str):
                    key = string_key(key, self.origin, "")
                place: KeyPath = (*at, key)
                if key in mapping:
                    self.duplicates[place] = key_node.start_mark.line + 1
                self.lines.setdefault(place, key_node.start_mark.line + 1)
                mapping[key] = self.value(value_node, place)
            return mapping
        self.fail(node, "unsupported YAML node")  # pragma: no cover
        return None

    def merge(self, mapping: dict[str, Any], node: Any, at: KeyPath) -> None:
        """A ``<<`` value written into ``mapping`` where it stands, over the keys before it, as
        go-yaml v2 does: a mapping, or a sequence of them where the first one wins."""
        import yaml

        sources = list(reversed(node.value)) if isinstance(node, yaml.SequenceNode) else [node]
        for source in sources:
            value = self.value(source, at)
            if not isinstance(value, dict):
                self.fail(source, "a merge key (<<) needs a mapping or a sequence of mappings")
            mapping.update(value)
