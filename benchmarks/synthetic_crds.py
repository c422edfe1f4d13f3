"""A synthetic CRD set of ≥ 40,000 properties, shaped like the largest real ones (operators that
embed a pod template, volumes with persistent volume claim templates, affinity and probes in several
places of one kind), written by this script so no other project's CRDs are committed.

    python benchmarks/synthetic_crds.py OUT_DIR [--kinds 16] [--components 3] [--unique 380]

Deterministic: the same arguments write byte-identical files. Every kind has ``--components``
parts, each with options of its own (``--unique`` properties found nowhere else) and the subtrees
operators copy in (a pod template with containers in three places, volumes, affinity, a
``PersistentVolumeClaim`` spec under storage and under every ephemeral volume), with descriptions
that hold Markdown lists and code spans, enums, defaults, CEL rules, maps, arrays of scalars with
item descriptions and untyped preserve-unknown-fields values.
Prints the number of CRDs and properties written.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import yaml

GROUP = "synthetic.example.com"
Schema = dict[str, Any]


def scalar(kind: str, text: str, **extra: Any) -> Schema:
    return {"type": kind, "description": text, **extra}


def obj(text: str, properties: dict[str, Schema], **extra: Any) -> Schema:
    return {"type": "object", "description": text, "properties": properties, **extra}


def array(text: str, items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "description": text, "items": items, **extra}


def quantity(text: str) -> Schema:
    return {
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "description": text,
        "pattern": r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))$",
        "x-kubernetes-int-or-string": True,
    }


def resources() -> Schema:
    return obj(
        "Compute resources required by this container.",
        {
            "limits": {
                "type": "object",
                "additionalProperties": quantity("A quantity."),
                "description": "Limits describes the maximum amount of compute resources allowed.",
            },
            "requests": {
                "type": "object",
                "additionalProperties": quantity("A quantity."),
                "description": "Requests describes the minimum amount of compute resources required.",
            },
            "claims": array(
                "Claims lists the names of resources used by this container.",
                obj(
                    "A resource claim.",
                    {
                        "name": scalar("string", "Name of the claim."),
                        "request": scalar("string", "Request name."),
                    },
                    required=["name"],
                ),
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
            ),
        },
    )


def selector(text: str) -> Schema:
    requirement = obj(
        "A label selector requirement.",
        {
            "key": scalar("string", "key is the label key that the selector applies to."),
            "operator": scalar(
                "string",
                "operator represents a key's relationship to a set of values.\n"
                "Valid operators are:\n- In\n- NotIn\n- Exists\n- DoesNotExist",
                enum=["In", "NotIn", "Exists", "DoesNotExist"],
            ),
            "values": array(
                "values is an array of string values.",
                scalar("string", "A label value."),
                **{"x-kubernetes-list-type": "atomic"},
            ),
        },
        required=["key", "operator"],
    )
    return obj(
        text,
        {
            "matchExpressions": array(
                "matchExpressions is a list of label selector requirements.", requirement
            ),
            "matchLabels": {
                "type": "object",
                "additionalProperties": {"type": "string"},
                "description": "matchLabels is a map of {key,value} pairs.",
            },
        },
        **{"x-kubernetes-map-type": "atomic"},
    )


def probe(text: str) -> Schema:
    return obj(
        text,
        {
            "exec": obj(
                "Exec specifies a command to execute.",
                {
                    "command": array(
                        "Command is the command line to execute inside the container.",
                        scalar("string", "One argument of the command."),
                    )
                },
            ),
            "httpGet": obj(
                "HTTPGet specifies an HTTP GET request to perform.",
                {
                    "host": scalar("string", "Host name to connect to."),
                    "path": scalar("string", "Path to access on the HTTP server."),
                    "port": {
                        "anyOf": [{"type": "integer"}, {"type": "string"}],
                        "x-kubernetes-int-or-string": True,
                        "description": "Name or number of the port to access on the container.",
                    },
                    "scheme": scalar(
                        "string",
                        "Scheme to use for connecting to the host.",
                        default="HTTP",
                        enum=["HTTP", "HTTPS"],
                    ),
                    "httpHeaders": array(
                        "Custom headers to set in the request.",
                        obj(
                            "An HTTP header.",
                            {
                                "name": scalar("string", "The header field name."),
                                "value": scalar("string", "The header field value."),
                            },
                            required=["name", "value"],
                        ),
                    ),
                },
                required=["port"],
            ),
            "initialDelaySeconds": scalar(
                "integer", "Seconds after the container has started.", format="int32"
            ),
            "periodSeconds": scalar(
                "integer", "How often (in seconds) to perform the probe.", format="int32", minimum=1
            ),
            "timeoutSeconds": scalar("integer", "Seconds after which the probe times out.", format="int32"),
            "failureThreshold": scalar("integer", "Minimum consecutive failures.", format="int32"),
            "successThreshold": scalar("integer", "Minimum consecutive successes.", format="int32"),
        },
    )


def container(text: str) -> Schema:
    env_var = obj(
        "EnvVar represents an environment variable present in a Container.",
        {
            "name": scalar("string", "Name of the environment variable."),
            "value": scalar("string", "Variable references `$(VAR_NAME)` are expanded."),
            "valueFrom": obj(
                "Source for the environment variable's value.",
                {
                    "configMapKeyRef": obj(
                        "Selects a key of a ConfigMap.",
                        {
                            "key": scalar("string", "The key to select."),
                            "name": scalar("string", "Name of the referent.", default=""),
                            "optional": scalar(
                                "boolean", "Specify whether the ConfigMap or its key must be defined"
                            ),
                        },
                        required=["key"],
                        **{"x-kubernetes-map-type": "atomic"},
                    ),
                    "fieldRef": obj(
                        "Selects a field of the pod.",
                        {
                            "apiVersion": scalar(
                                "string", "Version of the schema the FieldPath is written in terms of."
                            ),
                            "fieldPath": scalar(
                                "string", "Path of the field to select in the specified API version."
                            ),
                        },
                        required=["fieldPath"],
                    ),
                    "secretKeyRef": obj(
                        "Selects a key of a secret in the pod's namespace.",
                        {
                            "key": scalar("string", "The key of the secret to select from."),
                            "name": scalar("string", "Name of the referent.", default=""),
                            "optional": scalar(
                                "boolean", "Specify whether the Secret or its key must be defined"
                            ),
                        },
                        required=["key"],
                    ),
                },
            ),
        },
        required=["name"],
    )
    port = obj(
        "ContainerPort represents a network port in a single container.",
        {
            "containerPort": scalar(
                "integer",
                "Number of port to expose on the pod's IP address.",
                format="int32",
                minimum=1,
                maximum=65535,
            ),
            "hostIP": scalar("string", "What host IP to bind the external port to."),
            "name": scalar("string", "Each named port in a pod must have a unique name.", maxLength=15),
            "protocol": scalar("string", "Protocol for port.", default="TCP", enum=["TCP", "UDP", "SCTP"]),
        },
        required=["containerPort"],
    )
    mount = obj(
        "VolumeMount describes a mounting of a Volume within a container.",
        {
            "mountPath": scalar("string", "Path within the container at which the volume should be mounted."),
            "name": scalar("string", "This must match the Name of a Volume."),
            "readOnly": scalar("boolean", "Mounted read-only if true."),
            "subPath": scalar(
                "string", "Path within the volume from which the container's volume should be mounted."
            ),
            "mountPropagation": scalar(
                "string",
                "mountPropagation determines how mounts are propagated.\n\n"
                "Possible values are:\n- None\n- HostToContainer\n- Bidirectional",
                enum=["None", "HostToContainer", "Bidirectional"],
            ),
        },
        required=["mountPath", "name"],
    )
    security = obj(
        "SecurityContext defines the security options the container should be run with.",
        {
            "allowPrivilegeEscalation": scalar("boolean", "Whether a process can gain more privileges."),
            "capabilities": obj(
                "The capabilities to add/drop.",
                {
                    "add": array(
                        "Added capabilities", scalar("string", "Capability represent POSIX capabilities type")
                    ),
                    "drop": array(
                        "Removed capabilities",
                        scalar("string", "Capability represent POSIX capabilities type"),
                    ),
                },
            ),
            "privileged": scalar("boolean", "Run container in privileged mode."),
            "readOnlyRootFilesystem": scalar(
                "boolean", "Whether this container has a read-only root filesystem."
            ),
            "runAsGroup": scalar(
                "integer", "The GID to run the entrypoint of the container process.", format="int64"
            ),
            "runAsNonRoot": scalar("boolean", "Indicates that the container must run as a non-root user."),
            "runAsUser": scalar(
                "integer", "The UID to run the entrypoint of the container process.", format="int64"
            ),
            "seccompProfile": obj(
                "The seccomp options to use by this container.",
                {
                    "localhostProfile": scalar("string", "A profile defined in a file on the node."),
                    "type": scalar(
                        "string",
                        "Indicates which kind of seccomp profile will be applied.",
                        enum=["Localhost", "RuntimeDefault", "Unconfined"],
                    ),
                },
                required=["type"],
            ),
        },
    )
    return obj(
        text,
        {
            "name": scalar("string", "Name of the container specified as a DNS_LABEL."),
            "image": scalar("string", "Container image name."),
            "imagePullPolicy": scalar(
                "string",
                "Image pull policy. One of Always, Never, IfNotPresent.",
                enum=["Always", "IfNotPresent", "Never"],
            ),
            "command": array("Entrypoint array.", scalar("string", "One word of the entrypoint.")),
            "args": array("Arguments to the entrypoint.", scalar("string", "One argument.")),
            "workingDir": scalar("string", "Container's working directory."),
            "env": array(
                "List of environment variables to set in the container.",
                env_var,
                **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
            ),
            "ports": array("List of ports to expose from the container.", port),
            "resources": resources(),
            "volumeMounts": array("Pod volumes to mount into the container's filesystem.", mount),
            "livenessProbe": probe("Periodic probe of container liveness."),
            "readinessProbe": probe("Periodic probe of container service readiness."),
            "startupProbe": probe("StartupProbe indicates that the Pod has successfully initialized."),
            "securityContext": security,
            "stdin": scalar("boolean", "Whether this container should allocate a buffer for stdin."),
            "tty": scalar("boolean", "Whether this container should allocate a TTY for itself."),
        },
        required=["name"],
    )


def pvc_spec(text: str) -> Schema:
    return obj(
        text,
        {
            "accessModes": array(
                "accessModes contains the desired access modes the volume should have.",
                scalar("string", "One access mode."),
            ),
            "dataSource": obj(
                "dataSource field can be used to specify an existing VolumeSnapshot.",
                {
                    "apiGroup": scalar("string", "APIGroup is the group for the resource being referenced."),
                    "kind": scalar("string", "Kind is the type of resource being referenced"),
                    "name": scalar("string", "Name is the name of resource being referenced"),
                },
                required=["kind", "name"],
            ),
            "resources": obj(
                "resources represents the minimum resources the volume should have.",
                {
                    "limits": {
                        "type": "object",
                        "additionalProperties": quantity("A quantity."),
                        "description": "Limits describes the maximum amount of compute resources allowed.",
                    },
                    "requests": {
                        "type": "object",
                        "additionalProperties": quantity("A quantity."),
                        "description": "Requests describes the minimum amount of compute resources.",
                    },
                },
            ),
            "selector": selector("selector is a label query over volumes to consider for binding."),
            "storageClassName": scalar("string", "storageClassName is the name of the StorageClass."),
            "volumeMode": scalar(
                "string", "volumeMode defines what type of volume is required by the claim."
            ),
            "volumeName": scalar("string", "volumeName is the binding reference to the PersistentVolume."),
        },
    )


def volume(text: str) -> Schema:
    items = array(
        "items maps keys to paths.",
        obj(
            "Maps a string key to a path within a volume.",
            {
                "key": scalar("string", "key is the key to project."),
                "mode": scalar(
                    "integer",
                    "mode is Optional: mode bits used to set permissions on this file.",
                    format="int32",
                ),
                "path": scalar("string", "path is the relative path of the file to map the key to."),
            },
            required=["key", "path"],
        ),
    )
    return obj(
        text,
        {
            "name": scalar("string", "name of the volume."),
            "configMap": obj(
                "configMap represents a configMap that should populate this volume",
                {
                    "defaultMode": scalar("integer", "defaultMode is optional: mode bits.", format="int32"),
                    "items": items,
                    "name": scalar("string", "Name of the referent.", default=""),
                    "optional": scalar(
                        "boolean", "optional specify whether the ConfigMap or its keys must be defined"
                    ),
                },
            ),
            "secret": obj(
                "secret represents a secret that should populate this volume.",
                {
                    "defaultMode": scalar("integer", "defaultMode is Optional: mode bits.", format="int32"),
                    "items": items,
                    "secretName": scalar("string", "secretName is the name of the secret."),
                    "optional": scalar(
                        "boolean", "optional field specify whether the Secret or its keys must be defined"
                    ),
                },
            ),
            "emptyDir": obj(
                "emptyDir represents a temporary directory that shares a pod's lifetime.",
                {
                    "medium": scalar(
                        "string", "medium represents what type of storage medium should back this directory."
                    ),
                    "sizeLimit": quantity("sizeLimit is the total amount of local storage required."),
                },
            ),
            "ephemeral": obj(
                "ephemeral represents a volume that is handled by a cluster storage driver.",
                {
                    "volumeClaimTemplate": obj(
                        "Will be used to create a stand-alone PVC to provision the volume.",
                        {
                            "metadata": {
                                "type": "object",
                                "description": "May contain labels and annotations.",
                                "x-kubernetes-preserve-unknown-fields": True,
                            },
                            "spec": pvc_spec("The specification for the PersistentVolumeClaim."),
                        },
                        required=["spec"],
                    )
                },
            ),
            "persistentVolumeClaim": obj(
                "A reference to a PersistentVolumeClaim in the same namespace.",
                {
                    "claimName": scalar("string", "claimName is the name of a PersistentVolumeClaim."),
                    "readOnly": scalar(
                        "boolean", "readOnly Will force the ReadOnly setting in VolumeMounts."
                    ),
                },
                required=["claimName"],
            ),
        },
        required=["name"],
    )


def affinity() -> Schema:
    term = obj(
        "Defines a set of pods.",
        {
            "labelSelector": selector("A label query over a set of resources."),
            "namespaceSelector": selector("A label query over the set of namespaces."),
            "namespaces": array(
                "namespaces specifies a static list of namespace names.", scalar("string", "A name.")
            ),
            "topologyKey": scalar("string", "This pod should be co-located (affinity) or not co-located."),
        },
        required=["topologyKey"],
    )
    weighted = obj(
        "The weights of all of the matched WeightedPodAffinityTerm fields are added per-node.",
        {
            "podAffinityTerm": term,
            "weight": scalar("integer", "weight associated with matching.", format="int32"),
        },
        required=["podAffinityTerm", "weight"],
    )
    pod_rules = {
        "preferredDuringSchedulingIgnoredDuringExecution": array("Preferred terms.", weighted),
        "requiredDuringSchedulingIgnoredDuringExecution": array("Required terms.", term),
    }
    node_term = obj(
        "A null or empty node selector term matches no objects.",
        {
            "matchExpressions": array(
                "A list of node selector requirements by node's labels.",
                obj(
                    "A requirement.",
                    {
                        "key": scalar("string", "The label key that the selector applies to."),
                        "operator": scalar(
                            "string",
                            "Represents a key's relationship to a set of values.",
                            enum=["In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"],
                        ),
                        "values": array("An array of string values.", scalar("string", "A value.")),
                    },
                    required=["key", "operator"],
                ),
            )
        },
    )
    return obj(
        "If specified, the pod's scheduling constraints",
        {
            "nodeAffinity": obj(
                "Describes node affinity scheduling rules for the pod.",
                {
                    "requiredDuringSchedulingIgnoredDuringExecution": obj(
                        "Required node terms.",
                        {"nodeSelectorTerms": array("Required. A list of node selector terms.", node_term)},
                        required=["nodeSelectorTerms"],
                    )
                },
            ),
            "podAffinity": obj("Describes pod affinity scheduling rules.", dict(pod_rules)),
            "podAntiAffinity": obj("Describes pod anti-affinity scheduling rules.", dict(pod_rules)),
        },
    )


def pod_template(text: str) -> Schema:
    return obj(
        text,
        {
            "metadata": {
                "type": "object",
                "description": "Standard object's metadata.",
                "x-kubernetes-preserve-unknown-fields": True,
            },
            "spec": obj(
                "Specification of the desired behavior of the pod.",
                {
                    "containers": array(
                        "List of containers belonging to the pod.", container("A container.")
                    ),
                    "initContainers": array(
                        "List of initialization containers.", container("An init container.")
                    ),
                    "volumes": array(
                        "List of volumes that can be mounted by containers.", volume("A volume.")
                    ),
                    "affinity": affinity(),
                    "nodeSelector": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                        "description": "NodeSelector is a selector which must be true for the pod to fit.",
                    },
                    "serviceAccountName": scalar(
                        "string", "The name of the ServiceAccount to use to run this pod."
                    ),
                    "restartPolicy": scalar(
                        "string",
                        "Restart policy for all containers within the pod.",
                        enum=["Always", "OnFailure", "Never"],
                    ),
                },
                required=["containers"],
            ),
        },
    )


WORDS = (
    "retention",
    "interval",
    "timeout",
    "shards",
    "replication",
    "compaction",
    "threshold",
    "budget",
    "window",
    "batch",
    "queue",
    "buffer",
    "cache",
    "limit",
    "burst",
    "rate",
    "port",
    "path",
    "prefix",
    "suffix",
    "format",
    "level",
    "mode",
    "policy",
    "strategy",
    "selector",
    "weight",
    "priority",
)


def settings(kind: str, index: int, size: int) -> Schema:
    """About ``size`` options of one component found nowhere else (what makes each kind's tree its
    own): scalars, and every fourth an object of three fields."""
    properties: dict[str, Schema] = {}
    count, n = 0, 0
    while count < size:
        word = WORDS[n % len(WORDS)]
        name = f"{word}{kind}{index}x{n // len(WORDS)}"
        if n % 4 == 0:
            properties[name] = obj(
                f"The {word} options of {kind} component {index}.",
                {
                    f"{word}Enabled": scalar("boolean", f"Whether {word} is on."),
                    f"{word}Seconds": scalar("integer", f"The {word} in seconds.", format="int32", minimum=0),
                    f"{word}Names": array(f"Names the {word} applies to.", scalar("string", "A name.")),
                },
            )
            count += 4
        else:
            properties[name] = scalar("string" if n % 2 else "integer", f"The {word} of component {index}.")
            count += 1
        n += 1
    return obj(f"Settings of {kind} component {index}.", properties)


def component(kind: str, index: int, unique: int) -> Schema:
    """One component of a kind: a pod template, storage with its claim template, a sidecar and
    settings of its own."""
    return obj(
        f"Component {index}: how the operator runs this part of the system.",
        {
            "settings": settings(kind, index, unique),
            "replicas": scalar(
                "integer", "Number of replicas of this component.", format="int32", minimum=0, default=1
            ),
            "template": pod_template("Pod template of this component."),
            "storage": obj(
                "Storage of this component.",
                {
                    "volumeClaimTemplate": obj(
                        "A PVC template.",
                        {
                            "metadata": {
                                "type": "object",
                                "x-kubernetes-preserve-unknown-fields": True,
                                "description": "Labels and annotations of the claim.",
                            },
                            "spec": pvc_spec("Spec of the claim."),
                        },
                    ),
                    "emptyDir": obj("EmptyDir to use instead.", {"sizeLimit": quantity("Size limit.")}),
                },
            ),
            "sidecars": array("Extra containers of this component.", container("A sidecar container.")),
            "extraConfig": {
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": True,
                "description": "Free-form configuration passed through unchanged.",
            },
            "labelNames": array(
                "Label names to keep.",
                {
                    "type": "string",
                    "pattern": "^[a-zA-Z_][a-zA-Z0-9_]*$",
                    "description": "LabelName is a valid label name.",
                },
            ),
            "mode": scalar(
                "string",
                "How the component runs.\n\nPossible values are:\n- `Active`: serves\n- `Standby`: waits",
                enum=["Active", "Standby"],
            ),
        },
        **{
            "x-kubernetes-validations": [
                {"rule": "self.replicas >= 0", "message": "replicas must not be negative"}
            ]
        },
    )


def crd(kind: str, components: int, unique: int) -> Schema:
    plural = kind.lower() + "s"
    spec = obj(
        f"Spec of the {kind}.", {f"component{i}": component(kind, i, unique) for i in range(components)}
    )
    schema = obj(
        f"{kind} is a synthetic custom resource.",
        {
            "apiVersion": scalar("string", "APIVersion defines the versioned schema of this representation."),
            "kind": scalar("string", "Kind is a string value representing the REST resource."),
            "metadata": {"type": "object"},
            "spec": spec,
            "status": obj(
                "Observed state.",
                {
                    "conditions": array(
                        "Conditions.",
                        obj(
                            "A condition.",
                            {
                                "type": scalar("string", "Type of condition."),
                                "status": scalar("string", "Status.", enum=["True", "False", "Unknown"]),
                                "message": scalar("string", "A message."),
                                "reason": scalar("string", "A reason."),
                            },
                            required=["type", "status"],
                        ),
                    )
                },
            ),
        },
    )
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{GROUP}"},
        "spec": {
            "group": GROUP,
            "names": {"kind": kind, "listKind": f"{kind}List", "plural": plural, "singular": kind.lower()},
            "scope": "Namespaced",
            "versions": [
                {
                    "name": "v1",
                    "served": True,
                    "storage": True,
                    "schema": {"openAPIV3Schema": schema},
                    "subresources": {"status": {}},
                }
            ],
        },
    }


def count_properties(schema: Any) -> int:
    """Named properties anywhere in a schema (what the issue's 'properties' counts)."""
    if isinstance(schema, dict):
        own = len(schema["properties"]) if isinstance(schema.get("properties"), dict) else 0
        return own + sum(count_properties(value) for value in schema.values())
    if isinstance(schema, list):
        return sum(count_properties(value) for value in schema)
    return 0


KINDS = (
    "Monitor",
    "Collector",
    "Gateway",
    "Pipeline",
    "Warehouse",
    "Scheduler",
    "Indexer",
    "Relay",
    "Probe",
    "Router",
    "Archive",
    "Tracer",
    "Mirror",
    "Ledger",
    "Beacon",
    "Vault",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--kinds", type=int, default=16)
    parser.add_argument("--components", type=int, default=3)
    parser.add_argument(
        "--unique", type=int, default=380, help="properties of each component found nowhere else"
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for kind in KINDS[: args.kinds]:
        document = crd(kind, args.components, args.unique)
        total += count_properties(document["spec"]["versions"][0]["schema"])
        # One block-style YAML file per CRD, as controller-gen writes them.
        text = yaml.safe_dump(document, sort_keys=False, width=100, allow_unicode=True)
        (args.out / f"{GROUP}_{kind.lower()}s.yaml").write_text("---\n" + text, encoding="utf-8")
    print(f"{args.kinds} CRDs, {total} properties in {args.out}")


if __name__ == "__main__":
    main()
