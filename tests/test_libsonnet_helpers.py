"""k8s-libsonnet as it ships (issue 12): the hand-written helpers of its patch files in the builder
index, with the library's anchors and documented arguments, and page names that are the library's.

The helper table (``generator/libsonnet/helpers.py``) is checked against the real patch files of
``../shared/libsonnet`` (read here, never copied): once through the library's own documentation
(the patch files evaluated on top of a generated library, every ``'#name'`` docstring collected),
once through the function definitions themselves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonnet_library import PATCH_DIR, evaluate, main_libsonnet, patch_files

from generator.libsonnet.builders import (
    HELPER,
    BuilderFunction,
    BuilderIndex,
    BuilderObject,
    Slugger,
    _renumbered,
    builder_index,
    helper_objects,
    library_path,
)
from generator.libsonnet.helpers import FIRST_RELEASE, HELPERS, helpers_for
from generator.model.types import ApiSpec
from generator.render.markup import inline
from generator.views.builder_section import builder_section
from generator.views.pages import model_page
from generator.views.site import plan_site

DOCUMENTED = """
local k = %s;
local docs(o, path) = std.flattenArrays([
  if std.startsWith(f, '#') then
    (if f != '#' && std.isObject(o[f]) && std.objectHas(o[f], 'function')
     then [{ path: path, name: f[1:], args: std.get(o[f]['function'], 'args', []) }] else [])
  else if std.isObject(o[f]) then docs(o[f], path + [f]) else []
  for f in std.objectFieldsAll(o)
]);
docs(k, [])
"""
"""Every documented function of ``main.libsonnet``: the generated part built by the tests carries
no docstrings, so each one found comes from a patch file."""

PAGES = {
    "container": "io.k8s.api.core.v1.Container",
    "deployment": "io.k8s.api.apps.v1.Deployment",
    "statefulSet": "io.k8s.api.apps.v1.StatefulSet",
    "cronJob": "io.k8s.api.batch.v1.CronJob",
    "service": "io.k8s.api.core.v1.Service",
    "servicePort": "io.k8s.api.core.v1.ServicePort",
    "envVar": "io.k8s.api.core.v1.EnvVar",
    "volume": "io.k8s.api.core.v1.Volume",
    "volumeMount": "io.k8s.api.core.v1.VolumeMount",
}
"""The pages the issue names: each must list its helpers with their arguments."""


def _default(value: Any) -> str:
    """A documented default as k8s-libsonnet's docs print it (docsonnet: JSON, then Jsonnet's
    formatter with single-quoted strings)."""
    if isinstance(value, str):
        return "'" + value + "'"
    return json.dumps(value, separators=(",", ":"))


def _signature(name: str, args: list[dict[str, Any]]) -> str:
    parts = [a["name"] if a.get("default") is None else f"{a['name']}={_default(a['default'])}"
             for a in args]
    return f"{name}({', '.join(parts)})"


@pytest.fixture(scope="module")
def documented(api_131: ApiSpec, shared: Path) -> dict[tuple[str, str], str]:
    """(library object, dotted helper name) → signature, from the real patch files' docstrings."""
    found = evaluate(api_131, shared, DOCUMENTED % main_libsonnet(shared))
    out = {}
    for doc in found:
        obj, inner = ".".join(doc["path"][:3]), doc["path"][3:]
        out[(obj, ".".join([*inner, doc["name"]]))] = _signature(doc["name"], doc["args"])
    return out


def _table() -> dict[tuple[str, str], str]:
    return {(obj, h.dotted): h.signature for obj, helpers in HELPERS.items() for h in helpers}


@pytest.mark.shared
def test_helper_table_equals_the_helpers_the_real_patches_document(documented):
    assert _table() == documented
    assert len(documented) == 103 and len({obj for obj, _ in documented}) == 28
    assert documented[("apps.v1.deployment", "new")] == "new(name, replicas=1, containers, podLabels={})"
    assert documented[("core.v1.secret", "new")] == "new(name, data, type='Opaque')"
    assert documented[("autoscaling.v2.horizontalPodAutoscaler", "spec.withScaleTargetRef")] == \
        "withScaleTargetRef(object)"


_DEFINITION = r"(?<![\w'#.])(?:local\s+)?{name}\s*\(([^()]*)\)\s*(?:::|:|=)"


@pytest.mark.shared
def test_every_helper_is_defined_with_its_documented_arguments(shared):
    """The functions themselves (not only their docstrings) take the documented arguments first,
    in that order; what follows them has a default (``includeInitContainers=false``)."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in patch_files(shared))
    assert len(patch_files(shared)) == 8, PATCH_DIR
    for (obj, dotted), signature in _table().items():
        name = dotted.rsplit(".", 1)[-1]
        assert f"'#{name}'" in text, (obj, dotted)
        documented = [a.split("=")[0] for a in signature[len(name) + 1:-1].split(", ") if a]
        definitions = [[p.strip() for p in m.split(",") if p.strip()]
                       for m in re.findall(_DEFINITION.format(name=re.escape(name)), text)]
        fitting = [d for d in definitions
                   if [p.split("=")[0].strip() for p in d[:len(documented)]] == documented
                   and all("=" in p for p in d[len(documented):])]
        assert fitting, (obj, dotted, definitions)


def test_helpers_start_at_the_first_release_built_with_these_patches():
    assert FIRST_RELEASE == (1, 29)
    assert helpers_for("core.v1.container", "1.28") == ()
    assert [h.name for h in helpers_for("core.v1.container", "1.29")] == ["new", "withEnvMap"]
    assert helpers_for("core.v1.container", "dra") == helpers_for("core.v1.container", "1.37")
    assert helpers_for("core.v1.pod", "1.31")[0].signature == "mapContainers(f)"


def _index(api: ApiSpec, name: str) -> BuilderIndex:
    index = builder_index(api.models[name], api)
    assert index is not None, name
    return index


def _helpers(index: BuilderIndex) -> list[BuilderFunction]:
    return [fn for fn in index.functions() if fn.kind == HELPER]


@pytest.mark.parametrize("release", ["1.31", "1.32"])
def test_builder_index_lists_every_helper_with_the_librarys_anchor(release, api_131, api_132):
    api = api_131 if release == "1.31" else api_132
    found: dict[str, list[BuilderFunction]] = {}
    for model in api.models.values():
        index = builder_index(model, api)
        if index is not None and _helpers(index):
            found[index.library_path] = _helpers(index)
    # core.v1.list is the one patched object without a definition of its own (a page of its own:
    # test_helper_only_objects_have_a_page_at_the_librarys_path)
    assert set(found) == set(HELPERS) - {"core.v1.list"}
    assert sum(map(len, found.values())) == 101
    for path, fns in found.items():
        assert sorted((fn.dotted, fn.signature) for fn in fns) == \
            sorted((h.dotted, h.signature) for h in HELPERS[path]), path
        for fn in fns:
            assert fn.anchor == "fn-" + fn.dotted.replace(".", "").lower(), (path, fn.anchor)
    deployment = _index(api, "io.k8s.api.apps.v1.Deployment")
    first = next(deployment.functions())
    assert (first.kind, first.signature, first.anchor) == \
        (HELPER, "new(name, replicas=1, containers, podLabels={})", "fn-new")
    assert [fn.name for fn in deployment.functions()].count("new") == 1  # replaces new(name)
    assert deployment.function("mapContainers").anchor == "fn-mapcontainers"  # type: ignore[union-attr]
    container = _index(api, "io.k8s.api.core.v1.Container")
    assert container.function("withEnvMap").anchor == "fn-withenvmap"  # type: ignore[union-attr]
    hpa = _index(api, "io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler")
    assert hpa.function("spec.withScaleTargetRef").anchor == "fn-specwithscaletargetref"  # type: ignore[union-attr]


def test_helpers_join_their_level_in_the_librarys_order(api_131):
    """docsonnet's order: names starting with ``new`` first, then functions, then objects, byte
    order: ``withEnvMap`` sits between ``withEnvFromMixin`` and ``withEnvMixin``."""
    container = [fn.name for fn in _index(api_131, "io.k8s.api.core.v1.Container").root.functions]
    assert container[0] == "new"
    assert container[container.index("withEnvFromMixin") + 1:][:2] == ["withEnvMap", "withEnvMixin"]
    port = _index(api_131, "io.k8s.api.core.v1.ContainerPort")
    assert [fn.name for fn in port.root.functions][:4] == ["new", "newNamed", "newNamedUDP", "newUDP"]
    spec = next(o for o in _index(api_131, "io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler").root.objects
                if o.name == "spec")
    names = [m.name for m in spec.members]
    assert names.index("withScaleTargetRef") < names.index("withTargetCPUUtilizationPercentage")
    assert all(isinstance(m, BuilderObject) for m in spec.members[names.index("scaleTargetRef"):])


def test_a_repeated_anchor_is_numbered_in_page_order():
    fn = BuilderFunction("new", HELPER, "name", (), "fn-new")
    twin = BuilderFunction("new", "new", "name", (), "fn-new")
    renumbered = _renumbered((fn, twin), Slugger())
    assert [e.anchor for e in renumbered] == ["fn-new", "fn-new-1"]


@pytest.mark.parametrize("release", ["1.31", "1.32"])
def test_pages_list_their_helpers_with_arguments(release, default_pages, api_131, api_132):
    api = api_131 if release == "1.31" else api_132
    plan = plan_site(api)
    for stem, name in PAGES.items():
        path = plan.page_of(name)
        assert path is not None and path.endswith(f"/{stem}.md"), (name, path)
        page = model_page(api.models[name], api, plan)
        section = builder_section(page, api, plan)
        assert section is not None
        index = section.index
        helpers = _helpers(index)
        assert helpers, name
        assert section.helper_count == len(helpers)
        # identifiers carry <wbr> break points (issue 15): compare the text without them
        text = default_pages.pages[path].split("## Builder functions", 1)[1].replace("<wbr>", "")
        for fn in helpers:
            label = inline(f"fn {fn.signature}")
            assert f'<li><a href="#{fn.anchor}">{label}</a>' in text, (name, fn.signature)
            assert f'<p class="k8s-fn k8s-fn-first" id="{fn.anchor}">' in text, (name, fn.anchor)
            assert "Hand-written helper of k8s-libsonnet." in text
    deployment = default_pages.pages[plan.page_of(PAGES["deployment"])]  # type: ignore[index]
    assert ("starting with <code>k.apps.v1.deployment.new(name, replicas&#61;1, containers, "
            "podLabels&#61;&#123;&#125;)</code>") in deployment
    assert "<code>podLabels</code>" in deployment.split('id="fn-new"')[1].split("</p>", 2)[1]


def test_releases_before_the_patches_list_no_helpers(api_131):
    """The same definitions as release 1.28: generated functions only (``new(name)``)."""
    from dataclasses import replace

    api = replace(api_131, version="1.28")
    index = _index(api, "io.k8s.api.apps.v1.Deployment")
    assert not _helpers(index)
    assert next(index.functions()).signature == "new(name)"


# -- page names: the library's camelLower -----------------------------------------------------

def _camel_lower(kind: str) -> str:
    """jsonnet-libs/k8s ``CamelLower``: split like fatih/camelcase (runs of lower, upper, digit;
    an upper run gives its last letter to a following lower run), first word lower-cased."""
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^A-Za-z0-9]+", kind)
    return words[0].lower() + "".join(words[1:])


def test_camel_lower_reference_cases():
    assert _camel_lower("APIService") == "apiService"
    assert _camel_lower("HPAScalingPolicy") == "hpaScalingPolicy"
    assert _camel_lower("AWSElasticBlockStoreVolumeSource") == "awsElasticBlockStoreVolumeSource"
    assert _camel_lower("CSIDriver") == "csiDriver" and _camel_lower("Pod") == "pod"


@pytest.mark.parametrize(("release", "renamed"), [("1.31", 38), ("1.32", 40)])
def test_every_k8s_libsonnet_page_path_is_a_page(release, renamed, api_131, api_132):
    """Every page k8s-libsonnet has for a definition (``<release>/<group>/<version>/<camelLower>``)
    is a page here, at the same path."""
    api = api_131 if release == "1.31" else api_132
    plan = plan_site(api)
    upper_first = 0
    for name, model in api.models.items():
        path = library_path(name)
        if path is None or model.is_list:
            continue
        group, version, _ = path.split(".")
        assert plan.page_of(name) == f"{release}/{group}/{version}/{_camel_lower(model.kind)}.md", name
        upper_first += model.kind[1:2].isupper()
    assert upper_first == renamed
    # the library's package pages: one per group and per group/version
    for group, version in {tuple(p.split(".")[:2]) for p in map(library_path, api.models) if p}:
        assert plan.api_version_index(group, version) == f"{release}/{group}/{version}/index.md"
        assert plan.group_index(group) == f"{release}/{group}/index.md"
    assert plan.page_of("io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService") == \
        f"{release}/apiregistration/v1/apiService.md"


@pytest.mark.parametrize("release", ["1.31", "1.32"])
def test_helper_only_objects_have_a_page_at_the_librarys_path(release, default_pages, api_131, api_132):
    """Every k8s-libsonnet object the patches add without a definition (``core.v1.list``) has a
    page at the library's path, listing its helpers with arguments and the library's anchors, in
    the nav among its group/version's pages; so every object of the library has a page here."""
    api = api_131 if release == "1.31" else api_132
    plan = plan_site(api)
    assert helper_objects(api) == {"core.v1.list": ("core", "v1")}
    page = f"{release}/core/v1/list.md"
    assert plan.library_pages == {"core.v1.list": (page, "core", "v1")}
    for path in HELPERS:  # every helper's object: a model page or this one, at the library's path
        group, version, name = path.split(".")
        assert f"{release}/{group}/{version}/{name}.md" in default_pages.pages, path
    text = default_pages.pages[page]
    assert text.startswith("# list\n")
    for signature, anchor in (("new(items)", "fn-new"), ("withItems(items)", "fn-withitems")):
        label = inline(f"fn {signature}").replace("withItems", "with<wbr>Items")  # wbr at humps
        assert f'<li><a href="#{anchor}">{label}</a></li>' in text, signature
        assert f'<p class="k8s-fn k8s-fn-first" id="{anchor}"><a href="#{anchor}">{signature}</a></p>' in text
    assert ("2 functions (all hand-written helpers), starting with "
            "<code>k.core.v1.list.new(items)</code>") in text
    assert '<a href="../">core/v1</a>' in text  # up: the group/version's page
    nav = next(iter(default_pages.nav[["1.31", "1.32"].index(release)].values()))
    core = next(item["core"] for item in nav if isinstance(item, dict) and "core" in item)
    v1 = next(item["v1"] for item in core if isinstance(item, dict) and "v1" in item)
    ranges = {title: items for item in v1 if isinstance(item, dict) for title, items in item.items()}
    assert {"list": page} in ranges["L\u2013O"]  # beside LimitRange, among core/v1's models
    assert not any(p.endswith("/list.md") for p in default_pages.pages if p != page
                   and p.startswith(release + "/"))


@pytest.mark.slow
def test_k8s_libsonnet_urls_exist_in_the_built_site(built_site):
    for url in ("1.31/apiregistration/v1/apiService/", "1.31/autoscaling/v2/hpaScalingPolicy/",
                "1.31/core/v1/awsElasticBlockStoreVolumeSource/", "1.32/storage/v1/csiDriver/",
                "1.31/apps/v1/deployment/"):
        assert (built_site / url / "index.html").is_file(), url
    deployment = (built_site / "1.31/apps/v1/deployment/index.html").read_text(encoding="utf-8")
    assert 'id="fn-mapcontainers"' in deployment and 'href="#fn-mapcontainers"' in deployment
    listing = (built_site / "1.31/core/v1/list/index.html").read_text(encoding="utf-8")
    assert 'id="fn-new"' in listing and 'href="#fn-new"' in listing  # a helper-only object
