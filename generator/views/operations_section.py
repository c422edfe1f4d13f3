"""The Operations section of a kind's page (a ``SectionHook``): each REST operation with its
parameters, body and response types, the official Python client's call, the RBAC rule the API
server checks, the kubectl command, and copyable Role rules for the kind."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from generator.examples.python_names import client_major
from generator.model.operation_types import Operation
from generator.model.types import ApiSpec
from generator.views.operation_params import PARAMETERS, anchor
from generator.views.pages import ModelPage
from generator.views.site import SitePlan, relative

_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def operation_anchor(op: Operation) -> str:
    """The id of an operation's row (``op-get-api-v1-namespaces-namespace-pods-name``): unique
    per method and path, so search can point at the row."""
    return "op-" + _NOT_SLUG.sub("-", f"{op.method} {op.url}".lower()).strip("-")


@dataclass(frozen=True, slots=True)
class ParamView:
    name: str
    location: str
    type: str
    required: bool
    url: str
    """The parameter's description on the release home (empty: described here)."""
    href: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class TypeLink:
    name: str
    url: str
    href: str


@dataclass(frozen=True, slots=True)
class OperationRow:
    op: Operation
    params: tuple[ParamView, ...]
    body: TypeLink | None
    response: TypeLink | None
    call: str
    """The Python call as code (``CoreV1Api().read_namespaced_pod(name, namespace)``)."""
    rbac: str
    """``"" · pods/log · get``: API group, resource and verb as one text."""
    anchor: str
    """The row's id (``operation_anchor``)."""
    returns: str = ""
    """A response that is not a definition, named: ``string (text/plain)``."""


@dataclass(frozen=True)
class OperationsSection:
    template: ClassVar[str] = "partials/operations.md.j2"
    rows: list[OperationRow]
    client: str
    source: str
    """Where the operations come from (``ApiSpec.operations_from``)."""
    read_only: str
    """A Role's rules (YAML) that allow the reading verbs of the kind."""
    full: str
    """A Role's rules (YAML) that allow every operation listed."""


def python_call(op: Operation) -> str:
    """The official client's call for an operation, never an invented method."""
    if op.watch_via:
        cls, method = op.watch_via.split(".", 1)
        args = "".join(f", {a}" for a in op.python_args)
        single = ', field_selector=f"metadata.name={name}"' if op.watch_single else ""
        return f"watch.Watch().stream({cls}().{method}{args}{single})"
    if not op.python:
        return ""
    cls, method = op.python.split(".", 1)
    return f"{cls}().{method}({', '.join(op.python_args)})"


def _yaml_rules(groups: dict[tuple[str, tuple[str, ...]], list[str]]) -> str:
    lines = ["rules:"]
    for (group, verbs), resources in groups.items():
        lines.append(f'- apiGroups: ["{group}"]')
        lines.append("  resources: [" + ", ".join(f'"{r}"' for r in resources) + "]")
        lines.append("  verbs: [" + ", ".join(f'"{v}"' for v in verbs) + "]")
    return "\n".join(lines)


_VERB_ORDER = ("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")


def role_rules(ops: tuple[Operation, ...]) -> tuple[str, str]:
    """(read-only, full) Role rules for a kind's operations: resources with the same verbs share
    a rule."""
    verbs: dict[tuple[str, str], set[str]] = {}
    for op in ops:
        if op.rbac.verb:
            verbs.setdefault((op.rbac.api_group, op.rbac.resource), set()).add(op.rbac.verb)
    main = [k for k in verbs if "/" not in k[1]]
    read: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for key in main:
        reading = tuple(v for v in ("get", "list", "watch") if v in verbs[key])
        read.setdefault((key[0], reading), []).append(key[1])
    full: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for key, found in verbs.items():
        ordered = tuple(v for v in _VERB_ORDER if v in found)
        full.setdefault((key[0], ordered), []).append(key[1])
    return _yaml_rules(read), _yaml_rules(full)


class OperationsHook:
    """``SectionHook``: the Operations section of a kind that has operations."""

    def __call__(self, page: ModelPage, api: ApiSpec, plan: SitePlan) -> OperationsSection | None:
        ops = api.operations.get(page.model.name)
        if not ops:
            return None
        home_url = plan.page_url(page.path, plan.home)
        home_href = relative(page.path, plan.home)
        links: dict[str, TypeLink | None] = {}

        def link(name: str) -> TypeLink | None:
            if not name:
                return None
            if name not in links:
                target = plan.page_of(name)
                model = api.models.get(name)
                label = model.kind if model else name.rsplit(".", 1)[-1]
                links[name] = TypeLink(label, plan.page_url(page.path, target) if target else "",
                                       relative(page.path, target) if target else "")
            return links[name]

        rows = []
        for op in ops:
            params = tuple(
                ParamView(p.name, p.location, p.type, p.required,
                          f"{home_url}#{anchor(p.name)}" if p.name in PARAMETERS else "",
                          f"{home_href}#{anchor(p.name)}" if p.name in PARAMETERS else "",
                          "" if p.name in PARAMETERS else p.description)
                for p in op.params if p.location == "query")
            group = op.rbac.api_group or '""'  # the core group, as a Role rule writes it
            rbac = f"{group} · {op.rbac.resource} · {op.rbac.verb or '(no verb: only *)'}"
            returns = f"{op.response_type} ({op.response_media})" if op.response_media else op.response_type
            rows.append(OperationRow(op, params, link(op.body), link(op.response), python_call(op), rbac,
                                     operation_anchor(op), returns))
        read_only, full = role_rules(ops)
        return OperationsSection(rows, client_major(api.version), api.operations_from, read_only, full)
