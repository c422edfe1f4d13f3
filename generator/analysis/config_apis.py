"""Configuration APIs: objects with an ``apiVersion`` and ``kind`` that a Kubernetes component
reads from a file (``--config``, ``--audit-policy-file``…), not objects the API server serves.

Their schemas are Go types of each component, absent from the API server's OpenAPI definitions
(and from kubernetes-validate): k8s-api-docs cannot check their fields, only say what they are.
Facts only: API group → the component that reads it.
"""

from __future__ import annotations

CONFIG_API_GROUPS: dict[str, str] = {
    "audit.k8s.io": "kube-apiserver (--audit-policy-file)",
    "apiserver.config.k8s.io": "kube-apiserver (--encryption-provider-config, "
                               "--admission-control-config-file, …)",
    "apiserver.k8s.io": "kube-apiserver (--egress-selector-config-file, "
                        "--admission-control-config-file)",
    "pod-security.admission.config.k8s.io": "kube-apiserver (the PodSecurity admission plugin's "
                                            "configuration)",
    "eventratelimit.admission.k8s.io": "kube-apiserver (the EventRateLimit admission plugin's "
                                       "configuration)",
    "kubeadm.k8s.io": "kubeadm (--config)",
    "kubelet.config.k8s.io": "the kubelet (--config, --image-credential-provider-config)",
    "credentialprovider.kubelet.k8s.io": "the kubelet's credential provider plugins",
    "kubeproxy.config.k8s.io": "kube-proxy (--config)",
    "kubescheduler.config.k8s.io": "kube-scheduler (--config)",
    "kubecontrollermanager.config.k8s.io": "kube-controller-manager",
    "cloudcontrollermanager.config.k8s.io": "cloud-controller-manager",
    "client.authentication.k8s.io": "kubectl and client-go (exec credential plugins)",
}
"""API groups of Kubernetes configuration files and who reads them."""


def config_reader(group: str) -> str:
    """The component that reads configuration files of API group ``group`` (``""``: not a
    known configuration API; any other ``*.config.k8s.io`` group is one too)."""
    if group in CONFIG_API_GROUPS:
        return CONFIG_API_GROUPS[group]
    if group.endswith(".config.k8s.io"):
        return "a Kubernetes component"
    return ""


def config_file_text(api_version: str, kind: str, group: str) -> str:
    """The ``scan`` message of a configuration file, or ``""`` when ``group`` is not one."""
    reader = config_reader(group)
    if not reader:
        return ""
    return (f"not checked: {api_version} {kind} is a Kubernetes configuration file read by "
            f"{reader}, not an object the API server serves: its schema is not in the API "
            f"definitions, so only apiVersion and kind were read")
