"""The MkDocs config of one release's site: ``INHERIT`` the project's ``mkdocs.yml`` (theme,
extensions, everything) and change only what makes it a per-release build: the plugin options
(``release_plugin_options``), which the Zensical builder reads too."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from mkdocs.exceptions import ConfigurationError
from mkdocs.utils.yaml import get_yaml_loader, yaml_load

from generator.config import Release
from generator.errors import UsageError
from generator.sitebuild.landing import release_site_url

PLUGIN = "k8s-api-docs"
_PACKAGE = Path(__file__).resolve().parent.parent


def builtin_config() -> Path:
    """The project's own ``mkdocs.yml`` (theme, extensions, stylesheet, hand-written home):
    ``generator/_site/`` in an installed wheel, else the checkout's."""
    packaged = _PACKAGE / "_site" / "mkdocs.yml"
    return packaged if packaged.is_file() else _PACKAGE.parent / "mkdocs.yml"


@dataclass(frozen=True)
class ParentConfig:
    """What ``build-site`` needs from the inherited config (after its own ``INHERIT`` chain)."""

    path: Path
    data: dict[str, Any]
    builtin: bool = False
    """The built-in config (``builtin_config``), used when no config is given or found."""

    @classmethod
    def load(cls, path: Path | None) -> ParentConfig:
        """The config at ``path``; ``None``: the built-in one."""
        builtin = path is None
        path = builtin_config() if path is None else path
        try:
            with path.open("rb") as fh:
                data = yaml_load(fh, get_yaml_loader())
        except OSError as exc:
            raise UsageError(f"cannot read MkDocs config {path}: {exc.strerror or exc}") from None
        except (yaml.YAMLError, ConfigurationError) as exc:
            raise UsageError(f"invalid MkDocs config {path}: {exc}") from None
        return cls(path.resolve(), data if isinstance(data, dict) else {}, builtin)

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    @property
    def docs_dir(self) -> Path:
        return (self.base_dir / str(self.data.get("docs_dir", "docs"))).resolve()

    @property
    def site_url(self) -> str:
        return str(self.data.get("site_url") or "")

    @property
    def directory_urls(self) -> bool:
        """MkDocs' ``use_directory_urls`` (default true): the URL style of every release's site
        and of the pages ``build-site`` writes at the root (``sitebuild.landing``)."""
        return bool(self.data.get("use_directory_urls", True))

    @property
    def site_name(self) -> str:
        return str(self.data.get("site_name", "Kubernetes API reference"))

    def plugins(self) -> dict[str, Any]:
        """The plugins as a mapping (MkDocs accepts both a list and a mapping)."""
        raw = self.data.get("plugins", ["search"])
        if isinstance(raw, dict):
            return {str(k): v or {} for k, v in raw.items()}
        plugins: dict[str, Any] = {}
        for item in raw or []:
            if isinstance(item, str):
                plugins[item] = {}
            elif isinstance(item, dict):
                plugins.update({str(k): v or {} for k, v in item.items()})
        return plugins

    def plugin_options(self) -> dict[str, Any]:
        return dict(self.plugins().get(PLUGIN) or {})

    def template_dir(self) -> Path | None:
        templates = self.plugin_options().get("templates")
        return (self.base_dir / templates).resolve() if templates else None


def release_plugin_options(parent: ParentConfig, release: Release, site_releases: list[Release], *,
                           cache_dir: Path, pages_dir: Path, groups: list[str],
                           spec_mirror: Path | None = None, lock_file: Path | None = None,
                           offline: bool = False) -> dict[str, Any]:
    """The plugin options of one release's build (paths absolute): the project's own, with every
    release of the site, this one generated at the docs root. Both builders make their
    ``config.SiteConfig`` of these (``config.plugin_config``)."""
    options = parent.plugin_options()
    options.update({
        "versions": [{"version": r.version,
                      **({"source": _abs_source(parent, r.source)} if r.source else {}),
                      **({"crds": [_abs_source(parent, c) for c in r.crds]} if r.crds else {})}
                     for r in site_releases],
        "only": [release.version],
        "layout": "release",
        "cache_dir": str(cache_dir),
        "pages_dir": str(pages_dir),
        "groups": list(groups),
        "release_cache": True,  # every release build loads every release: once is enough
    })
    if offline:
        options["offline"] = True
    if spec_mirror is not None:
        options["spec_mirror"] = str(spec_mirror)
    if lock_file is not None:
        options["lock_file"] = str(lock_file)
    if parent.template_dir():
        options["templates"] = str(parent.template_dir())
    return options


def release_mkdocs_yml(parent: ParentConfig, release: Release, options: dict[str, Any], *,
                       site_dir: Path, site_url: str = "") -> str:
    """YAML of the per-release MkDocs config (it lives in the cache directory) with the plugin
    ``options`` (``release_plugin_options``). ``site_url`` is the whole site's
    (``landing.site_url_of``); the release's is below it."""
    plugins = parent.plugins()
    plugins[PLUGIN] = options
    config: dict[str, Any] = {
        "INHERIT": str(parent.path),
        "docs_dir": str(parent.docs_dir),
        "site_dir": str(site_dir),
        "extra": {"version": {"provider": "mike", "default": "latest"}},
        "plugins": plugins,
    }
    if not parent.directory_urls and not (parent.data.get("extra") or {}).get("homepage"):
        # the release home sits in its nav section, so MkDocs sees no homepage and Material's
        # logo would link its directory (".."), which a server without index rewriting lacks
        config["extra"]["homepage"] = "index.html"
    if site_url:
        config["site_url"] = release_site_url(site_url, release.version)
    header = f"# Generated by k8s-api-docs build-site for release {release.version}; do not edit.\n"
    return header + yaml.safe_dump(config, sort_keys=False, allow_unicode=True)


def _abs_source(parent: ParentConfig, source: str) -> str:
    """A relative path source is resolved against the current directory (like the CLI)."""
    if ":" in source.split("/")[0] or not source:
        return source
    return str(Path(source).resolve())
