"""The quick tokens of ``render.snippet_tokens`` are Pygments' tokens: on every snippet of 1.31,
1.32 and the CRDs in ``../shared/crds``, on tricky snippets, and on random data written by
``yaml_text``; text outside the YAML subset goes to Pygments' YAML lexer. ``highlight`` writes
what formatting the lexers' tokens writes."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import SHARED

from generator.examples.crd import crd_example
from generator.examples.snippets import Example
from generator.examples.yaml_text import dump
from generator.model.normalize import build_api
from generator.render.highlight import format_tokens, highlight, lexer_for
from generator.render.snippet_tokens import Token, joined, lexer_input, quick_tokens, yaml_tokens
from generator.sources import load_source

CRD_SETS = ("gateway-api/v1.0.0", "gateway-api/v1.1.0", "gateway-api/v1.2.0", "cert-manager",
            "azure-alb-controller-1.9-crds.yaml")


def lexer_tokens(code: str, language: str) -> list[Token]:
    """What the lexer ``highlight`` falls back to gives ``code`` (Pygments' for YAML, the snippet
    lexers for Python and Jsonnet), adjacent tokens of a type joined."""
    return joined(lexer_for(language).get_tokens(code))


def reference_html(code: str, language: str) -> str:
    body = format_tokens(lexer_for(language).get_tokens(code))
    return (f'<div class="language-{language} highlight"><pre><span></span><code>'
            f"{body}</code></pre></div>")


def assert_same(code: str, language: str) -> None:
    """Quick tokens (line by line, as ``highlight`` takes them) and HTML are the lexer's; for
    Python and Jsonnet the tokens one by one, for YAML after joining."""
    quick = quick_tokens(lexer_input(code), language)
    assert quick is not None, f"outside the {language} subset: {code!r}"
    if language == "yaml":
        assert joined(quick) == lexer_tokens(code, language), code
    else:
        assert quick == list(lexer_for(language).get_tokens(code)), code
    assert highlight(code, language) == reference_html(code, language), code


def snippets(example: Example) -> Iterator[tuple[str, str]]:
    for language, code in (("yaml", example.yaml), ("python", example.python),
                           ("jsonnet", example.jsonnet), ("yaml", example.status)):
        if code:
            yield code, language


def test_every_example_of_1_31_and_1_32(examples: dict[str, dict[str, Example]]) -> None:
    """Python and Jsonnet: the very tokens of the snippet lexers; YAML: every snippet in the
    subset, with Pygments' tokens."""
    count = 0
    for release in examples.values():
        for example in release.values():
            for code, language in snippets(example):
                assert_same(code, language)
                count += 1
    assert count > 3000
    for code in ('apiVersion: "v1"\nkind: "Pod"\n', 'apiVersion: "gateway.networking.k8s.io/v1"\n'):
        assert_same(code, "yaml")  # the model pages' header


@pytest.mark.shared
@pytest.mark.parametrize("crd_set", CRD_SETS)
def test_every_crd_example(crd_set: str, shared: Path) -> None:
    api, _ = build_api(load_source(str(SHARED / "crds" / crd_set)), "x")
    models = [m for m in api.models.values() if m.crd is not None]
    assert models
    for model in models:
        for code, language in snippets(crd_example(model, api).example):
            assert_same(code, language)


TRICKY_YAML = [
    'name: "it\'s \\"quoted\\" here"\n',
    'a: "1.0"\nb: 1.0\nc: "0x1f"\nd: 0x1f\ne: -1\nf: "-1"\ng: 1e+100\nh: "true"\ni: true\nj: null\n',
    'text: "tab\\tnew\\nline \\\\ back \\u00e9 \\U0001f600 \\x41 \\0 \\ \\N"\n',
    'unicode: "héllo wörld"\nemoji: "✓ 😀"\nkey: "a  b   c"\n',
    '"quoted key": v\n"k:y": "v: w"\n"": ""\n',
    'a:\n  b:\n  - c: {}\n    d: []\n  - - x\n    - y\n  - - - z\ne: f\n',
    'a: b, c.\nurl: https://example.com/a=b\nimage: registry.k8s.io/nginx:1.27\n',
    '- a\n- b\n',
    '\n\nkind: Pod\n\n\n',
    'kind: Pod',
    'k: "<script>&amp;</script>"\n',
    'k: "a\\u2028b"\n',
]
"""In the subset (quotes inside strings, escapes, numbers against strings, unicode, ``{}``/``[]``,
nested sequences, leading/trailing empty lines, a missing final newline, HTML characters)."""

OUTSIDE_YAML = [
    "# a comment\nkind: Pod\n",
    "kind: Pod  # a comment\n",
    "script: |\n  echo a\n  echo b\nnext: 1\n",
    "folded: >-\n  a\n  b\n",
    "flow: {a: 1, b: [x, y]}\n",
    "plain: a\n  continued\n",
    "- a\n  continued\n",
    "anchor: &a x\nalias: *a\n",
    "tag: !!str 1\n",
    "single: 'it''s'\n",
    "a:\n    b: 1\n  c: 2\n",
    "---\nkind: Pod\n...\n",
    "k: \"a\u00a0b\"\n",
    "k: \"multi\n  line\"\n",
    "k: v\n\nl: w\n",
    "trailing: v  \n",
    "? " + "k" * 1100 + "\n: v\n",
    "a: b: c\n",
    "%YAML 1.2\n---\nk: v\n",
    "k:\tv\n",
    "a b: c\n",
    "unicode: héllo\n",
    'k: "a\\/b"\n',
]
"""Outside the subset: comments, block scalars, flow collections, continued plain scalars,
anchors, tags, single quotes, an indentation Pygments flags, document markers, a non-breaking
space inside a string, a multi-line string, empty lines, trailing spaces, explicit keys,
directives, tabs, a key with a space, a plain non-ASCII scalar (``yaml_text`` quotes those), an
escape YAML does not have."""


@pytest.mark.parametrize("code", TRICKY_YAML)
def test_tricky_yaml(code: str) -> None:
    assert_same(code, "yaml")


@pytest.mark.parametrize("code", OUTSIDE_YAML)
def test_yaml_outside_the_subset_goes_to_pygments(code: str) -> None:
    assert yaml_tokens(lexer_input(code)) is None
    assert highlight(code, "yaml") == reference_html(code, "yaml")


def test_pygments_flags_what_the_subset_leaves_out() -> None:
    assert '<span class="w w-Error">  </span>' in highlight("a:\n    b: 1\n  c: 2\n", "yaml")
    assert '<span class="err">\\</span>' in highlight('k: "a\\/b"\n', "yaml")


TRICKY_CODE = [
    ("python", 'x = client.V1Pod(name="it\'s", note=\'say "hi"\', n=1.0, m=-2, h=0x1f, s="0x1f")\n'),
    ("python", 'from kubernetes import client\nimport json\n\nv = {"a": [True, None, 1e-3]}\n'),
    ("python", 's = "tab\\t \\"q\\" é 😀 <b>&amp;</b>"\n# a comment\n@decorator\nx = """doc"""\n'),
    ("python", "x = 'unterminated\n"),
    ("jsonnet", "local k = import 'k.libsonnet';\n{ 'a{b}': \"}{\", c: [1, -2.5e3, true, null] }\n"),
    ("jsonnet", "k.core.v1.pod.new('x')\n+ { metadata+: { labels: { 'app.kubernetes.io/name': 'é' } } }\n"),
    ("jsonnet", "local f(x) = if x then self.a else super.b;\n// a comment\n|||\n  text\n|||\n"),
    ("jsonnet", "{ \"quoted\" : 'it\\'s', x: \"<&>\" }"),
]
"""Python and Jsonnet: quotes inside strings, ``{``/``}`` in strings, numbers against strings,
unicode, comments and text blocks (plain text from the snippet lexers), HTML characters."""


@pytest.mark.parametrize(("language", "code"), TRICKY_CODE)
def test_tricky_python_and_jsonnet(language: str, code: str) -> None:
    assert_same(code, language)


def test_unknown_language_is_escaped() -> None:
    html = highlight("a <b>\n", "no-such-language")
    assert html == ('<div class="language-no-such-language highlight"><pre><span></span><code>'
                    "a &lt;b&gt;\n</code></pre></div>")


def test_other_languages_use_pygments() -> None:
    code = '{"a": [1, "x"]}\n'
    assert highlight(code, "json") == reference_html(code, "json")


def _random_value(rng: random.Random, depth: int) -> Any:
    choice = rng.random()
    if depth < 4 and choice < 0.25:
        return {_random_string(rng): _random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    if depth < 4 and choice < 0.45:
        return [_random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice([_random_string(rng), rng.randint(-5, 5000), rng.random() * 10, True, False, None])


def _random_string(rng: random.Random) -> str:
    alphabet = "ab1.-_/:=, #'\"\\{}[]&*!|>%@`?é\t\u00a0\u2028😀"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))


def test_random_data_written_by_yaml_text() -> None:
    """Whatever ``yaml_text`` writes: in the subset the tokens are Pygments', outside it the
    HTML is Pygments'."""
    rng = random.Random(15)
    inside = 0
    for _ in range(600):
        code = dump({"k": _random_value(rng, 0), _random_string(rng) or "x": _random_value(rng, 1)})
        if yaml_tokens(lexer_input(code)) is not None:
            inside += 1
            assert_same(code, "yaml")
        else:
            assert highlight(code, "yaml") == reference_html(code, "yaml"), code
    assert inside > 300
