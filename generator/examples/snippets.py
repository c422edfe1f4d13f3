"""Renderings of one sample object: YAML (the wire format), Python constructor calls of the
official client, Jsonnet builder calls of k8s-libsonnet. All show the same ``Sample``; a kind's
``status`` (what the cluster writes, never part of the manifest) is YAML apart."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from generator.examples import yaml_text
from generator.examples.jsonnet import JsonnetRenderer
from generator.examples.python_names import PythonNames
from generator.examples.samples import Sample, SampleBuilder
from generator.model.types import ApiSpec

LINE_WIDTH = 88
INDENT = "    "


@dataclass(frozen=True, slots=True)
class Example:
    """The sample of one model in every rendering; ``data`` is the plain JSON value."""

    name: str
    data: Any
    yaml: str
    python: str
    python_variable: str
    """The variable the Python snippet binds to the object."""
    jsonnet: str = ""
    status: str = ""
    """YAML (``status:`` …) of what the cluster reports for a kind where that helps; else empty."""


def to_yaml(data: Any) -> str:
    return yaml_text.dump(data)


class PythonRenderer:
    """``client.V1Pod(metadata=client.V1ObjectMeta(name=...), ...)`` for a sample."""

    def __init__(self, names: PythonNames) -> None:
        self.names = names
        self._flat: dict[int, str] = {}

    def snippet(self, sample: Sample, variable: str) -> str:
        body = f"{variable} = " + self.expr(sample, len(variable) + 3, 0)
        self._flat.clear()
        kinds = _kinds(sample)
        imports = ["import datetime"] if "time" in kinds else []
        if "model" in kinds:
            imports.append("from kubernetes import client")
        return "".join(line + "\n\n" for line in imports) + body + "\n"

    def expr(self, sample: Sample, used: int, depth: int) -> str:
        """The expression of ``sample``, on one line when it fits after ``used`` characters."""
        flat = self.flat(sample)
        if used + len(flat) <= LINE_WIDTH or not self.parts(sample):
            return flat
        pad = INDENT * (depth + 1)
        opener, closer = self.brackets(sample)
        lines = [opener]
        for prefix, part in self.parts(sample):
            lines.append(f"{pad}{prefix}{self.expr(part, len(pad) + len(prefix), depth + 1)},")
        lines.append(INDENT * depth + closer)
        return "\n".join(lines)

    def flat(self, sample: Sample) -> str:
        """One-line form (memoized for the snippet being rendered: samples live until then)."""
        if sample.uid not in self._flat:
            self._flat[sample.uid] = self._flat_text(sample)
        return self._flat[sample.uid]

    def _flat_text(self, sample: Sample) -> str:
        opener, closer = self.brackets(sample)
        parts = self.parts(sample)
        if not opener:
            return self.literal(sample)
        return opener + ", ".join(prefix + self.flat(part) for prefix, part in parts) + closer

    def brackets(self, sample: Sample) -> tuple[str, str]:
        if sample.kind == "model":
            return f"client.{self.names.class_name(sample.model)}(", ")"
        if sample.kind == "array":
            return "[", "]"
        if sample.kind == "map":
            return "{", "}"
        return "", ""

    def parts(self, sample: Sample) -> list[tuple[str, Sample]]:
        if sample.kind == "model":
            return [(self.names.attribute(key) + "=", value) for key, value in sample.entries]
        if sample.kind == "array":
            return [("", item) for item in sample.items]
        if sample.kind == "map":
            return [(_py(key) + ": ", value) for key, value in sample.entries]
        return []

    def literal(self, sample: Sample) -> str:
        if sample.kind == "time":
            return _datetime(sample.value)
        return _py(sample.value)


def _kinds(sample: Sample) -> set[str]:
    """The kinds of value anywhere in ``sample``."""
    found, todo = set(), [sample]
    while todo:
        node = todo.pop()
        found.add(node.kind)
        todo.extend(value for _, value in node.entries)
        todo.extend(node.items)
    return found


def _datetime(text: str) -> str:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    fields = [moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second]
    if moment.microsecond:
        fields.append(moment.microsecond)
    args = ", ".join(str(v) for v in fields)
    return f"datetime.datetime({args}, tzinfo=datetime.timezone.utc)"


def _py(value: Any) -> str:
    """A Python literal for a JSON value (strings via JSON escapes, which Python reads alike)."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(str(k))}: {_py(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value))


def python_variable(kind: str, names: PythonNames) -> str:
    name = names.attribute(kind).lstrip("_") or "obj"
    return f"{name}_obj" if name in ("client", "datetime") or not name.isidentifier() else name


class ExampleBuilder:
    """Examples of the models of one spec."""

    def __init__(self, api: ApiSpec, names: PythonNames | None = None) -> None:
        self.api = api
        self.names = names or PythonNames(api)
        self.samples = SampleBuilder(api)
        self.python = PythonRenderer(self.names)
        self.jsonnet = JsonnetRenderer(api)

    def example(self, name: str) -> Example:
        model = self.api.models[name]
        sample = self.samples.sample(name)
        variable = python_variable(model.kind, self.names)
        data = sample.data()
        status = self.samples.status(name)
        return Example(name=name, data=data, yaml=to_yaml(data),
                       python=self.python.snippet(sample, variable), python_variable=variable,
                       jsonnet=self.jsonnet.snippet(sample),
                       status=to_yaml({"status": status.data()}) if status is not None else "")
