"""Kubernetes API server validation rules for the kinds people write by hand, as plain functions.

No API server runs here, so what one would accept is encoded from its source: each rule names (in a
comment) the upstream function it follows — ``kubernetes/kubernetes`` ``pkg/apis/<group>/validation/
validation.go`` unless another file is named; ``apimachinery`` means ``staging/src/k8s.io/apimachinery``.
Only facts are taken (limits, allowed values, what is required), not code. A rule takes a manifest
(plain JSON) and returns error strings; ``errors(manifest)`` runs every rule that applies to its kind.
Defaulting happens before validation upstream, so a field the server defaults may be absent.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from typing import Any

Rule = Callable[[dict[str, Any]], list[str]]

# -- apimachinery/pkg/util/validation/validation.go: the name and value formats --------------------
_DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
_QUALIFIED_NAME = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
_CONFIG_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")
_ENV_VAR_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_IANA_SVC_NAME = re.compile(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")
_QUANTITY = re.compile(r"^([+-]?[0-9.]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|e[0-9]+|E[0-9]+)?$")
_SUFFIX = {"": 1, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18,
           "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}


def is_dns1123_label(value: str) -> bool:  # apimachinery IsDNS1123Label
    return len(value) <= 63 and bool(_DNS1123_LABEL.match(value))


def is_dns1123_subdomain(value: str) -> bool:  # apimachinery IsDNS1123Subdomain
    return 0 < len(value) <= 253 and all(is_dns1123_label(p) for p in value.split("."))


def is_dns1035_label(value: str) -> bool:  # apimachinery IsDNS1035Label
    return len(value) <= 63 and bool(_DNS1035_LABEL.match(value))


def is_qualified_name(value: str) -> bool:  # apimachinery IsQualifiedName: [prefix/]name
    prefix, _, name = value.rpartition("/")
    if "/" in value and not prefix:
        return False
    return (not prefix or is_dns1123_subdomain(prefix)) and len(name) <= 63 \
        and bool(_QUALIFIED_NAME.match(name))


def is_label_value(value: str) -> bool:  # apimachinery IsValidLabelValue
    return len(value) <= 63 and bool(_LABEL_VALUE.match(value))


def is_config_key(value: str) -> bool:  # apimachinery IsConfigMapKey
    return 0 < len(value) <= 253 and bool(_CONFIG_KEY.match(value)) and value not in (".", "..")


def is_port_name(value: str) -> bool:  # apimachinery IsValidPortName (IANA_SVC_NAME)
    return 0 < len(value) <= 15 and bool(_IANA_SVC_NAME.match(value)) and "--" not in value \
        and any(c.isalpha() for c in value)


def is_port_number(value: Any) -> bool:  # apimachinery IsValidPortNum
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535


def is_path_segment(value: str) -> bool:  # apimachinery/pkg/api/validation/path IsValidPathSegmentName
    return bool(value) and value not in (".", "..") and "/" not in value and "%" not in value


def quantity(value: Any) -> float | None:
    """apimachinery/pkg/api/resource ParseQuantity (enough of it): the value, or None if invalid."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    match = _QUANTITY.match(str(value))
    if not match:
        return None
    number, suffix = match.group(1), match.group(2) or ""
    try:
        base = float(number)
    except ValueError:
        return None
    if suffix[:1] in ("e", "E") and suffix not in _SUFFIX:
        return base * 10 ** int(suffix[1:])
    return base * _SUFFIX[suffix]


# -- helpers ---------------------------------------------------------------------------------------
def _get(obj: Any, path: str, default: Any = None) -> Any:
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return default
        obj = obj[part]
    return obj


def _enum(value: Any, allowed: tuple[str, ...], where: str, required: bool = False) -> list[str]:
    if value is None:
        return [f"{where}: Required value"] if required else []
    return [] if value in allowed else [f"{where}: Unsupported value {value!r}"]


def _labels(labels: Any, where: str) -> list[str]:
    # apimachinery/pkg/apis/meta/v1/validation ValidateLabels: qualified-name keys, label values
    out = []
    for key, value in (labels or {}).items():
        if not is_qualified_name(key):
            out.append(f"{where}: invalid label key {key!r}")
        if not isinstance(value, str) or not is_label_value(value):
            out.append(f"{where}: invalid label value {value!r}")
    return out


def _selector(selector: Any, where: str, required: bool = False) -> list[str]:
    # apimachinery/pkg/apis/meta/v1/validation ValidateLabelSelector (+ "empty selector is invalid"
    # of the workload validators when it must select something)
    if not selector or not (selector.get("matchLabels") or selector.get("matchExpressions")):
        return [f"{where}: Required value (empty selector)"] if required else []
    out = _labels(selector.get("matchLabels"), f"{where}.matchLabels")
    for expression in selector.get("matchExpressions") or []:
        op, values = expression.get("operator"), expression.get("values") or []
        out += _enum(op, ("In", "NotIn", "Exists", "DoesNotExist"), f"{where}.operator", True)
        if (op in ("In", "NotIn") and not values) or (op in ("Exists", "DoesNotExist") and values):
            out.append(f"{where}.values: wrong for operator {op}")
    return out


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    """apimachinery/pkg/apis/meta/v1 LabelSelectorAsSelector(...).Matches(labels)."""
    if any(labels.get(k) != v for k, v in (selector.get("matchLabels") or {}).items()):
        return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e.get("key"), e.get("operator"), e.get("values") or []
        if (op == "In" and labels.get(key) not in values) or (op == "NotIn" and labels.get(key) in values) \
                or (op == "Exists" and key not in labels) or (op == "DoesNotExist" and key in labels):
            return False
    return True


# -- every kind: metadata (apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMeta) ---------
NAME_RULES: dict[str, tuple[str, Callable[[str], bool]]] = {
    # core ValidateNamespaceName = NameIsDNSLabel
    "Namespace": ("a DNS-1123 label", is_dns1123_label),
    # core ValidateServiceName = NameIsDNS1035Label
    "Service": ("a DNS-1035 label", is_dns1035_label),
    # apps ValidateStatefulSetName: NameIsDNSLabel in current releases (pod hostnames derive from
    # it; older releases allowed a DNS subdomain): the stricter rule
    "StatefulSet": ("a DNS-1123 label", is_dns1123_label),
    # rbac ValidateRBACName = path.IsValidPathSegmentName
    "Role": ("a path segment", is_path_segment), "ClusterRole": ("a path segment", is_path_segment),
    "RoleBinding": ("a path segment", is_path_segment),
    "ClusterRoleBinding": ("a path segment", is_path_segment),
}
"""Kinds whose name is not a DNS-1123 subdomain (NameIsDNSSubdomain, the default)."""


def rule_object_meta(obj: dict[str, Any]) -> list[str]:
    """ValidateObjectMeta with the kind's name validator; ValidateLabels; ValidateAnnotations."""
    meta = obj.get("metadata") or {}
    name = meta.get("name")
    what, valid = NAME_RULES.get(obj.get("kind", ""), ("a DNS-1123 subdomain", is_dns1123_subdomain))
    out = [] if isinstance(name, str) and valid(name) else [f"metadata.name: must be {what}: {name!r}"]
    out += _labels(meta.get("labels"), "metadata.labels")
    out += [f"metadata.annotations: invalid key {k!r}" for k in meta.get("annotations") or {}
            if not is_qualified_name(k.lower())]
    return out


STATUS_REQUIRED = frozenset({"StorageVersion"})
"""Kinds whose schema requires ``status`` (only API servers write StorageVersions)."""


def rule_no_status(obj: dict[str, Any]) -> list[str]:
    """Not a server rule: the status subresource is the cluster's; a manifest never carries it."""
    if "status" in obj and obj.get("kind") not in STATUS_REQUIRED:
        return ["status: a manifest has no status"]
    return []


# -- pods (pkg/apis/core/validation/validation.go) --------------------------------------------------
def _pod_spec(spec: dict[str, Any], where: str, claim_names: tuple[str, ...] = ()) -> list[str]:
    out: list[str] = []
    containers = spec.get("containers") or []
    if not containers:  # validateContainers
        out.append(f"{where}.containers: Required value")
    all_containers = [*(spec.get("initContainers") or []), *containers]
    names = [c.get("name") for c in all_containers]
    for name in names:  # validateContainers / validateInitContainers: DNS-1123 label, unique
        if not isinstance(name, str) or not is_dns1123_label(name):
            out.append(f"{where}.containers.name: must be a DNS-1123 label: {name!r}")
    if len(set(names)) != len(names):
        out.append(f"{where}.containers.name: Duplicate value")
    volumes = spec.get("volumes") or []
    volume_names = [v.get("name") for v in volumes]
    for volume in volumes:  # ValidateVolumes / validateVolumeSource: DNS label, exactly one source
        if not is_dns1123_label(str(volume.get("name"))):
            out.append(f"{where}.volumes.name: must be a DNS-1123 label")
        if len([k for k in volume if k != "name"]) != 1:
            out.append(f"{where}.volumes: exactly one volume source")
    if len(set(volume_names)) != len(volume_names):
        out.append(f"{where}.volumes.name: Duplicate value")
    known_volumes = {*volume_names, *claim_names}
    for c in all_containers:
        out += _container(c, f"{where}.containers[{c.get('name')}]", known_volumes)
    # validateRestartPolicy, validateDNSPolicy
    out += _enum(spec.get("restartPolicy"), ("Always", "OnFailure", "Never"), f"{where}.restartPolicy")
    out += _enum(spec.get("dnsPolicy"), ("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"),
                 f"{where}.dnsPolicy")
    return out


def _container(c: dict[str, Any], where: str, volumes: set[str]) -> list[str]:
    out: list[str] = []
    if not c.get("image"):  # validateContainers: image is required (pods and pod templates)
        out.append(f"{where}.image: Required value")
    out += _enum(c.get("imagePullPolicy"), ("Always", "Never", "IfNotPresent"),  # validatePullPolicy
                 f"{where}.imagePullPolicy")
    port_names = []
    for port in c.get("ports") or []:  # validateContainerPorts
        if not is_port_number(port.get("containerPort")):
            out.append(f"{where}.ports.containerPort: must be between 1 and 65535")
        if "name" in port:
            port_names.append(port["name"])
            if not is_port_name(port["name"]):
                out.append(f"{where}.ports.name: must be an IANA_SVC_NAME: {port['name']!r}")
        out += _enum(port.get("protocol"), ("TCP", "UDP", "SCTP"), f"{where}.ports.protocol")
    if len(set(port_names)) != len(port_names):
        out.append(f"{where}.ports.name: Duplicate value")
    for env in c.get("env") or []:  # validateEnv: IsEnvVarName; validateEnvVarValueFrom: one source
        if not _ENV_VAR_NAME.match(str(env.get("name", ""))):
            out.append(f"{where}.env.name: invalid environment variable name {env.get('name')!r}")
        source = env.get("valueFrom")
        if source is not None:
            if env.get("value"):
                out.append(f"{where}.env.valueFrom: not with a non-empty value")
            if len(source) != 1:
                out.append(f"{where}.env.valueFrom: must specify exactly one source")
            for key in ("secretKeyRef", "configMapKeyRef"):
                ref = source.get(key)
                if ref is not None and (not ref.get("name") or not is_config_key(str(ref.get("key", "")))):
                    out.append(f"{where}.env.valueFrom.{key}: name and a valid key are required")
    for mount in c.get("volumeMounts") or []:  # ValidateVolumeMounts: a known volume, a mountPath
        if mount.get("name") not in volumes:
            out.append(f"{where}.volumeMounts.name: not found: {mount.get('name')!r}")
        if not mount.get("mountPath"):
            out.append(f"{where}.volumeMounts.mountPath: Required value")
    resources = c.get("resources") or {}  # ValidateResourceRequirements: request <= limit
    for name, request in (resources.get("requests") or {}).items():
        limit = (resources.get("limits") or {}).get(name)
        if quantity(request) is None or (limit is not None and quantity(limit) is None):
            out.append(f"{where}.resources: invalid quantity")
        elif limit is not None and quantity(request) > quantity(limit):
            out.append(f"{where}.resources.requests.{name}: must be less than or equal to the limit")
    return out


def rule_pod(obj: dict[str, Any]) -> list[str]:
    """ValidatePodCreate → ValidatePodSpec (validateContainers, ValidateVolumes, validateRestartPolicy…)."""
    return _pod_spec(obj.get("spec") or {}, "spec")


# -- workloads (pkg/apis/apps/validation/validation.go) ---------------------------------------------
def rule_workload(obj: dict[str, Any]) -> list[str]:
    """ValidateDeploymentSpec / ValidateReplicaSetSpec / ValidateDaemonSetSpec / ValidateStatefulSetSpec:
    a non-empty selector that selects the template's labels; replicas >= 0; a valid pod template
    whose restartPolicy is Always (ValidatePodTemplateSpecForReplicaSet and its StatefulSet/DaemonSet
    twins); a StatefulSet's claim templates count as volumes (ValidateStatefulSetSpec)."""
    spec = obj.get("spec") or {}
    out = _selector(spec.get("selector"), "spec.selector", required=True)
    labels = _get(spec, "template.metadata.labels") or {}
    if spec.get("selector") and not _selects(spec["selector"], labels):
        out.append("spec.template.metadata.labels: the selector does not select these pod labels")
    if spec.get("replicas", 0) < 0:
        out.append("spec.replicas: must be greater than or equal to 0")
    claims = tuple(_get(t, "metadata.name") for t in spec.get("volumeClaimTemplates") or [])
    out += _pod_spec(_get(spec, "template.spec") or {}, "spec.template.spec", claims)
    if _get(spec, "template.spec.restartPolicy", "Always") != "Always":
        out.append("spec.template.spec.restartPolicy: Unsupported value: only Always")
    for i, claim in enumerate(spec.get("volumeClaimTemplates") or []):
        out += _claim_spec(claim.get("spec") or {}, f"spec.volumeClaimTemplates[{i}].spec")
    return out


def rule_rolling_update(obj: dict[str, Any]) -> list[str]:
    """ValidateRollingUpdateDeployment: maxUnavailable and maxSurge may not both be 0."""
    update = _get(obj, "spec.strategy.rollingUpdate") or {}
    if str(update.get("maxUnavailable", 1)).rstrip("%") == "0" \
            and str(update.get("maxSurge", 1)).rstrip("%") == "0":
        return ["spec.strategy.rollingUpdate: maxUnavailable may not be 0 when maxSurge is 0"]
    return []


def rule_statefulset_policies(obj: dict[str, Any]) -> list[str]:
    """ValidateStatefulSetSpec: podManagementPolicy and updateStrategy.type are known values."""
    spec = obj.get("spec") or {}
    return _enum(spec.get("podManagementPolicy"), ("OrderedReady", "Parallel"),
                 "spec.podManagementPolicy") \
        + _enum(_get(spec, "updateStrategy.type"), ("RollingUpdate", "OnDelete"), "spec.updateStrategy.type")


# -- batch (pkg/apis/batch/validation/validation.go) ------------------------------------------------
def _job_spec(spec: dict[str, Any], where: str) -> list[str]:
    """validateJobSpec: a pod template with restartPolicy OnFailure or Never; counts >= 0."""
    out = _pod_spec(_get(spec, "template.spec") or {}, f"{where}.template.spec")
    policy = _get(spec, "template.spec.restartPolicy")
    if policy not in ("OnFailure", "Never"):
        out.append(f"{where}.template.spec.restartPolicy: Required value: OnFailure or Never, not {policy!r}")
    for key in ("parallelism", "completions", "backoffLimit", "activeDeadlineSeconds"):
        if spec.get(key, 0) < 0:
            out.append(f"{where}.{key}: must be greater than or equal to 0")
    out += _enum(spec.get("completionMode"), ("NonIndexed", "Indexed"), f"{where}.completionMode")
    return out


def rule_job(obj: dict[str, Any]) -> list[str]:
    """ValidateJob → ValidateGeneratedSelector (the server generates the selector: a user's own one
    needs manualSelector: true) and ValidateJobSpec."""
    spec = obj.get("spec") or {}
    out = _job_spec(spec, "spec")
    if spec.get("selector") and not spec.get("manualSelector"):
        out.append("spec.selector: set by the server unless manualSelector is true")
    return out


_CRON_FIELDS = ((0, 59, {}), (0, 23, {}), (1, 31, {}),
                (1, 12, {m: i + 1 for i, m in enumerate(
                    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}),
                (0, 6, {d: i for i, d in enumerate(["sun", "mon", "tue", "wed", "thu", "fri", "sat"])}))
_CRON_DESCRIPTORS = ("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")


def cron_schedule_errors(schedule: str) -> list[str]:
    """robfig/cron ParseStandard (what validateScheduleFormat calls): five fields or a descriptor."""
    if schedule in _CRON_DESCRIPTORS or re.match(r"^@every \d+(ns|us|ms|s|m|h)+", schedule):
        return []
    fields = schedule.split()
    if len(fields) != 5:
        return [f"expected exactly 5 fields, found {len(fields)}: {schedule!r}"]
    out = []
    for text, (low, high, names) in zip(fields, _CRON_FIELDS, strict=True):
        for part in text.split(","):
            match = re.match(r"^(\*|\?|[A-Za-z0-9]+)(?:-([A-Za-z0-9]+))?(?:/(\d+))?$", part)
            if not match:
                out.append(f"invalid cron field {part!r}")
                continue
            for bound in (match.group(1), match.group(2)):
                if bound is None or bound in ("*", "?"):
                    continue
                value = names.get(bound.lower(), int(bound) if bound.isdigit() else None)
                if value is None or not low <= value <= high:
                    out.append(f"value {bound!r} out of range [{low}, {high}]")
            if match.group(3) is not None and int(match.group(3)) == 0:
                out.append("a step must be 1 or more")
    return out


def rule_cronjob(obj: dict[str, Any]) -> list[str]:
    """validateCronJobSpec: validateScheduleFormat, validateConcurrencyPolicy, the job template
    through ValidateJobTemplateSpec → validateJobSpec; ValidateCronJobCreate: name <= 52 characters
    (63 - the 11 of the Job name suffix)."""
    spec = obj.get("spec") or {}
    out = [f"spec.schedule: {e}" for e in cron_schedule_errors(str(spec.get("schedule", "")))]
    if str(spec.get("schedule", "")).startswith(("TZ=", "CRON_TZ=")):
        out.append("spec.schedule: a time zone goes in spec.timeZone, not in the schedule")
    out += _enum(spec.get("concurrencyPolicy"), ("Allow", "Forbid", "Replace"), "spec.concurrencyPolicy")
    out += _job_spec(_get(spec, "jobTemplate.spec") or {}, "spec.jobTemplate.spec")
    if len(_get(obj, "metadata.name", "")) > 52:
        out.append("metadata.name: longer than 52 characters (Job names add 11)")
    return out


# -- services and networking -------------------------------------------------------------------------
def rule_service(obj: dict[str, Any]) -> list[str]:
    """core ValidateService: a known type; ports required unless ExternalName or headless
    (clusterIP None); validateServicePort: port 1-65535, protocol, names DNS-1123 labels required
    when there are several and unique, targetPort a port number or an IANA_SVC_NAME; ExternalName
    needs externalName; the selector holds valid labels."""
    spec = obj.get("spec") or {}
    kind = spec.get("type", "ClusterIP")
    out = _enum(kind, ("ClusterIP", "NodePort", "LoadBalancer", "ExternalName"), "spec.type")
    ports = spec.get("ports") or []
    if not ports and kind != "ExternalName" and spec.get("clusterIP") != "None":
        out.append("spec.ports: Required value")
    names = [p.get("name", "") for p in ports]
    for port in ports:
        if not is_port_number(port.get("port")):
            out.append("spec.ports.port: must be between 1 and 65535")
        out += _enum(port.get("protocol"), ("TCP", "UDP", "SCTP"), "spec.ports.protocol")
        name = port.get("name", "")
        if (len(ports) > 1 and not name) or (name and not is_dns1123_label(name)):
            out.append(f"spec.ports.name: must be a DNS-1123 label (required with several ports): {name!r}")
        target = port.get("targetPort")
        if target is not None and not (is_port_number(target) or (isinstance(target, str)
                                       and is_port_name(target))):
            out.append(f"spec.ports.targetPort: must be a port number or an IANA_SVC_NAME: {target!r}")
    if len(set(names)) != len(names):
        out.append("spec.ports.name: Duplicate value")
    if kind == "ExternalName" and not spec.get("externalName"):
        out.append("spec.externalName: Required value")
    return out + _labels(spec.get("selector"), "spec.selector")


def rule_ingress(obj: dict[str, Any]) -> list[str]:
    """networking ValidateIngressSpec: rules or a defaultBackend; ingressClassName a DNS subdomain;
    validateIngressRules: host a DNS subdomain (a leading ``*.`` allowed); validateHTTPIngressPath:
    pathType required and known, Exact/Prefix paths absolute; validateIngressBackend: a service with
    a name and exactly one of port name/number, or a resource, not both."""
    spec = obj.get("spec") or {}
    out = []
    if not spec.get("rules") and not spec.get("defaultBackend"):
        out.append("spec: needs rules or a defaultBackend")
    if "ingressClassName" in spec and not is_dns1123_subdomain(str(spec["ingressClassName"])):
        out.append("spec.ingressClassName: must be a DNS-1123 subdomain")
    backends = [spec["defaultBackend"]] if spec.get("defaultBackend") else []
    for rule in spec.get("rules") or []:
        host = rule.get("host")
        if host is not None and not is_dns1123_subdomain(host.removeprefix("*.")):
            out.append(f"spec.rules.host: must be a DNS-1123 subdomain: {host!r}")
        for path in _get(rule, "http.paths") or []:
            kind = path.get("pathType")
            out += _enum(kind, ("Exact", "Prefix", "ImplementationSpecific"),
                         "spec.rules.http.paths.pathType", required=True)
            if kind in ("Exact", "Prefix") and not str(path.get("path", "")).startswith("/"):
                out.append("spec.rules.http.paths.path: must be an absolute path")
            backends.append(path.get("backend") or {})
    for backend in backends:
        service, resource = backend.get("service"), backend.get("resource")
        if bool(service) == bool(resource):
            out.append("backend: a service or a resource, not both")
        if service:
            port = service.get("port") or {}
            if not service.get("name") or ("name" in port) == ("number" in port):
                out.append("backend.service: a name and exactly one of port.name or port.number")
            elif "number" in port and not is_port_number(port["number"]):
                out.append("backend.service.port.number: must be between 1 and 65535")
    return out


def rule_ingress_class(obj: dict[str, Any]) -> list[str]:
    """networking validateIngressClassSpec: controller required, a domain-prefixed path of at most
    250 characters (IsDomainPrefixedPath)."""
    controller = str(_get(obj, "spec.controller", ""))
    domain, slash, path = controller.partition("/")
    if not controller or len(controller) > 250 or not slash or not is_dns1123_subdomain(domain) or not path:
        return [f"spec.controller: must be a domain-prefixed path: {controller!r}"]
    return []


def rule_network_policy(obj: dict[str, Any]) -> list[str]:
    """networking ValidateNetworkPolicySpec: podSelector a valid selector; policyTypes Ingress/Egress;
    ValidateNetworkPolicyPort: protocol, port number; ValidateNetworkPolicyPeer: exactly one of
    podSelector/namespaceSelector (may be together) or ipBlock, with a valid CIDR."""
    spec = obj.get("spec") or {}
    out = _selector(spec.get("podSelector"), "spec.podSelector")
    for kind in spec.get("policyTypes") or []:
        out += _enum(kind, ("Ingress", "Egress"), "spec.policyTypes")
    for direction, peers_key in (("ingress", "from"), ("egress", "to")):
        for rule in spec.get(direction) or []:
            for port in rule.get("ports") or []:
                out += _enum(port.get("protocol"), ("TCP", "UDP", "SCTP"), f"spec.{direction}.ports.protocol")
                if isinstance(port.get("port"), int) and not is_port_number(port["port"]):
                    out.append(f"spec.{direction}.ports.port: must be between 1 and 65535")
            for peer in rule.get(peers_key) or []:
                selectors = peer.get("podSelector") is not None or peer.get("namespaceSelector") is not None
                if selectors == bool(peer.get("ipBlock")):
                    out.append(f"spec.{direction}.{peers_key}: must specify a peer (selectors or ipBlock)")
                if peer.get("ipBlock"):
                    try:
                        ipaddress.ip_network(peer["ipBlock"].get("cidr", ""))
                    except ValueError:
                        out.append(f"spec.{direction}.{peers_key}.ipBlock.cidr: invalid CIDR")
    return out


# -- configuration -------------------------------------------------------------------------------
def rule_config_map(obj: dict[str, Any]) -> list[str]:
    """core ValidateConfigMap: keys IsConfigMapKey, not in both data and binaryData, total < 1 MiB."""
    data, binary = obj.get("data") or {}, obj.get("binaryData") or {}
    out = [f"data: invalid key {k!r}" for k in [*data, *binary] if not is_config_key(k)]
    out += [f"data: duplicate key {k!r} in binaryData" for k in set(data) & set(binary)]
    if sum(len(str(v)) for v in [*data.values(), *binary.values()]) > 1024 * 1024:
        out.append("data: too long")
    return out


SECRET_KEYS = {"kubernetes.io/dockercfg": (".dockercfg",),
               "kubernetes.io/dockerconfigjson": (".dockerconfigjson",),
               "kubernetes.io/ssh-auth": ("ssh-privatekey",),
               "kubernetes.io/tls": ("tls.crt", "tls.key")}
"""core ValidateSecret: the keys a typed Secret must hold."""


def rule_secret(obj: dict[str, Any]) -> list[str]:
    """core ValidateSecret: keys IsConfigMapKey; the keys each type requires; basic-auth needs a
    username or a password; service-account-token needs the service-account.name annotation."""
    data = {**(obj.get("data") or {}), **(obj.get("stringData") or {})}
    kind = obj.get("type", "Opaque")
    out = [f"data: invalid key {k!r}" for k in data if not is_config_key(k)]
    out += [f"data[{k}]: Required value for type {kind}" for k in SECRET_KEYS.get(kind, ()) if k not in data]
    if kind == "kubernetes.io/basic-auth" and not {"username", "password"} & set(data):
        out.append("data: basic-auth needs a username or a password")
    if kind == "kubernetes.io/service-account-token" and \
            not _get(obj, "metadata.annotations", {}).get("kubernetes.io/service-account.name"):
        out.append("metadata.annotations[kubernetes.io/service-account.name]: Required value")
    return out


def rule_namespace(obj: dict[str, Any]) -> list[str]:
    """core ValidateNamespace → validateFinalizerName: spec.finalizers are qualified names."""
    return [f"spec.finalizers: invalid {f!r}" for f in _get(obj, "spec.finalizers") or []
            if not is_qualified_name(f)]


# -- storage ---------------------------------------------------------------------------------------
_ACCESS_MODES = ("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod")


def _claim_spec(spec: dict[str, Any], where: str) -> list[str]:
    """core ValidatePersistentVolumeClaimSpec: access modes required and known; a positive storage
    request; volumeMode Block/Filesystem; storageClassName a DNS subdomain."""
    out = []
    modes = spec.get("accessModes") or []
    if not modes:
        out.append(f"{where}.accessModes: at least one access mode")
    for mode in modes:
        out += _enum(mode, _ACCESS_MODES, f"{where}.accessModes")
    storage = _get(spec, "resources.requests.storage")
    if storage is None:
        out.append(f"{where}.resources.requests.storage: Required value")
    elif not (quantity(storage) or 0) > 0:
        out.append(f"{where}.resources.requests.storage: must be greater than zero")
    out += _enum(spec.get("volumeMode"), ("Block", "Filesystem"), f"{where}.volumeMode")
    if spec.get("storageClassName") and not is_dns1123_subdomain(spec["storageClassName"]):
        out.append(f"{where}.storageClassName: must be a DNS-1123 subdomain")
    return out


def rule_pvc(obj: dict[str, Any]) -> list[str]:
    """core ValidatePersistentVolumeClaim → ValidatePersistentVolumeClaimSpec."""
    return _claim_spec(obj.get("spec") or {}, "spec")


PV_FIELDS = frozenset({"accessModes", "capacity", "claimRef", "mountOptions", "nodeAffinity",
                       "persistentVolumeReclaimPolicy", "storageClassName", "volumeMode",
                       "volumeAttributesClassName"})
"""PersistentVolumeSpec fields that are not a volume source."""


def rule_pv(obj: dict[str, Any]) -> list[str]:
    """core ValidatePersistentVolumeSpec: access modes required and known; capacity with only a
    positive storage; exactly one volume source; reclaim policy known; a local volume needs
    nodeAffinity; validateNFSVolumeSource: server and an absolute path."""
    spec = obj.get("spec") or {}
    out = []
    modes = spec.get("accessModes") or []
    if not modes:
        out.append("spec.accessModes: Required value")
    for mode in modes:
        out += _enum(mode, _ACCESS_MODES, "spec.accessModes")
    capacity = spec.get("capacity") or {}
    if set(capacity) != {"storage"} or not (quantity(capacity["storage"]) or 0) > 0:
        out.append("spec.capacity: must hold exactly a positive storage")
    sources = [k for k in spec if k not in PV_FIELDS]
    if len(sources) != 1:
        out.append(f"spec: must specify exactly one volume source, not {sources}")
    out += _enum(spec.get("persistentVolumeReclaimPolicy"), ("Retain", "Delete", "Recycle"),
                 "spec.persistentVolumeReclaimPolicy")
    if "local" in spec and not spec.get("nodeAffinity"):
        out.append("spec.nodeAffinity: Required value for a local volume")
    if "nfs" in spec:
        nfs = spec["nfs"]
        if not nfs.get("server") or not str(nfs.get("path", "")).startswith("/"):
            out.append("spec.nfs: server and an absolute path are required")
    return out


def rule_storage_class(obj: dict[str, Any]) -> list[str]:
    """storage ValidateStorageClass: validateProvisioner (required, a qualified name),
    validateReclaimPolicy (Delete/Retain), validateVolumeBindingMode, validateParameters (<= 512)."""
    provisioner = obj.get("provisioner")
    out = [] if provisioner and is_qualified_name(provisioner.lower()) else \
        [f"provisioner: must be a qualified name: {provisioner!r}"]
    out += _enum(obj.get("reclaimPolicy"), ("Delete", "Retain"), "reclaimPolicy")
    out += _enum(obj.get("volumeBindingMode"), ("Immediate", "WaitForFirstConsumer"), "volumeBindingMode")
    if len(obj.get("parameters") or {}) > 512:
        out.append("parameters: at most 512")
    return out


# -- RBAC (pkg/apis/rbac/validation/validation.go) ---------------------------------------------------
def rule_policy_rules(obj: dict[str, Any]) -> list[str]:
    """ValidateRole/ValidateClusterRole → ValidatePolicyRule: verbs required; a resource rule names
    at least one API group and one resource; nonResourceURLs only in a ClusterRole, never with them."""
    out = []
    for rule in obj.get("rules") or []:
        if not rule.get("verbs"):
            out.append("rules.verbs: at least one verb")
        if rule.get("nonResourceURLs"):
            if obj.get("kind") != "ClusterRole":
                out.append("rules.nonResourceURLs: only a ClusterRole may name non-resource URLs")
            if rule.get("apiGroups") or rule.get("resources"):
                out.append("rules.nonResourceURLs: not in the same rule as API groups or resources")
            continue
        if not rule.get("apiGroups"):
            out.append("rules.apiGroups: a resource rule names at least one API group")
        if not rule.get("resources"):
            out.append("rules.resources: a resource rule names at least one resource")
    return out


def rule_binding(obj: dict[str, Any]) -> list[str]:
    """ValidateRoleBinding / ValidateClusterRoleBinding: roleRef in rbac.authorization.k8s.io, of
    kind Role or ClusterRole (only ClusterRole cluster-wide), a valid name; ValidateRoleBindingSubject:
    kind ServiceAccount (API group "", a DNS-subdomain name, a namespace when cluster-wide), User or
    Group (API group rbac.authorization.k8s.io), a name."""
    ref = obj.get("roleRef") or {}
    cluster = obj.get("kind") == "ClusterRoleBinding"
    out = []
    if ref.get("apiGroup") != "rbac.authorization.k8s.io":
        out.append(f"roleRef.apiGroup: Unsupported value {ref.get('apiGroup')!r}")
    out += _enum(ref.get("kind"), ("ClusterRole",) if cluster else ("Role", "ClusterRole"), "roleRef.kind",
                 required=True)
    if not is_path_segment(str(ref.get("name", ""))):
        out.append("roleRef.name: Required value")
    for subject in obj.get("subjects") or []:
        kind, group, name = subject.get("kind"), subject.get("apiGroup", ""), subject.get("name", "")
        out += _enum(kind, ("ServiceAccount", "User", "Group"), "subjects.kind", required=True)
        if not name:
            out.append("subjects.name: Required value")
        if kind == "ServiceAccount":
            if group:
                out.append(f"subjects.apiGroup: Unsupported value {group!r} for a ServiceAccount")
            if not is_dns1123_subdomain(name):
                out.append("subjects.name: must be a DNS-1123 subdomain")
            if cluster and not subject.get("namespace"):
                out.append("subjects.namespace: Required value")
        elif kind in ("User", "Group") and group != "rbac.authorization.k8s.io":
            out.append(f"subjects.apiGroup: Unsupported value {group!r}")
    return out


# -- autoscaling, policy, scheduling --------------------------------------------------------------
_METRIC_SOURCES = {"Object": "object", "Pods": "pods", "Resource": "resource",
                   "ContainerResource": "containerResource", "External": "external"}


def rule_hpa(obj: dict[str, Any]) -> list[str]:
    """autoscaling validateHorizontalPodAutoscalerSpec: minReplicas >= 1, maxReplicas >= 1 and >=
    minReplicas; ValidateCrossVersionObjectReference: kind and a path-segment name; validateMetricSpec:
    a known type whose source (only) is set; validateMetricTarget: Utilization needs a positive
    averageUtilization, Value a value, AverageValue an averageValue; v1's
    targetCPUUtilizationPercentage >= 1."""
    spec = obj.get("spec") or {}
    low, high = spec.get("minReplicas", 1), spec.get("maxReplicas", 0)
    out = [] if low >= 1 else ["spec.minReplicas: must be greater than or equal to 1"]
    if high < 1 or high < low:
        out.append("spec.maxReplicas: must be greater than or equal to 1 and to minReplicas")
    ref = spec.get("scaleTargetRef") or {}
    if not ref.get("kind") or not is_path_segment(str(ref.get("name", ""))):
        out.append("spec.scaleTargetRef: kind and name are required")
    if spec.get("targetCPUUtilizationPercentage", 1) < 1:
        out.append("spec.targetCPUUtilizationPercentage: must be greater than or equal to 1")
    for metric in spec.get("metrics") or []:
        kind = metric.get("type")
        source = _METRIC_SOURCES.get(kind)
        present = [v for v in _METRIC_SOURCES.values() if v in metric]
        if source is None or present != [source]:
            out.append(f"spec.metrics: type {kind!r} must set exactly its own source, not {present}")
            continue
        body = metric[source]
        if kind in ("Resource", "ContainerResource") and not body.get("name"):
            out.append("spec.metrics.resource.name: Required value")
        target = body.get("target") or {}
        need = {"Utilization": "averageUtilization", "Value": "value", "AverageValue": "averageValue"}
        if target.get("type") not in need or not target.get(need[target.get("type")]):
            out.append(f"spec.metrics.{source}.target: {target.get('type')!r} needs its value")
        elif target.get("averageUtilization", 1) < 1:
            out.append(f"spec.metrics.{source}.target.averageUtilization: must be greater than 0")
    return out


def _int_or_percent(value: Any) -> bool:
    """ValidatePositiveIntOrPercent + IsNotMoreThan100Percent."""
    if isinstance(value, int):
        return value >= 0
    match = re.match(r"^(\d+)%$", str(value))
    return bool(match) and int(match.group(1)) <= 100


def rule_pdb(obj: dict[str, Any]) -> list[str]:
    """policy ValidatePodDisruptionBudgetSpec: not both minAvailable and maxUnavailable; each a
    non-negative integer or a percentage <= 100; a valid selector."""
    spec = obj.get("spec") or {}
    out = []
    if "minAvailable" in spec and "maxUnavailable" in spec:
        out.append("spec: only one of minAvailable and maxUnavailable")
    out += [f"spec.{k}: must be a non-negative integer or a percentage" for k in
            ("minAvailable", "maxUnavailable") if k in spec and not _int_or_percent(spec[k])]
    return out + _selector(spec.get("selector"), "spec.selector")


def rule_priority_class(obj: dict[str, Any]) -> list[str]:
    """scheduling ValidatePriorityClass: a user class's name does not start with ``system-`` and its
    value is at most HighestUserDefinablePriority (1e9); ValidatePreemptionPolicy."""
    name, value = str(_get(obj, "metadata.name", "")), obj.get("value")
    out = ["metadata.name: the system- prefix is reserved"] if name.startswith("system-") else []
    if not isinstance(value, int) or value > 1_000_000_000:
        out.append("value: must be an integer of at most 1000000000")
    return out + _enum(obj.get("preemptionPolicy"), ("PreemptLowerPriority", "Never"), "preemptionPolicy")


def rule_limit_range(obj: dict[str, Any]) -> list[str]:
    """core ValidateLimitRange: type Pod/Container/PersistentVolumeClaim; a Pod limit has no
    default or defaultRequest; per resource min <= defaultRequest <= default <= max, and
    maxLimitRequestRatio >= 1."""
    out = []
    for item in _get(obj, "spec.limits") or []:
        kind = item.get("type")
        out += _enum(kind, ("Pod", "Container", "PersistentVolumeClaim"), "spec.limits.type", required=True)
        if kind == "Pod" and (item.get("default") or item.get("defaultRequest")):
            out.append("spec.limits: a Pod limit may not set default or defaultRequest")
        order = ("min", "defaultRequest", "default", "max")
        resources = {r for key in order for r in item.get(key) or {}}
        for resource in resources:
            values = [quantity((item.get(key) or {})[resource]) for key in order
                      if resource in (item.get(key) or {})]
            if None in values or values != sorted(values):
                out.append(f"spec.limits[{resource}]: min <= defaultRequest <= default <= max")
        for resource, ratio in (item.get("maxLimitRequestRatio") or {}).items():
            if (quantity(ratio) or 0) < 1:
                out.append(f"spec.limits.maxLimitRequestRatio[{resource}]: must be >= 1")
    return out


QUOTA_NAMES = frozenset({
    "pods", "services", "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
    "persistentvolumeclaims", "services.nodeports", "services.loadbalancers", "cpu", "memory",
    "requests.cpu", "requests.memory", "requests.storage", "requests.ephemeral-storage",
    "limits.cpu", "limits.memory", "limits.ephemeral-storage", "ephemeral-storage"})
"""core standardQuotaResources (+ the standard resource names a quota may limit)."""


def rule_resource_quota(obj: dict[str, Any]) -> list[str]:
    """core ValidateResourceQuotaSpec → validateResourceQuotaResourceName (a standard name, a
    domain-prefixed one, ``count/…`` or ``requests.<extended>``) and ValidateResourceQuantityValue
    (not negative); scopes are known ones."""
    out = []
    for name, value in (_get(obj, "spec.hard") or {}).items():
        if name not in QUOTA_NAMES and not name.startswith(("count/", "requests.")) and "/" not in name:
            out.append(f"spec.hard[{name}]: not a resource a quota can limit")
        amount = quantity(value)
        if amount is None or amount < 0:
            out.append(f"spec.hard[{name}]: must be a non-negative quantity")
    for scope in _get(obj, "spec.scopes") or []:
        out += _enum(scope, ("Terminating", "NotTerminating", "BestEffort", "NotBestEffort",
                             "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass"),
                     "spec.scopes")
    return out


# -- admission policies (pkg/apis/admissionregistration/validation/validation.go) --------------------
def rule_admission_policy(obj: dict[str, Any]) -> list[str]:
    """validateValidatingAdmissionPolicySpec: validations (or auditAnnotations) not empty, each with
    an expression; failurePolicy Fail/Ignore; validateMatchResources: matchConstraints with
    resourceRules; validateNamedRuleWithOperations: operations known, apiGroups, apiVersions and
    resources not empty."""
    spec = obj.get("spec") or {}
    out = []
    if not spec.get("validations") and not spec.get("auditAnnotations"):
        out.append("spec.validations: Required value")
    out += ["spec.validations.expression: Required value"
            for v in spec.get("validations") or [] if not str(v.get("expression", "")).strip()]
    out += _enum(spec.get("failurePolicy"), ("Fail", "Ignore"), "spec.failurePolicy")
    rules = _get(spec, "matchConstraints.resourceRules") or []
    if not rules:
        out.append("spec.matchConstraints.resourceRules: Required value")
    for rule in rules:
        for key in ("operations", "apiGroups", "apiVersions", "resources"):
            if not rule.get(key):
                out.append(f"spec.matchConstraints.resourceRules.{key}: Required value")
        out += [e for op in rule.get("operations") or [] for e in
                _enum(op, ("*", "CREATE", "UPDATE", "DELETE", "CONNECT"), "resourceRules.operations")]
    return out


def rule_admission_binding(obj: dict[str, Any], actions_required: bool = True) -> list[str]:
    """ValidateValidatingAdmissionPolicyBinding: policyName required; validationActions (where the
    API has them) required, unique, Deny/Warn/Audit, not Deny with Warn."""
    spec = obj.get("spec") or {}
    out = [] if spec.get("policyName") else ["spec.policyName: Required value"]
    actions = spec.get("validationActions")
    if actions is None:
        return out + (["spec.validationActions: Required value"]
                      if actions_required and obj.get("apiVersion") != "admissionregistration.k8s.io/v1alpha1"
                      else [])
    if not actions or len(set(actions)) != len(actions):
        out.append("spec.validationActions: Required value, without duplicates")
    out += [e for a in actions for e in _enum(a, ("Deny", "Warn", "Audit"), "spec.validationActions")]
    if {"Deny", "Warn"} <= set(actions):
        out.append("spec.validationActions: may not contain both Deny and Warn")
    return out


# -- CustomResourceDefinition (apiextensions-apiserver/pkg/apis/apiextensions/validation) ------------
def _schema_types(schema: dict[str, Any], where: str) -> list[str]:
    """Structural schema (apiextensions-apiserver pkg/apiserver/schema validateStructural): every
    node names its type, unless it preserves unknown fields or is int-or-string / embedded."""
    out = []
    if not schema.get("type") and not (schema.get("x-kubernetes-int-or-string")
                                       or schema.get("x-kubernetes-preserve-unknown-fields")):
        out.append(f"{where}.type: Required value")
    for name, child in (schema.get("properties") or {}).items():
        out += _schema_types(child, f"{where}.properties[{name}]")
    if isinstance(schema.get("items"), dict):
        out += _schema_types(schema["items"], f"{where}.items")
    return out


def rule_crd(obj: dict[str, Any]) -> list[str]:
    """ValidateCustomResourceDefinition: name is ``<plural>.<group>``; the group a DNS subdomain with
    a dot; ValidateCustomResourceDefinitionNames: plural/singular DNS-1123 labels, kind a DNS-1035
    label when lowered, listKind not kind; scope Namespaced/Cluster; versions: at least one, unique
    DNS-1035 names, exactly one storage version; v1: every version has a structural
    openAPIV3Schema whose root is an object."""
    spec = obj.get("spec") or {}
    names, group = spec.get("names") or {}, str(spec.get("group", ""))
    out = []
    if _get(obj, "metadata.name") != f"{names.get('plural')}.{group}":
        out.append("metadata.name: must be spec.names.plural+\".\"+spec.group")
    if "." not in group or not is_dns1123_subdomain(group):
        out.append("spec.group: a DNS subdomain with a dot in it")
    for key in ("plural", "singular"):
        if (key in names or key == "plural") and not is_dns1123_label(str(names.get(key, ""))):
            out.append(f"spec.names.{key}: must be a DNS-1123 label")
    kind = str(names.get("kind", ""))
    if not kind or not is_dns1035_label(kind.lower()):
        out.append("spec.names.kind: Required value, a DNS-1035 label when lowered")
    if names.get("listKind") and names["listKind"] == kind:
        out.append("spec.names.listKind: kind and listKind may not be the same")
    out += _enum(spec.get("scope"), ("Namespaced", "Cluster"), "spec.scope", required=True)
    versions = spec.get("versions") or []
    version_names = [v.get("name", "") for v in versions]
    if not versions:
        out.append("spec.versions: must have at least one version")
    if len(set(version_names)) != len(version_names) or not all(map(is_dns1035_label, version_names)):
        out.append("spec.versions.name: unique DNS-1035 labels")
    if sum(1 for v in versions if v.get("storage")) != 1:
        out.append("spec.versions: exactly one storage version")
    for v in versions:
        schema = _get(v, "schema.openAPIV3Schema")
        if schema is None:
            out.append(f"spec.versions[{v.get('name')}].schema.openAPIV3Schema: Required value")
            continue
        if schema.get("type") != "object":
            out.append(f"spec.versions[{v.get('name')}].schema.openAPIV3Schema.type: must be object")
        out += _schema_types(schema, f"spec.versions[{v.get('name')}].schema.openAPIV3Schema")
    return out


# -- dynamic resource allocation (pkg/apis/resource/validation/validation.go) -----------------------
def rule_resource_claim(obj: dict[str, Any]) -> list[str]:
    """ValidateResourceClaim → validateResourceClaimSpec: before v1alpha3, resourceClassName required
    (a DNS subdomain); then validateDeviceClaim → validateDeviceRequest: requests with unique
    DNS-1123-label names, a DNS-subdomain deviceClassName (from v1beta2 inside exactly one of
    ``exactly``/``firstAvailable``), allocationMode ExactCount/All, count > 0."""
    spec = obj.get("spec") or {}
    if "devices" not in spec:
        name = spec.get("resourceClassName")
        return [] if isinstance(name, str) and is_dns1123_subdomain(name) else \
            ["spec.resourceClassName: Required value"]
    requests = _get(spec, "devices.requests") or []
    names = [r.get("name", "") for r in requests]
    out = [f"spec.devices.requests.name: must be a DNS-1123 label: {n!r}" for n in names
           if not is_dns1123_label(n)]
    if len(set(names)) != len(names):
        out.append("spec.devices.requests.name: Duplicate value")
    for request in requests:
        if "exactly" in request or "firstAvailable" in request:
            if ("exactly" in request) == ("firstAvailable" in request):
                out.append("spec.devices.requests: exactly one of exactly or firstAvailable")
            bodies = [request["exactly"]] if "exactly" in request else request.get("firstAvailable") or []
        else:
            bodies = [request]
        for body in bodies:
            if not is_dns1123_subdomain(str(body.get("deviceClassName", ""))):
                out.append("spec.devices.requests.deviceClassName: Required value (a DNS subdomain)")
            out += _enum(body.get("allocationMode"), ("ExactCount", "All"),
                         "spec.devices.requests.allocationMode")
            if body.get("count", 1) < 1:
                out.append("spec.devices.requests.count: must be greater than zero")
    return out


def rule_device_class(obj: dict[str, Any]) -> list[str]:
    """ValidateDeviceClass → validateDeviceClassSpec → validateSelector: each selector is a CEL
    selector with a non-empty expression."""
    out = []
    for selector in _get(obj, "spec.selectors") or []:
        if not str(_get(selector, "cel.expression", "")).strip():
            out.append("spec.selectors.cel.expression: Required value")
    return out


GENERIC: tuple[Rule, ...] = (rule_object_meta, rule_no_status)
"""Rules of every kind."""

RULES: dict[str, tuple[Rule, ...]] = {
    "Pod": (rule_pod,),
    "Deployment": (rule_workload, rule_rolling_update),
    "ReplicaSet": (rule_workload,),
    "StatefulSet": (rule_workload, rule_statefulset_policies),
    "DaemonSet": (rule_workload,),
    "Job": (rule_job,),
    "CronJob": (rule_cronjob,),
    "Service": (rule_service,),
    "Ingress": (rule_ingress,),
    "IngressClass": (rule_ingress_class,),
    "NetworkPolicy": (rule_network_policy,),
    "ConfigMap": (rule_config_map,),
    "Secret": (rule_secret,),
    "ServiceAccount": (),
    "Namespace": (rule_namespace,),
    "PersistentVolume": (rule_pv,),
    "PersistentVolumeClaim": (rule_pvc,),
    "StorageClass": (rule_storage_class,),
    "Role": (rule_policy_rules,),
    "ClusterRole": (rule_policy_rules,),
    "RoleBinding": (rule_binding,),
    "ClusterRoleBinding": (rule_binding,),
    "HorizontalPodAutoscaler": (rule_hpa,),
    "PodDisruptionBudget": (rule_pdb,),
    "PriorityClass": (rule_priority_class,),
    "LimitRange": (rule_limit_range,),
    "ResourceQuota": (rule_resource_quota,),
    "ValidatingAdmissionPolicy": (rule_admission_policy,),
    "ValidatingAdmissionPolicyBinding": (rule_admission_binding,),
    "CustomResourceDefinition": (rule_crd,),
    "ResourceClaim": (rule_resource_claim,),
    "DeviceClass": (rule_device_class,),
}
"""The kinds people write by hand (issue 12's list) → the rules of their kind."""


def rules_for(kind: str) -> Iterator[Rule]:
    yield from GENERIC
    yield from RULES.get(kind, ())


def errors(manifest: dict[str, Any]) -> list[str]:
    """Every error the server rules find in ``manifest`` (empty: a server would accept it)."""
    return [e for rule in rules_for(manifest.get("kind", "")) for e in rule(manifest)]
