"""Request parameters of Kubernetes operations, described once (our own words) on the release
home and linked from every Operations section (``#param-<name>``)."""

from __future__ import annotations

# ruff: noqa: E501  (one description a line)
from dataclasses import dataclass

PARAMETERS: dict[str, str] = {
    "allowWatchBookmarks": "With watch: ask for BOOKMARK events that carry only a resourceVersion, to resume a watch cheaply.",
    "body": "The request body: the object (create, update), the patch (patch) or DeleteOptions (delete).",
    "command": "exec: the command to run and its arguments, one parameter per word.",
    "container": "The container to use (log, exec, attach) when the pod has more than one.",
    "continue": "The token from a previous list response's metadata.continue, to get the next page.",
    "dryRun": "All: validate and admit the request but persist nothing.",
    "fieldManager": "Name of the actor making the change, recorded in managedFields (required for server-side apply patches).",
    "fieldSelector": "Only objects whose fields match (metadata.name=x, status.phase!=Running); supported fields depend on the kind.",
    "fieldValidation": "Strict, Warn or Ignore: what to do with unknown or duplicate fields in the body.",
    "follow": "log: keep streaming the log as it grows.",
    "force": "Server-side apply: take ownership of fields other managers own.",
    "gracePeriodSeconds": "Seconds the object gets to shut down before it is deleted (0: immediately).",
    "ignoreStoreReadErrorWithClusterBreakingPotential": "Delete an object that cannot be read from storage (corrupt); dangerous.",
    "insecureSkipTLSVerifyBackend": "log: do not verify the kubelet's serving certificate.",
    "labelSelector": "Only objects whose labels match (app=web, tier in (a,b), !canary).",
    "limit": "At most this many objects; the response's metadata.continue gets the rest.",
    "limitBytes": "log: stop after this many bytes.",
    "name": "The object's name (path).",
    "namespace": "The namespace (path).",
    "orphanDependents": "Deprecated: use propagationPolicy=Orphan.",
    "path": "proxy: the path to forward to the pod, service or node.",
    "ports": "portforward: the ports to forward.",
    "pretty": "true: indent the JSON response.",
    "previous": "log: the log of the container's previous, terminated instance.",
    "propagationPolicy": "Orphan, Background or Foreground: what happens to the object's dependents.",
    "resourceVersion": "Read at this version (0: any cached version; empty: the latest) or start a watch after it.",
    "resourceVersionMatch": "NotOlderThan or Exact: how resourceVersion is applied to a list.",
    "sendInitialEvents": "With watch: start with synthetic ADDED events for existing objects, then a bookmark.",
    "shardSelector": "Only objects of one shard of the collection (sharded list and watch).",
    "sinceSeconds": "log: only lines newer than this many seconds.",
    "sinceTime": "log: only lines after this time (RFC 3339).",
    "stderr": "exec/attach: stream the standard error.",
    "stdin": "exec/attach: pass standard input.",
    "stdout": "exec/attach: stream the standard output.",
    "stream": "log: All, Stdout or Stderr.",
    "tailLines": "log: only the last lines.",
    "timeoutSeconds": "End the list or watch after this many seconds.",
    "timestamps": "log: prefix each line with its timestamp.",
    "tty": "exec/attach: allocate a terminal.",
    "watch": "true: stream changes instead of listing (the API server then checks the verb watch, not list).",
}


def anchor(name: str) -> str:
    """``#param-<name>`` on the release home."""
    return "param-" + name.lower()


@dataclass(frozen=True, slots=True)
class ParameterDoc:
    name: str
    anchor: str
    description: str


def parameter_docs() -> list[ParameterDoc]:
    """Every described parameter, by name."""
    return [ParameterDoc(n, anchor(n), PARAMETERS[n]) for n in sorted(PARAMETERS, key=str.lower)]
