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
