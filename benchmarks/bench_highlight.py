"""What syntax highlighting costs: every Example snippet of a release highlighted as the
generator does it (``render.highlight``: Pygments' YAML lexer, the snippet lexers for Python and
Jsonnet) and with Pygments' full lexers for all three, in CPU seconds (median of ``--runs``).

    python benchmarks/bench_highlight.py [--version 1.31] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from measure import header
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from generator.build.pipeline import load_api
from generator.config import Release
from generator.examples.snippets import ExampleBuilder
from generator.render.highlight import lexer_for

LANGUAGES = ("yaml", "python", "jsonnet")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.31")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    api, _ = load_api(Release(args.version))
    builder = ExampleBuilder(api)
    examples = [builder.example(name) for name in api.models]
    snippets = {lang: [getattr(e, lang) for e in examples if getattr(e, lang)] for lang in LANGUAGES}
    header(f"highlighting the Example snippets of {args.version}: "
           + ", ".join(f"{len(v)} {k}" for k, v in snippets.items()) + f"; median of {args.runs} runs")
    formatter = HtmlFormatter(nowrap=True)
    for label, lexers in (("generator (snippet lexers)", {k: lexer_for(k) for k in LANGUAGES}),
                          ("Pygments' full lexers", {k: get_lexer_by_name(k) for k in LANGUAGES})):
        per_language = {}
        for lang in LANGUAGES:
            runs = []
            for _ in range(args.runs):
                start = time.process_time()
                for code in snippets[lang]:
                    highlight(code, lexers[lang], formatter)
                runs.append(time.process_time() - start)
            per_language[lang] = statistics.median(runs)
        print(f"{label:28} {sum(per_language.values()):.2f} s CPU  ("
              + ", ".join(f"{k} {v:.2f}" for k, v in per_language.items()) + ")")


if __name__ == "__main__":
    main()
