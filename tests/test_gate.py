"""The CI gate (``diff``) as a platform engineer runs it: filters that cannot silently match
nothing, policy verdicts only where the known releases can show them, documentation-only
``required`` markers, description churn left out on request, and output that survives ``| head``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.analysis.diff import ApiDiff, Change, DiffFilter, diff_apis
from generator.analysis.diff_filters import resolve_filter
from generator.analysis.stages import model_stages
from generator.analysis.upgrades import Guide, release_number
from generator.cli import main
from generator.config import Release
from generator.errors import UsageError
from generator.model.normalize import build_api
from generator.model.types import ApiSpec
from generator.pipeline.load import load_api, package_history
from generator.sources import load_source
from generator.sources.jsonschema_pkg import PackageHistory

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
RULES = TESTS / "fixtures" / "diff"
FLOWCONTROL = "flowcontrol.apiserver.k8s.io"
integration = pytest.mark.integration


def bundled(version: str) -> ApiSpec:
    api, _ = load_api(Release(version))
    return api


def rule_api(rule: str, side: str, label: str) -> ApiSpec:
    api, _ = build_api(load_source(str(RULES / rule / f"{side}.json")), label)
    return api


def hits(diff: ApiDiff, change: str, model: str, field: str = "",
         api_version: str = "v1") -> list[Change]:
    return [c for c in diff.changes() if (c.change, c.model, c.field, c.api_version)
            == (change, model, field, api_version)]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["diff", *args, "--format", "json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


# -- 1. filters never match nothing silently ---------------------------------------------------
def test_unknown_kind_or_group_is_a_usage_error_with_suggestions() -> None:
    """Fixture releases: the names come from both sides, the suggestions from the closest."""
    old, new = rule_api("unserved", "old", "1.40"), rule_api("unserved", "new", "1.41")
    with pytest.raises(UsageError, match=r"--kind 'Widgte' matches nothing in 1\.40 or 1\.41; "
                                         r"did you mean Widget"):
        resolve_filter(DiffFilter(kinds=frozenset({"Widgte"})), old, new)
    with pytest.raises(UsageError, match=r"--group 'widgets\.example\.org' .*did you mean "
                                         r"widgets\.example\.io"):
        resolve_filter(DiffFilter(groups=frozenset({"widgets.example.org"})), old, new)
    kept = resolve_filter(DiffFilter(kinds=frozenset({"widget"}),
                                     groups=frozenset({"WIDGETS"})), old, new)
    assert (kept.kinds, kept.groups) == ({"Widget"}, {"widgets.example.io"})


@integration
def test_typo_exits_2_and_the_gate_stays_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--kind", "Deploymnet", "--fail-on", "breaking"]) == 2
    err = capsys.readouterr().err
    assert "--kind 'Deploymnet' matches nothing in 1.31 or 1.32; did you mean Deployment" in err
    assert main(["diff", "1.31", "1.32", "--group", "flowcontrl", "--fail-on", "breaking"]) == 2
    assert "did you mean flowcontrol" in capsys.readouterr().err


@integration
def test_lower_case_kind_and_site_short_group(capsys: pytest.CaptureFixture[str]) -> None:
    exact = run_json(capsys, "1.31", "1.32", "--kind", "Deployment")
    assert exact["changes"]
    assert run_json(capsys, "1.31", "1.32", "--kind", "deployment") == exact
    written = run_json(capsys, "1.31", "1.32", "--group", FLOWCONTROL)
    assert [c["apiVersion"] for c in written["changes"]] == ["v1beta3"]
    assert run_json(capsys, "1.31", "1.32", "--group", "flowcontrol") == written
    # the gate trips through the short name as through the full one
    assert main(["diff", "1.31", "1.32", "--group", "flowcontrol", "--fail-on", "breaking"]) == 1


@integration
@pytest.mark.shared
def test_crd_diff_filters_are_checked_too(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gateway = shared / "crds" / "gateway-api"
    old, new = str(gateway / "v1.0.0"), str(gateway / "v1.2.0")
    assert main(["diff", old, new, "--kind", "HTTPRoot"]) == 2
    assert "did you mean HTTPRoute" in capsys.readouterr().err
    data = run_json(capsys, old, new, "--kind", "httproute", "--group", "gateway")
    assert data["changes"]
    assert {c["group"] for c in data["changes"]} == {"gateway.networking.k8s.io"}


# -- --no-descriptions --------------------------------------------------------------------------
@integration
def test_no_descriptions_leaves_out_description_churn(capsys: pytest.CaptureFixture[str]) -> None:
    every = run_json(capsys, "1.29", "1.32", "--kind", "Deployment")
    kept = run_json(capsys, "1.29", "1.32", "--kind", "Deployment", "--no-descriptions")
    described = [c for c in every["changes"] if c["change"] == "description-changed"]
    assert len(described) >= 50  # the churn the option is for
    assert kept["changes"] == [c for c in every["changes"] if c["change"] != "description-changed"]
    assert kept["changes"]


# -- 2. a policy verdict only where the known releases show it ----------------------------------
class ShortHistory:
    """Releases 1.38 to 1.40; ``present`` definitions exist from ``first`` to ``last``."""

    releases = ("1.38", "1.39", "1.40")

    def __init__(self, first: str, last: str = "1.40") -> None:
        self.first, self.last = release_number(first), release_number(last)

    def has(self, release: str, definition: str) -> bool:
        return self.first <= release_number(release) <= self.last  # type: ignore[operator]


@pytest.mark.parametrize(("first", "last", "policy", "reason"), [
    ("1.38", "1.38", "unknown", "served in 1.38; history starts at 1.38"),
    ("1.38", "1.39", "unknown", "served in 1.38 to 1.39; history starts at 1.38"),
    ("1.39", "1.40", "violation", "served for fewer than 3 releases (1.39 to 1.40)"),
    ("1.38", "1.40", "allowed", ""),
])
def test_beta_lifetime_verdict(first: str, last: str, policy: str, reason: str) -> None:
    """The run of releases that last served it counts, not the run ending before the new one;
    a short run that reaches the oldest known release proves nothing."""
    old, new = rule_api("unserved", "old", "1.40"), rule_api("unserved", "new", "1.41")
    guide = Guide(old, new, lambda group, version: group, ShortHistory(first, last))
    assert guide.beta_window(["io.example.api.widgets.v1beta1.Widget"]) == (policy, reason)


@integration
def test_versions_served_before_the_known_history_are_policy_unknown() -> None:
    diff = diff_apis(bundled("1.25"), bundled("1.37"), PackageHistory())
    removed = {(c.group, c.api_version): c for c in diff.api_versions
               if c.change == "api-version-removed"}
    for gv in [("autoscaling", "v2beta2"), (FLOWCONTROL, "v1beta1"),
               ("storage.k8s.io", "v1beta1")]:
        assert removed[gv].policy == "unknown", removed[gv]
        assert "history starts at 1.25" in removed[gv].reason
    assert removed[(FLOWCONTROL, "v1beta2")].policy == "allowed"  # 1.25 to 1.28: four releases
    assert not [c for c in diff.api_versions if c.policy == "violation"]


@integration
def test_the_history_table_decides_what_the_package_alone_cannot() -> None:
    """With the shipped history of 1.10-1.24 (``package_history``: what ``diff`` uses), the beta
    versions removed after 1.25 that the package alone cannot date were served for years:
    ``allowed``, no ``unknown`` left."""
    diff = diff_apis(bundled("1.25"), bundled("1.37"), package_history())
    removed = {(c.group, c.api_version): c for c in diff.api_versions
               if c.change == "api-version-removed"}
    for gv in [("autoscaling", "v2beta2"), (FLOWCONTROL, "v1beta1"),
               ("storage.k8s.io", "v1beta1")]:
        assert removed[gv].policy == "allowed", removed[gv]
        assert "history starts" not in removed[gv].reason
    assert not [c for c in diff.api_versions if c.policy in ("unknown", "violation")]
    hpa = next(r for r in removed[("autoscaling", "v2beta2")].replacements
               if r.api_version == "autoscaling/v2")
    assert (hpa.since, hpa.since_or_earlier) == ("1.23", False)  # autoscaling/v2: GA in 1.23


@integration
def test_field_used_only_through_an_alpha_field_is_alpha() -> None:
    """``PodResourceClaim`` (core/v1, GA) is used only by the alpha ``PodSpec.resourceClaims``."""
    old = bundled("1.30")
    assert model_stages(old)["io.k8s.api.core.v1.PodResourceClaim"] == (
        "alpha", "PodSpec.resourceClaims")
    (source,) = hits(diff_apis(old, bundled("1.31"), PackageHistory()), "field-removed",
                     "PodResourceClaim", "source")
    assert (source.stability, source.policy) == ("alpha", "allowed")
    assert "used only through PodSpec.resourceClaims (alpha)" in source.reason


# -- 3. required markers are documentation in GA/beta built-in APIs ---------------------------
@integration
@pytest.mark.shared
def test_upstream_135_to_136_is_not_a_wall_of_breaking_changes(shared: Path) -> None:
    specs = shared / "specs"
    old, _ = load_api(Release("1.35", str(specs / "swagger-1.35.json")))
    new, _ = load_api(Release("1.36", str(specs / "swagger-1.36.json")))
    diff = diff_apis(old, new, PackageHistory())
    required = [c for c in diff.changes() if c.change == "required-changed"
                and c.old == "optional"]
    assert len(required) >= 10
    assert not [c for c in required if c.stability == "ga" and c.severity == "breaking"]
    (token,) = [c for c in required if (c.model, c.field) == ("TokenReviewSpec", "token")]
    assert (token.severity, token.policy) == ("info", "allowed")
    assert token.reason.startswith("documentation: an existing GA or beta field cannot become")
    # alpha versions keep the real class
    assert any(c.stability == "alpha" and c.severity == "breaking" for c in required)
    (workload,) = hits(diff, "field-removed", "PodSpec", "workloadRef")
    assert (workload.stability, workload.policy) == ("alpha", "allowed")
    assert workload.reason == "new in 1.35: a field added to an existing API version starts as alpha"
    assert not [c for c in diff.changes() if c.policy == "violation" and c.stability == "ga"]


@integration
def test_bundled_137_required_markers_are_documentation() -> None:
    diff = diff_apis(bundled("1.36"), bundled("1.37"), PackageHistory())
    for model, field in [("DaemonSet", "spec"), ("Deployment", "spec"),
                         ("ControllerRevision", "data")]:
        (c,) = hits(diff, "required-changed", model, field)
        assert (c.severity, c.policy) == ("info", "allowed"), c
    assert not [c for c in diff.changes() if c.policy == "violation"]


CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            REQUIRED
            properties:
              color: {type: string}
"""


@integration
def test_crd_field_newly_required_stays_breaking(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A CRD's schema is what the API server validates: a new ``required`` is a real change."""
    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(CRD.replace("REQUIRED", ""), encoding="utf-8")
    new.write_text(CRD.replace("REQUIRED", "required: [color]"), encoding="utf-8")
    data = run_json(capsys, str(old), str(new))
    (c,) = [c for c in data["changes"] if c["change"] == "required-changed"]
    assert (c["severity"], c["policy"], c["reason"]) == ("breaking", "violation", "no default")


# -- 8. the small things ----------------------------------------------------------------------
def test_lone_non_crd_file_is_named_as_such(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    deployment = tmp_path / "deployment.yaml"
    deployment.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
                          encoding="utf-8")
    assert main(["diff", str(deployment), str(deployment)]) == 2
    err = capsys.readouterr().err
    assert f"{deployment}: a Deployment (apps/v1) is not a CustomResourceDefinition" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["diff", str(empty), str(deployment)]) == 2
    assert f"{empty}: empty directory: no CustomResourceDefinition manifests" in (
        capsys.readouterr().err)


@integration
def test_lone_non_crd_file_given_as_crds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deployment = tmp_path / "deployment.yaml"
    deployment.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
                          encoding="utf-8")
    assert main(["export", "--version", "1.32", "--crds", str(deployment)]) == 2
    assert "a Deployment (apps/v1) is not a CustomResourceDefinition" in capsys.readouterr().err


def _piped_to_head(*args: str, read: int = 20) -> subprocess.CompletedProcess[bytes]:
    """``python -m generator ARGS | head -c READ`` without a shell: the reader closes early
    (``read=0``: before the command writes anything)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=REPO, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        head = proc.stdout.read(read) if read else b""
        proc.stdout.close()  # like head: stop reading
        err = proc.stderr.read()
        proc.wait(timeout=300)
    return subprocess.CompletedProcess(args, proc.returncode, head, err)


@integration
@pytest.mark.parametrize("args", [
    ("export", "--version", "1.32"),
    ("diff", "1.25", "1.37", "--fail-on", "breaking"),
])
def test_output_into_head_ends_quietly(args: tuple[str, ...]) -> None:
    result = _piped_to_head(*args)
    assert result.stdout
    assert b"Traceback" not in result.stderr and b"BrokenPipe" not in result.stderr, result.stderr
    assert result.returncode == (1 if "--fail-on" in args else 0)


def test_check_into_head_ends_quietly(tmp_path: Path) -> None:
    """A stale directory's report to a reader that is gone: no traceback, still exit 1."""
    gadgets = TESTS / "fixtures" / "versions"
    args = ["--version", "1.0", "--source", str(gadgets / "gadget-old.json"),
            "--version", "2.0", "--source", str(gadgets / "gadget-new.json"), "--history", "site"]
    assert main(["generate", *args, "--out", str(tmp_path / "docs"), "-q"]) == 0
    for page in (tmp_path / "docs").rglob("*.md"):
        page.write_text("# edited\n" * 200, encoding="utf-8")
    result = _piped_to_head("check", str(tmp_path / "docs"), *args, read=0)
    assert b"Traceback" not in result.stderr and b"BrokenPipe" not in result.stderr, result.stderr
    assert result.returncode == 1


def test_export_help_says_one_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "(exactly one)" in help_text and "repeatable" not in help_text.split("--version")[1][:80]
