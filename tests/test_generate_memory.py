"""What keeps ``generate`` fast and small (issue 35 item 6): its pages kept encoded as they
are rendered, the collector off for the one build, and the package releases' field history
sharing its sets instead of holding a copy per release."""

from __future__ import annotations

import gc
import json
import sys

from helpers.paths import FIXTURES

from generator.cli import main
from generator.config import Release, SiteConfig
from generator.pipeline import history
from generator.pipeline.page_store import EncodedPages
from generator.sources import jsonschema_pkg

ZOO = str(FIXTURES / "specs" / "zoo-v2.json")


def test_generate_leaves_the_collector_as_it_found_it(tmp_path):
    assert gc.isenabled()
    assert main(["generate", "--version", "9.9", "--source", ZOO, "--out", str(tmp_path / "o"),
                 "--cache-dir", str(tmp_path / "cache"), "-q"]) == 0
    assert gc.isenabled()


def test_package_releases_share_their_field_sets():
    versions = jsonschema_pkg.available_versions()[:3]
    assert len(versions) == 3
    names = [jsonschema_pkg.field_names(v) for v in versions]
    pod = "io.k8s.api.core.v1.PodSpec"
    for version, fields in zip(versions, names, strict=True):  # the content: the file's own
        schema = json.loads(jsonschema_pkg.package_bytes(version))["$defs"][pod]
        assert fields[pod] == frozenset(schema["properties"]) and "containers" in fields[pod]
    shared = [n for n in names[0] if n in names[1] and names[0][n] == names[1][n]]
    assert len(shared) > 100
    assert all(names[0][n] is names[1][n] for n in shared)  # one set, not one per release
    first, second = history._package_index(versions[0]), history._package_index(versions[1])
    same = [(k, v) for k in first if k in second for v in first[k]
            if v in second[k] and first[k][v] == second[k][v]]
    assert same and all(first[k][v] is second[k][v] for k, v in same)


def test_encoded_pages_are_the_pages_in_half_the_memory():
    text = "1.10\u20131.31 \u00b7 <code>x</code>\n"
    pages = EncodedPages({"b/x.md": text, "a/y.md": "plain\n"})
    assert pages["b/x.md"] == text and pages.get("none") is None and "a/y.md" in pages
    assert list(pages.sorted()) == ["a/y.md", "b/x.md"] and dict(pages.sorted()) == dict(pages)
    more = EncodedPages({"c.md": "c\n"})
    pages.absorb(more)
    assert len(pages) == 3 and pages["c.md"] == "c\n"
    del pages["c.md"]
    assert "c.md" not in pages and len(pages) == 2
    big = EncodedPages({"p.md": "\u2013" + "x" * 100_000})
    assert sys.getsizeof(big._data["p.md"]) < sys.getsizeof(big["p.md"]) * 0.6


def test_an_encoded_build_renders_the_same_pages_in_batches(monkeypatch):
    from generator.pipeline import build as pipeline

    monkeypatch.setattr(pipeline, "ENCODED_BATCH", 3)  # several batches on a small spec
    config = SiteConfig.create([Release("9.9", ZOO)])
    plain, _ = pipeline.build(config)
    encoded, _ = pipeline.build(config, encoded=True)
    assert isinstance(encoded.pages, EncodedPages) and not isinstance(plain.pages, EncodedPages)
    assert list(encoded.pages) == list(plain.pages) and dict(encoded.pages) == dict(plain.pages)
    assert sum(p.endswith(".md") for p in plain.pages) > 3 * 3
    assert encoded.rendered == plain.rendered


def _build_counting_drops(monkeypatch, releases: list[Release], **kwargs):
    """``build`` of ``releases`` (encoded, a batch of 3 models, memos dropped every 3 pages):
    the site and how many times the render memos were dropped."""
    from generator import memo
    from generator.pipeline import build as pipeline

    monkeypatch.setattr(pipeline, "ENCODED_BATCH", 3)
    monkeypatch.setattr(pipeline, "DROP_PAGES", 3)
    drops = []
    real = memo.drop_render_memos
    monkeypatch.setattr(memo, "drop_render_memos", lambda: drops.append(real()))
    site, _ = pipeline.build(SiteConfig.create(releases), encoded=True, **kwargs)
    return site, drops


def test_a_one_release_build_drops_its_render_memos_and_renders_the_same(monkeypatch):
    """Every 3 model pages here (``memo.DROP_PAGES`` in a real build): the memos held entries
    each time, and the pages are those of a build that keeps them (a build of two releases)."""
    one, drops = _build_counting_drops(monkeypatch, [Release("9.9", ZOO)])
    models = sum(1 for p in one.rendered if p.endswith(".md"))
    assert models > 9 and len(drops) >= 3 and all(n > 0 for n in drops)
    two, kept = _build_counting_drops(monkeypatch, [Release("9.8", ZOO), Release("9.9", ZOO)])
    assert kept == []  # several releases: the next one asks the same names and snippets
    same = [p for p in one.pages if p.startswith("9.9/")]
    assert same and all(one.pages[p] == two.pages[p] for p in same if "9.8" not in two.pages[p])


def test_every_bounded_memo_of_the_generator_is_a_render_memo():
    """A memo made with a plain ``lru_cache`` would escape the drops; the two that stay plain are
    tiny (a CSS class per token type, a lexer per language)."""
    import generator.cli
    import generator.pipeline.build  # noqa: F401
    from generator import memo
    from generator.analysis import explain  # noqa: F401

    plain = {"generator.render.highlight.css_class", "generator.render.highlight.lexer_for"}
    found = _unregistered(memo)
    assert found <= plain, found - plain
    # the check can fail: a bounded memo made the plain way is found
    import functools

    @functools.lru_cache(maxsize=8)
    def stray(text: str) -> str:
        return text

    stray.__module__ = "generator.render.stray"
    assert any(name.endswith("stray") for name in _unregistered(memo, extra=[stray]))


def _unregistered(memo, extra=()) -> set[str]:
    import functools

    registered = {id(m) for m in memo._MEMOS}
    wrappers = [o for o in gc.get_objects() if isinstance(o, functools._lru_cache_wrapper)]
    return {f"{w.__module__}.{w.__qualname__}" for w in [*wrappers, *extra]
            if w.__module__.startswith("generator.") and w.cache_info().maxsize is not None
            and id(w) not in registered}


def test_drop_render_memos_empties_them_all():
    from generator import memo
    from generator.render import env, markup

    markup.inline("spec.replicas")
    env.wbr("terminationGracePeriodSeconds")
    assert memo.drop_render_memos() >= 2
    assert all(m.cache_info().currsize == 0 for m in memo._MEMOS)
    assert markup.inline("a *b*") == markup.inline("a *b*")  # still memos after the drop


def test_a_last_build_lets_go_of_what_its_timeline_is_made_from():
    """``generate``'s one build (``last``): the package releases' field sets and indexes are let
    go once the timeline is made; a later build in the same process makes them again and
    renders the same pages."""
    from generator.pipeline import build as pipeline

    config = SiteConfig.create([Release("9.9", ZOO)])
    first, _ = pipeline.build(config, last=True)
    assert history._package_index.cache_info().currsize == 0
    assert jsonschema_pkg.field_names.cache_info().currsize == 0
    again, _ = pipeline.build(config)
    assert history._package_index.cache_info().currsize > 0  # made again for this timeline
    assert dict(again.pages) == dict(first.pages)
