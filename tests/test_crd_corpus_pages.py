"""Every corpus CRD set built as a real site (``build-site``): no page over 500 KB of HTML, and
every property of every served or stored CRD version has its row (an element id on one of its
kind's pages), read from the CRD files independently of the generator's model. The presence,
size and anchor side of issue 23; the per-fact checks of each row are ``test_crd_corpus``'s.

Slow (a whole-site build per set); run one set with ``-k argo-cd``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.kubectl_yaml import load_all
from helpers.repeats import dotted, has_row_through, repeats, schema_at, section_schema

pytestmark = [pytest.mark.slow, pytest.mark.shared]

REPO = Path(__file__).resolve().parent.parent
LIMIT = 500_000
"""Bytes of HTML a page may have (issue 23)."""
SETS = ["argo-cd", "cluster-api", "crossplane", "external-secrets", "flux-source-controller", "keda",
        "knative-serving", "opentelemetry-operator", "traefik", "trust-manager", "velero",
        "../cert-manager", "../gateway-api/v1.2.0"]
"""The corpus projects (``crds/corpus/``), plus cert-manager and Gateway API v1.2.0."""
_ID = re.compile(r' id="([^"]+)"')


def crds(directory: Path) -> Iterator[dict[str, Any]]:
    """The CRDs of a set, read as kubectl reads YAML (``helpers.kubectl_yaml``, not the
    generator's reader)."""
    for path in sorted(directory.rglob("*")):
        if path.suffix in (".yaml", ".yml") and path.is_file():
            for doc in load_all(path.read_text(encoding="utf-8")):
                if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
                    yield doc


def property_paths(schema: Any, prefix: str = "") -> Iterator[str]:
    """Dotted paths of every property under ``schema`` (array items and map values continue
    their field's path, as the row anchors do: ``field-spec.rules.matches.path``)."""
    if not isinstance(schema, dict):
        return
    for name, sub in (schema.get("properties") or {}).items():
        path = f"{prefix}.{name}" if prefix else name
        yield path
        yield from property_paths(sub, path)
    for key in ("items", "additionalProperties"):
        yield from property_paths(schema.get(key), prefix)


def camel_lower(kind: str) -> str:
    """k8s-libsonnet's page name: the first camel-case word lower-cased, an acronym whole."""
    head = re.match(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]+$|[A-Z][a-z0-9]*", kind)
    return kind if head is None else head.group(0).lower() + kind[head.end():]


def has_row(path: str, ids: set[str]) -> bool:
    """Whether ``ids`` has the row anchor of ``path``: ``field-<path>``, or (a clash, a path
    over 120 characters: cut) that followed by ``-`` and 8 hex digits."""
    anchor = "field-" + path[:120]
    return (len(path) <= 120 and anchor in ids) or any(
        i.startswith(anchor + "-") and len(i) == len(anchor) + 9 for i in ids)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, shared: Path) -> Iterator[Any]:
    """Builds a set once (``build(name)`` → the site's release directory)."""
    done: dict[str, Path] = {}

    def build(name: str) -> Path:
        if name in done:
            return done[name]
        source = shared / "crds" / "corpus" / name
        release = source.name if name.startswith("..") else name
        out = tmp_path_factory.mktemp(release)
        subprocess.run([sys.executable, "-m", "generator", "build-site", "--version", release,
                        "--source", str(source.resolve()), "--out", str(out / "site"), "--jobs", "1",
                        "--cache-dir", str(out / "cache"),
                        "-q"], cwd=REPO, check=True, capture_output=True, text=True,
                       env={**os.environ, "PYTHONPATH": str(REPO), "NO_MKDOCS_2_WARNING": "1"})
        done[name] = out / "site" / release
        return done[name]
    yield build


@pytest.mark.parametrize("name", SETS)
def test_every_property_has_a_row_and_no_page_is_over_500_kb(built: Any, shared: Path,
                                                             name: str) -> None:
    site = built(name)
    pages = {p: p.read_text(encoding="utf-8") for p in site.rglob("*.html")}
    assert pages
    sizes = {p.relative_to(site).as_posix(): len(t.encode()) for p, t in pages.items()}
    over = {p: s for p, s in sizes.items() if s > LIMIT}
    assert not over, f"pages over {LIMIT:,} bytes of HTML: {over}"
    for text in pages.values():
        assert "not shown on this page" not in text  # the old cap (MAX_SECTIONS)
    checked = 0
    for crd in crds(shared / "crds" / "corpus" / name):
        spec = crd["spec"]
        kind_dir = site / spec["group"]
        for version in spec["versions"]:
            if not (version.get("served") or version.get("storage")):
                continue
            directory = kind_dir / version["name"] / camel_lower(spec["names"]["kind"])
            ids: set[str] = set()
            texts = [pages[page] for page in directory.rglob("index.html")]  # the kind's and sub-pages
            for text in texts:
                ids.update(_ID.findall(text))
            schema = (version.get("schema") or {}).get("openAPIV3Schema") or spec.get(
                "validation", {}).get("openAPIV3Schema")
            # a section that refers to an earlier one (shown once) repeats it exactly in the YAML
            refs = repeats(texts)
            for repeat, first in refs.items():
                assert schema_at(schema, repeat) is not None, (directory, repeat)
                assert section_schema(schema_at(schema, repeat)) == section_schema(
                    schema_at(schema, first)), (directory, repeat, first)
            dotted_refs = {dotted(r): dotted(f) for r, f in refs.items()}
            missing = []
            for path in property_paths(schema):
                if not has_row_through(path, ids, dotted_refs, has_row):
                    missing.append(path)
                checked += 1
            assert not missing, (directory, len(missing), missing[:10])
    assert checked > 100


def test_argo_cd_application_set_every_field_and_builder_function_has_one_anchor(
        built: Any, shared: Path) -> None:
    """The kind that lost 5,727 of 9,526 rows to MAX_SECTIONS and was 1.37 MB of HTML, 1.31 MB
    of it the builder index (8,852 functions): now split into pages, each anchor once."""
    site = built("argo-cd")
    directory = site / "argoproj.io" / "v1alpha1" / "applicationSet"
    counts: dict[str, int] = {}
    for page in directory.rglob("index.html"):
        for anchor in _ID.findall(page.read_text(encoding="utf-8")):
            counts[anchor] = counts.get(anchor, 0) + 1
    (crd,) = [c for c in crds(shared / "crds" / "corpus" / "argo-cd")
              if c["spec"]["names"]["kind"] == "ApplicationSet"]
    paths = set(property_paths(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]))
    assert len(paths) > 7900  # distinct paths (9,526 fields counting array items and map values)
    rows = {a: n for a, n in counts.items() if a.startswith("field-")}
    refs = {dotted(r): dotted(f) for r, f in repeats(
        p.read_text(encoding="utf-8") for p in directory.rglob("index.html")).items()}
    assert not [p for p in paths if not has_row_through(p, set(rows), refs, has_row)]
    assert all(n == 1 for n in rows.values())
    functions = [a for a in counts if a.startswith("fn-")]
    objects = [a for a in counts if a.startswith("obj-")]
    assert len(functions) > 8000 and len(objects) > 700
    assert all(counts[a] == 1 for a in functions + objects)
    assert (directory / "functions.spec" / "index.html").is_file()
    # the sub-pages are in the nav: the kind's section lists them (navigation.prune keeps it); the
    # field-path tree, its repeated subtrees shown once (model.repeats), fits the kind's page
    kind_page = (directory / "index.html").read_text(encoding="utf-8")
    assert '<a href="functions.spec/" class="md-nav__link">' in kind_page
    assert 'id="object-spec.generators.matrix.generators"' in kind_page
    assert "functions: spec.generators.matrix.generators" in kind_page
