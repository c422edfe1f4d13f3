"""``explain``: kubectl paths resolved in a release, with the site's facts (docs/terminal.md)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.analysis.explain import ExplainError, resolve, split_path
from generator.analysis.resources import Resources, guess_plural
from generator.cli import main
from generator.config import Release
from generator.pipeline.history import release_timeline
from generator.pipeline.load import load_api
from generator.views.explain import explanation
from generator.views.site import plan_site
from generator.views.versions import PublishedReleases

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _ref(prop: dict[str, Any]) -> str:
    while True:
        if "$ref" in prop:
            return str(prop["$ref"]).rsplit("/", 1)[-1]
        inner = prop.get("items") or prop.get("additionalProperties")
        if not isinstance(inner, dict):
            return ""
        prop = inner


@pytest.mark.shared
@pytest.mark.parametrize("version", ["1.31", "1.34"])
def test_random_paths_of_every_kind_equal_the_swagger(shared: Path, version: str) -> None:
    spec = shared / "specs" / f"swagger-{version}.json"
    definitions = json.loads(spec.read_text())["definitions"]
    api, _ = load_api(Release(version, str(spec)))
    resources = Resources(api)
    site = PublishedReleases(apis={version: api}, plans={}, timeline=release_timeline([api]))
    plan = plan_site(api)
    pick = random.Random(f"explain-{version}")
    checked = 0
    served = [(group, kind, api_version, root)
              for (group, kind), resource in resources.by_group_kind.items()
              for api_version, root in resource.versions.items()]
    for group, kind, api_version, root in served * 3:  # three random paths of each
        name, path, model = root.name, [], root
        expected: tuple[str, bool] = ("", False)
        while model is not None and model.fields and (not path or pick.random() < 0.7):
            f = pick.choice(model.fields)
            prop = definitions[name]["properties"][f.name]
            expected = (prop.get("description", ""), f.name in definitions[name].get(
                "required", []))
            path.append(f.name)
            name = _ref(prop)
            model = api.models.get(name) if name and "properties" in definitions.get(
                name, {}) else None
        text = f"{group or 'core'}/{api_version}/{kind.lower()}.{'.'.join(path)}"
        e = explanation(resolve(api, text, resources), api, plan, site)
        assert (e.kind, e.group, e.version, e.path) == (kind, group, api_version,
                                                        ".".join(path)), text
        assert (e.description, e.required) == expected, text
        assert e.url.startswith(f"{version}/") and "#field-" in e.url
        checked += 1
    assert checked == 3 * len(served) and len(served) > 80  # every kind of every served version


def test_kubectl_forms_resolve_alike(api_132: Any) -> None:
    resources = Resources(api_132)
    spec = {resolve(api_132, p, resources).target.name  # type: ignore[union-attr]
            for p in ("deployment.spec", "deployments.spec", "deploy.spec", "Deployment.spec",
                      "apps/v1/deployment.spec", "apps/deployment.spec")}
    assert spec == {"io.k8s.api.apps.v1.DeploymentSpec"}
    pods = {resolve(api_132, p, resources).root.name
            for p in ("pods.spec", "po", "pod", "core/v1/pod.spec", "v1/pod")}
    assert pods == {"io.k8s.api.core.v1.Pod"}
    image = resolve(api_132, "deployment.spec.template.spec.containers.image", resources)
    assert image.owner.name == "io.k8s.api.core.v1.Container" and image.field is not None
    # kubectl's preferred version: GA before beta before alpha
    assert resolve(api_132, "hpa", resources).version == "v2"
    assert resolve(api_132, "flowschemas", resources).version == "v1"
    assert resolve(api_132, "deviceclass", resources).version == "v1beta1"
    assert guess_plural("NetworkPolicy") == "networkpolicies" and guess_plural("Ingress") == \
        "ingresses" and guess_plural("Endpoints") == "endpoints"
    assert split_path("networking.k8s.io/v1/ingress.spec.rules") == (
        "networking.k8s.io", "v1", "ingress", ["spec", "rules"])
    assert split_path("pod.spec.containers[].ports[0].name")[3] == ["spec", "containers", "ports",
                                                                   "name"]


def test_unknown_names_suggest_the_nearest(capsys: pytest.CaptureFixture[str],
                                           api_132: Any) -> None:
    code, out, err = run(capsys, "explain", "deployment.spec.replics", "--version", "1.32")
    assert code == 2 and out == ""
    assert err.strip() == ("error: deployment.spec.replics: DeploymentSpec has no field "
                           "'replics' (did you mean replicas?)")
    with pytest.raises(ExplainError, match="did you mean Deployment"):
        resolve(api_132, "deploymnt.spec")
    with pytest.raises(ExplainError, match=r"served: apps/v1\)"):
        resolve(api_132, "apps/v1beta1/deployment")
    with pytest.raises(ExplainError, match="has no fields"):
        resolve(api_132, "pod.spec.hostname.x")


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "deployment.spec.replicas", "--version", "1.32")
    assert code == 0
    assert out.startswith("KIND:       Deployment\nGROUP:      apps\nVERSION:    v1\n"
                          "RELEASE:    1.32\n\nFIELD: spec.replicas <integer (int32)>\n")
    assert "    Number of desired pods." in out
    assert "URL: 1.32/apps/v1/deploymentSpec/#field-replicas" in out
    assert "since 1.10 or earlier (the oldest release known)" in out
    code, out, _ = run(capsys, "explain", "hpa", "--api-version", "autoscaling/v1", "--version",
                       "1.32")
    assert "VERSION:    v1\n" in out and "URL: 1.32/autoscaling/v1/horizontalPodAutoscaler/" in out
    code, out, _ = run(capsys, "explain", "deploy", "--version", "1.32", "--site-url",
                       "https://example.org/docs/")
    assert "URL: https://example.org/docs/1.32/apps/v1/deployment/\n" in out
    # each field with the first sentence of its description, as kubectl explain shows them
    assert ("FIELDS:\n  apiVersion\t<string>\n    APIVersion defines the versioned schema of this "
            "representation of an\n    object.\n  kind\t<string>\n") in out
    assert "  metadata\t<ObjectMeta>\n    Standard object's metadata.\n  spec\t<DeploymentSpec>\n" in out


def test_history_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "resource.k8s.io/v1alpha3/resourceclaim.status.devices",
                       "--version", "1.32", "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert {"kind", "apiVersion", "path", "type", "required", "description", "since"} <= set(data)
    assert (data["kind"], data["apiVersion"], data["path"], data["since"]) == (
        "ResourceClaim", "resource.k8s.io/v1alpha3", "status.devices", "1.32")
    assert data["sinceOrEarlier"] is False and data["type"] == "[]AllocatedDeviceStatus"
    code, out, _ = run(capsys, "explain", "resource.k8s.io/v1alpha3/deviceclass.spec.suitableNodes",
                       "--version", "1.31", "--format", "json")
    data = json.loads(out)
    assert data["removedIn"] == "1.32" and data["stage"] == "alpha"
    assert data["featureGates"] == [{"name": "DRAControlPlaneController", "stage": "alpha"}]
    code, out, _ = run(capsys, "explain", "flowcontrol.apiserver.k8s.io/v1beta3/flowschema",
                       "--version", "1.31", "--format", "json")
    data = json.loads(out)
    assert (data["path"], data["since"], data["removedIn"], data["stage"]) == ("", "1.26", "1.32",
                                                                               "beta")
    # changed: the site's comparison with the previous release
    code, out, _ = run(capsys, "explain", "job.spec.podReplacementPolicy", "--version", "1.34",
                       "--format", "json")
    data = json.loads(out)
    assert data["since"] == "1.28" and data["changes"]["comparedTo"] == "1.33"
    assert "gate removed: JobPodReplacementPolicy" in data["changes"]["items"]
    # a gate named for one value of the field (0) does not make the field alpha
    code, out, _ = run(capsys, "explain", "hpa.spec.minReplicas", "--version", "1.32",
                       "--format", "json")
    data = json.loads(out)
    assert data["stage"] == "ga" and data["featureGates"][0]["name"] == "HPAScaleToZero"


def test_recursive_pod(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "pod", "--recursive", "--version", "1.34")
    assert code == 0
    fields = out.split("FIELDS:\n", 1)[1].splitlines()
    assert fields[:4] == ["  apiVersion\t<string>", "  kind\t<string>", "  metadata\t<ObjectMeta>",
                          "    annotations\t<map[string]string>"]
    spec = fields.index("  spec\t<PodSpec>")
    containers = fields.index("    containers\t<[]Container> -required-", spec)
    assert fields[containers + 1:containers + 3] == ["      args\t<[]string>",
                                                     "      command\t<[]string>"]
    assert "      image\t<string>" in fields[containers:]
    assert "        requests\t<map[string]Quantity>" in fields[containers:]
    assert fields[-1].startswith("    ") and len(fields) > 700  # every field of Pod, status too


@pytest.mark.shared
def test_crd_path_three_levels_deep(capsys: pytest.CaptureFixture[str], shared: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cert_manager = shared / "crds" / "cert-manager"
    code, out, _ = run(capsys, "explain", "certificate.spec.privateKey.algorithm", "--version",
                       "1.32", "--crds", str(cert_manager), "--format", "json")
    assert code == 0
    data = json.loads(out)
    crd = yaml.safe_load((cert_manager / "cert-manager.io_certificates.yaml").read_text())
    schema = next(v for v in crd["spec"]["versions"] if v["name"] == "v1")["schema"]
    private_key = schema["openAPIV3Schema"]["properties"]["spec"]["properties"]["privateKey"]
    algorithm = private_key["properties"]["algorithm"]
    assert data["description"] == algorithm["description"]
    assert data["enum"] == algorithm["enum"] and data["type"] == "string"
    assert data["required"] is ("algorithm" in private_key.get("required", []))
    assert (data["kind"], data["apiVersion"]) == ("Certificate", "cert-manager.io/v1")
    assert data["url"] == "" and "documents no CRD set with release 1.32" in data["urlNote"]
    assert {"label": "enum", "values": algorithm["enum"]} in data["notes"]
    # a site that documents the CRD set with 1.32 has the row
    site = tmp_path / "site"
    site.mkdir()
    (site / "mkdocs.yml").write_text(yaml.safe_dump({"site_name": "x", "plugins": [
        "search", {"k8s-api-docs": {"versions": [{"version": "1.32", "crds": [str(cert_manager)]}]}}]}))
    monkeypatch.chdir(site)
    code, out, _ = run(capsys, "explain", "certificate.spec.privateKey.algorithm", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["release"] == "1.32" and data["urlNote"] is None
    assert data["url"] == "1.32/cert-manager.io/v1/certificate/#field-spec.privateKey.algorithm"


def test_crd_short_name_and_constraints(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the site of the repository's mkdocs.yml (1.31, 1.32)
    crd = REPO / "tests" / "fixtures" / "scan" / "widgets-crd.yaml"
    code, out, _ = run(capsys, "explain", "wd.spec.name", "--version", "widgets", "--source",
                       str(crd), "--format", "json")
    data = json.loads(out)
    assert code == 0 and (data["apiVersion"], data["path"]) == ("example.org/v1", "spec.name")
    assert data["constraints"] == {"maxLength": 5, "pattern": "^[a-z]+$"}
    assert data["url"] == "" and data["urlNote"] == (
        f"the site of {REPO / 'mkdocs.yml'} has no release widgets; it has 1.31, 1.32")
    code, out, _ = run(capsys, "explain", "wd.spec.name", "--version", "widgets", "--source",
                       str(crd), "--format", "json", "--site-url", "https://example.org/crds/")
    assert json.loads(out)["url"] == "https://example.org/crds/widgets/example.org/v1/widget/#field-spec.name"
    code, out, _ = run(capsys, "explain", "widgets.spec", "--version", "widgets", "--source",
                       str(crd))
    assert "FIELDS:\n  color\t<string>\n  extra\t<Widget.spec.extra>\n" in out
    assert "  size\t<integer> -required-\n" in out
    code, out, _ = run(capsys, "explain", "example.org/v1beta1/widget", "--version", "widgets",
                       "--source", str(crd), "--format", "json")
    assert json.loads(out)["deprecated"] is True


def test_no_rendering_stack_imported() -> None:
    code = """
import sys
from generator.cli import main
assert main(["explain", "pod.spec", "--version", "1.32"]) == 0
assert main(["scan", sys.argv[1], "--target", "1.32"]) == 0
loaded = sorted({m.split(".")[0] for m in sys.modules} & {"jinja2", "mkdocs", "pygments",
                                                          "markdown", "material"})
print("LOADED", loaded)
"""
    served = REPO / "tests" / "fixtures" / "scan" / "served.yaml"
    result = subprocess.run([sys.executable, "-c", code, str(served)], capture_output=True,
                            text=True, check=True, cwd=REPO)
    assert "LOADED []" in result.stdout


def test_narrow_timeline_equals_the_full_one() -> None:
    from generator.analysis.timeline import ModelKey
    from generator.pipeline.history import _narrow_index, _package_index
    from generator.sources import available_versions

    keys = frozenset({ModelKey("core", "Container"), ModelKey("apps", "Deployment"),
                      ModelKey("resource", "DeviceClassSpec"), ModelKey("flowcontrol", "FlowSchema"),
                      ModelKey("meta", "ObjectMeta"), ModelKey("apiextensions", "JSONSchemaProps"),
                      ModelKey("core", "Nope")})
    for version in available_versions():
        full = _package_index(version)
        assert _narrow_index(version, keys) == {k: full[k] for k in keys if k in full}, version


def test_recursive_stops_at_cycles(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", "crd.spec.versions.schema.openAPIV3Schema",
                       "--recursive", "--version", "1.32")
    assert code == 0
    fields = out.split("FIELDS:\n", 1)[1].splitlines()
    at = fields.index("  properties\t<map[string]JSONSchemaProps>")  # listed, not opened again
    assert fields[at + 1] == "  required\t<[]string>"
    assert fields[fields.index("  externalDocs\t<ExternalDocumentation>") + 1] == \
        "    description\t<string>"  # other types are opened


@pytest.mark.shared
@pytest.mark.parametrize("version", ["1.28", "1.34", "1.36"])
def test_guessed_plurals_are_the_rest_names(shared: Path, version: str) -> None:
    """kubectl's guess (``analysis.resources.guess_plural``) is the REST name of every kind the
    upstream swagger creates at a path of its own (subresources such as pods/{name}/binding
    aside): what lets ``explain pods.spec`` work from definitions without paths."""
    paths = json.loads((shared / "specs" / f"swagger-{version}.json").read_text())["paths"]
    checked = 0
    for path, operations in paths.items():
        post = operations.get("post")
        gvk = post.get("x-kubernetes-group-version-kind") if isinstance(post, dict) else None
        if gvk is None or "{name}" in path:
            continue
        assert guess_plural(gvk["kind"]) == path.rstrip("/").rsplit("/", 1)[1], path
        checked += 1
    assert checked > 70
