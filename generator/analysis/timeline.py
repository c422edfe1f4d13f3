"""Release history of models and fields: which releases have a model, since when a field exists,
in which release it goes away.

Identity across releases is (navigation group, kind): ``resource`` + ``ResourceClaimStatus`` is
the same model in ``resource.k8s.io/v1alpha3`` and ``v1beta1``, in every release. The timeline
covers every release the sources offer (kubernetes-validate: 1.25 to 1.37; the shipped history
table: 1.10 to 1.24), not only the releases the site shows; a release of the site always uses
the site's own definitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from generator.model.gvk import kind_of, package_group_version
from generator.model.ordering import api_version_sort_key, release_sort_key
from generator.model.types import ApiSpec


@dataclass(frozen=True, order=True, slots=True)
class ModelKey:
    """A model's identity across releases and API versions."""

    group: str
    kind: str


@dataclass(frozen=True, slots=True)
class Presence:
    """One model in one release and API version."""

    name: str
    """Definition name in that release."""
    fields: frozenset[str]


ReleaseIndex = dict[ModelKey, dict[str, Presence]]
"""Model identity → API version → presence, for one release."""


@cache
def identity(name: str) -> tuple[ModelKey, str]:
    """(model identity, API version) of a definition name; cached (names repeat every release)."""
    group, api_version = package_group_version(name)
    return ModelKey(group, kind_of(name)), api_version


def index_fields(names: Mapping[str, Iterable[str]]) -> ReleaseIndex:
    """Index of one release from definition name → field names."""
    index: ReleaseIndex = {}
    for name in sorted(names):
        key, api_version = identity(name)
        index.setdefault(key, {}).setdefault(api_version, Presence(name, frozenset(names[name])))
    return index


def index_api(api: ApiSpec) -> ReleaseIndex:
    """Index of one loaded release, by each model's own group and kind (a CRD's group is its
    API group, a nested object's kind its root's kind and field path; for other definitions
    these are what ``identity`` reads from the name)."""
    index: ReleaseIndex = {}
    for name in sorted(api.models):
        model = api.models[name]
        index.setdefault(ModelKey(model.group, model.kind), {}).setdefault(
            model.api_version, Presence(name, frozenset(f.name for f in model.fields)))
    return index


def best_api_version(versions: Iterable[str], prefer: str = "") -> str:
    """``prefer`` when present, else the most stable, newest API version."""
    versions = list(versions)
    if prefer in versions:
        return prefer
    return min(versions, key=api_version_sort_key)


@dataclass
class Timeline:
    """Every known release, oldest first, with its index."""

    releases: tuple[str, ...]
    by_key: dict[ModelKey, dict[str, dict[str, Presence]]]
    """Model identity → release → API version → presence."""
    _since: dict[ModelKey, dict[str, tuple[str, tuple[str, ...]]]] = field(default_factory=dict,
                                                                         repr=False)
    _lives: dict[tuple[ModelKey, str | None], list[str]] = field(default_factory=dict, repr=False)
    _removals: dict[tuple[ModelKey, str, str], dict[str, str | None]] = field(default_factory=dict,
                                                                            repr=False)

    @classmethod
    def build(cls, indexes: Mapping[str, ReleaseIndex]) -> Timeline:
        releases = tuple(sorted(indexes, key=release_sort_key))
        by_key: dict[ModelKey, dict[str, dict[str, Presence]]] = {}
        for release in releases:
            for key, versions in indexes[release].items():
                by_key.setdefault(key, {})[release] = versions
        return cls(releases, by_key)

    @property
    def first(self) -> str:
        return self.releases[0] if self.releases else ""

    def versions_in(self, key: ModelKey, release: str) -> dict[str, Presence]:
        """API version → presence of the model in ``release`` (empty when absent)."""
        return self.by_key.get(key, {}).get(release, {})

    def releases_of(self, key: ModelKey, api_version: str | None = None) -> list[str]:
        """Releases that have the model (in ``api_version`` when given)."""
        cached = self._lives.get((key, api_version))
        if cached is None:
            history = self.by_key.get(key, {})
            cached = [r for r, versions in history.items()
                      if api_version is None or api_version in versions]
            self._lives[(key, api_version)] = cached
        return cached

    def field_since(self, key: ModelKey, name: str) -> tuple[str, tuple[str, ...]] | None:
        """(first release that has field ``name`` in any API version of the model, every API
        version that has it in that release, most stable first): a field added to ``v1``,
        ``v1beta1`` and ``v1beta2`` at once belongs to none of them more than the others."""
        table = self._since.get(key)
        if table is None:
            table = {}
            previous: dict[str, Presence] | None = None
            for release, versions in self.by_key.get(key, {}).items():
                if versions is previous:  # a release sharing the one before's mapping adds nothing
                    continue
                previous = versions
                added: dict[str, list[str]] = {}
                for api_version in sorted(versions, key=api_version_sort_key):
                    for f in versions[api_version].fields:
                        if f not in table:
                            added.setdefault(f, []).append(api_version)
                table.update({f: (release, tuple(avs)) for f, avs in added.items()})
            self._since[key] = table
        return table.get(name)

    def field_removed_in(self, key: ModelKey, api_version: str, name: str, after: str) -> str | None:
        """First release after ``after`` whose model lacks field ``name``.

        Decided in the same API version while it exists, else across the model's API versions;
        a release without the model at all ends the search (the model, not the field, went away).
        """
        if after not in self.releases:
            return None
        removals = self._removals.get((key, api_version, after))
        if removals is None:
            removals = self._removals[(key, api_version, after)] = self._removed_after(
                key, api_version, after)
        if name in removals:
            return removals[name]
        return self._removed_after(key, api_version, after, name).get(name)

    def _removed_after(self, key: ModelKey, api_version: str, after: str, name: str | None = None
                       ) -> dict[str, str | None]:
        """``field_removed_in`` of ``name``, or of every field the model has in ``after`` (one
        walk over the later releases for all the fields of a page)."""
        versions = self.versions_in(key, after)
        pending = {name} if name is not None else {f for p in versions.values() for f in p.fields}
        out: dict[str, str | None] = dict.fromkeys(pending)
        for release in self.releases[self.releases.index(after) + 1 :]:
            versions = self.versions_in(key, release)
            if not versions or not pending:
                break
            if api_version in versions:
                fields = versions[api_version].fields
            else:
                fields = frozenset().union(*(p.fields for p in versions.values()))
            gone = {f for f in pending if f not in fields}
            out.update(dict.fromkeys(gone, release))
            pending -= gone
        return out


def ranges(releases: Iterable[str], timeline: Iterable[str]) -> list[tuple[str, str]]:
    """Runs of consecutive timeline releases: ``[("1.26", "1.30"), ("1.32", "1.37")]``."""
    wanted = set(releases)
    out: list[tuple[str, str]] = []
    run: list[str] = []
    for release in timeline:
        if release in wanted:
            run.append(release)
        elif run:
            out.append((run[0], run[-1]))
            run = []
    if run:
        out.append((run[0], run[-1]))
    return out
