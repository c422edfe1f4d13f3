"""Examples of custom resources: the YAML satisfies the CRD's own schema (jsonschema), the Python
call is the installed client's ``CustomObjectsApi`` method with its parameters, the Jsonnet
evaluates to the YAML. For every CRD version in ``../shared/crds``."""

from __future__ import annotations

import ast
import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from crd_fixtures import dump, widget_crd
from helpers.paths import SHARED
from setup_extras import client_python

from generator.examples.crd import crd_example
from generator.model.normalize import build_api
from generator.sources import load_source

CRDS = SHARED / "crds"
SETS = ["gateway-api/v1.0.0", "gateway-api/v1.1.0", "gateway-api/v1.2.0", "cert-manager",
        "azure-alb-controller-1.9-crds.yaml"]


def original_schemas(path: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """(group, version, kind) → the CRD's own openAPIV3Schema, read straight from the files."""
    files = sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
    out = {}
    for file in files:
        for doc in yaml.safe_load_all(file.read_text(encoding="utf-8")):
            if not doc or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc["spec"]
            for version in spec["versions"]:
                out[(spec["group"], version["name"], spec["names"]["kind"])] = \
                    version["schema"]["openAPIV3Schema"]
    return out


def examples(path: Path) -> list[tuple[Any, Any]]:
    api, _ = build_api(load_source(str(path)), "x")
    return [(m, crd_example(m, api)) for m in api.models.values() if m.crd is not None]


def _validator(schema: dict[str, Any]) -> jsonschema.Draft4Validator:
    return jsonschema.Draft4Validator(schema)


@pytest.mark.shared
@pytest.mark.parametrize("crd_set", SETS)
def test_yaml_examples_satisfy_their_schema(crd_set: str, shared: Path) -> None:
    schemas = original_schemas(CRDS / crd_set)
    found = examples(CRDS / crd_set)
    assert len(found) == len(schemas)
    for model, example in found:
        data = yaml.safe_load(example.example.yaml)
        schema = schemas[(model.crd.group, model.crd.version, model.crd.kind)]
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator(schema).iter_errors(data)]
        assert errors == [], model.name
        assert not example.unsatisfied, (model.name, example.unsatisfied)
        # the Jsonnet evaluates to the same object: tests/test_crd_builders.py


def test_schema_check_can_fail() -> None:
    """The jsonschema check above is real: a wrong example is caught."""
    schema = widget_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    bad = {"spec": {"size": 0, "colour": "green", "parts": [{"name": "A1"}]}}
    messages = sorted(e.message for e in _validator(schema).iter_errors(bad))
    assert len(messages) == 3


def test_widget_example_uses_enums_bounds_and_patterns(tmp_path: Path) -> None:
    path = tmp_path / "w.yaml"
    path.write_text(dump(widget_crd()), encoding="utf-8")
    (_, example), = examples(path)
    data = yaml.safe_load(example.example.yaml)
    assert data["metadata"] == {"name": "example", "namespace": "default"}
    assert data["spec"]["size"] == 3 and data["spec"]["colour"] == "red"  # defaults
    schema = widget_crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    assert list(_validator(schema).iter_errors(data)) == []


def _client_signatures() -> dict[str, list[tuple[str, bool]]]:
    python = client_python("1.32")
    if not python.exists():
        pytest.skip("no Kubernetes Python client venv (tests/setup_extras.py installs them)")
    code = ("import inspect, json\nfrom kubernetes import client\nout = {}\n"
            "for name in ('create_namespaced_custom_object', 'create_cluster_custom_object'):\n"
            "    sig = inspect.signature(getattr(client.CustomObjectsApi, name))\n"
            "    out[name] = [(p.name, p.default is inspect.Parameter.empty)\n"
            "                 for p in sig.parameters.values()\n"
            "                 if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and p.name != 'self']\n"
            "print(json.dumps(out))\n")
    result = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


@pytest.mark.shared
def test_python_examples_call_the_clients_custom_objects_api(shared: Path) -> None:
    signatures = _client_signatures()
    seen = set()
    for crd_set in ("cert-manager", "gateway-api/v1.2.0"):
        for model, example in examples(CRDS / crd_set):
            tree = ast.parse(example.example.python)
            call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call)
                        and isinstance(n.func, ast.Attribute) and n.func.attr.startswith("create_"))
            name = call.func.attr
            expected = ("create_namespaced_custom_object" if model.crd.namespaced
                        else "create_cluster_custom_object")
            assert name == expected
            params = signatures[name]
            keywords = {k.arg: ast.literal_eval(k.value) if not isinstance(k.value, ast.Name) else "body"
                        for k in call.keywords}
            assert set(keywords) <= {p for p, _ in params}
            assert {p for p, required in params if required} <= set(keywords)
            assert keywords["group"] == model.crd.group and keywords["plural"] == model.crd.plural
            assert keywords["version"] == model.crd.version
            # the body is the YAML example
            scope: dict[str, Any] = {}
            body = next(n for n in tree.body if isinstance(n, ast.Assign))
            exec(compile(ast.Module([body], []), "example", "exec"), scope)  # a literal: no calls
            assert scope["body"] == yaml.safe_load(example.example.yaml)
            seen.add(name)
    assert seen == {"create_namespaced_custom_object", "create_cluster_custom_object"}
