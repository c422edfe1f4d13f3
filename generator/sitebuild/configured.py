"""The site a project publishes, as ``explain`` needs it: the releases of the k8s-api-docs plugin
in the MkDocs config of a directory (``mkdocs.yml``, following ``INHERIT``), else the default
site ``build-site`` makes (``presets.DEFAULT_RELEASES``). Read with PyYAML alone (libyaml's parser
where installed): ``explain`` loads no MkDocs, and no YAML at all for a config that cannot
configure the plugin."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from generator.errors import UsageError
from generator.model.ordering import release_sort_key
from generator.sitebuild.presets import DEFAULT_RELEASES
from generator.views.explain import PublishedSite

PLUGIN = "k8s-api-docs"
CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


MENTIONS = (PLUGIN.encode(), b"INHERIT", b"\\")
"""Bytes a config holds when it can name the plugin or a parent config: the names themselves, or
a backslash (a double-quoted YAML scalar can spell any character as an escape). A config with
none of them is not parsed: importing PyYAML is a large part of ``explain``'s start-up."""


@cache
def _tolerant_loader() -> Any:
    """Safe loading (libyaml's where installed) that reads MkDocs' tags (``!ENV``,
    ``!!python/name:…``) as nothing; made when first needed (PyYAML imported then)."""
    import yaml

    loader: Any = type("TolerantLoader", (getattr(yaml, "CSafeLoader", yaml.SafeLoader),), {})
    loader.add_multi_constructor("", lambda loader, suffix, node: None)
    return loader


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read MkDocs config {path}: {exc.strerror or exc}") from None
    if not any(m in raw for m in MENTIONS):
        return {}
    import yaml

    try:
        data = yaml.load(raw, Loader=_tolerant_loader())  # a SafeLoader
    except yaml.YAMLError as exc:
        raise UsageError(f"invalid MkDocs config {path}: {' '.join(str(exc).split())}") from None
    return data if isinstance(data, dict) else {}


def _plugin_options(data: dict[str, Any]) -> dict[str, Any] | None:
    raw = data.get("plugins")
    items = raw.items() if isinstance(raw, dict) else (
        (k, v) for item in raw or () if isinstance(item, dict) for k, v in item.items())
    for name, options in items:
        if name == PLUGIN:
            return options if isinstance(options, dict) else {}
    return None


def configured_site(directory: Path) -> PublishedSite | None:
    """The site of the MkDocs config in ``directory`` when its k8s-api-docs plugin lists
    ``versions`` (the nearest ``INHERIT``ed config that has the plugin), else None."""
    path = next((directory / n for n in CONFIG_NAMES if (directory / n).is_file()), None)
    seen: set[Path] = set()
    site_url = ""
    while path is not None and path.resolve() not in seen:
        seen.add(path.resolve())
        data = _read(path)
        site_url = site_url or str(data.get("site_url") or "")
        options = _plugin_options(data)
        if options is not None:
            return _site(options, f"the site of {path}", site_url)
        parent = data.get("INHERIT")
        path = (path.parent / str(parent)) if isinstance(parent, str) and parent else None
    return None


def _site(options: dict[str, Any], where: str, site_url: str) -> PublishedSite | None:
    releases: dict[str, tuple[str, tuple[str, ...]]] = {}
    for entry in options.get("versions") or ():
        if isinstance(entry, dict) and isinstance(entry.get("version"), str):
            crds = entry.get("crds") or ()
            releases[entry["version"]] = (str(entry.get("source") or ""),
                                          tuple(str(c) for c in crds if isinstance(c, str)))
    if not releases:
        return None
    groups = tuple(str(g) for g in options.get("groups") or () if isinstance(g, str))
    ordered = dict(sorted(releases.items(), key=lambda item: release_sort_key(item[0])))
    return PublishedSite(ordered, groups, where, site_url)


def default_site() -> PublishedSite:
    """The site ``build-site`` makes without a config: the default releases, bundled."""
    return PublishedSite({v: ("", ()) for v in DEFAULT_RELEASES}, (), "the default site")


def explain_site(directory: Path) -> tuple[PublishedSite, bool]:
    """(the site explain's URLs point into, whether it is configured in ``directory``)."""
    site = configured_site(directory)
    return (site, True) if site is not None else (default_site(), False)


def newest(site: PublishedSite) -> tuple[str, str, tuple[str, ...]]:
    """(label, source, CRD sets) of the site's newest release."""
    label = max(site.releases, key=release_sort_key)
    return (label, *site.releases[label])
