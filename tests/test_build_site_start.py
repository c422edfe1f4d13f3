"""``build-site`` where a new user starts it (issue 24 item 5), and its three steps alone
(``plan_site`` → ``build_releases`` → ``publish``): from an empty directory with the built-in
config and no ``--site-url``; a failing build removes what it created and says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.config import Release
from generator.errors import GeneratorError
from generator.sitebuild.build import BuildSiteOptions, build_site, cause_line, plan_site, publish
from generator.sitebuild.landing import LATEST_ALIAS
from generator.sitebuild.mkdocs_yml import builtin_config

pytestmark = pytest.mark.integration
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_build_site_from_an_empty_directory_without_site_url_builds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["build-site", "--version", "1.31", "--version", "1.32", "--group", "node",
                 "--out", "site", "--cache-dir", str(tmp_path / "cache")])
    err = capsys.readouterr().err
    assert code == 0, err
    for release in ("1.31", "1.32"):
        assert (tmp_path / "site" / release / "node" / "v1" / "runtimeClass" / "index.html").is_file()
    assert json.loads((tmp_path / "site" / "versions.json").read_text())[0]["version"] == "1.32"
    assert err.count("--site-url") == 1 and "opens the other release's home page" in err
    assert f"built-in one ({builtin_config()})" in err


def test_a_failing_build_site_leaves_no_out_and_prints_the_cause(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["build-site", "--version", "1.31", "--source", str(FIXTURES / "bad" / "ref-cycle.json"),
                 "--out", "site", "--cache-dir", str(tmp_path / "cache")])
    err = capsys.readouterr().err
    assert code == 2
    error = [line for line in err.splitlines() if line.startswith("error:")]
    assert len(error) == 1 and "ref-cycle.json#/definitions/" in error[0] and "$ref cycle" in error[0]
    assert "Aborted with" not in err
    assert not (tmp_path / "site").exists()


def test_a_failing_build_into_an_existing_empty_directory_leaves_it_empty(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    with pytest.raises(GeneratorError, match=r"\$ref cycle"):
        build_site(BuildSiteOptions([Release("1.31", str(FIXTURES / "bad" / "ref-cycle.json"))], out,
                                    cache_dir=tmp_path / "cache", progress=False))
    assert list(out.iterdir()) == []


def test_plan_writes_nothing_and_publish_swaps_what_was_built(tmp_path: Path) -> None:
    out = tmp_path / "site"
    plan = plan_site(BuildSiteOptions([Release("1.31"), Release("1.32")], out, groups=["node"],
                                      cache_dir=tmp_path / "cache", progress=False))
    assert plan.todo == ["1.31", "1.32"] and plan.newest == "1.32" and not out.exists()
    assert any("--site-url" in note for note in plan.notes)
    for release in ("1.31", "1.32"):  # what build_releases leaves: staged release sites
        (plan.staging(release)).mkdir(parents=True)
        (plan.staging(release) / "index.html").write_text(release, encoding="utf-8")
    summary = publish(plan, {"1.31": ["index.html"], "1.32": ["index.html"]})
    assert summary.built == ["1.31", "1.32"] and summary.pages_built == 2
    assert (out / "1.32" / "index.html").read_text() == "1.32"
    assert (out / LATEST_ALIAS / "index.html").is_file() and (out / "versions.json").is_file()
    assert not list(out.glob(".build-*"))


def test_cause_line_is_the_first_error_not_mkdocs_closing_words() -> None:
    output = ("INFO    -  Building documentation...\n"
              "ERROR   -  Config value 'plugins': k8s-api-docs: spec.json#/definitions/A: boom\n"
              "Aborted with a BuildError!\n")
    assert cause_line(output) == "Config value 'plugins': k8s-api-docs: spec.json#/definitions/A: boom"
    assert cause_line("") == "no output"
    assert cause_line("just this\n") == "just this"
