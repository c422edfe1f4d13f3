"""The cache of loaded releases the release builds of ``build-site`` share
(``pipeline.release_cache``): a hit gives the same pages as loading, an entry made by other code or
that cannot be read is not used, and the plugin without ``build-site`` does not use it."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.config import Release, SiteConfig, VersionsOptions, plugin_config
from generator.pipeline import build as pipeline_build
from generator.pipeline import release_cache
from generator.pipeline.build import build
from generator.sitebuild.mkdocs_yml import ParentConfig, release_plugin_options

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "versions"
OLD, NEW = str(FIXTURES / "gadget-old.json"), str(FIXTURES / "gadget-new.json")
SITE = (Release("1.30", OLD), Release("1.31", OLD), Release("1.32", NEW))


def config(cache: Path | None) -> SiteConfig:
    """1.32 built as a site of its own beside 1.30 and 1.31, as ``build-site`` builds it: 1.31 is
    compared with (change page, field histories), 1.30 only lends its plan, index and title."""
    return SiteConfig.create([SITE[2]], siblings=SITE, at_root=True,
                             versions=VersionsOptions.create([r.version for r in SITE]),
                             release_cache=cache)


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The releases loaded from their sources (not taken from the cache), in order."""
    seen: list[str] = []
    load = pipeline_build.load_api

    def counting(release: Release, *args: object, **kwargs: object) -> object:
        seen.append(release.version)
        return load(release, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline_build, "load_api", counting)
    return seen


def pages(cache: Path | None) -> dict[str, str]:
    site, _ = build(config(cache), keep=True)
    assert site.titles == {"1.30": "Kubernetes 1.30", "1.31": "Kubernetes 1.31",
                           "1.32": "Kubernetes 1.32"}
    return site.pages


def test_a_cache_hit_gives_the_pages_of_a_load(tmp_path: Path, loads: list[str]) -> None:
    fresh = pages(None)
    assert sorted(loads) == ["1.30", "1.31", "1.32"]
    assert "changes.md" in fresh and any("1.31" in text for text in fresh.values())
    loads.clear()
    assert pages(tmp_path / "releases") == fresh  # cold: loads and keeps every release
    assert sorted(loads) == ["1.30", "1.31", "1.32"]
    kept = sorted(p.name.split("-")[0] for p in (tmp_path / "releases").rglob("*.pickle"))
    assert kept == ["api", "api", "api", "sibling", "sibling"]  # 1.32 is at the root here
    loads.clear()
    assert pages(tmp_path / "releases") == fresh  # warm: nothing loaded from a source
    assert loads == []
    entries = tmp_path / "releases" / release_cache.code_digest()[:16]
    assert {p.parent for p in tmp_path.rglob("*") if p.is_file()} == {entries}


def test_a_sibling_loads_its_model_only_when_asked(tmp_path: Path) -> None:
    pages(tmp_path)
    loaded = pipeline_build._load(config(tmp_path), None, {})
    assert loaded["1.30"]._api is None  # a sibling: plan, index and format only
    assert loaded["1.31"]._api is not None and loaded["1.32"]._api is not None
    fresh = pipeline_build._load(config(None), None, {})
    assert loaded["1.30"].plan == fresh["1.30"].plan and loaded["1.30"].index == fresh["1.30"].index
    assert loaded["1.30"].api == fresh["1.30"].api  # asked: taken from the cache


def test_an_entry_of_other_code_is_not_used(tmp_path: Path, loads: list[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = pages(tmp_path)
    loads.clear()
    made = tmp_path / release_cache.code_digest()[:16]
    monkeypatch.setattr(release_cache, "code_digest", lambda: "edited code")
    assert release_cache.stale_entries(tmp_path) == [made]
    assert pages(tmp_path) == fresh
    assert sorted(loads) == ["1.30", "1.31", "1.32"]
    monkeypatch.undo()
    assert release_cache.stale_entries(tmp_path) == [tmp_path / "edited code"]  # build-site removes it


@pytest.mark.parametrize("damage", [b"", b"not a pickle", None])
def test_an_entry_that_cannot_be_read_is_ignored_and_replaced(
        tmp_path: Path, loads: list[str], damage: bytes | None) -> None:
    fresh = pages(tmp_path)
    entries = sorted(tmp_path.rglob("*.pickle"))
    for entry in entries:
        data = entry.read_bytes()
        # None: a whole pickle of another entry (the key inside it is checked)
        entry.write_bytes(damage if damage is not None else entries[0].read_bytes()
                          if entry != entries[0] else data[: len(data) // 2])
    loads.clear()
    assert pages(tmp_path) == fresh
    assert sorted(loads) == ["1.30", "1.31", "1.32"]
    loads.clear()
    assert pages(tmp_path) == fresh  # the damaged entries were written again
    assert loads == []


def test_an_unwritable_cache_costs_only_loads(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    assert pages(blocked / "releases") == pages(None)


def test_only_build_site_turns_the_cache_on(tmp_path: Path) -> None:
    mkdocs_yml = tmp_path / "mkdocs.yml"
    mkdocs_yml.write_text("site_name: x\nplugins:\n  - k8s-api-docs:\n      cache_dir: c\n")
    parent = ParentConfig.load(mkdocs_yml)
    assert plugin_config(parent.plugin_options(), tmp_path).release_cache is None
    options = release_plugin_options(parent, SITE[2], list(SITE), cache_dir=tmp_path / "c",
                                     pages_dir=tmp_path / "p", groups=[])
    assert plugin_config(options, tmp_path).release_cache == tmp_path / "c" / "releases"
