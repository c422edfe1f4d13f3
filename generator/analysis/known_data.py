"""Which known differences of bundled data from upstream can change a diff's result."""

from __future__ import annotations

from generator.model.gvk import kind_of, package_group_version
from generator.sources.jsonschema_pkg import PREFIX
from generator.sources.known_differences import KnownDifference, differences_for


def subject(d: KnownDifference) -> str:
    """``core/v1 HostAlias.ip`` (``Quantity`` for definitions without an API version)."""
    group, version = package_group_version(d.definition)
    where = f"{group}/{version} " if version else ""
    return where + kind_of(d.definition) + (f".{d.field}" if d.field else "")


def note_text(d: KnownDifference) -> str:
    """``kubernetes-validate 1.30 core/v1 HostAlias.ip required: optional (upstream: required)``."""
    return (f"kubernetes-validate {d.release} {subject(d)} {d.aspect}: {d.bundled} "
            f"(upstream: {d.upstream})")


def _bundled(source: str) -> str:
    return source[len(PREFIX):] if source.startswith(PREFIX) else ""


def data_notes(old_source: str, new_source: str) -> tuple[KnownDifference, ...]:
    """Known differences of either side that can change the diff: a difference both sides share
    (both bundled, same value) cancels out; any other one may hide or invent a change."""
    old, new = _bundled(old_source), _bundled(new_source)

    def key(d: KnownDifference) -> tuple[str, ...]:
        return (d.definition, d.field, d.aspect, d.bundled, d.upstream)

    old_diffs, new_diffs = differences_for(old), differences_for(new)
    shared = {key(d) for d in old_diffs} & {key(d) for d in new_diffs}
    return tuple(d for d in (*old_diffs, *new_diffs) if key(d) not in shared)


def artifact_note(notes: tuple[KnownDifference, ...], group: str, api_version: str, model: str,
                  field: str) -> KnownDifference | None:
    """The known difference a change of ``model.field`` (API group as written, ``core`` for the
    core group) may be an artifact of: same definition and field (for a renamed field, either
    name); None when the change is not one of them."""
    if not model:
        return None
    for d in notes:
        short, version = package_group_version(d.definition)
        if kind_of(d.definition) != model or version != api_version:
            continue
        if short != (group.split(".")[0] if group else "core"):
            continue
        names = {d.field, d.bundled} if d.aspect == "field name" else {d.field}
        if field in names:
            return d
    return None
