"""``explain`` and the site around it (issue 31 item 4): the release of the site configured in the
current directory, a URL only for a page that site has, FIELDS with descriptions, CRD history
from the CRD sets given, suggestions among the groups that serve the kind."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.analysis.explain import ExplainError, resolve
from generator.cli import main
from generator.config import Release
from generator.errors import UsageError
from generator.pipeline.load import load_api
from generator.sitebuild.configured import configured_site, explain_site
from generator.sources import available_versions
from generator.views.explain import PublishedSite

REPO = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def site_config(directory: Path, versions: list[dict[str, Any]], **options: Any) -> Path:
    """A project's mkdocs.yml with the plugin's ``versions`` (and MkDocs' own tags in it)."""
    directory.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump({"site_name": "x", "plugins": [
        "search", {"k8s-api-docs": {"versions": versions, **options}}]}, sort_keys=False)
    text += ("markdown_extensions:\n  - pymdownx.emoji:\n"
             "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n")
    text += "extra:\n  analytics: !ENV [ANALYTICS, none]\n"
    (directory / "mkdocs.yml").write_text(text)
    return directory


# -- unit -----------------------------------------------------------------------------------------

def test_configured_site_reads_versions_through_inherit(tmp_path: Path) -> None:
    parent = site_config(tmp_path / "base", [{"version": "1.30"}, {"version": "1.9"},
                                             {"version": "1.29", "crds": ["crds/"]}], groups=["apps"])
    child = tmp_path / "child"
    child.mkdir()
    (child / "mkdocs.yml").write_text(f"INHERIT: {parent / 'mkdocs.yml'}\nsite_url: https://x.example/\n")
    site = configured_site(child)
    assert site is not None and list(site.releases) == ["1.9", "1.29", "1.30"]  # release order
    assert site.releases["1.29"] == ("", ("crds/",)) and site.groups == ("apps",)
    assert site.site_url == "https://x.example/"
    assert configured_site(tmp_path) is None  # no config
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins: [search]\n")
    assert configured_site(tmp_path) is None  # a config without the plugin
    default, configured = explain_site(tmp_path)
    assert not configured and list(default.releases) == ["1.31", "1.32"]


def test_a_config_is_parsed_whenever_it_can_name_the_plugin(tmp_path: Path) -> None:
    """Configs without the plugin's name are not parsed (no PyYAML on explain's path); one that
    spells the name with a YAML escape still is, and a broken one that cannot name it is no
    error (MkDocs reports it when the site is built)."""
    (tmp_path / "mkdocs.yml").write_text(
        'site_name: x\nplugins:\n  - "k8s\\x2dapi-docs":\n      versions: [{version: "1.30"}]\n')
    site = configured_site(tmp_path)
    assert site is not None and list(site.releases) == ["1.30"]
    (tmp_path / "mkdocs.yml").write_text("site_name: [x\nplugins: [search]\n")
    assert configured_site(tmp_path) is None
    (tmp_path / "mkdocs.yml").write_text("site_name: [x\nplugins: [k8s-api-docs]\n")
    with pytest.raises(UsageError, match="invalid MkDocs config"):
        configured_site(tmp_path)


def test_published_site_says_which_page_it_lacks() -> None:
    site = PublishedSite({"1.31": ("", ()), "1.32": ("", ("crds/",))}, ("apps",), "the site of x")
    assert site.missing("1.31", False, "apps") == ""
    assert site.missing("1.31", False, "meta") == ""  # every group refers to meta
    assert site.missing("1.37", False, "apps") == "the site of x has no release 1.37; it has 1.31, 1.32"
    assert site.missing("1.31", True, "apps") == "the site of x documents no CRD set with release 1.31"
    assert site.missing("1.32", True, "apps") == ""
    assert site.missing("1.31", False, "core") == "the site of x documents only the groups apps"
    assert PublishedSite({}, explicit=True).missing("1.37", True, "core") == ""


# -- the CLI on bundled releases -------------------------------------------------------------------


@pytest.mark.integration
def test_default_release_is_the_configured_sites_newest(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site_config(tmp_path / "project", [{"version": "1.30"}, {"version": "1.29"}]))
    code, out, _ = run(capsys, "explain", "deployment.spec.replicas")
    assert code == 0 and "RELEASE:    1.30\n" in out
    assert "URL: 1.30/apps/v1/deploymentSpec/#field-replicas\n" in out
    code, out, _ = run(capsys, "explain", "deployment.spec.replicas", "--version", "1.32")
    assert "RELEASE:    1.32\n" in out
    assert f"URL: none (the site of {tmp_path / 'project' / 'mkdocs.yml'} has no release 1.32; " \
           "it has 1.29, 1.30)" in out


@pytest.mark.integration
def test_without_a_config_the_newest_bundled_and_the_default_site(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    newest = available_versions()[-1]
    code, out, _ = run(capsys, "explain", "deployment.spec", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["release"] == newest
    if newest not in ("1.31", "1.32"):  # the default site (build-site without a config) lacks it
        assert data["url"] == "" and data["urlNote"] == (
            f"the default site has no release {newest}; it has 1.31, 1.32")
    code, out, _ = run(capsys, "explain", "deployment.spec", "--version", "1.32", "--format", "json")
    data = json.loads(out)
    assert data["url"] == "1.32/apps/v1/deployment/#field-spec" and data["urlNote"] is None
    # FIELDS: the first sentence of each description (JSON: "description" of each row)
    fields = {f["name"]: f for f in data["fields"]}
    assert fields["replicas"]["description"] == "Number of desired pods."
    assert fields["paused"]["description"] == "Indicates that the deployment is paused."
    assert all(f["description"] for f in data["fields"])


@pytest.mark.integration
def test_group_filter_of_the_site(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(site_config(tmp_path, [{"version": "1.31"}], groups=["apps"]))
    code, out, _ = run(capsys, "explain", "deployment.spec.replicas")
    assert code == 0 and "URL: 1.31/apps/v1/deploymentSpec/#field-replicas\n" in out
    _, out, _ = run(capsys, "explain", "pod.spec.hostname")
    assert "URL: none (" in out and "documents only the groups apps)" in out


@pytest.mark.integration
def test_recursive_rows_stay_names_only(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "explain", "deployment.spec.strategy", "--recursive", "--version", "1.32")
    assert code == 0
    fields = out.split("FIELDS:\n", 1)[1].splitlines()
    assert fields[:3] == ["  rollingUpdate\t<RollingUpdateDeployment>", "    maxSurge\t<IntOrString>",
                          "    maxUnavailable\t<IntOrString>"]


@pytest.mark.integration
def test_suggestions_among_the_groups_that_serve_the_kind() -> None:
    api, _ = load_api(Release("1.37"))
    with pytest.raises(ExplainError) as err:
        resolve(api, "extensions/v1beta1/ingress")
    message = str(err.value)
    assert message.endswith("(did you mean networking.k8s.io/v1/ingress?)") and "apiextensions" not in message
    with pytest.raises(ExplainError, match=r"did you mean networking.k8s.io/v1/ingress.spec.rules\?"):
        resolve(api, "extensions/v1beta1/ingress.spec.rules")
    with pytest.raises(ExplainError, match=r"in batch \(did you mean apps/v1/deployment\?\)"):
        resolve(api, "batch/v1/deployment")
    with pytest.raises(ExplainError, match=r"did you mean core/v1/pod\?"):
        resolve(api, "apps/v1/pod")
    with pytest.raises(ExplainError, match=r"'appz' \(did you mean apps/v1/deployment\?\)"):
        resolve(api, "appz/v1/deployment")
    # a kind no group serves: the nearest group names, as before
    with pytest.raises(ExplainError, match=r"'appz' \(did you mean apps\?\)"):
        resolve(api, "appz/v1/gadget")


# -- CRD history from the CRD sets given -------------------------------------------------------------

def widget_crd(fields: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.org"},
            "spec": {"group": "example.org", "scope": "Namespaced",
                     "names": {"kind": "Widget", "plural": "widgets", "singular": "widget"},
                     "versions": [{"name": "v1", "served": True, "storage": True, "schema": {
                         "openAPIV3Schema": {"type": "object", "properties": {
                             "spec": {"type": "object", "properties": fields}}}}}]}}


@pytest.mark.integration
def test_crd_history_from_the_crd_sets_given(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    sets = {"v0.1": {"size": {"type": "integer", "description": "How big. In units."}},
            "v0.2": {"size": {"type": "integer", "description": "How big. In units."},
                     "color": {"type": "string", "description": "The colour."}}}
    argv: list[str] = []
    for label, fields in sets.items():
        path = tmp_path / f"widgets-{label}.yaml"
        path.write_text(yaml.safe_dump(widget_crd(fields)))
        argv += ["--version", label, "--source", str(path)]
    code, out, _ = run(capsys, "explain", "widget.spec.color", *argv, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["release"] == "v0.2"
    assert (data["since"], data["sinceOrEarlier"]) == ("v0.2", False)
    code, out, _ = run(capsys, "explain", "widget.spec.size", *argv)
    assert "HISTORY:\n    since v0.1 or earlier (the oldest CRD set given)\n" in out
    code, out, _ = run(capsys, "explain", "widget.spec", *argv)
    assert "  size\t<integer>\n    How big.\n" in out and "  color\t<string>\n    The colour.\n" in out
    # one CRD set (or CRDs with a Kubernetes release): nothing to date it by, said so
    code, out, _ = run(capsys, "explain", "widget.spec.color", *argv[4:])
    assert "HISTORY:\n    no earlier CRD set given to date this field" in out
    assert "no release known before" not in out
    code, out, _ = run(capsys, "explain", "widget.spec.size", "--version", "1.32", "--crds",
                       str(tmp_path / "widgets-v0.1.yaml"))
    assert "no earlier CRD set given to date this field" in out
