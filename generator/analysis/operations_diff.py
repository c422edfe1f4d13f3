"""Operations and subresources of a kind added or removed between two releases (``diff``).

A subresource that comes or goes is one change (``subresource-added``/``-removed``), not one per
operation; other operations are ``operation-added``/``-removed``. A removal is ``breaking``
(clients calling it fail), an addition ``info``. The deprecated ``/watch/`` paths are compared
only when both releases list some: the bundled data of a release derived from the Python client
has none (see ``scripts/operations_data.py``), which is not a removal.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.model.operation_types import Operation
from generator.model.types import ApiSpec

CHANGE_LABELS = {
    "operation-added": "Operations added", "operation-removed": "Operations removed",
    "subresource-added": "Subresources added", "subresource-removed": "Subresources removed",
}
"""Change page headings of the changes made here."""

ChangeFactory = Callable[[str, str, str | None, str | None], object]
"""(change, severity, old, new) → a ``diff.Change`` of the kind being compared."""


def _has_watch_paths(api: ApiSpec) -> bool:
    return any(op.deprecated for ops in api.operations.values() for op in ops)


def operation_changes(old: ApiSpec, new: ApiSpec, old_name: str, new_name: str,
                      make: ChangeFactory) -> list[object]:
    """The operation changes of one kind (``old_name`` in ``old``, ``new_name`` in ``new``)."""
    watch = _has_watch_paths(old) and _has_watch_paths(new)

    def index(ops: tuple[Operation, ...]) -> dict[str, Operation]:
        return {op.key: op for op in ops if watch or not op.deprecated}

    before = index(old.operations.get(old_name, ()))
    after = index(new.operations.get(new_name, ()))
    if not before or not after:
        return []  # a source without routes on one side: nothing to compare
    subs_before = {op.rbac.resource for op in before.values() if op.subresource}
    subs_after = {op.rbac.resource for op in after.values() if op.subresource}
    out = [make("subresource-added", "info", None, sub) for sub in sorted(subs_after - subs_before)]
    out += [make("subresource-removed", "breaking", sub, None) for sub in sorted(subs_before - subs_after)]
    for key in sorted(after.keys() - before.keys()):
        if not after[key].subresource or after[key].rbac.resource in subs_before:
            out.append(make("operation-added", "info", None, key))
    for key in sorted(before.keys() - after.keys()):
        if not before[key].subresource or before[key].rbac.resource in subs_after:
            out.append(make("operation-removed", "breaking", key, None))
    return out
