"""History back to 1.10 (issue 32): the shipped table of 1.10-1.24 against the packages it
comes from, and what ``since`` says with it.

The oracle reads the packages' JSON files itself (``kubernetes-validate==1.24.1``'s downloaded
archive for 1.10-1.24, the installed package's files for 1.25 onwards), never the table nor the
generator's readers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from generator.analysis.timeline import ModelKey
from generator.config import Release
from generator.model.types import ApiSpec, Model
from generator.pipeline.history import narrow_timeline, release_timeline
from generator.pipeline.load import load_api
from generator.pipeline.state import GeneratedSite
from generator.sources import release_history

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "history_data.py"
ARCHIVE_DIR = REPO / ".cache" / "history"
HISTORY = [f"1.{n}" for n in range(10, 25)]
PACKAGE = [f"1.{n}" for n in range(25, 38)]
_VERSION = re.compile(r"^v\d+((alpha|beta)\d+)?$")


def archive() -> Path:
    """The downloaded kubernetes-validate 1.24.1 (tests/setup_extras.py); in CI its absence
    fails, elsewhere it skips."""
    found = sorted(ARCHIVE_DIR.glob("kubernetes?validate-1.24.1*"))
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail(f"kubernetes-validate 1.24.1 not downloaded into {ARCHIVE_DIR}")
        pytest.skip("kubernetes-validate 1.24.1 not downloaded (python tests/setup_extras.py)")
    return found[0]


def _old_files() -> Iterator[tuple[str, bytes]]:
    member = re.compile(r"/kubernetes-json-schema/v1\.(\d+)\.0-local(-strict)?/_definitions\.json$")
    with tarfile.open(archive()) as tar:
        chosen: dict[str, tuple[bool, tarfile.TarInfo]] = {}
        for info in tar.getmembers():
            m = member.search(info.name)
            if m and (f"1.{m[1]}" not in chosen or not m[2]):
                chosen[f"1.{m[1]}"] = (bool(m[2]), info)
        for release, (_, info) in chosen.items():
            fh = tar.extractfile(info)
            assert fh is not None
            yield release, fh.read()


def _identity(name: str) -> tuple[str, str]:
    """(group, kind) of a definition name, as the upstream package layout spells it."""
    parts = name.split(".")
    for i in range(len(parts) - 2, 0, -1):
        if _VERSION.match(parts[i]):
            return parts[i - 1], parts[-1]
    return "", parts[-1]


@cache
def oracle() -> dict[str, dict[tuple[str, str], set[str]]]:
    """Release → (group, kind) → the field names any API version of it has, 1.10-1.37."""
    raw: dict[str, dict[str, dict]] = {}
    for release, data in _old_files():
        raw[release] = json.loads(data)["definitions"]
    spec = importlib.util.find_spec("kubernetes_validate")
    assert spec is not None and spec.submodule_search_locations
    root = Path(next(iter(spec.submodule_search_locations))) / "kubernetes-json-schema"
    for release in PACKAGE:
        raw[release] = json.loads((root / f"v{release}.0-local" / "_definitions.json")
                                  .read_text())["$defs"]
    out: dict[str, dict[tuple[str, str], set[str]]] = {}
    for release, defs in raw.items():
        per = out.setdefault(release, {})
        for name, schema in defs.items():
            if name.startswith("io.k8s.kubernetes.pkg."):
                continue  # 1.10-1.13's deprecated aliases: a bare $ref
            per.setdefault(_identity(name), set()).update((schema or {}).get("properties") or ())
    return out


def oracle_since(group: str, kind: str, field: str) -> str:
    releases = sorted(oracle(), key=lambda r: int(r.split(".")[1]))
    return next((r for r in releases if field in oracle()[r].get((group, kind), ())), "")


def sampled_fields(api: ApiSpec, per_kind: int, seed: int = 32) -> list[tuple[Model, Model, str]]:
    """(kind, owner model, field) for a seeded random sample of the fields of every kind: its own
    and its nested objects' (two levels of references down)."""
    rng = random.Random(seed)
    out = []
    for name in sorted(api.models):
        kind = api.models[name]
        if not kind.is_kind or kind.is_list or kind.crd is not None:
            continue
        pool: list[tuple[Model, str]] = []
        frontier, seen = [kind], {name}
        for _ in range(3):
            nxt = []
            for model in frontier:
                pool += [(model, f.name) for f in model.fields]
                for f in model.fields:
                    ref = f.type.referenced()
                    if ref and ref not in seen and ref in api.models:
                        seen.add(ref)
                        nxt.append(api.models[ref])
            frontier = nxt
        out += [(kind, owner, field) for owner, field in rng.sample(pool, min(per_kind, len(pool)))]
    return out


@pytest.fixture(scope="module")
def api_137() -> ApiSpec:
    return load_api(Release("1.37"))[0]


@pytest.mark.integration
def test_since_of_sampled_fields_of_every_kind_matches_the_packages(api_137: ApiSpec) -> None:
    """``since`` (pages: ``release_timeline``; ``explain``: ``narrow_timeline``) is the first
    release in 1.10-1.37 whose schema has the field; ``sinceOrEarlier`` only for 1.10."""
    sample = sampled_fields(api_137, per_kind=5)
    kinds = {kind.name for kind, _, _ in sample}
    assert len(kinds) > 60 and len(sample) > 300
    full = release_timeline([api_137])
    narrow = narrow_timeline([api_137], {ModelKey(o.group, o.kind) for _, o, _ in sample})
    assert full.first == narrow.first == "1.10"
    wrong, old = [], 0
    for kind, owner, field in sample:
        expected = oracle_since(*_identity(owner.name), field)
        key = ModelKey(owner.group, owner.kind)
        for timeline in (full, narrow):
            dated = timeline.field_since(key, field)
            got = dated[0] if dated else ""
            if got != expected:
                wrong.append((kind.kind, owner.name, field, got, expected))
        old += expected == "1.10"
    assert not wrong, wrong[:20]
    assert 0 < old < len(sample)  # some already in 1.10 ("or earlier"), most not


@pytest.mark.integration
@pytest.mark.parametrize(("path", "since", "earlier"), [
    ("pod.spec.containers.startupProbe", "1.16", False),
    ("service.spec.ipFamilyPolicy", "1.20", False),
    ("deployment.spec.replicas", "1.10", True),
    ("pod.spec.ephemeralContainers", "1.16", False),
])
def test_explain_since_and_since_or_earlier(path: str, since: str, earlier: bool) -> None:
    out = subprocess.run([sys.executable, "-m", "generator", "explain", path, "--version", "1.37",
                          "--format", "json"], capture_output=True, text=True, check=True,
                         cwd=REPO).stdout
    data = json.loads(out)
    assert (data["since"], data["sinceOrEarlier"]) == (since, earlier)
    owner = {"startupProbe": ("core", "Container"), "ipFamilyPolicy": ("core", "ServiceSpec"),
             "replicas": ("apps", "DeploymentSpec"),
             "ephemeralContainers": ("core", "PodSpec")}[path.rsplit(".", 1)[1]]
    assert oracle_since(*owner, path.rsplit(".", 1)[1]) == since  # the packages agree


@pytest.mark.integration
def test_explain_text_history_of_a_removed_kind_version() -> None:
    """The kind line of HISTORY: batch/v1beta1 CronJob lived 1.10 (or earlier) to 1.24."""
    out = subprocess.run([sys.executable, "-m", "generator", "explain", "cronjob", "--api-version",
                          "batch/v1", "--version", "1.25", "--format", "json"],
                         capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert json.loads(out)["since"] == "1.21"  # batch/v1 CronJob: GA in 1.21


# -- the table and its script ---------------------------------------------------------------------
@pytest.mark.integration
def test_table_covers_1_10_to_1_24_and_matches_the_archive() -> None:
    """Presence, fields and types of the table against the archive's files, release by release."""
    assert release_history.history_releases() == tuple(HISTORY)
    for release, data in _old_files():
        defs = {n: s for n, s in json.loads(data)["definitions"].items()
                if not n.startswith("io.k8s.kubernetes.pkg.")}
        names = release_history.history_field_names(release)
        assert set(names) == set(defs), release
        for name, schema in defs.items():
            assert names[name] == frozenset(schema.get("properties") or ()), (release, name)
    assert release_history.field_type("1.16", "io.k8s.api.core.v1.Container", "startupProbe") \
        == "io.k8s.api.core.v1.Probe"
    assert release_history.field_type("1.15", "io.k8s.api.core.v1.Container", "startupProbe") == ""
    assert release_history.field_type("1.20", "io.k8s.api.core.v1.PodSpec", "containers") \
        == "[]io.k8s.api.core.v1.Container"
    assert release_history.field_type("1.10", "io.k8s.api.core.v1.PodSpec", "nodeSelector") \
        == "map[]string"
    served = release_history.served_kinds("1.17")
    assert ("extensions", "v1beta1", "Deployment") in served  # definitions until 1.17…
    assert ("extensions", "v1beta1", "Deployment") not in release_history.served_kinds("1.18")
    assert ("networking.k8s.io", "v1", "Ingress") in release_history.served_kinds("1.19")
    assert ("networking.k8s.io", "v1", "Ingress") not in release_history.served_kinds("1.18")


def test_table_budget() -> None:
    size = release_history.DATA_FILE.stat().st_size
    assert size <= 1_000_000, size


@pytest.mark.integration
def test_data_script_regenerates_the_table_byte_identically() -> None:
    archive()  # skips (outside CI) when the archive is not downloaded
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                          text=True, cwd=REPO)
    assert (done.returncode, done.stdout.strip()) == (0, "up to date"), done.stdout + done.stderr


def test_combined_history_puts_the_table_before_the_package() -> None:
    class Package:
        releases = ("1.25", "1.26")

        def has(self, release: str, definition: str) -> bool:
            return release == "1.25"

        def fields(self, release: str, definition: str) -> frozenset[str] | None:
            return frozenset({"x"})

    history = release_history.CombinedHistory(Package())
    assert history.releases == (*HISTORY, "1.25", "1.26")
    assert history.has("1.24", "io.k8s.api.batch.v1beta1.CronJob")
    assert not history.has("1.24", "io.k8s.api.extensions.v1beta1.Ingress")  # gone in 1.22
    assert history.has("1.25", "anything") and not history.has("1.26", "anything")
    fields = history.fields("1.16", "io.k8s.api.core.v1.Container")
    assert fields is not None and "startupProbe" in fields


# -- pages --------------------------------------------------------------------------------------
def _row(page: str, field: str) -> str:
    (line,) = [ln for ln in page.splitlines() if f'id="field-{field.lower()}"' in ln]
    return line


@pytest.mark.integration
def test_pages_date_fields_and_kinds_back_to_1_10(default_pages: GeneratedSite) -> None:
    """Field rows say "since 1.16" (not "1.25 or earlier"); a field as old as the history says
    nothing; the kind's lifetime reads from 1.10."""
    container = default_pages.pages["1.32/core/v1/container.md"]
    assert '<span class="k8s-badge k8s-since">since 1.16</span>' in _row(container, "startupProbe")
    assert "since" not in _row(container, "image").split("</code>", 1)[-1].split("k8s-badge")[0] \
        and "k8s-since" not in _row(container, "image")
    service = default_pages.pages["1.32/core/v1/serviceSpec.md"]
    assert '<span class="k8s-badge k8s-since">since 1.20</span>' in _row(service, "ipFamilyPolicy")
    ingress = default_pages.pages["1.32/networking/v1/ingress.md"]
    lifetime = next(ln for ln in ingress.splitlines()
                    if ln.startswith('<p class="k8s-versions">Ingress v1 exists in'))
    # networking.k8s.io/v1 since 1.19, v1beta1 since 1.14 (extensions/v1beta1 is another group)
    assert "Ingress v1 exists in 1.19\u20131.37; in any API version in 1.14\u20131.37" in lifetime
    assert "releases known: 1.10\u20131.37" in lifetime
