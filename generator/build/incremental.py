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
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from generator.analysis.timeline import ModelKey, identity
from generator.build.state import LoadedRelease, SiteState  # noqa: F401  (re-exported for callers)
from generator.model.types import ApiSpec, Model
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
        keys = set()
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
    def everything(cls, apis: Mapping[str, ApiSpec]) -> PageDependencies:
        return cls({v: api.models.keys() for v, api in apis.items()}, dict.fromkeys(apis),
                   frozenset(apis))

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
