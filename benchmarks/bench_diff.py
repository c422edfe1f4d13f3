"""Print how long ``diff`` of two full releases takes (target ≤ 0.5 s, structural type
comparison and upgrade guidance included), ``diff_apis`` alone on every adjacent pair of
kubernetes-validate releases, and what the versions feature (timeline of every
kubernetes-validate release, Other versions, history notes, change pages) adds to generating the
default site.

    python benchmarks/bench_diff.py [OLD NEW] [--runs N] [--no-generate]
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import time

from generator.analysis.diff import diff_apis
from generator.build.pipeline import generate, load_api
from generator.config import Release, VersionsOptions
from generator.sources.jsonschema_pkg import PackageHistory, field_names


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
    parser.add_argument("--no-generate", action="store_true", help="skip the generate figures")
    args = parser.parse_args()

    for fmt in ("json", "text", "github"):
        cli = [sys.executable, "-m", "generator", "diff", args.old, args.new, "--format", fmt]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = timed(lambda cli=cli: subprocess.run(cli, check=True, capture_output=True),
                     args.runs)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / args.runs
        print(f"diff {args.old} {args.new} --format {fmt} (CLI process: start, load both, diff, "
              f"guidance, report): {wall:.3f} s wall median of {args.runs}, {cpu:.3f} s CPU mean "
              f"(target ≤ 0.5 s); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    history = PackageHistory()
    old, _ = load_api(Release(args.old))
    new, _ = load_api(Release(args.new))
    inner = timed(lambda: diff_apis(old, new, history), args.runs)
    changes = len(diff_apis(old, new, history).changes())
    print(f"diff_apis only ({len(old.models)} → {len(new.models)} models, {changes} changes): "
          f"{inner:.3f} s")

    from generator.sources.jsonschema_pkg import available_versions

    versions = available_versions()
    apis = {v: load_api(Release(v))[0] for v in versions}
    pairs = {f"{a}→{b}": timed(lambda a=a, b=b: diff_apis(apis[a], apis[b], history), args.runs)
             for a, b in itertools.pairwise(versions)}
    slowest = max(pairs, key=pairs.__getitem__)
    print(f"diff_apis on {len(pairs)} adjacent kubernetes-validate pairs: median of medians "
          f"{statistics.median(pairs.values()):.3f} s, slowest {slowest} {pairs[slowest]:.3f} s")
    if args.no_generate:
        return

    start = time.perf_counter()
    field_names.cache_clear()
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
