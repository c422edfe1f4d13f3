"""Kind examples a real API server accepts: the server's validation rules (``server_rules``) over every
kind example of every bundled release; each rule with a fixture proving it can fail."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import server_rules
from release_examples import RELEASES, is_manifest_kind, release_api, release_examples
from server_rules import cron_schedule_errors, quantity

from generator.examples.samples import SampleBuilder
from generator.model.gvk import primary_gvk
from generator.model.normalize import build_api
from generator.sources import load_source

DELETE = object()


def test_releases_are_every_bundled_kubernetes_validate_release() -> None:
    schemas = os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema")
    bundled = os.listdir(schemas)
    assert {f"1.{name.split('.')[1]}" for name in bundled} == set(RELEASES)
    assert RELEASES[0] == "1.25" and RELEASES[-1] == "1.37" and len(RELEASES) == 13


def _kinds(release: str):
    api = release_api(release)
    for name, model in api.models.items():
        if is_manifest_kind(model):
            yield name, model


@pytest.mark.integration
@pytest.mark.parametrize("release", RELEASES)
def test_every_kind_example_passes_the_server_rules(release: str) -> None:
    examples = release_examples(release)
    covered = set()
    for name, model in _kinds(release):
        data = examples[name].data
        assert server_rules.errors(data) == [], f"{release} {name}"
        covered.add(model.kind)
    # the hand-written kinds this release has are all checked by their own rules
    wanted = {k for k in server_rules.RULES
              if any(m.kind == k for m in release_api(release).models.values())}
    assert wanted <= covered


@pytest.mark.integration
def test_every_listed_kind_is_checked_in_some_release() -> None:
    seen = {model.kind for release in RELEASES for _, model in _kinds(release)}
    assert set(server_rules.RULES) <= seen
    assert len(server_rules.RULES) == 32


@pytest.mark.integration
@pytest.mark.parametrize("release", RELEASES)
def test_no_kind_manifest_has_status(release: str) -> None:
    api, examples = release_api(release), release_examples(release)
    kept = set()
    for name, model in api.models.items():
        data = examples[name].data
        if model.is_kind and not model.is_list and isinstance(data, dict) and "status" in data:
            kept.add(model.kind)
            assert model.field("status").required, name
    # only StorageVersion's schema requires a status (API servers alone write those objects)
    assert kept <= {"StorageVersion"}


def test_status_is_shown_apart_for_workloads() -> None:
    examples = release_examples("1.32")
    deployment = examples["io.k8s.api.apps.v1.Deployment"]
    assert "status" not in deployment.data and "status" not in deployment.python
    assert "readyReplicas: 3" in deployment.status and "status" not in deployment.jsonnet
    assert examples["io.k8s.api.core.v1.ConfigMap"].status == ""


# -- each rule can fail --------------------------------------------------------------------------
def _manifest(release: str, definition: str) -> dict[str, Any]:
    return copy.deepcopy(release_examples(release)[definition].data)


def _set(*changes: tuple[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A mutation: each ``(dotted.path, value)`` set (list indices allowed), ``DELETE`` removes."""
    def mutate(data: dict[str, Any]) -> dict[str, Any]:
        for path, value in changes:
            *head, last = path.split(".")
            node: Any = data
            for part in head:
                node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
            key: Any = int(last) if isinstance(node, list) else last
            if value is DELETE:
                del node[key]
            else:
                node[key] = value
        return data
    return mutate


A, B, C, R = "io.k8s.api.apps.v1.", "io.k8s.api.batch.v1.", "io.k8s.api.core.v1.", "io.k8s.api.rbac.v1."
N = "io.k8s.api.networking.v1."
HPA = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler"
HPA1 = "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler"
VAP = "io.k8s.api.admissionregistration.v1.ValidatingAdmissionPolicy"
CRD = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"
PDB, PC = "io.k8s.api.policy.v1.PodDisruptionBudget", "io.k8s.api.scheduling.v1.PriorityClass"
TEMPLATE = "spec.template.spec"
BREAKS: list[tuple[str, str, str, Callable[[dict[str, Any]], dict[str, Any]]]] = [
    ("rule_object_meta", "1.32", A + "Deployment", _set(("metadata.name", "Nginx_1"))),
    ("rule_object_meta", "1.32", C + "Service", _set(("metadata.name", "1-nginx"))),
    ("rule_object_meta", "1.32", C + "Namespace", _set(("metadata.name", "team.a"))),
    ("rule_object_meta", "1.32", A + "StatefulSet", _set(("metadata.name", "pg.main"))),
    ("rule_object_meta", "1.32", C + "Pod", _set(("metadata.labels.name", "not valid!"))),
    ("rule_no_status", "1.32", A + "Deployment", _set(("status", {"replicas": 3}))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.name", "Nginx"))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.image", DELETE))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.restartPolicy", "Sometimes"))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.ports.0.containerPort", 70000))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.volumeMounts",
                                          [{"name": "x", "mountPath": "/x"}]))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.env", [{"name": "1 BAD", "value": "x"}]))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers.0.resources",
                                          {"requests": {"cpu": "2"}, "limits": {"cpu": "500m"}}))),
    ("rule_pod", "1.32", C + "Pod", _set(("spec.containers", []))),
    ("rule_workload", "1.32", A + "Deployment", _set(("spec.selector.matchLabels.name", "other"))),
    ("rule_workload", "1.32", A + "DaemonSet", _set(("spec.selector", DELETE))),
    ("rule_workload", "1.32", A + "ReplicaSet", _set((TEMPLATE + ".restartPolicy", "Never"))),
    ("rule_workload", "1.32", A + "StatefulSet", _set(("spec.volumeClaimTemplates.0.spec.accessModes", []))),
    ("rule_workload", "1.32", A + "StatefulSet", _set(("spec.volumeClaimTemplates", DELETE))),
    ("rule_workload", "1.32", A + "Deployment", _set(("spec.replicas", -1))),
    ("rule_rolling_update", "1.32", A + "Deployment", _set(("spec.strategy", {"type": "RollingUpdate",
        "rollingUpdate": {"maxUnavailable": 0, "maxSurge": "0%"}}))),
    ("rule_statefulset_policies", "1.32", A + "StatefulSet", _set(("spec.podManagementPolicy", "Random"))),
    ("rule_job", "1.32", B + "Job", _set((TEMPLATE + ".restartPolicy", DELETE))),
    ("rule_job", "1.32", B + "Job", _set(("spec.selector", {"matchLabels": {"name": "pi"}}))),
    ("rule_job", "1.32", B + "Job", _set(("spec.backoffLimit", -1))),
    ("rule_cronjob", "1.32", B + "CronJob", _set(("spec.schedule", "example-schedule"))),
    ("rule_cronjob", "1.32", B + "CronJob", _set(("spec.schedule", "61 * * * *"))),
    ("rule_cronjob", "1.32", B + "CronJob", _set(("spec.schedule", "TZ=UTC 0 3 * * *"))),
    ("rule_cronjob", "1.32", B + "CronJob", _set(("spec.jobTemplate", {"metadata": {"labels": {"a": "b"}}}))),
    ("rule_cronjob", "1.32", B + "CronJob", _set(("metadata.name", "a" * 53))),
    ("rule_service", "1.32", C + "Service", _set(("spec.ports", DELETE))),
    ("rule_service", "1.32", C + "Service", _set(("spec.ports.0.targetPort", "HTTP_PORT"))),
    ("rule_service", "1.32", C + "Service", _set(("spec.ports", [{"port": 80}, {"port": 443}]))),
    ("rule_service", "1.32", C + "Service", _set(("spec.type", "ExternalName"))),
    ("rule_ingress", "1.32", N + "Ingress", _set(("spec.rules", DELETE))),
    ("rule_ingress", "1.32", N + "Ingress", _set(("spec.rules.0.http.paths.0.pathType", DELETE))),
    ("rule_ingress", "1.32", N + "Ingress", _set(("spec.rules.0.http.paths.0.path", "api"))),
    ("rule_ingress", "1.32", N + "Ingress",
     _set(("spec.rules.0.http.paths.0.backend.service.port.name", "http"))),
    ("rule_ingress", "1.32", N + "Ingress", _set(("spec.rules.0.host", "Example.com"))),
    ("rule_ingress_class", "1.32", N + "IngressClass", _set(("spec.controller", "nginx"))),
    ("rule_network_policy", "1.32", N + "NetworkPolicy", _set(("spec.policyTypes", ["Both"]))),
    ("rule_network_policy", "1.32", N + "NetworkPolicy", _set(("spec.ingress.0.from.0",
                                                               {"ipBlock": {"cidr": "10.0.0.0/33"}}))),
    ("rule_config_map", "1.32", C + "ConfigMap", _set(("data", {"bad key": "x"}))),
    ("rule_config_map", "1.32", C + "ConfigMap", _set(("binaryData", {"LOG_LEVEL": "aW5mbw=="}))),
    ("rule_secret", "1.32", C + "Secret", _set(("type", "kubernetes.io/tls"))),
    ("rule_secret", "1.32", C + "Secret", _set(("data", {"bad/key": "eA=="}))),
    ("rule_namespace", "1.32", C + "Namespace", _set(("spec", {"finalizers": ["bad finalizer"]}))),
    ("rule_pv", "1.32", C + "PersistentVolume", _set(("spec.hostPath", {"path": "/data"}))),
    ("rule_pv", "1.32", C + "PersistentVolume", _set(("spec.capacity", DELETE))),
    ("rule_pv", "1.32", C + "PersistentVolume", _set(("spec.accessModes", DELETE))),
    ("rule_pv", "1.32", C + "PersistentVolume", _set(("spec.nfs.path", "exports"))),
    ("rule_pvc", "1.32", C + "PersistentVolumeClaim", _set(("spec.accessModes", DELETE))),
    ("rule_pvc", "1.32", C + "PersistentVolumeClaim", _set(("spec.resources", DELETE))),
    ("rule_pvc", "1.32", C + "PersistentVolumeClaim", _set(("spec.accessModes", ["ReadWriteSometimes"]))),
    ("rule_storage_class", "1.32", "io.k8s.api.storage.v1.StorageClass", _set(("provisioner", DELETE))),
    ("rule_storage_class", "1.32", "io.k8s.api.storage.v1.StorageClass", _set(("reclaimPolicy", "Recycle"))),
    ("rule_policy_rules", "1.32", R + "Role", _set(("rules.0.apiGroups", DELETE))),
    ("rule_policy_rules", "1.32", R + "Role", _set(("rules.0", {"nonResourceURLs": ["/healthz"],
                                                                "verbs": ["get"]}))),
    ("rule_policy_rules", "1.32", R + "ClusterRole", _set(("rules.0.verbs", []))),
    ("rule_binding", "1.32", R + "RoleBinding", _set(("roleRef", {"kind": "Deployment", "apiGroup": "apps",
                                                                  "name": "role"}))),
    ("rule_binding", "1.32", R + "RoleBinding", _set(("subjects.0", {"kind": "Deployment", "name": "s"}))),
    ("rule_binding", "1.32", R + "ClusterRoleBinding", _set(("roleRef.kind", "Role"))),
    ("rule_binding", "1.32", R + "ClusterRoleBinding", _set(("subjects.0", {"kind": "ServiceAccount",
                                                                            "name": "build-robot"}))),
    ("rule_hpa", "1.32", HPA, _set(("spec.minReplicas", 0))),
    ("rule_hpa", "1.32", HPA, _set(("spec.maxReplicas", 2))),
    ("rule_hpa", "1.32", HPA,
     _set(("spec.metrics.0.resource.target", {"type": "Utilization"}))),
    ("rule_hpa", "1.32", HPA, _set(("spec.metrics.0.type", "Pods"))),
    ("rule_hpa", "1.32", HPA1,
     _set(("spec.targetCPUUtilizationPercentage", 0))),
    ("rule_pdb", "1.32", PDB, _set(("spec.maxUnavailable", 1))),
    ("rule_pdb", "1.32", PDB, _set(("spec.minAvailable", "150%"))),
    ("rule_priority_class", "1.32", PC, _set(("value", 2_000_000_000))),
    ("rule_priority_class", "1.32", PC, _set(("metadata.name", "system-x"))),
    ("rule_limit_range", "1.32", C + "LimitRange", _set(("spec.limits.0.defaultRequest.cpu", "1"))),
    ("rule_limit_range", "1.32", C + "LimitRange", _set(("spec.limits.0.type", "Node"))),
    ("rule_limit_range", "1.32", C + "LimitRange", _set(("spec.limits.0.type", "Pod"))),
    ("rule_resource_quota", "1.32", C + "ResourceQuota", _set(("spec.hard", {"bogus": "1"}))),
    ("rule_resource_quota", "1.32", C + "ResourceQuota", _set(("spec.hard.pods", "-1"))),
    ("rule_admission_policy", "1.32", VAP,
     _set(("spec.validations", DELETE))),
    ("rule_admission_policy", "1.32", VAP,
     _set(("spec.matchConstraints", DELETE))),
    ("rule_admission_policy", "1.32", VAP,
     _set(("spec.failurePolicy", "Sometimes"))),
    ("rule_admission_binding", "1.32",
     VAP + "Binding",
     _set(("spec.validationActions", ["Deny", "Warn"]))),
    ("rule_admission_binding", "1.32",
     VAP + "Binding", _set(("spec.validationActions", DELETE))),
    ("rule_crd", "1.32", CRD,
     _set(("metadata.name", "crontab"))),
    ("rule_crd", "1.32", CRD,
     _set(("spec.versions", [{"name": "v1", "served": True, "storage": True},
                             {"name": "v2", "served": True, "storage": True}]))),
    ("rule_crd", "1.32", CRD,
     _set(("spec.versions.0.schema.openAPIV3Schema.properties.spec.properties.image", {}))),
    ("rule_resource_claim", "1.32", "io.k8s.api.resource.v1beta1.ResourceClaim",
     _set(("spec.devices.requests.0.deviceClassName", DELETE))),
    ("rule_resource_claim", "1.34", "io.k8s.api.resource.v1.ResourceClaim",
     _set(("spec.devices.requests.0.exactly", DELETE))),
    ("rule_resource_claim", "1.27", "io.k8s.api.resource.v1alpha2.ResourceClaim",
     _set(("spec.resourceClassName", DELETE))),
    ("rule_resource_claim", "1.32", "io.k8s.api.resource.v1beta1.ResourceClaim",
     _set(("spec.devices.requests.0.name", "GPU"))),
    ("rule_device_class", "1.32", "io.k8s.api.resource.v1beta1.DeviceClass",
     _set(("spec.selectors.0.cel.expression", ""))),
]
"""(rule, release, definition, mutation): the release's example passes the rule, the mutated fails."""


@pytest.mark.integration
@pytest.mark.parametrize(("rule", "release", "definition", "mutate"), BREAKS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)])
def test_each_rule_can_fail(rule: str, release: str, definition: str,
                            mutate: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    check = getattr(server_rules, rule)
    good = _manifest(release, definition)
    assert check in tuple(server_rules.rules_for(good["kind"]))
    assert check(good) == []
    assert check(mutate(good)), f"{rule} accepted the broken {definition}"


def test_every_rule_has_a_failing_fixture() -> None:
    rules = {r.__name__ for r in server_rules.GENERIC} | \
        {r.__name__ for rules in server_rules.RULES.values() for r in rules}
    assert rules == {b[0] for b in BREAKS}


@pytest.mark.parametrize(("schedule", "ok"), [
    ("*/5 * * * *", True), ("0 3 * * 1-5", True), ("@hourly", True), ("0 0 1 jan,jul sun", True),
    ("example-schedule", False), ("* * * *", False), ("60 * * * *", False), ("* * 0 * *", False),
    ("*/0 * * * *", False), ("0 0 * * mon-funday", False),
])
def test_cron_schedules(schedule: str, ok: bool) -> None:
    assert (cron_schedule_errors(schedule) == []) is ok


def test_quantities() -> None:
    assert quantity("500m") == 0.5 and quantity("1Gi") == 2**30 and quantity("1e3") == 1000
    assert quantity("ten") is None and quantity("1.5.5") is None


def test_issue_examples_of_the_old_builder_fail() -> None:
    """The manifests the issue reported (an earlier generator's output) fail the rules."""
    old = {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
           "metadata": {"name": "example-role-binding"},
           "roleRef": {"kind": "Deployment", "apiGroup": "apps", "name": "role"},
           "subjects": [{"kind": "Deployment", "name": "subject"}]}
    assert len(server_rules.errors(old)) >= 3
    cron = {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "example-cron-job"},
            "spec": {"schedule": "example-schedule", "jobTemplate": {"metadata": {"labels": {"app": "web"}}}},
            "status": {"lastScheduleTime": "2024-01-15T10:00:00Z"}}
    found = " ".join(server_rules.errors(cron))
    assert "schedule" in found and "restartPolicy" in found and "containers" in found and "status" in found


@pytest.mark.parametrize("release", RELEASES)
def test_every_listed_kind_shows_its_chosen_manifest(release: str) -> None:
    """The manifests fit every bundled release's schema (no fall-back to a schema-derived sample)."""
    builder = SampleBuilder(release_api(release))
    for name, model in _kinds(release):
        if model.kind in server_rules.RULES:
            manifest = builder.manifest(name)
            assert manifest is not None and release_examples(release)[name].data == manifest, name


def test_a_spec_unlike_the_releases_falls_back_to_a_schema_sample(tmp_path: Path) -> None:
    deployment = {"type": "object", "x-kubernetes-group-version-kind": [
        {"group": "apps", "version": "v1", "kind": "Deployment"}], "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}}
    spec = {"swagger": "2.0", "info": {"title": "t", "version": "v"},
            "definitions": {"io.k8s.api.apps.v1.Deployment": deployment}}
    (tmp_path / "odd.json").write_text(json.dumps(spec))
    api, _ = build_api(load_source(str(tmp_path / "odd.json")), "odd")
    builder = SampleBuilder(api)
    manifest = builder.manifest("io.k8s.api.apps.v1.Deployment")
    data = builder.sample("io.k8s.api.apps.v1.Deployment").data()
    assert manifest is not None and "metadata" in manifest  # which this spec's Deployment lacks
    assert data["kind"] == "Deployment" and "metadata" not in data and data != manifest


def test_hand_written_kinds_use_the_chosen_manifests() -> None:
    examples = release_examples("1.32")
    deployment = examples[A + "Deployment"].data
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == labels == {"name": deployment["metadata"]["name"]}
    assert examples[B + "CronJob"].data["spec"]["schedule"] == "*/5 * * * *"
    ingress_path = examples[N + "Ingress"].data["spec"]["rules"][0]["http"]["paths"][0]
    assert ingress_path["pathType"] == "Prefix" and ingress_path["backend"]["service"]["name"] == "nginx"
    for release in RELEASES:
        for name, model in _kinds(release):
            gvk = primary_gvk(model)
            assert release_examples(release)[name].data["apiVersion"] == gvk.api_version
