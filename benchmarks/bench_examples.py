"""Issue 4 figure: seconds that the Example and Python sections add to generating one release.

Each run is a fresh process that loads the release once, renders all pages once to warm the other
sections' caches, then renders them with the other default sections only, and with the ``python``
+ ``example`` sections added (those start cold, as in a real run). Prints medians
of ``--runs`` runs (target: ≤ 0.5 s added), plus the time to build every example alone.

Usage: python benchmarks/bench_examples.py [--version 1.31] [--runs 5] [--clock wall|cpu]

``--clock cpu`` counts process CPU seconds: steadier than wall time on a shared, busy machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from generator.config import Release
from generator.pipeline.build import default_hooks, load_api
from generator.render.env import make_env
from generator.render.pages import render_version
from generator.examples.snippets import ExampleBuilder
from generator.views.site import plan_site

api, _ = load_api(Release(sys.argv[1]))
plan, env = plan_site(api), make_env()
ours = {"python", "example"}
hooks = default_hooks()
others = [h for h in hooks if getattr(h, "__name__", "") not in ours]
clock = time.process_time if sys.argv[2] == "cpu" else time.perf_counter
render_version(api, plan, env, others)  # warm-up: the other sections' caches count in neither run
t0 = clock()
render_version(api, plan, env, others)
t1 = clock()
render_version(api, plan, env, default_hooks())
t2 = clock()
builder = ExampleBuilder(api)
examples = [builder.example(name) for name in api.models]
t3 = clock()
print(json.dumps({"without": t1 - t0, "with": t2 - t1, "examples": t3 - t2, "models": len(examples),
                  "jsonnet": sum(1 for e in examples if e.jsonnet)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default="1.31")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    results = []
    for _ in range(args.runs):
        out = subprocess.run([sys.executable, "-c", CHILD, args.version, args.clock], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout
        results.append(json.loads(out))
    added = [r["with"] - r["without"] for r in results]
    first = results[0]
    print(f"{args.version}: {first['models']} models ({first['jsonnet']} with a Jsonnet snippet), "
          f"{args.runs} runs, {args.clock} seconds")
    print(f"  render without python/example sections: median "
          f"{statistics.median(r['without'] for r in results):.3f} s")
    print(f"  render with them:                       median "
          f"{statistics.median(r['with'] for r in results):.3f} s")
    print(f"  added by the sections: median {statistics.median(added):.3f} s "
          f"(runs: {', '.join(f'{a:.3f}' for a in added)})")
    print(f"  all examples alone (samples + YAML + Python + Jsonnet): median "
          f"{statistics.median(r['examples'] for r in results):.3f} s")


if __name__ == "__main__":
    main()
