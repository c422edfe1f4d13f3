"""Incremental regeneration (``mkdocs serve``): after a source edit, re-render only the pages that
can show what changed, and keep the Jinja environment while the templates are unchanged.

What a model page reads (``views/*``), hence what it depends on:

- its own model: header, description, property table, "Appears in" (the referrers' names, whose
  kind and group come from the definition name), the root of its builder index, sample and Python
  rows;
- every model it reaches through field and scalar references: type cells and Python types name
  them (and inline their scalars), builder sections nest their fields recursively and ask whether
  they have properties, samples and their YAML/Python/Jsonnet renderings descend into them;
- with the versions feature, the models of the same identity (navigation group, kind) in every
  loaded release: the other-versions line (presence, plans) and the field notes (since / removed
  in from the timeline's field names; changes against the previous release's counterpart).

Index pages read the kind, description and kind-ness of the models they list, the navigation
every model's name; a change page reads both releases it compares. So when some models changed
(``Model`` equality, which includes ``referrers``: a moved reference changes both ends),
``PageDependencies.of`` renders the reverse-transitive closure of the changed models over the new
reference graph of their release, the pages of the same identities in every rendered release, the
index pages listing a model whose description or GVKs changed, and the navigation and change pages
of the reloaded releases. Any other page reaches only unchanged models through unchanged
references, so it would render the same bytes. A changed set of definitions (hence page paths)
regenerates everything (``ChangedModels.between`` returns ``None``).

Between release sites (``build-site``, each release a site of its own): ``ReleaseInputs.of`` says
which other releases a release's pages read, with the same rule as the pages: the *content* of
the releases its change pages compare against (``change_olds``: the previous release in the one
release ordering, and the ``old`` of every extra pair), the *shape* of every other release
(definition and property names: Other versions lines, field since / removed in), digested by
``shape_digest`` from the names alone where the source allows it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from generator.analysis.timeline import ModelKey, identity
from generator.config import Release
from generator.model.ordering import release_sort_key
from generator.model.types import ApiSpec, Model
from generator.pipeline.state import LoadedRelease, SiteState  # noqa: F401  (re-exported for callers)
from generator.sources import SourceOptions, definition_fields
from generator.views.site import SitePlan


# -- what changed and what must be rendered again -------------------------------------------------
@dataclass(frozen=True)
class ChangedModels:
    """Definitions whose ``Model`` differs between two loads, per reloaded release."""

    names: dict[str, frozenset[str]]
    listed: dict[str, frozenset[str]] = field(default_factory=dict)
    """Those whose index entry may read differently: description or kind-ness (GVKs) changed."""

    @classmethod
    def between(cls, old: Mapping[str, ApiSpec], new: Mapping[str, ApiSpec]) -> ChangedModels | None:
        """The changed models of each release of ``new``; ``None`` when a release gained or lost a
        definition (page paths, navigation and index pages change: regenerate everything)."""
        names, listed = {}, {}
        for version, api in new.items():
            before = old[version].models
            if before.keys() != api.models.keys():
                return None
            names[version] = frozenset(n for n, m in api.models.items() if before[n] != m)
            listed[version] = frozenset(
                n for n in names[version] if (before[n].description, before[n].gvks)
                != (api.models[n].description, api.models[n].gvks))
        return cls(names, listed)

    def identities(self, apis: Mapping[str, ApiSpec]) -> set[ModelKey]:
        """Cross-release identities of the changed models (as the versions view and the
        timeline spell them)."""
        keys: set[ModelKey] = set()
        for version, names in self.names.items():
            for name in names:
                model = apis[version].models[name]
                keys.update((ModelKey(model.group, model.kind), identity(name)[0]))
        return keys


def references(model: Model) -> set[str]:
    """Definitions a model's page may read through it: field types (array items, map values) and,
    for a scalar alias, its type."""
    out = {f.type.referenced() for f in model.fields}
    if model.scalar is not None:
        out.add(model.scalar.referenced())
    out.discard("")
    return out


def reaching(api: ApiSpec, targets: Iterable[str]) -> set[str]:
    """``targets`` and every model whose references lead to one of them (transitively)."""
    referrers: dict[str, list[str]] = {}
    for name, model in api.models.items():
        for target in references(model):
            referrers.setdefault(target, []).append(name)
    found = {t for t in targets if t in api.models}
    todo = list(found)
    while todo:
        for name in referrers.get(todo.pop(), ()):
            if name not in found:
                found.add(name)
                todo.append(name)
    return found


@dataclass(frozen=True)
class PageDependencies:
    """The pages one ``generate`` call renders; the previous site's other pages are reused."""

    models: Mapping[str, Collection[str]]
    """Rendered release → definitions whose model page is rendered."""
    indexes: Mapping[str, Collection[str] | None]
    """Rendered release → paths of the index pages rendered (``None``: all, an empty collection:
    none): the home, group and API-version pages whose entry of a model changed (``listed``)."""
    releases: frozenset[str]
    """Loaded releases that changed: the navigation of those rendered is made again, and every
    change page comparing one of them is rendered."""

    @classmethod
    def everything(cls, apis: Mapping[str, ApiSpec], rendered: Iterable[str] | None = None
                   ) -> PageDependencies:
        """Every page of the ``rendered`` releases (default: all of ``apis``); only their models
        are looked up (a sibling's may not be loaded, ``state.LoadedRelease``)."""
        shown = list(apis) if rendered is None else list(rendered)
        return cls({v: apis[v].models.keys() for v in shown}, dict.fromkeys(apis), frozenset(apis))

    @classmethod
    def of(cls, changed: ChangedModels, apis: Mapping[str, ApiSpec], plans: Mapping[str, SitePlan],
           rendered: Iterable[str], versions: bool) -> PageDependencies:
        """Pages showing a changed model: see the module docstring. ``versions``: the versions
        feature is on (pages show their model's other releases)."""
        keys = changed.identities(apis) if versions else set()
        models, indexes = {}, {}
        for version in rendered:
            api, plan, names = apis[version], plans[version], changed.names.get(version, frozenset())
            todo = reaching(api, names)
            if keys:
                todo.update(n for n, m in api.models.items()
                            if ModelKey(m.group, m.kind) in keys or identity(n)[0] in keys)
            models[version] = sorted(todo)
            listed = [api.models[n] for n in changed.listed.get(version, ())]
            indexes[version] = {plan.home} if listed else set()
            indexes[version].update(plan.group_index(m.group) for m in listed)
            indexes[version].update(plan.api_version_index(m.group, m.api_version) for m in listed)
        return cls(models, indexes, frozenset(changed.names))

    def stale_changes(self, version: str, olds: Iterable[str]) -> bool:
        """Whether the change pages of ``version`` against ``olds`` must be rendered again."""
        return bool(self.releases & {version, *olds})


def restamp_text(text: str, digests: Mapping[str, str]) -> str:
    """``text`` with each key of ``digests`` (source digests: fixed-length hex, never part of
    another word) replaced by its value; ``text`` itself when none occurs."""
    if not any(d in text for d in digests):
        return text
    if len(digests) == 1:  # the same, faster
        ((old, new),) = digests.items()
        return text.replace(old, new)
    return re.sub("|".join(map(re.escape, digests)), lambda m: digests[m.group(0)], text)


# -- what a release's pages read from the other releases -------------------------------------------
def change_olds(version: str, order: Sequence[str], pairs: Sequence[tuple[str, str]]) -> list[str]:
    """Releases rendered release ``version`` gets change pages from: the previous release of
    ``order`` (the site's releases, oldest first by ``release_sort_key``), and the ``old`` of every
    configured (old, version) pair."""
    i = list(order).index(version)
    olds = [order[i - 1]] if i > 0 else []
    return olds + [old for old, new in pairs if new == version and old != version and old not in olds]


@dataclass(frozen=True)
class ReleaseInputs:
    """Which other releases the pages of one release read (``build-site`` rebuilds a release
    when one of them changed)."""

    content: tuple[str, ...]
    """Releases whose models its pages compare with: ``change_olds``."""
    shape: tuple[str, ...]
    """Every other release of the site: its definition and property names (``shape_digest``)."""

    @classmethod
    def of(cls, version: str, versions: Iterable[str], pairs: Sequence[tuple[str, str]] = ()
           ) -> ReleaseInputs:
        order = sorted(versions, key=release_sort_key)
        return cls(tuple(change_olds(version, order, pairs)), tuple(v for v in order if v != version))


def release_shape(release: Release, options: SourceOptions | None = None) -> tuple[str, bool]:
    """``shape_digest`` of a release, and whether it is only CRD sets (its title says so: a
    ``views.pages.title_of`` argument), from one read of each source."""
    read = [definition_fields(spec, options) for spec in (release.spec, *release.crds)]
    shape = [sorted((name, sorted(fields)) for name, fields in found.items()) for _, found in read]
    digest = hashlib.sha256(json.dumps(shape if release.crds else shape[0]).encode()).hexdigest()
    return digest, read[0][0] == "crd"


def shape_digest(release: Release, options: SourceOptions | None = None) -> str:
    """Digest of what other releases read from this one besides links to it: its definition
    names and their property names (pages: Other versions; fields: since / removed in), CRD sets
    included (a CRD's field paths at every depth). Read from the names alone where the source
    allows (``sources.definition_fields``)."""
    return release_shape(release, options)[0]
