"""The site's configuration as the CLI and the plugin give it: releases and their sources, and the
versions feature's options."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from generator.errors import UsageError
from generator.sources import SOURCE_KINDS, default_source

PAGE_FORMATS = ("mkdocs", "gfm")
"""How pages are written: ``mkdocs``, Markdown headings with HTML blocks between them (the
MkDocs plugin's fast pages); ``gfm``, plain GitHub-flavoured Markdown without any HTML (the
templates in ``templates/gfm/``, same names, same view-models)."""


@dataclass(frozen=True)
class Release:
    """One release of the site: a version label and where its definitions come from."""

    version: str
    source: str = ""
    crds: tuple[str, ...] = ()
    """CRD sets (files, directories, URLs) documented with this release (``--crds``, plugin
    ``crds:``): their ``metadata`` links to the release's ObjectMeta."""

    @property
    def spec(self) -> str:
        return self.source or default_source(self.version)


@dataclass(frozen=True)
class VersionsOptions:
    """The versions feature: other-versions lines, field history, change pages."""

    enabled: bool = True
    history: str = "all"
    """``all``: the timeline also has every kubernetes-validate release; ``site``: only the site's."""
    change_pairs: tuple[tuple[str, str], ...] = ()
    """Extra (old, new) change pages beyond the adjacent pairs; ``new`` must be rendered."""


def pair_releases(versions: Sequence[str], sources: Sequence[str], kind: str = "bundled",
                  crds: Sequence[str] = ()) -> list[Release]:
    """Pair ``--version`` and ``--source`` options by position; a version without a source reads
    ``kind``'s source (``bundled``: kubernetes-validate; ``upstream``: ``upstream:VERSION``);
    ``--crds`` go with every release."""
    if not versions:
        raise UsageError("give at least one --version")
    if len(sources) > len(versions):
        raise UsageError("more --source than --version options")
    if len(set(versions)) != len(versions):
        raise UsageError("a --version is given twice")
    if kind not in SOURCE_KINDS:
        raise UsageError(f"source kind must be one of {', '.join(SOURCE_KINDS)}, not {kind!r}")
    default = (lambda v: default_source(v, kind)) if kind != "bundled" else (lambda v: "")
    return [Release(v, sources[i] if i < len(sources) else default(v), tuple(crds))
            for i, v in enumerate(versions)]
