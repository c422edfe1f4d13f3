"""``assemble PART… --out SITE``: one site from ``build-site`` outputs built apart (a CI matrix job
per release, each ``build-site --only RELEASE`` with the site's whole ``--version`` list).

Each part says what it is (``parts.SITE_FACTS``: the site's releases, titles, name and URL, and
the releases it holds with the key of their inputs). The parts must be of one site, together
hold every release of it, and hold a release twice only with the same files. The site is put
together in a staging directory beside ``--out``: the release directories copied, ``latest/``,
``versions.json`` and the landing page made as ``build-site`` makes them (``landing``), every
internal link checked (``linkcheck``, links between releases included); then it is swapped in
whole. Any refusal is one line, exit 2, and leaves ``--out`` as it was."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from generator.errors import GeneratorError, UsageError
from generator.output.writer import (
    claim_dir,
    copy_tree,
    refuse_foreign,
    remove_dir,
    swap_dir,
    write_pages,
)
from generator.pipeline.cache import tree_digest
from generator.sitebuild.build import html_pages, write_site_root
from generator.sitebuild.landing import LATEST_ALIAS, alias_pages
from generator.sitebuild.linkcheck import SiteFiles, check_pages
from generator.sitebuild.parts import SiteFacts, read_facts, site_facts

STAGING_PREFIX = ".assemble-"


@dataclass
class AssembleSummary:
    out: Path
    releases: list[str]
    parts: int
    pages: int

    def __str__(self) -> str:
        return (f"assembled {len(self.releases)} release(s) ({', '.join(self.releases)}) from "
                f"{self.parts} part(s), {self.pages:,} pages → {self.out}")


def collect(parts: Sequence[Path]) -> tuple[SiteFacts, dict[str, Path], dict[str, str]]:
    """(the site, release → the part directory it is taken from, release → key); a
    ``UsageError`` for parts that do not make one site."""
    if not parts:
        raise UsageError("give at least one part")
    first: tuple[Path, SiteFacts] | None = None
    source: dict[str, Path] = {}
    keys: dict[str, str] = {}
    for part in parts:
        facts = read_facts(part)
        if first is None:
            first = (part, facts)
        elif not facts.same_site(first[1]):
            raise UsageError(f"{part} is a part of {facts.describe()}, {first[0]} of "
                             f"{first[1].describe()}: build every part with the site's whole "
                             f"--version list and --only RELEASE (same config and --site-url)")
        elif not facts.same_inputs(first[1]):
            raise UsageError(f"{part} and {first[0]} were built from different inputs (generator, "
                             f"config, templates, MkDocs/Material versions, sources, --group or "
                             f"--site-url differ): build every part from the same checkout and lock")
        for version, key in facts.built.items():
            if version in source:
                if tree_digest([source[version] / version]) != tree_digest([part / version]):
                    raise UsageError(f"release {version} is in {source[version]} and in {part} with "
                                     f"different content")
                continue
            source[version], keys[version] = part, key
    assert first is not None
    site = first[1]
    missing = [v for v in site.releases if v not in source]
    if missing:
        raise UsageError(f"no part holds release {', '.join(missing)} of the site "
                         f"({', '.join(site.releases)})")
    return site, source, keys


def assemble(parts: Sequence[Path], out: Path) -> AssembleSummary:
    """Put ``parts`` together at ``out`` (see the module docstring)."""
    parts = [p.resolve() for p in parts]
    out = out.resolve()
    for part in parts:
        if out == part or out in part.parents or part in out.parents:
            raise UsageError(f"--out {out} overlaps the part {part}: write the site elsewhere")
    site, source, keys = collect(parts)
    refuse_foreign(out)
    staging = out.parent / f"{STAGING_PREFIX}{out.name}"
    remove_dir(staging)
    try:
        claim_dir(staging)
        for version in site.releases:
            copy_tree(source[version] / version, staging / version)
        newest = site.releases[-1]
        listed = {v: html_pages(staging / v) for v in site.releases}
        pages = sum(len(p) for p in listed.values())
        write_pages(staging / LATEST_ALIAS, alias_pages(listed[newest], newest, site.titles,
                                                        directory_urls=site.directory_urls))
        write_site_root(staging, site_facts(site.site_name, site.site_url, site.releases, site.titles,
                                            keys, site.inputs, site.directory_urls))
        files = SiteFiles(staging, index_rewriting=site.directory_urls)
        broken = check_pages(files, files.html_files())
        if broken:
            shown = "; ".join(str(b) for b in broken[:3])
            raise GeneratorError(f"{len(broken)} broken internal link(s) in the assembled site: {shown}"
                                 + (" …" if len(broken) > 3 else ""))
        swap_dir(staging, out)
    except BaseException:
        remove_dir(staging)
        raise
    return AssembleSummary(out, list(site.releases), len(parts), pages)
