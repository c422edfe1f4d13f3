"""Issue 2 figures: load + render one release, and the default site's mkdocs build.

Prints (medians of --runs runs, each in a fresh process so peak RSS is that run's own):
- seconds and peak RSS to load + render all model pages of one release (target ≤ 0.5 s, ≤ 150 MB);
- ``mkdocs build`` wall time and median HTML bytes per page of the default site (≤ 30 s, ≤ 80 KB).

Usage: python benchmarks/bench_generate.py [--version 1.31] [--runs 3] [--skip-build]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
t0 = time.perf_counter()
from generator.config import Release
from generator.pipeline.build import generate
t1 = time.perf_counter()
site = generate([Release(sys.argv[1])])
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "generate_s": t2 - t1, "pages": len(site.pages),
                  "models": len(site.apis[0].models),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def bench_generate(version: str, runs: int) -> None:
    results = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CHILD, version], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout
        results.append(json.loads(out))
    gen = statistics.median(r["generate_s"] for r in results)
    rss = statistics.median(r["rss_mb"] for r in results)
    each = ", ".join(f"{r['generate_s']:.3f}" for r in results)
    print(f"load + render {version}: {results[0]['models']} models, {results[0]['pages']} pages: "
          f"median {gen:.3f} s (runs: {each}), "
          f"peak RSS {rss:.0f} MB (whole process incl. imports)")


def bench_build(runs: int) -> None:
    walls = []
    sizes: list[int] = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "--strict", "-d", tmp],
                           cwd=REPO, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
            walls.append(time.perf_counter() - start)
            sizes = [p.stat().st_size for p in Path(tmp).rglob("*.html")]
    print(f"mkdocs build (default site): median {statistics.median(walls):.1f} s "
          f"(runs: {', '.join(f'{w:.1f}' for w in walls)}); {len(sizes)} HTML pages, "
          f"median {statistics.median(sizes) / 1024:.0f} KB, max {max(sizes) / 1024:.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="1.31")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    bench_generate(args.version, args.runs)
    if not args.skip_build:
        bench_build(args.runs)


if __name__ == "__main__":
    main()
