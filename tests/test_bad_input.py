"""Bad input through the CLI: one clear line naming the file and the JSON pointer or line, exit 2.

Every fixture in ``tests/fixtures/bad/`` has exactly one defect.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers.paths import FIXTURES

from generator.cli import main
from generator.errors import Location, SpecError
from generator.sources import load_source
from generator.sources.reader import MAX_SPEC_BYTES

BAD = FIXTURES / "bad"

CASES = {
    "malformed.json": "invalid JSON at line 6, column 7: Expecting ',' delimiter",
    "malformed.yaml": "invalid YAML at line 7, column 13: expected ',' or '}', but got ':'",
    "truncated.json": "invalid JSON at line 6, column 7: the document ends inside a string (truncated?)",
    "wrong-shape.json": "not an OpenAPI document: top level is a JSON array, not an object "
                        "(expected 'swagger: \"2.0\"', 'openapi: 3.x' or '$defs')",
    "unknown-openapi.json#/openapi": "unsupported openapi version '4.0.0' (expected 3.x)",
    "dangling-ref.json#/definitions/com.example.widgets.v1.Widget/properties/gear/$ref":
        "dangling $ref to 'com.example.widgets.v1.Gear'",
    "ref-cycle.json#/definitions/com.example.widgets.v1.Right/$ref":
        "$ref cycle: com.example.widgets.v1.Right → com.example.widgets.v1.Left → "
        "com.example.widgets.v1.Right",
    "external-ref.json#/definitions/com.example.widgets.v1.Widget/properties/owner/$ref":
        "external $ref 'https://example.com/people.json#/definitions/Person' is not supported "
        "(only #/definitions/…)",
    "empty.json": "empty document (0 bytes)",
}


def run_generate(source: Path | str, out: Path, *extra: str) -> int:
    return main(["generate", "--version", "x", "--source", str(source), "--out", str(out), "-q",
                 *extra])


def assert_one_error_line(capsys: pytest.CaptureFixture[str], expected: str) -> None:
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"error: {expected}\n"
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_fixture_gives_one_located_line_and_exit_2(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    name, _, ptr = case.partition("#")
    path = BAD / name
    assert run_generate(path, tmp_path / "out") == 2
    location = f"{path}#{ptr}" if ptr else str(path)
    assert_one_error_line(capsys, f"{location}: {CASES[case]}")
    assert not (tmp_path / "out").exists()


def test_every_bad_fixture_has_a_case() -> None:
    assert sorted(p.name for p in BAD.iterdir()) == sorted({c.partition("#")[0] for c in CASES})


def test_oversized_spec_is_refused_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as fh:
        fh.write(b'{"swagger": "2.0", "definitions": {')
        fh.truncate(100 * 1024 * 1024)  # sparse: 100 MB on paper, nothing on disk
    assert run_generate(big, tmp_path / "out") == 2
    assert_one_error_line(
        capsys, f"{big}: spec is 104,857,600 bytes, over the {MAX_SPEC_BYTES:,} byte limit")


def test_gzip_that_unpacks_past_the_cap_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb = tmp_path / "swagger.json.gz"
    bomb.write_bytes(gzip.compress(b" " * (MAX_SPEC_BYTES + 1024), compresslevel=1))
    assert run_generate(bomb, tmp_path / "out") == 2
    assert_one_error_line(capsys, f"{bomb}: spec unpacks to over {MAX_SPEC_BYTES:,} bytes")


def test_yaml_alias_bombs_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Aliases are expanded as kubectl (go-yaml v2) expands them, within its alias ratio: a
    "billion laughs" is refused before it is expanded (``sources.fast_yaml``)."""
    laughs = tmp_path / "laughs.yaml"
    text = 'swagger: "2.0"\na: &a [' + ", ".join(['"lol"'] * 9) + "]\n" + "".join(
        f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True))
    laughs.write_text(text, encoding="utf-8")
    assert run_generate(laughs, tmp_path / "out") == 2
    assert_one_error_line(capsys, f"{laughs}: invalid YAML at line 5, column 12: document contains "
                                  "excessive aliasing (kubectl refuses it too)")


def test_deep_nesting_is_refused_with_a_pointer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text('{"swagger": "2.0", "x": ' + "[" * 300 + "]" * 300 + "}", encoding="utf-8")
    assert run_generate(deep, tmp_path / "out") == 2
    where = Location(str(deep), "/x" + "/0" * 199)  # long pointers are shortened with "…"
    assert_one_error_line(capsys, f"{where}: document nested deeper than 200 levels")


def test_missing_source_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert run_generate(missing, tmp_path / "out") == 2
    assert_one_error_line(capsys, f"{missing}: no such file or directory")


def test_output_path_under_a_file_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory", encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text('{"swagger": "2.0", "definitions": {"a.v1.Thing": {"type": "object"}}}',
                    encoding="utf-8")
    assert run_generate(good, blocker / "out") == 2
    assert_one_error_line(capsys, f"{blocker / 'out'}: cannot write output: File exists")


def test_lenient_dangling_ref_warns_and_renders_unknown_type(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = BAD / "dangling-ref.json"
    out = tmp_path / "out"
    assert run_generate(path, out, "--lenient") == 0
    captured = capsys.readouterr()
    assert captured.err == (
        f"warning: {path}#/definitions/com.example.widgets.v1.Widget/properties/gear/$ref: "
        "dangling $ref to 'com.example.widgets.v1.Gear': shown as unknown type\n")
    page = (out / "x" / "widgets" / "v1" / "widget.md").read_text(encoding="utf-8")
    gear_row = next(line for line in page.splitlines() if "<code>gear</code>" in line)
    gear_row = gear_row.replace("<wbr>", "")  # line-break opportunities in identifiers
    assert "<td>unknown type com.example.widgets.v1.Gear</td>" in gear_row
    assert "](" not in gear_row  # no link, so nothing to break


def test_broken_template_override_is_one_located_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "templates" / "pages"
    overrides.mkdir(parents=True)
    (overrides / "model.md.j2").write_text("# {{ page.model.kind \n", encoding="utf-8")
    source = FIXTURES / "hostile" / "hostile.json"
    assert run_generate(source, tmp_path / "out", "--templates", str(tmp_path / "templates")) == 2
    assert_one_error_line(capsys, f"{overrides / 'model.md.j2'}:1: template error: unexpected end of "
                                  "template, expected 'end of print statement'.")


def test_hostile_version_label_stays_inside_the_output(tmp_path: Path) -> None:
    out = tmp_path / "out"
    source = FIXTURES / "bad" / "dangling-ref.json"
    assert main(["generate", "--version", "../../escaped", "--source", str(source), "--lenient",
                 "--out", str(out), "-q"]) == 0
    tops = sorted(p.name for p in out.iterdir())
    assert len(tops) == 2 and tops[0] == ".k8s-api-docs" and tops[1].startswith("escaped-")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_nul_in_a_source_path_is_a_spec_error() -> None:
    with pytest.raises(SpecError) as err:
        load_source("specs/a\x00b.json")
    assert str(err.value) == "specs/a?b.json: a source path cannot contain a NUL character"


def test_mkdocs_build_with_a_bad_source_fails_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    source = BAD / "ref-cycle.json"
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "bad", "docs_dir": "docs",
        "plugins": [{"k8s-api-docs": {"versions": [{"version": "x", "source": str(source)}]}}]}),
        encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp_path,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert (f"k8s-api-docs: {source}#/definitions/com.example.widgets.v1.Right/$ref: $ref cycle: "
            in result.stderr)


def test_json_nested_past_the_parser_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"swagger": "2.0", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert run_generate(deep, tmp_path / "out") == 2
    assert_one_error_line(capsys, f"{deep}: JSON nested too deeply")


def test_schema_nested_too_deeply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "deep-schema.json"
    schema: dict[str, object] = {"type": "string"}
    for _ in range(70):
        schema = {"type": "array", "items": schema}
    deep.write_text(json.dumps({"swagger": "2.0", "definitions": {"a.v1.Deep": schema}}), encoding="utf-8")
    assert run_generate(deep, tmp_path / "out") == 2
    where = Location(str(deep), "/definitions/a.v1.Deep" + "/items" * 65)
    assert_one_error_line(capsys, f"{where}: schema nested deeper than 64 levels")
