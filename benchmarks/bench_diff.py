"""Print how long ``diff`` of two full releases takes (target ≤ 1 s), and what the versions
feature (timeline of every kubernetes-validate release, Other versions, history notes, change
pages) adds to generating the default site.

    python benchmarks/bench_diff.py [OLD NEW] [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from generator.analysis.diff import diff_apis
from generator.build.pipeline import generate, load_api
from generator.config import Release, VersionsOptions
from generator.sources.jsonschema_pkg import field_names


def timed(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    """Median wall seconds of ``runs`` calls."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", nargs="?", default="1.31")
    parser.add_argument("new", nargs="?", default="1.32")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    cli = [sys.executable, "-m", "generator", "diff", args.old, args.new, "--format", "json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(lambda: subprocess.run(cli, check=True, capture_output=True), args.runs)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / args.runs
    print(f"diff {args.old} {args.new} (CLI process: start, load both, diff, JSON): "
          f"{wall:.3f} s wall median of {args.runs}, {cpu:.3f} s CPU mean (target ≤ 1 s); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    old, _ = load_api(Release(args.old))
    new, _ = load_api(Release(args.new))
    inner = timed(lambda: diff_apis(old, new), args.runs)
    changes = len(diff_apis(old, new).changes())
    print(f"diff_apis only ({len(old.models)} → {len(new.models)} models, {changes} changes): "
          f"{inner:.3f} s")

    start = time.perf_counter()
    from generator.sources.jsonschema_pkg import available_versions

    for version in available_versions():
        field_names(version)
    print(f"timeline index of {len(available_versions())} kubernetes-validate releases "
          f"(cold): {time.perf_counter() - start:.3f} s")

    releases = [Release(args.old), Release(args.new)]
    off = timed(lambda: generate(releases, versions=VersionsOptions(enabled=False)), 3)
    on = timed(lambda: generate(releases), 3)
    print(f"generate {args.old}+{args.new}: {off:.2f} s without versions, {on:.2f} s with "
          f"(+{on - off:.2f} s)")


if __name__ == "__main__":
    main()
