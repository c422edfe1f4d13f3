"""What ``scan`` finds, as data: the classes (worst first) and one finding. A module of its own
so that the CLI offers the classes as choices without loading the checks (``analysis.scan``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, get_args

FindingClass = Literal["error", "breaking", "warning", "info"]
CLASSES: tuple[str, ...] = get_args(FindingClass)
"""Worst first: ``--fail-on breaking`` also trips on errors."""


@dataclass(frozen=True, slots=True)
class Check:
    """One kind of finding (a SARIF rule): its ``code``, a title and what to do about it."""

    code: str
    title: str
    help: str


CHECKS: tuple[Check, ...] = (
    Check("not-served", "apiVersion/kind not served by the target release",
          "The target release does not serve this apiVersion and kind: the API server answers "
          "\"no matches for kind\". Move the object to the apiVersion the message names "
          "(kubectl convert, or edit apiVersion and the fields that changed)."),
    Check("unknown-field", "Unknown field",
          "The target's schema has no such field: with strict field validation the API server "
          "refuses the object, otherwise it drops the field. Fix the spelling or remove it; a "
          "field removed in a release is named with the release."),
    Check("type", "Wrong type",
          "The value is not of the type the schema gives the field (a string where an integer "
          "is expected, a list where an object is): the API server refuses it."),
    Check("enum", "Value outside the allowed values",
          "The field takes one of a fixed set of values; the message lists them."),
    Check("required", "Required field missing",
          "The schema requires this field and gives it no default: the API server refuses the "
          "object without it."),
    Check("format", "Invalid value",
          "The value breaks the field's format or limits (a quantity, base64, a date-time, an "
          "integer range, a length, a pattern)."),
    Check("object", "Not a Kubernetes object",
          "A manifest document must be a mapping with apiVersion (GROUP/VERSION) and kind."),
    Check("duplicate", "Duplicate field",
          "A key is given twice in one mapping: the last value is kept and the first one is "
          "silently lost; kubectl and the API server's strict decoding refuse it."),
    Check("stage", "Alpha or beta API version or field",
          "Alpha and beta API versions and fields are off unless the cluster enables them (new "
          "beta APIs are off by default since 1.24): check that the cluster serves it, or use the "
          "stable version the message names."),
    Check("deprecated", "Deprecated API version or field",
          "Deprecated: it still works but is scheduled for removal. Move to what the message "
          "names."),
    Check("removed-later", "Removed in a later release",
          "The target serves this apiVersion, a later known release does not: migrate before "
          "upgrading past the release the message names."),
    Check("unchecked", "Custom resource not checked",
          "No CustomResourceDefinition of this group was given: pass the CRDs with --crds to "
          "check custom resources field by field."),
    Check("helm-template", "Helm template not scanned",
          "A Helm chart template is not a manifest until it is rendered: render the chart and "
          "scan its output, e.g. helm template CHART | k8s-api-docs scan --target RELEASE -"),
)
"""Every check ``scan`` makes, in a fixed order (the SARIF rules and their indexes)."""


def check_of(code: str) -> Check:
    """The check of a finding's ``code`` (an unknown code: a generic check of that name)."""
    for check in CHECKS:
        if check.code == code:
            return check
    return Check(code or "finding", code or "finding", "")


def trips(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether a finding of class ``fail_on`` or worse is there."""
    limit = CLASSES.index(fail_on)
    return any(CLASSES.index(f.cls) <= limit for f in findings)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem of one object (``path`` None: the object itself)."""

    file: str
    line: int
    api_version: str | None
    kind: str | None
    name: str
    path: str | None
    cls: FindingClass
    message: str
    replacement: str | None = None
    code: str = ""
    """What was checked (``not-served``, ``unknown-field``, ``type``, ``enum``, ``required``,
    ``format``, ``stage``, ``deprecated``, ``unchecked``…): ``--from`` compares by it."""

    def to_dict(self) -> dict[str, Any]:
        """The documented JSON form (docs/terminal.md)."""
        return {"file": self.file, "line": self.line, "apiVersion": self.api_version,
                "kind": self.kind, "name": self.name, "path": self.path, "class": self.cls,
                "message": self.message, "replacement": self.replacement}
