"""Every Python snippet of every bundled release (1.25-1.37) runs under that release's own official
client and serializes to the YAML sample (one client subprocess per release)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from clients import probe
from release_examples import RELEASES, release_examples
from setup_extras import KUBERNETES_CLIENTS

pytestmark = pytest.mark.integration

KNOWN_DRIFT = {("1.31", "io.k8s.api.resource.v1alpha3.ResourceSliceList"): "list_meta"}
"""Snippets the client rejects because kubernetes-validate's spec differs from the client's
(see tests/test_python_names.py KNOWN_DRIFT): the attribute the error names."""
_UTC_OFFSET = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)\+00:00$")


def _wire_times(value: Any) -> Any:
    """The client writes UTC times as ``+00:00`` (``isoformat``); YAML shows the same time as ``Z``."""
    if isinstance(value, dict):
        return {k: _wire_times(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_wire_times(v) for v in value]
    if isinstance(value, str):
        match = _UTC_OFFSET.match(value)
        return match.group(1) + "Z" if match else value
    return value


def test_every_release_has_its_client() -> None:
    assert set(KUBERNETES_CLIENTS) == set(RELEASES)
    for release, pin in KUBERNETES_CLIENTS.items():
        assert pin.split(".")[0] == release.split(".")[1], release


@pytest.mark.parametrize("release", RELEASES)
def test_python_snippets_run_under_the_release_client(release: str) -> None:
    examples = release_examples(release)
    snippets = {name: f"{e.python}\nobj = {e.python_variable}\n" for name, e in examples.items()}
    results = probe(release, "run", snippets)
    assert set(results) == set(examples)
    for name, example in examples.items():
        result = results[name]
        if (release, name) in KNOWN_DRIFT:
            assert f"unexpected keyword argument '{KNOWN_DRIFT[release, name]}'" in result["error"]
            continue
        assert "ok" in result, f"{release} {name}: {result.get('error')}"
        assert _wire_times(result["ok"]) == example.data, f"{release} {name}"
        assert yaml.safe_load(example.yaml) == example.data
    assert len(examples) > 500


def test_snippets_follow_each_client_naming() -> None:
    old = release_examples("1.35")["io.k8s.api.core.v1.PodStatus"].python
    new = release_examples("1.36")["io.k8s.api.core.v1.PodStatus"].python
    pod = release_examples("1.37")["io.k8s.api.core.v1.Pod"].python
    assert "pod_i_ps=[" in old and "pod_ips=[" in new
    assert 'client.V1Container(\n' in pod or 'client.V1Container(name="nginx"' in pod
