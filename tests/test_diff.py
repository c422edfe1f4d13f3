"""``diff``: changes classed by their impact on an upgrade, upgrade guidance, filters, output
formats and the ``--fail-on`` gate."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.paths import FIXTURES, HOSTILE, REPO, SHARED, SPECS

from generator.analysis.diff import ApiDiff, Change, diff_apis, narrows, word_changes
from generator.analysis.upgrades import release_number
from generator.cli import main
from generator.config import Release
from generator.model.normalize import build_api
from generator.model.types import ApiSpec, TypeRef
from generator.pipeline.build import generate, load_api
from generator.pipeline.load import package_history
from generator.pipeline.state import GeneratedSite
from generator.render.reports import GITHUB_SHOWN, format_github
from generator.sources import load_source

pytestmark = pytest.mark.integration

VERSIONS = FIXTURES / "versions"
OLD_GADGETS = str(VERSIONS / "gadget-old.json")
NEW_GADGETS = str(VERSIONS / "gadget-new.json")
RULES = FIXTURES / "diff"
GITHUB_LINE = re.compile(
    r"^::(error|warning|notice)(?: [a-z]+=[^,:\n]*(?:,[a-z]+=[^,:\n]*)*)?::[^\n]+$")
FLOWCONTROL = "flowcontrol.apiserver.k8s.io"


def bundled(version: str) -> ApiSpec:
    api, _ = load_api(Release(version))
    return api


def bundled_diff(old: str, new: str) -> ApiDiff:
    return diff_apis(bundled(old), bundled(new), package_history())


def rule_diff(rule: str) -> ApiDiff:
    old, _ = build_api(load_source(str(RULES / rule / "old.json")), "1.40")
    new, _ = build_api(load_source(str(RULES / rule / "new.json")), "1.41")
    return diff_apis(old, new)


def find(diff: ApiDiff, change: str, model: str = "", field: str = "", api_version: str = "v1",
         group: str = "widgets.example.io") -> Change:
    hits = [c for c in diff.changes() if c.change == change and c.model == model
            and c.field == field and c.api_version == api_version and c.group == group]
    assert len(hits) == 1, (change, model, field, hits)
    return hits[0]


# -- API versions no longer served: the Deprecated API Migration Guide -------------------------
REMOVALS = [
    # old, new, API group, version removed, kind, replacement apiVersion, served since
    ("1.25", "1.26", "autoscaling", "v2beta2", "HorizontalPodAutoscaler", "autoscaling/v2",
     "1.23"),
    ("1.25", "1.26", FLOWCONTROL, "v1beta1", "FlowSchema", f"{FLOWCONTROL}/v1beta3", "1.26"),
    ("1.26", "1.27", "storage.k8s.io", "v1beta1", "CSIStorageCapacity", "storage.k8s.io/v1",
     "1.24"),
    ("1.28", "1.29", FLOWCONTROL, "v1beta2", "PriorityLevelConfiguration", f"{FLOWCONTROL}/v1",
     "1.29"),
    ("1.31", "1.32", FLOWCONTROL, "v1beta3", "FlowSchema", f"{FLOWCONTROL}/v1", "1.29"),
]


@pytest.mark.parametrize(("old", "new", "group", "version", "kind", "use", "since"), REMOVALS)
def test_unserved_api_version_is_breaking_with_replacement(
        old: str, new: str, group: str, version: str, kind: str, use: str, since: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    removed = find(bundled_diff(old, new), "api-version-removed", api_version=version, group=group)
    assert (removed.severity, removed.model, removed.field) == ("breaking", "", "")
    # served ≥ 3 releases: the history table (1.10-1.24) decides the ones served since before 1.25
    assert (removed.stability, removed.policy) == ("beta", "allowed")
    assert "history starts" not in removed.reason
    assert any(r.kind == kind and r.api_version == use and r.served_since == f"served since {since}"
               for r in removed.replacements), removed.replacements
    assert f"not served in {new}" in removed.message
    assert main(["diff", old, new, "--fail-on", "breaking"]) == 1
    line = next(ln for ln in capsys.readouterr().out.splitlines()
                if ln.startswith(f"breaking {group}/{version}: api version removed"))
    assert f"use {use} (served since {since}" in line


def test_replacement_also_names_a_version_served_on_both_sides() -> None:
    removed = find(bundled_diff("1.28", "1.29"), "api-version-removed", api_version="v1beta2",
                   group=FLOWCONTROL)
    flow = [r for r in removed.replacements if r.kind == "FlowSchema"]
    assert [(r.api_version, r.since, r.served_in_old) for r in flow] == [
        (f"{FLOWCONTROL}/v1", "1.29", False), (f"{FLOWCONTROL}/v1beta3", "1.26", True)]
    assert ("use flowcontrol.apiserver.k8s.io/v1 (served since 1.29) or "
            "flowcontrol.apiserver.k8s.io/v1beta3 (served since 1.26, also served by the old "
            "release) for FlowSchema, PriorityLevelConfiguration") in removed.guidance


def test_kind_no_longer_served_by_a_served_version() -> None:
    d = bundled_diff("1.31", "1.32")
    gone = find(d, "model-removed", "ValidatingAdmissionPolicy", api_version="v1alpha1",
                group="admissionregistration.k8s.io")
    assert (gone.severity, gone.stability, gone.policy) == ("breaking", "alpha", "allowed")
    assert gone.guidance == ("use admissionregistration.k8s.io/v1 (served since 1.30) for "
                             "ValidatingAdmissionPolicy")
    no_way = find(d, "model-removed", "PodSchedulingContext", api_version="v1alpha3",
                  group="resource.k8s.io")
    assert no_way.guidance == "no replacement in 1.32 for PodSchedulingContext"
    # models of a removed API version are covered by its own entry, not listed one by one
    assert not [c for c in d.changes() if c.group == FLOWCONTROL and c.model]


# -- structural type comparison ---------------------------------------------------------------
def test_compatible_type_changes_125_to_126_are_not_breaking() -> None:
    d = bundled_diff("1.25", "1.26")
    lb = find(d, "type-changed", "IngressStatus", "loadBalancer", group="networking.k8s.io")
    assert (lb.old, lb.new, lb.severity) == ("LoadBalancerStatus", "IngressLoadBalancerStatus",
                                             "info")
    assert lb.reason == "type renamed, same shape"
    ref = find(d, "type-changed", "PersistentVolumeClaimSpec", "dataSourceRef", group="core")
    assert (ref.old, ref.new, ref.severity) == ("TypedLocalObjectReference",
                                                "TypedObjectReference", "info")
    assert ref.reason == "widened: namespace: added (optional)"


def test_narrowed_type_names_the_nested_difference() -> None:
    resources = find(bundled_diff("1.28", "1.29"), "type-changed", "PersistentVolumeClaimSpec",
                     "resources", group="core")
    assert resources.severity == "breaking"
    assert resources.reason == "narrowed: claims: removed (an alpha field)"
    assert resources.policy == "allowed"  # claims is an alpha field


# -- one fixture per classification rule ------------------------------------------------------
@pytest.mark.parametrize(("rule", "change", "field", "severity", "reason"), [
    ("renamed-same", "type-changed", "dial", "info", "type renamed, same shape"),
    ("recursive-renamed", "type-changed", "tree", "info", "type renamed, same shape"),
    ("widened", "type-changed", "owner", "info", "widened: namespace: added (optional)"),
    ("narrowed", "type-changed", "limits", "breaking",
     "narrowed: burst: removed; items[].value: type integer (int64) → integer (int32)"),
    ("enum-removed", "enum-changed", "mode", "breaking", "values removed: Slow"),
    ("enum-added", "enum-changed", "mode", "warning", "values added: Turbo"),
    # a GA field of a built-in API newly marked required: documentation (compatibility forbids
    # making it required); alpha versions keep the real classes (test below)
    ("required-no-default", "required-changed", "color", "info", "documentation: "),
    ("required-with-default", "required-changed", "color", "info", "documentation: "),
    ("list-type", "list-type-changed", "ports", "breaking",
     "server-side apply: atomic → map (keys name)"),
    ("list-type", "list-type-changed", "tags", "info", "same server-side apply merge"),
    ("default-changed", "default-changed", "color", "warning", ""),
    ("field-removed", "field-removed", "legacy", "breaking", ""),
])
def test_classification_rule(rule: str, change: str, field: str, severity: str,
                             reason: str) -> None:
    c = find(rule_diff(rule), change, "WidgetSpec", field)
    assert c.severity == severity
    assert c.reason.startswith(reason)
    assert c.policy == ("violation" if severity == "breaking" else "allowed")


@pytest.mark.parametrize(("rule", "severity", "reason"), [
    ("required-alpha-no-default", "breaking", "no default"),
    ("required-alpha-with-default", "warning", "the server defaults it"),
])
def test_alpha_field_newly_required_keeps_its_class(rule: str, severity: str, reason: str) -> None:
    c = find(rule_diff(rule), "required-changed", "WidgetSpec", "color", api_version="v1alpha1")
    assert (c.severity, c.reason, c.stability, c.policy) == (severity, reason, "alpha", "allowed")


def test_rule_fixtures_fail_the_gate_only_when_breaking() -> None:
    gates = {rule.name: main(["diff", str(rule / "old.json"), str(rule / "new.json"),
                              "--fail-on", "breaking"])
             for rule in sorted(RULES.iterdir())}
    assert gates == {"default-changed": 0, "enum-added": 0, "enum-removed": 1,
                     "field-removed": 1, "list-type": 1, "narrowed": 1, "recursive-renamed": 0,
                     "renamed-same": 0, "required-alpha-no-default": 1,
                     "required-alpha-with-default": 0, "required-no-default": 0,
                     "required-with-default": 0,
                     "unserved": 1, "widened": 0}


def test_alpha_field_removal_is_allowed_by_policy() -> None:
    preview = find(rule_diff("field-removed"), "field-removed", "WidgetSpec", "preview")
    assert (preview.severity, preview.stability, preview.policy) == ("breaking", "alpha",
                                                                     "allowed")


def test_unserved_rule_fixture() -> None:
    d = rule_diff("unserved")
    beta = find(d, "api-version-removed", api_version="v1beta1")
    assert beta.guidance == "use widgets.example.io/v1 (served since 1.40 or earlier) for Widget"
    gadget = find(d, "model-removed", "Gadget")
    assert (gadget.severity, gadget.policy) == ("breaking", "violation")
    assert gadget.guidance == "no replacement in 1.41 for Gadget"


class FakeHistory:
    """Releases 1.38 to 1.40 where ``present`` definitions exist from ``first`` on."""

    releases = ("1.38", "1.39", "1.40")

    def __init__(self, first: str) -> None:
        self.first = first

    def has(self, release: str, definition: str) -> bool:
        return release_number(release) >= release_number(self.first)  # type: ignore[operator]


@pytest.mark.parametrize(("first", "policy"), [("1.38", "allowed"), ("1.39", "violation")])
def test_beta_removed_within_three_releases_violates_policy(first: str, policy: str) -> None:
    old, _ = build_api(load_source(str(RULES / "unserved" / "old.json")), "1.40")
    new, _ = build_api(load_source(str(RULES / "unserved" / "new.json")), "1.41")
    removed = find(diff_apis(old, new, FakeHistory(first)), "api-version-removed",
                   api_version="v1beta1")
    assert removed.policy == policy


# -- filters ----------------------------------------------------------------------------------
def test_filters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--format", "json", "--kind", "FlowSchema"]) == 0
    data = json.loads(capsys.readouterr().out)
    (removed,) = [c for c in data["changes"] if c["change"] == "api-version-removed"]
    assert [r["kind"] for r in removed["replacement"]] == ["FlowSchema"]
    assert {c["group"] for c in data["changes"]} == {FLOWCONTROL}

    assert main(["diff", "1.31", "1.32", "--format", "json", "--group", "resource.k8s.io",
                 "--ignore-stability", "alpha"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["changes"] and {c["group"] for c in data["changes"]} == {"resource.k8s.io"}
    assert {c["stability"] for c in data["changes"]} == {"beta"}
    # the gate sees only what the filters keep
    assert main(["diff", "1.31", "1.32", "--ignore-stability", "alpha", "--ignore-stability",
                 "beta", "--fail-on", "breaking"]) == 0
    assert main(["diff", "1.31", "1.32", "--ignore-stability", "alpha",
                 "--fail-on", "breaking"]) == 1


# -- output formats ---------------------------------------------------------------------------
def test_gadget_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--fail-on", "breaking"]) == 1
    out = capsys.readouterr().out
    assert "breaking gadgets.example.io/v1 GadgetSpec.legacyMode: field removed" in out
    assert "breaking gadgets.example.io/v1 GadgetSpec.port: type changed: int-or-string" in out
    # newly marked required in a GA version: documentation (compatibility forbids the change)
    assert ("info     gadgets.example.io/v1 GadgetSpec.color: required changed: optional → "
            "required (documentation: ") in out
    # a beta field removed is breaking too: severity is the upgrade's impact, not maturity
    assert ("breaking gadgets.example.io/v1beta1 GadgetSpec.sparkles: field removed: boolean "
            "[beta, policy violation]") in out
    assert "info     gadgets.example.io/v1 GadgetSpec.size: type changed" in out
    assert "info     gadgets.example.io/v1 GadgetSpec.label: field added: string" in out
    assert "info     gadgets.example.io/v1 GadgetSpec.color: description changed: 3 → 5" in out


def test_json_format_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schemaVersion"] == 1
    assert data["summary"] == {"breaking": 3, "warning": 0, "info": 4, "total": 7,
                               "violations": 3, "policyUnknown": 0}
    keys = {"change", "severity", "group", "apiVersion", "stability", "policy", "model", "field",
            "old", "new", "reason", "replacement", "message"}
    assert all(keys <= set(c) for c in data["changes"])
    port = next(c for c in data["changes"] if c["field"] == "port")
    assert port == {**port, "change": "type-changed", "severity": "breaking", "stability": "ga",
                    "policy": "violation", "old": "int-or-string", "new": "integer (int32)",
                    "replacement": None}
    color = next(c for c in data["changes"] if c["change"] == "description-changed")
    assert color["words"] == [{"before": "to use. At most", "old": "3", "new": "5",
                               "after": "coats."}]


def test_json_replacement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--format", "json", "--group", FLOWCONTROL]) == 0
    (removed,) = json.loads(capsys.readouterr().out)["changes"]
    assert removed["replacement"] == [
        {"kind": "FlowSchema", "apiVersion": f"{FLOWCONTROL}/v1", "since": "1.29",
         "sinceOrEarlier": False, "servedInOld": True},
        {"kind": "PriorityLevelConfiguration", "apiVersion": f"{FLOWCONTROL}/v1",
         "since": "1.29", "sinceOrEarlier": False, "servedInOld": True}]
    assert (removed["model"], removed["field"], removed["policy"]) == (None, None, "allowed")


TAG = re.compile(r"<\s*/?\s*([A-Za-z][\w-]*)")


def test_markdown_is_plain_gfm(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert {t.lower() for t in TAG.findall(out)} == {"details", "summary"}
    assert out.index("### Breaking") < out.index("<details>")
    assert ("- `flowcontrol.apiserver.k8s.io/v1beta3` api version removed — not served in 1.32; "
            "use `flowcontrol.apiserver.k8s.io/v1` (served since 1.29) for FlowSchema, "
            "PriorityLevelConfiguration; beta") in out
    assert "<summary>Info (" in out


def test_markdown_of_hostile_spec_has_no_html(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, str(HOSTILE), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert set(TAG.findall(out)) <= {"details", "summary"}
    assert "@" not in out.replace("@\u200b", "")


@pytest.mark.shared
def test_github_format_on_swagger_133_to_134(shared: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    old, new = str(SPECS / "swagger-1.33.json"), str(SPECS / "swagger-1.34.json")
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.chdir(SHARED)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["diff", old, new, "--format", "github"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(GITHUB_LINE.match(line) for line in lines), lines
    errors = [ln for ln in lines if ln.startswith("::error ")]
    warnings = [ln for ln in lines if ln.startswith("::warning ")]
    notices = [ln for ln in lines if ln.startswith("::notice ")]
    assert 0 < len(errors) <= GITHUB_SHOWN and len(warnings) <= GITHUB_SHOWN
    assert len(notices) == 1 and re.search(r"Not annotated: .*\d+ info", notices[0])
    assert all(ln.startswith("::error file=specs/swagger-1.34.json,title=") for ln in errors)
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("earlier step\n## API changes from swagger-1.33.json")
    assert "<details>" in written and "the full report is in the step summary" in notices[0]

    monkeypatch.chdir(tmp_path)  # the spec is outside the working directory: no file=
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    assert main(["diff", old, new, "--format", "github"]) == 0
    assert "file=" not in capsys.readouterr().out


def test_github_caps_annotations_and_counts_the_rest() -> None:
    changes = tuple(Change("field-removed", "breaking", "g.io", "v1", "M", f"f{i}")
                    for i in range(13))
    changes += tuple(Change("enum-changed", "warning", "g.io", "v1", "M", f"e{i}")
                     for i in range(11))
    changes += (Change("field-added", "info", "g.io", "v1", "M", "new"),)
    from generator.analysis.diff import FieldChange, ModelChange

    model = ModelChange("g", "g.io", "v1", "M", "changed", "x.M", "x.M", True,
                        fields=tuple(FieldChange(c.field, "changed", (c,)) for c in changes))
    out = format_github(ApiDiff("1", "2", "a", "b", models=(model,))).splitlines()
    assert sum(ln.startswith("::error ") for ln in out) == 10
    assert sum(ln.startswith("::warning ") for ln in out) == 10
    assert "Not annotated: 3 more breaking, 1 more warning, 1 info" in out[-1]


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["diff", "1.31", str(tmp_path / "missing.json")]) == 2
    for bad in (["--fail-on", "fatal"], ["--ignore-stability", "gamma"]):
        with pytest.raises(SystemExit) as usage:
            main(["diff", "1.31", "1.32", *bad])
        assert usage.value.code == 2
    assert "no such file" in capsys.readouterr().err


def test_type_narrowing_rules() -> None:
    i32, i64 = TypeRef("primitive", "integer", "int32"), TypeRef("primitive", "integer", "int64")
    string, ios = TypeRef("primitive", "string"), TypeRef("int-or-string")
    assert narrows(i64, i32) and not narrows(i32, i64)
    assert narrows(ios, i32) and not narrows(string, ios)
    assert not narrows(string, TypeRef("object"))
    assert narrows(TypeRef("array", items=string), TypeRef("array", items=i32))
    assert narrows(string, TypeRef("array", items=string))


def test_word_changes_ignore_rewrapping() -> None:
    assert word_changes("a b\n c", "a  b c") == ()
    (hunk,) = word_changes("at most 32 such reservations", "at most 256 such reservations")
    assert (hunk.before, hunk.old, hunk.new, hunk.after) == ("at most", "32", "256",
                                                             "such reservations")


# -- known differences of the bundled data ----------------------------------------------------
def test_report_flags_known_data_differences(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.29", "1.30"]) == 0
    out = capsys.readouterr().out
    assert ("note: kubernetes-validate 1.30 core/v1 HostAlias.ip required: optional (required "
            "from kubernetes-validate 1.31) (upstream: required)") in out
    assert main(["diff", "1.33", "1.34"]) == 0
    assert "note:" not in capsys.readouterr().out  # only shared differences: they cancel out


@pytest.mark.shared
def test_reserved_for_description_word_diff_32_to_256(shared: Path) -> None:
    # kubernetes-validate 1.32 still says 32; the upstream 1.32 swagger.json says 256.
    old, _ = load_api(Release("1.31", str(shared / "specs" / "swagger-1.31.json")))
    new, _ = load_api(Release("1.32", str(shared / "specs" / "swagger-1.32.json")))
    change = find(diff_apis(old, new), "description-changed", "ResourceClaimStatus", "reservedFor",
                  api_version="v1alpha3", group="resource.k8s.io")
    assert [(w.old, w.new) for w in change.words] == [("32", "256")]
    assert "32 → 256" in change.summary
    assert change.severity == "info"


# -- change pages -----------------------------------------------------------------------------
def test_change_page_uses_the_same_classification(default_pages: GeneratedSite) -> None:
    page = default_pages.pages["1.32/changes.md"]
    totals = bundled_diff("1.31", "1.32").totals()
    total_row = re.search(r'<tr class="k8s-total">(.*?)</tr>', page)
    assert total_row is not None and total_row.group(1).startswith("<td><strong>All changes</strong></td>")
    assert re.findall(r"<strong>(\d+)</strong>", total_row.group(1)) == [
        str(n) for n in (sum(totals.values()), totals["breaking"], totals["warning"], totals["info"])]
    assert ('<span class="k8s-badge k8s-breaking">breaking</span> '
            "<code>flowcontrol.apiserver.k8s.io/v1beta3</code> removed: not served in 1.32; use "
            "flowcontrol.apiserver.k8s.io/v1 (served since 1.29) for FlowSchema, "
            "PriorityLevelConfiguration") in page
    assert "PodSchedulingContext" in page and "no replacement in 1.32 for PodSchedulingContext" in page
    assert "ResourceSliceList.metadata field name: listMeta (upstream: metadata)" in page


def test_change_page_and_field_notes_125_to_126() -> None:
    site = generate([Release("1.25"), Release("1.26")], groups=["networking", "core"])
    page = site.pages["1.26/changes.md"]
    line = next(ln for ln in page.splitlines() if "<code>loadBalancer</code>" in ln)
    assert line.startswith('<li><span class="k8s-badge k8s-info">info</span>')
    assert "LoadBalancerStatus → IngressLoadBalancerStatus (type renamed, same shape)" in line
    status = site.pages["1.26/networking/v1/ingressStatus.md"]
    assert "type changed: LoadBalancerStatus → IngressLoadBalancerStatus (type renamed, same shape)" in status


def test_filters_keep_only_relevant_data_notes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.29", "1.30", "--format", "json", "--kind", "Pod"]) == 0
    notes = {n["subject"] for n in json.loads(capsys.readouterr().out)["notes"]}
    assert "core/v1 HostAlias.ip" in notes  # PodSpec.hostAliases
    assert "core/v1 ServiceSpec.trafficDistribution" not in notes
    assert main(["diff", "1.29", "1.30", "--format", "json", "--group", "apps"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == []


def test_list_type_spelling_an_existing_merge_key_is_not_breaking() -> None:
    # 1.30 publishes x-kubernetes-list-type on many GA lists; server-side apply already merged
    # them by their patch merge key (kube-openapi schemaconv), so nothing changes for users.
    d = bundled_diff("1.29", "1.30")
    containers = find(d, "list-type-changed", "PodSpec", "containers", group="core")
    assert (containers.old, containers.new, containers.severity) == ("none", "map (keys name)",
                                                                     "info")
    assert containers.reason == "same server-side apply merge"
    items = find(d, "list-type-changed", "CSIStorageCapacityList", "items", group="storage.k8s.io")
    assert (items.severity, items.reason) == ("info", "fields of list kinds are only returned by "
                                                      "the server")
    assert not [c for c in d.changes() if c.change == "list-type-changed" and c.severity != "info"]


def test_ignore_stability_drops_alpha_fields_of_ga_versions(capsys: pytest.CaptureFixture[str]) -> None:
    rule = RULES / "field-removed"
    assert main(["diff", str(rule / "old.json"), str(rule / "new.json"), "--format", "json",
                 "--ignore-stability", "alpha"]) == 0
    fields = [c["field"] for c in json.loads(capsys.readouterr().out)["changes"]]
    assert fields == ["legacy"]


# -- speed: what a diff process loads --------------------------------------------------------
NOT_FOR_DIFF = ("yaml", "http.client", "urllib.request", "importlib.metadata", "ctypes",
                "tempfile", "subprocess", "concurrent.futures", "jinja2", "mkdocs", "markdown",
                "pygments", "generator.pipeline.build", "generator.render.pages",
                "generator.views.site")
"""Modules a diff of two bundled releases never needs; importing them is most of what made it
slow (docs/command-line.md: "Speed" of ``diff``)."""


def test_diff_of_bundled_releases_loads_no_yaml_http_or_site_machinery() -> None:
    script = (
        "import contextlib, gc, io, sys\n"
        "started = set(sys.modules)\n"
        "from generator.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(['diff', '1.31', '1.32', '--format', 'json'])\n"
        "print(code, gc.isenabled(), len(out.getvalue()))\n"
        "print(*sorted(set(sys.modules) - started))\n")
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, check=True,
                            capture_output=True, text=True)
    status, loaded = result.stdout.splitlines()
    code, collecting, size = status.split()
    assert (code, collecting) == ("0", "True")  # the collector is back after the diff
    assert int(size) > 100_000  # a real report was written
    loaded_modules = set(loaded.split())
    assert "generator.analysis.diff" in loaded_modules  # the check can see what was imported
    packages = tuple(f"{name}." for name in NOT_FOR_DIFF)
    assert not [m for m in loaded_modules if m in NOT_FOR_DIFF or m.startswith(packages)]
