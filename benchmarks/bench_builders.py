"""Issue 3 figure: seconds the "Builder functions" section adds to rendering one release.

Renders every page of one release twice in the same process, without and with the builders
hook (best of --runs each; the spec is loaded once and not timed), and prints the difference
(target ≤ 0.3 s), plus the index build alone and how many functions the release has. Times are
process CPU seconds (``time.process_time``), which other load on the machine disturbs far less
than wall time.

Usage: python benchmarks/bench_builders.py [--version 1.31] [--runs 5]
"""

from __future__ import annotations

import argparse
import time

from generator.config import Release
from generator.libsonnet.builders import BuilderPlanner
from generator.pipeline.build import load_api
from generator.render.env import make_env
from generator.render.pages import render_version
from generator.views.builder_section import builders_hook
from generator.views.site import plan_site


def best_of(runs: int, work) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="1.31")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    api, _ = load_api(Release(args.version))
    plan = plan_site(api)
    env = make_env()
    render_version(api, plan, env, [builders_hook])  # warm up: template compilation, caches

    def index_all() -> None:
        planner = BuilderPlanner(api)
        for model in api.models.values():
            planner.index(model)

    planner = BuilderPlanner(api)
    indexes = [ix for ix in (planner.index(m) for m in api.models.values()) if ix is not None]
    functions = sum(len(ix) for ix in indexes)
    without, with_builders = float("inf"), float("inf")
    for _ in range(args.runs):  # interleaved, so a burst of load hits both sides alike
        without = min(without, best_of(1, lambda: render_version(api, plan, env, [])))
        with_builders = min(with_builders,
                            best_of(1, lambda: render_version(api, plan, env, [builders_hook])))
    index_only = best_of(args.runs, index_all)
    print(f"{args.version}: {len(api.models)} models, {len(indexes)} with a builder index, "
          f"{functions} functions")
    print(f"render all pages (CPU s) without builders: {without:.3f} s, with: {with_builders:.3f} s "
          f"→ builders add {with_builders - without:.3f} s (target ≤ 0.3 s; best of {args.runs})")
    print(f"builder indexes alone (fresh planner): {index_only:.3f} s")


if __name__ == "__main__":
    main()
