"""What keeps ``generate`` fast and small (issue 35 item 6): the collector off for the one
build, and the package releases' field history sharing its sets instead of holding a copy per
release."""

from __future__ import annotations

import gc
import json

from helpers.paths import FIXTURES

from generator.cli import main
from generator.pipeline import history
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
