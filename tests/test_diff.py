"""``diff``: classed changes between releases, its output formats and the ``--fail-on`` gate."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.analysis.diff import ApiDiff, Change, diff_apis, narrows, word_changes
from generator.build.pipeline import load_api
from generator.cli import main
from generator.config import Release
from generator.model.types import ApiSpec, TypeRef

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "versions"
OLD_GADGETS = str(FIXTURES / "gadget-old.json")
NEW_GADGETS = str(FIXTURES / "gadget-new.json")
GITHUB_LINE = re.compile(
    r"^::(error|warning|notice)(?: [a-z]+=[^,:\n]*(?:,[a-z]+=[^,:\n]*)*)?::[^\n]+$")


@pytest.fixture(scope="session")
def diff_131_132(api_131: ApiSpec, api_132: ApiSpec) -> ApiDiff:
    return diff_apis(api_131, api_132)


def find(diff: ApiDiff, change: str, model: str = "", field: str = "", api_version: str = "v1alpha3",
         group: str = "resource.k8s.io") -> Change:
    hits = [c for c in diff.changes() if c.change == change and c.model == model
            and c.field == field and c.api_version == api_version and c.group == group]
    assert len(hits) == 1, (change, model, field, hits)
    return hits[0]


def test_131_to_132_resource_changes_are_alpha_info(diff_131_132: ApiDiff) -> None:
    d = diff_131_132
    assert find(d, "api-version-added", api_version="v1beta1").severity == "info"
    assert find(d, "field-removed", "ResourceClaimStatus", "deallocationRequested").severity == "info"
    assert find(d, "field-added", "ResourceClaimStatus", "devices").severity == "info"
    assert find(d, "field-removed", "AllocationResult", "controller").severity == "info"
    removed = find(d, "model-removed", "PodSchedulingContext")
    assert removed.severity == "info"
    assert any(m.kind == "PodSchedulingContext" and m.status == "removed" and m.is_kind
               for m in d.models)
    # the beta API version that went away is a warning, and nothing in 1.31 → 1.32 is breaking
    assert find(d, "api-version-removed", api_version="v1beta3",
                group="flowcontrol.apiserver.k8s.io").severity == "warning"
    assert d.totals()["breaking"] == 0


@pytest.mark.shared
def test_reserved_for_description_word_diff_32_to_256(shared: Path) -> None:
    # kubernetes-validate 1.32 still says 32; the upstream 1.32 swagger.json says 256.
    old, _ = load_api(Release("1.31", str(shared / "specs" / "swagger-1.31.json")))
    new, _ = load_api(Release("1.32", str(shared / "specs" / "swagger-1.32.json")))
    change = find(diff_apis(old, new), "description-changed", "ResourceClaimStatus", "reservedFor")
    assert [(w.old, w.new) for w in change.words] == [("32", "256")]
    assert "32 → 256" in change.summary
    assert change.severity == "info"


def test_fail_on_gate_131_to_132(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "1.31", "1.32", "--fail-on", "info"]) == 1
    out = capsys.readouterr().out
    assert "resource.k8s.io/v1alpha3 ResourceClaimStatus.devices: field added" in out
    assert main(["diff", "kubernetes-validate:1.31", "kubernetes-validate:1.32",
                 "--fail-on", "breaking"]) == 0
    assert main(["diff", "1.31", "1.32"]) == 0


def test_synthetic_ga_change_is_breaking(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--fail-on", "breaking"]) == 1
    out = capsys.readouterr().out
    assert "breaking gadgets.example.io/v1 GadgetSpec.legacyMode: field removed" in out
    assert "breaking gadgets.example.io/v1 GadgetSpec.port: type changed: int-or-string" in out
    assert "breaking gadgets.example.io/v1 GadgetSpec.color: required changed" in out
    assert "warning  gadgets.example.io/v1beta1 GadgetSpec.sparkles: field removed" in out
    # widening and additions stay info
    assert "info     gadgets.example.io/v1 GadgetSpec.size: type changed" in out
    assert "info     gadgets.example.io/v1 GadgetSpec.label: field added: string" in out
    assert "info     gadgets.example.io/v1 GadgetSpec.color: description changed: 3 → 5" in out


def test_github_format_is_workflow_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--format", "github"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines and all(GITHUB_LINE.match(line) for line in lines), lines
    errors = [ln for ln in lines if ln.startswith("::error ")]
    assert len(errors) == 3
    assert all(ln.startswith(f"::error file={NEW_GADGETS},title=") for ln in errors)
    assert any(ln.startswith("::warning ") and "sparkles" in ln for ln in lines)


def test_json_format_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schemaVersion"] == 1
    assert data["summary"] == {"breaking": 3, "warning": 1, "info": 3, "total": 7}
    keys = {"change", "severity", "group", "apiVersion", "stability", "model", "field", "old",
            "new", "message"}
    assert all(keys <= set(c) for c in data["changes"])
    port = next(c for c in data["changes"] if c["field"] == "port")
    assert port == {**port, "change": "type-changed", "severity": "breaking", "stability": "ga",
                    "old": "int-or-string", "new": "integer (int32)"}
    color = next(c for c in data["changes"] if c["change"] == "description-changed")
    assert color["words"] == [{"before": "to use. At most", "old": "3", "new": "5",
                               "after": "coats."}]


def test_markdown_format_is_a_change_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", OLD_GADGETS, NEW_GADGETS, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Changes from gadget-old.json to gadget-new.json")
    assert "| **All changes** | **7** | **3** | **1** | **3** |" in out
    assert "<del>3</del> <ins>5</ins>" in out
    assert "](" not in out  # no site, no links


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["diff", "1.31", str(tmp_path / "missing.json")]) == 2
    with pytest.raises(SystemExit) as usage:
        main(["diff", "1.31", "1.32", "--fail-on", "fatal"])
    assert usage.value.code == 2
    err = capsys.readouterr().err
    assert "no such file" in err


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
