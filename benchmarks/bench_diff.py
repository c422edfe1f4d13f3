"""Print how long ``diff`` of two full releases takes (target ≤ 0.5 s, structural type
comparison and upgrade guidance included): the CLI process (wall and CPU, next to a bare
interpreter start) and its in-process phases; ``diff_apis`` alone on every adjacent pair of
kubernetes-validate releases; and what the versions feature (timeline of every
kubernetes-validate release, Other versions, history notes, change pages) adds to generating the
default site.

    python benchmarks/bench_diff.py [OLD NEW] [--runs N] [--no-generate]

Other jobs on the machine stretch wall times; CPU seconds (user + sys) move less. Bytecode
caching matters: with ``PYTHONDONTWRITEBYTECODE`` set, every run compiles the modules it imports.
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
from generator.config import Release, VersionsOptions
from generator.pipeline.build import generate, load_api
from generator.sources.jsonschema_pkg import PackageHistory, field_names


def timed(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    """Median wall seconds of ``runs`` calls."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cpu_timed(fn, runs: int) -> float:  # type: ignore[no-untyped-def]
    """Median CPU seconds of this process over ``runs`` calls."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        samples.append(time.process_time() - start)
    return statistics.median(samples)


def process(cmd: list[str], runs: int) -> tuple[float, float]:
    """Median wall and median CPU (user + sys) seconds of ``runs`` runs of ``cmd``."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def phases(old: str, new: str, runs: int) -> str:
    """CPU of each in-process phase of ``diff OLD NEW`` (both releases), medians."""
    from generator.analysis.crd_diff import with_crd_changes
    from generator.analysis.diff import DiffFilter, filter_diff
    from generator.model.normalize import build_api
    from generator.render.reports import format_json, format_text
    from generator.sources import default_source, load_source

    specs = [default_source(old), default_source(new)]
    load = cpu_timed(lambda: [load_source(s) for s in specs], runs)
    docs = [load_source(s) for s in specs]
    normalize = cpu_timed(lambda: [build_api(d, v) for d, v in zip(docs, (old, new), strict=True)], runs)
    apis = [build_api(d, v)[0] for d, v in zip(docs, (old, new), strict=True)]
    keep = DiffFilter(frozenset(), frozenset(), frozenset())

    def compare():  # type: ignore[no-untyped-def]
        return filter_diff(with_crd_changes(diff_apis(*apis, PackageHistory()), *apis), keep, *apis)

    compared = cpu_timed(compare, runs)
    diff = compare()
    as_json = cpu_timed(lambda: format_json(diff), runs)
    as_text = cpu_timed(lambda: format_text(diff), runs)
    return (f"phases in-process, CPU medians of {runs}: load + canonicalize {load:.3f} s, "
            f"normalize {normalize:.3f} s, diff + guidance + filter {compared:.3f} s, "
            f"format json {as_json:.3f} s / text {as_text:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", nargs="?", default="1.31")
    parser.add_argument("new", nargs="?", default="1.32")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-generate", action="store_true", help="skip the generate figures")
    args = parser.parse_args()

    bare_wall, bare_cpu = process([sys.executable, "-c", "pass"], args.runs)
    print(f"python -c pass (interpreter start-up, site packages): {bare_wall:.3f} s wall, "
          f"{bare_cpu:.3f} s CPU, medians of {args.runs}")
    for fmt in ("json", "text", "github"):
        cli = [sys.executable, "-m", "generator", "diff", args.old, args.new, "--format", fmt]
        wall, cpu = process(cli, args.runs)
        print(f"diff {args.old} {args.new} --format {fmt} (CLI process: start, load both, diff, "
              f"guidance, report): {wall:.3f} s wall, {cpu:.3f} s CPU, medians of {args.runs} "
              f"(target ≤ 0.5 s); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
              f"cores; bytecode cache {'off' if sys.dont_write_bytecode else 'on'}")
    print(phases(args.old, args.new, args.runs))

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
