"""Jsonnet snippets (issue 12): every snippet of 1.31 and 1.32 evaluates, with k8s-libsonnet as it
ships (generated library + the real hand-written patches of ``../shared/libsonnet``), to exactly
the YAML sample, and calls the helpers a Jsonnet user would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jsonnet_library import evaluate_all

from generator.examples.jsonnet import JsonnetRenderer, member, string
from generator.examples.jsonnet_helpers import CONSTRUCTORS
from generator.examples.samples import Sample, SampleBuilder
from generator.examples.snippets import Example, ExampleBuilder
from generator.libsonnet.builders import builder_index
from generator.model.types import ApiSpec

CLAIM_STATUS = {"1.31": "io.k8s.api.resource.v1alpha3.ResourceClaimStatus",
                "1.32": "io.k8s.api.resource.v1beta1.ResourceClaimStatus"}
HELPER_CALLS = {
    "io.k8s.api.core.v1.Container": "container.new(",
    "io.k8s.api.core.v1.ContainerPort": "containerPort.new",
    "io.k8s.api.core.v1.EnvVar": "envVar.new(",
    "io.k8s.api.core.v1.KeyToPath": "keyToPath.new(",
    "io.k8s.api.core.v1.ServicePort": "servicePort.new",
    "io.k8s.api.core.v1.Volume": "volume.from",
    "io.k8s.api.core.v1.VolumeMount": "volumeMount.new(",
    "io.k8s.api.autoscaling.v2.CrossVersionObjectReference": "crossVersionObjectReference.withApiVersion(",
    "io.k8s.api.apps.v1.Deployment": "deployment.new(",
    "io.k8s.api.apps.v1.DaemonSet": "daemonSet.new(",
    "io.k8s.api.core.v1.ConfigMap": "configMap.new(",
    "io.k8s.api.core.v1.Secret": "secret.new(",
    "io.k8s.api.core.v1.Pod": "k.core.v1.container.new(",
    "io.k8s.api.apps.v1.StatefulSet": "statefulSet.new(",
    "io.k8s.api.batch.v1.CronJob": "cronJob.new(",
    "io.k8s.api.core.v1.Service": "service.new(",
    "io.k8s.api.rbac.v1.RoleBinding": "roleBinding.bindRole(",
}
"""Snippets that must call a hand-written helper (the start of the call)."""
DECLINED: set[str] = set()
"""Kinds whose sample lacks something their helper constructor always writes, so that their
snippets would start without ``new``: none (the hand-chosen manifests fit the constructors)."""


@pytest.fixture(scope="module")
def jsonnet_results(api_131: ApiSpec, api_132: ApiSpec, shared: Path,
                    examples: dict[str, dict[str, Example]]) -> dict[str, dict[str, Any]]:
    """Every Jsonnet snippet of a release evaluated against k8s-libsonnet's ``main.libsonnet``
    (generated + real patches), in one program per release."""
    out = {}
    for api in (api_131, api_132):
        snippets = {n: e.jsonnet for n, e in examples[api.version].items() if e.jsonnet}
        out[api.version] = evaluate_all(api, shared, snippets)
    return out


@pytest.mark.shared
def test_jsonnet_snippets_evaluate_to_the_yaml_sample_with_the_real_library(
        api_131: ApiSpec, api_132: ApiSpec, examples: dict[str, dict[str, Example]],
        jsonnet_results: dict[str, dict[str, Any]]) -> None:
    for api in (api_131, api_132):
        covered = {n for n, m in api.models.items()
                   if m.shape == "object" and builder_index(m, api) is not None}
        with_snippet = {n for n, e in examples[api.version].items() if e.jsonnet}
        assert with_snippet == covered and len(covered) > 500
        for name in covered:
            assert jsonnet_results[api.version][name] == examples[api.version][name].data, name


def test_jsonnet_snippets_call_the_helpers_a_user_would(
        examples: dict[str, dict[str, Example]]) -> None:
    for release, by_name in examples.items():
        for name, call in HELPER_CALLS.items():
            assert call in by_name[name].jsonnet, (release, name)
        container = by_name["io.k8s.api.core.v1.Container"].jsonnet.split("\n\n", 1)[1]
        assert container.startswith("container.new('app', 'registry.k8s.io/nginx:1.27')\n")
        deployment = by_name["io.k8s.api.apps.v1.Deployment"].jsonnet.split("\n\n", 1)[1]
        assert deployment.startswith("deployment.new(") and "k.core.v1.container.new(" in deployment


def test_jsonnet_snippets_use_the_release_library_and_new(
        api_131: ApiSpec, api_132: ApiSpec, examples: dict[str, dict[str, Example]]) -> None:
    for api in (api_131, api_132):
        started, declined = 0, set()
        for name, model in api.models.items():
            example = examples[api.version][name]
            snippet = example.jsonnet
            if not snippet:
                continue
            index = builder_index(model, api)
            assert index is not None
            alias = index.library_path.rsplit(".", 1)[1]
            assert snippet.startswith(
                f"local k = import 'github.com/jsonnet-libs/k8s-libsonnet/{api.version}/main.libsonnet';\n"
                f"local {alias} = k.{index.library_path};\n\n"), name
            meta = model.field("metadata")
            if index.gvk is None or meta is None or not meta.type.ref.endswith(".ObjectMeta") \
                    or example.data.get("apiVersion") != index.gvk.api_version:
                continue
            expression = snippet.split("\n\n", 1)[1]
            new = index.function("new")
            assert new is not None
            matcher = CONSTRUCTORS.get(index.library_path)
            if new.helper is not None and matcher is not None and \
                    matcher(_sample(api, name), example.data["metadata"]["name"]) is None:
                declined.add(name)
                assert not expression.startswith(f"{alias}.new("), name
                continue
            call = string(example.data["metadata"]["name"])
            assert expression.startswith((f"{alias}.new({call}", f"{alias}.newWithoutSelector({call}")), name
            started += 1
        assert started > 75
        assert declined <= DECLINED, declined
    status = examples["1.32"][CLAIM_STATUS["1.32"]].jsonnet
    assert "resourceClaimStatus.withDevices([" in status
    assert "k.resource.v1beta1.allocatedDeviceStatus.withDevice(" in status
    assert "withDeallocationRequested(true)" in examples["1.31"][CLAIM_STATUS["1.31"]].jsonnet


def _sample(api: ApiSpec, name: str) -> Sample:
    return SampleBuilder(api).sample(name)


def test_jsonnet_reaches_keyword_members() -> None:
    assert member(("core", "v1", "persistentVolumeSpec", "local", "withPath")) == \
        ".core.v1.persistentVolumeSpec['local'].withPath"
    assert string("it's") == '"it\'s"' and string("plain") == "'plain'"


@pytest.mark.shared
def test_the_library_is_k8s_libsonnet_with_its_patches(api_131: ApiSpec, shared: Path) -> None:
    """What the snippets are checked against behaves like the real library, not like the index
    alone: ``deployment.new`` needs containers and writes replicas and labels."""
    head = "local k = import 'github.com/jsonnet-libs/k8s-libsonnet/1.31/main.libsonnet';\n"
    found = evaluate_all(api_131, shared, {
        "deployment": head + "k.apps.v1.deployment.new('web', containers=[k.core.v1.container.new('web', "
                             "'nginx')])",
        "port": head + "k.core.v1.containerPort.newNamedUDP(53, 'dns')",
    })
    assert found["deployment"]["spec"] == {
        "replicas": 1, "selector": {"matchLabels": {"name": "web"}},
        "template": {"metadata": {"labels": {"name": "web"}},
                     "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}
    assert found["port"] == {"containerPort": 53, "name": "dns", "protocol": "UDP"}
    with pytest.raises(RuntimeError, match="containers unset"):
        evaluate_all(api_131, shared, {"bare": head + "k.apps.v1.deployment.new('web')"})


def _value(value: Any) -> Sample:
    return Sample("value", value=value)


def _kind(model: str, api_version: str, kind: str, name: str, *rest: tuple[str, Sample]) -> Sample:
    meta = Sample("model", model="io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                  entries=(("name", _value(name)),))
    return Sample("model", model=model, entries=(("apiVersion", _value(api_version)), ("kind", _value(kind)),
                                                 ("metadata", meta), *rest))


@pytest.mark.shared
def test_helpers_are_skipped_or_overridden_where_the_sample_differs(api_131: ApiSpec, shared: Path) -> None:
    """Samples a helper cannot produce as they are still evaluate exactly: a Deployment without pod
    labels gets no ``deployment.new`` (it would add ``{name: …}`` labels); one whose labels lack
    ``name`` gets ``new`` and its labels replaced; an empty ConfigMap ``data`` (which the patched
    ``withData`` drops) is written as a plain field."""
    renderer = JsonnetRenderer(api_131)
    container = Sample("model", model="io.k8s.api.core.v1.Container",
                       entries=(("name", _value("web")), ("image", _value("nginx:1.27"))))
    pod_spec = Sample("model", model="io.k8s.api.core.v1.PodSpec",
                      entries=(("containers", Sample("array", items=(container,))),))
    labels = Sample("map", entries=(("app", _value("web")),))

    def deployment(*template: tuple[str, Sample], selector: bool = True) -> Sample:
        spec = (("template", Sample("model", model="io.k8s.api.core.v1.PodTemplateSpec",
                                    entries=(*template, ("spec", pod_spec)))),)
        if selector:
            spec = (("selector", Sample("model", model="io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector",
                                        entries=(("matchLabels", labels),))), *spec)
        return _kind("io.k8s.api.apps.v1.Deployment", "apps/v1", "Deployment", "web",
                     ("spec", Sample("model", model="io.k8s.api.apps.v1.DeploymentSpec", entries=spec)))

    meta = ("metadata", Sample("model", model="io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
                               entries=(("labels", labels),)))
    samples = {
        "no labels": deployment(selector=False),
        "other labels": deployment(meta),
        "empty data": _kind("io.k8s.api.core.v1.ConfigMap", "v1", "ConfigMap", "empty",
                            ("data", Sample("map", entries=()))),
    }
    snippets = {name: renderer.snippet(sample) for name, sample in samples.items()}
    assert "deployment.new(" not in snippets["no labels"]
    new = "deployment.new('web', null, [k.core.v1.container.new('web', 'nginx:1.27')])"
    assert new in snippets["other labels"]
    assert "deployment.spec.selector.withMatchLabels({ app: 'web' })" in snippets["other labels"]
    assert "configMap.new('empty')" in snippets["empty data"] and "data: {}" in snippets["empty data"]
    found = evaluate_all(api_131, shared, snippets)
    assert found == {name: sample.data() for name, sample in samples.items()}


@pytest.mark.shared
def test_releases_before_the_known_patches_do_not_call_hand_written_constructors(
        api_131: ApiSpec, shared: Path) -> None:
    """Every k8s-libsonnet release patches ``deployment.new`` & co., but only the patches of 1.29 on
    are known: an older release's snippet builds the kind without them (and still evaluates)."""
    from dataclasses import replace

    older = replace(api_131, version="1.28")
    builder = ExampleBuilder(older)
    names = ["io.k8s.api.apps.v1.Deployment", "io.k8s.api.core.v1.Secret", "io.k8s.api.batch.v1.Job"]
    examples = {name: builder.example(name) for name in names}
    assert "deployment.new(" not in examples[names[0]].jsonnet
    assert "secret.new(" not in examples[names[1]].jsonnet
    assert "job.new(" in examples[names[2]].jsonnet  # a generated new(name): called as before
    assert "k.core.v1.container.new(" not in examples[names[0]].jsonnet
    found = evaluate_all(older, shared, {name: e.jsonnet for name, e in examples.items()})
    assert found == {name: e.data for name, e in examples.items()}
