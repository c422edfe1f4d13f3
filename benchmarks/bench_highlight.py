"""What syntax highlighting costs: every distinct Example snippet of a release (YAML, Python,
Jsonnet, status YAML) highlighted as the generator does it (``render.highlight``: the quick
tokens of ``render.snippet_tokens``, line by line, caches emptied before each run), as the
snippet lexers (``lexer_for``) and our ``format_tokens`` do it, and with Pygments' full lexers
and ``HtmlFormatter``, in CPU seconds (median of ``--runs``).

    python benchmarks/bench_highlight.py [--version 1.32] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from measure import header
from pygments import highlight as pygments_highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from generator.config import Release
from generator.examples.snippets import ExampleBuilder
from generator.pipeline.build import load_api
from generator.render import highlight as render
from generator.render import snippet_tokens

LANGUAGES = ("yaml", "python", "jsonnet")


def quick(code: str, language: str) -> str:
    return render.highlight(code, language)


def lexers(code: str, language: str) -> str:
    return render.format_tokens(render.lexer_for(language).get_tokens(code))


FORMATTER = HtmlFormatter(nowrap=True)


def full(code: str, language: str) -> str:
    return pygments_highlight(code, get_lexer_by_name(language), FORMATTER)


def clear_caches() -> None:
    render.highlight.cache_clear()
    render._line_html.cache_clear()
    snippet_tokens.yaml_line.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.32")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    api, _ = load_api(Release(args.version))
    builder = ExampleBuilder(api)
    examples = [builder.example(name) for name in api.models]
    snippets = {lang: sorted({getattr(e, lang) for e in examples if getattr(e, lang)}) for lang in LANGUAGES}
    snippets["yaml"] = sorted({*snippets["yaml"], *(e.status for e in examples if e.status)})
    header(f"highlighting the distinct Example snippets of {args.version}: "
           + ", ".join(f"{len(v)} {k}" for k, v in snippets.items()) + f"; median of {args.runs} runs")
    for label, function in (("generator (quick tokens)", quick),
                            ("snippet lexers + format_tokens", lexers),
                            ("Pygments' full lexers + HTML", full)):
        per_language = {lang: measure(function, snippets[lang], lang, args.runs) for lang in LANGUAGES}
        print(f"{label:32} {sum(per_language.values()):.3f} s CPU  ("
              + ", ".join(f"{k} {v:.3f}" for k, v in per_language.items()) + ")")


def measure(function: Callable[[str, str], str], codes: list[str], language: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        clear_caches()
        start = time.process_time()
        for code in codes:
            function(code, language)
        times.append(time.process_time() - start)
    return statistics.median(times)


if __name__ == "__main__":
    main()
