"""Hand-chosen manifests of the kinds people write by hand: values a real API server accepts.

A kind's manifest is what a user would apply (``tests/server_rules.py`` checks every one against the
API server's validation rules); ``STATUSES`` are what the cluster writes back, shown apart. Both are
plain JSON bodies without ``apiVersion``/``kind``: the sample builder adds those and types every
value by the release's schema, so a field a release lacks is an error, not a silent drop.

The labels follow k8s-libsonnet's constructors (``{name: <metadata.name>}``), so the Jsonnet tab can
use them and still give exactly this object. Keyed by ``(API group, kind)``; a recipe is the body, or
a function of ``has`` (does the release's schema have this dotted field path?) where releases differ.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Has = Callable[[str], bool]
Recipe = dict[str, Any] | Callable[[Has], dict[str, Any]]

RBAC = "rbac.authorization.k8s.io"
NGINX = "nginx"
NGINX_LABELS = {"name": NGINX}
NGINX_CONTAINER = {"name": NGINX, "image": "nginx:1.27",
                   "ports": [{"containerPort": 80, "name": "http"}]}
DEVICE_CLASS = "gpu.example.com"
POD_READER = {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "watch", "list"]}


def _meta(name: str, labels: dict[str, str] | None = None) -> dict[str, Any]:
    return {"name": name, **({"labels": labels} if labels else {})}


def _workload(name: str, containers: list[dict[str, Any]], replicas: int | None = None,
              **spec: Any) -> dict[str, Any]:
    """A Deployment/ReplicaSet/DaemonSet/StatefulSet: selector == pod labels == ``{name: name}``."""
    labels = {"name": name}
    head = {} if replicas is None else {"replicas": replicas}
    return {"metadata": _meta(name), "spec": {
        **head, **spec, "selector": {"matchLabels": labels},
        "template": {"metadata": {"labels": labels}, "spec": {"containers": containers}}}}


def _statefulset(has: Has) -> dict[str, Any]:
    body = _workload("postgres", [{
        "name": "postgres", "image": "postgres:16",
        "ports": [{"containerPort": 5432, "name": "postgres"}],
        "env": [{"name": "POSTGRES_PASSWORD",
                 "valueFrom": {"secretKeyRef": {"name": "postgres", "key": "password"}}}],
        "volumeMounts": [{"name": "data", "mountPath": "/var/lib/postgresql/data"}],
    }], replicas=1, serviceName="postgres")
    body["spec"]["volumeClaimTemplates"] = [{"metadata": {"name": "data"}, "spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}}]
    return body


def _hpa(has: Has) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": NGINX},
        "minReplicas": 3, "maxReplicas": 10}
    if has("spec.metrics"):
        spec["metrics"] = [{"type": "Resource", "resource": {
            "name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}]
    else:
        spec["targetCPUUtilizationPercentage"] = 80
    return {"metadata": _meta(NGINX), "spec": spec}


def _policy_binding(has: Has) -> dict[str, Any]:
    spec: dict[str, Any] = {"policyName": "replica-limit"}
    if has("spec.validationActions"):
        spec["validationActions"] = ["Deny"]
    spec["matchResources"] = {"namespaceSelector": {"matchLabels": {"environment": "test"}}}
    return {"metadata": _meta("replica-limit"), "spec": spec}


def _resource_claim(has: Has) -> dict[str, Any]:
    if has("spec.devices.requests.exactly"):
        request: dict[str, Any] = {"name": "gpu", "exactly": {"deviceClassName": DEVICE_CLASS}}
    elif has("spec.devices"):
        request = {"name": "gpu", "deviceClassName": DEVICE_CLASS}
    else:
        return {"metadata": _meta("gpu"), "spec": {"resourceClassName": DEVICE_CLASS}}
    return {"metadata": _meta("gpu"), "spec": {"devices": {"requests": [request]}}}


MANIFESTS: dict[tuple[str, str], Recipe] = {
    ("", "Pod"): {"metadata": _meta(NGINX, NGINX_LABELS), "spec": {"containers": [NGINX_CONTAINER]}},
    ("apps", "Deployment"): _workload(NGINX, [NGINX_CONTAINER], replicas=3),
    ("apps", "ReplicaSet"): _workload(NGINX, [NGINX_CONTAINER], replicas=3),
    ("apps", "DaemonSet"): _workload("fluent-bit", [{"name": "fluent-bit",
                                                     "image": "fluent/fluent-bit:3.1"}]),
    ("apps", "StatefulSet"): _statefulset,
    ("batch", "Job"): {"metadata": _meta("pi"), "spec": {"backoffLimit": 4, "template": {"spec": {
        "containers": [{"name": "pi", "image": "perl:5.34.0",
                        "command": ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]}],
        "restartPolicy": "Never"}}}},
    ("batch", "CronJob"): {"metadata": _meta("hello"), "spec": {
        "schedule": "*/5 * * * *",
        "jobTemplate": {"spec": {"template": {"metadata": {"labels": {"name": "hello"}}, "spec": {
            "containers": [{"name": "hello", "image": "busybox:1.36", "command": [
                "sh", "-c", "date; echo Hello from the Kubernetes cluster"]}],
            "restartPolicy": "OnFailure"}}}}}},
    ("", "Service"): {"metadata": _meta(NGINX), "spec": {
        "selector": NGINX_LABELS, "ports": [{"name": "http", "port": 80, "targetPort": "http"}]}},
    ("networking.k8s.io", "Ingress"): {"metadata": _meta(NGINX), "spec": {
        "ingressClassName": NGINX, "rules": [{"host": "example.com", "http": {"paths": [
            {"path": "/", "pathType": "Prefix",
             "backend": {"service": {"name": NGINX, "port": {"number": 80}}}}]}}]}},
    ("networking.k8s.io", "IngressClass"): {"metadata": _meta(NGINX),
                                            "spec": {"controller": "k8s.io/ingress-nginx"}},
    ("networking.k8s.io", "NetworkPolicy"): {"metadata": _meta("nginx-allow-frontend"), "spec": {
        "podSelector": {"matchLabels": NGINX_LABELS}, "policyTypes": ["Ingress"],
        "ingress": [{"from": [{"podSelector": {"matchLabels": {"role": "frontend"}}}],
                     "ports": [{"protocol": "TCP", "port": 80}]}]}},
    ("", "ConfigMap"): {"metadata": _meta("app-config"), "data": {"LOG_LEVEL": "info"}},
    ("", "Secret"): {"metadata": _meta("postgres"), "type": "Opaque",
                     "data": {"password": "Y2hhbmdlLW1l"}},
    ("", "ServiceAccount"): {"metadata": _meta("build-robot")},
    ("", "Namespace"): {"metadata": _meta("staging")},
    ("", "PersistentVolume"): {"metadata": _meta("nfs-pv"), "spec": {
        "capacity": {"storage": "10Gi"}, "accessModes": ["ReadWriteMany"],
        "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "nfs",
        "nfs": {"server": "nfs.example.com", "path": "/exports"}}},
    ("", "PersistentVolumeClaim"): {"metadata": _meta("data"), "spec": {
        "accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}}}},
    ("storage.k8s.io", "StorageClass"): {
        "metadata": _meta("fast"), "provisioner": "ebs.csi.aws.com", "parameters": {"type": "gp3"},
        "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer",
        "allowVolumeExpansion": True},
    (RBAC, "Role"): {"metadata": _meta("pod-reader"), "rules": [POD_READER]},
    (RBAC, "ClusterRole"): {"metadata": _meta("secret-reader"),
                            "rules": [{**POD_READER, "resources": ["secrets"]}]},
    (RBAC, "RoleBinding"): {
        "metadata": _meta("read-pods"),
        "subjects": [{"kind": "User", "name": "jane", "apiGroup": RBAC}],
        "roleRef": {"kind": "Role", "name": "pod-reader", "apiGroup": RBAC}},
    (RBAC, "ClusterRoleBinding"): {
        "metadata": _meta("read-secrets-global"),
        "subjects": [{"kind": "Group", "name": "manager", "apiGroup": RBAC}],
        "roleRef": {"kind": "ClusterRole", "name": "secret-reader", "apiGroup": RBAC}},
    ("autoscaling", "HorizontalPodAutoscaler"): _hpa,
    ("policy", "PodDisruptionBudget"): {"metadata": _meta(NGINX), "spec": {
        "minAvailable": 2, "selector": {"matchLabels": NGINX_LABELS}}},
    ("scheduling.k8s.io", "PriorityClass"): {
        "metadata": _meta("high-priority"), "value": 1000000, "globalDefault": False,
        "preemptionPolicy": "PreemptLowerPriority",
        "description": "For workloads that should be scheduled before others."},
    ("", "LimitRange"): {"metadata": _meta("default-limits"), "spec": {"limits": [{
        "type": "Container", "default": {"cpu": "500m", "memory": "512Mi"},
        "defaultRequest": {"cpu": "250m", "memory": "256Mi"}}]}},
    ("", "ResourceQuota"): {"metadata": _meta("compute-quota"), "spec": {"hard": {
        "requests.cpu": "4", "requests.memory": "8Gi", "limits.cpu": "8", "limits.memory": "16Gi",
        "pods": "20"}}},
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy"): {
        "metadata": _meta("replica-limit"), "spec": {
            "failurePolicy": "Fail",
            "matchConstraints": {"resourceRules": [{
                "apiGroups": ["apps"], "apiVersions": ["v1"], "operations": ["CREATE", "UPDATE"],
                "resources": ["deployments"]}]},
            "validations": [{"expression": "object.spec.replicas <= 5",
                             "message": "A Deployment may have at most 5 replicas."}]}},
    ("admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding"): _policy_binding,
    ("apiextensions.k8s.io", "CustomResourceDefinition"): {
        "metadata": _meta("crontabs.stable.example.com"), "spec": {
            "group": "stable.example.com",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab",
                      "shortNames": ["ct"]},
            "scope": "Namespaced",
            "versions": [{"name": "v1", "served": True, "storage": True, "schema": {
                "openAPIV3Schema": {"type": "object", "properties": {"spec": {
                    "type": "object", "properties": {
                        "cronSpec": {"type": "string"}, "image": {"type": "string"},
                        "replicas": {"type": "integer"}}}}}}}]}},
    ("resource.k8s.io", "ResourceClaim"): _resource_claim,
    ("resource.k8s.io", "DeviceClass"): {"metadata": _meta(DEVICE_CLASS), "spec": {"selectors": [
        {"cel": {"expression": f'device.driver == "{DEVICE_CLASS}"'}}]}},
}
"""The manifest (without ``apiVersion``/``kind``) of each hand-written kind, in every release."""

STATUSES: dict[tuple[str, str], dict[str, Any]] = {
    ("", "Pod"): {"phase": "Running", "podIP": "10.244.1.7", "startTime": "2024-01-15T10:00:00Z"},
    ("apps", "Deployment"): {"observedGeneration": 1, "replicas": 3, "updatedReplicas": 3,
                             "readyReplicas": 3, "availableReplicas": 3},
    ("apps", "ReplicaSet"): {"observedGeneration": 1, "replicas": 3, "fullyLabeledReplicas": 3,
                             "readyReplicas": 3, "availableReplicas": 3},
    ("apps", "StatefulSet"): {"observedGeneration": 1, "replicas": 1, "readyReplicas": 1,
                              "currentReplicas": 1, "updatedReplicas": 1},
    ("apps", "DaemonSet"): {"observedGeneration": 1, "currentNumberScheduled": 3,
                            "desiredNumberScheduled": 3, "numberMisscheduled": 0, "numberReady": 3},
    ("batch", "Job"): {"startTime": "2024-01-15T10:00:00Z", "completionTime": "2024-01-15T10:00:30Z",
                       "succeeded": 1},
    ("", "PersistentVolumeClaim"): {"phase": "Bound", "accessModes": ["ReadWriteOnce"],
                                    "capacity": {"storage": "10Gi"}},
    ("", "Namespace"): {"phase": "Active"},
}
"""What the cluster reports in ``status``, for kinds where seeing it helps: shown apart, never in a
manifest."""
