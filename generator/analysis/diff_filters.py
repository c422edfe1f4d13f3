"""What ``diff --kind``/``--group`` name, checked against the two releases compared.

A gate filter that matches nothing would turn the gate off without a word, so every ``--kind``
and ``--group`` must name something one of the releases has (``UsageError``, exit 2, with the
closest names as "did you mean"). Kinds match case-insensitively (``deployment`` is
``Deployment``) and by any name kubectl accepts for them, as ``explain`` resolves them
(``hpa``, ``deploy``, ``pods``: ``analysis.resources``); a group is the API group as written
in ``apiVersion`` (``apps``, ``flowcontrol.apiserver.k8s.io``, ``core``) or the short name the
site's navigation uses (``flowcontrol``, ``resource``), in any case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from difflib import get_close_matches

from generator.analysis.diff import DiffFilter, api_groups
from generator.analysis.resources import Resources
from generator.errors import UsageError, one_line
from generator.model.types import ApiSpec

SUGGESTIONS = 3
"""Names a "did you mean" offers at most."""


def known_kinds(apis: Iterable[ApiSpec]) -> dict[str, set[str]]:
    """Lower-cased kind, or a resource name kubectl accepts (plural, short name) → the kinds
    spelled so, over ``apis`` (kinds only, no nested types). A kind's own name wins over another
    kind's short name."""
    out: dict[str, set[str]] = {}
    aliases: dict[str, set[str]] = {}
    for api in apis:
        for model in api.models.values():
            if model.is_kind and model.kind:
                out.setdefault(model.kind.lower(), set()).add(model.kind)
        for resource in Resources(api).by_group_kind.values():
            for name in resource.names():
                aliases.setdefault(name, set()).add(resource.kind)
    for name, kinds in aliases.items():
        out.setdefault(name, kinds)
    return out


def known_groups(apis: Iterable[ApiSpec]) -> dict[str, set[str]]:
    """Lower-cased group name (as written, or the navigation's short name) → the API groups as
    written in ``apiVersion`` (what a change's ``group`` is) it stands for."""
    out: dict[str, set[str]] = {}
    for api in apis:
        written = api_groups(api)
        for model in api.models.values():
            if not model.api_version:
                continue
            name = written.get((model.group, model.api_version), model.group)
            for alias in (name, model.group, name.split(".")[0]):
                out.setdefault(alias.lower(), set()).add(name)
    return out


def _resolve(option: str, asked: Iterable[str], known: Mapping[str, set[str]],
             releases: str) -> frozenset[str]:
    found: set[str] = set()
    for name in asked:
        hits = known.get(name.lower())
        if not hits:
            spelling = {n.lower(): n for names in known.values() for n in sorted(names)}
            spelling.update({k: k for k in known if k not in spelling})  # short group names
            close: list[str] = []  # one suggestion per kind or group (not its plural too)
            meant: set[str] = set()
            for c in get_close_matches(name.lower(), sorted(spelling), n=4 * SUGGESTIONS,
                                       cutoff=0.6):
                if known[c] <= meant and c not in (n.lower() for n in known[c]):
                    continue
                meant |= known[c]
                close.append(c)
            close = close[:SUGGESTIONS]
            hint = f"; did you mean {' or '.join(spelling[c] for c in close)}?" if close else ""
            raise UsageError(f"{option} {one_line(name, 80)!r} matches nothing in {releases}"
                             f"{hint}")
        found |= hits
    return frozenset(found)


def resolve_filter(keep: DiffFilter, old: ApiSpec, new: ApiSpec) -> DiffFilter:
    """``keep`` with its kinds and groups spelled as the releases spell them; ``UsageError`` for
    a name neither release has."""
    if not keep.kinds and not keep.groups:
        return keep
    releases = f"{one_line(old.version, 60)} or {one_line(new.version, 60)}"
    kinds = _resolve("--kind", sorted(keep.kinds), known_kinds((old, new)), releases)
    groups = _resolve("--group", sorted(keep.groups), known_groups((old, new)), releases)
    return replace(keep, kinds=kinds, groups=groups)
