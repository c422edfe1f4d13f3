"""Benchmark 2: ``build-site`` of a preset (default: 1.31 + 1.32; all: every bundled release).

    python benchmarks/bench_build_site.py [--preset default|all] [--runs 3]

Each run builds into a fresh site directory (a full build); prints wall and CPU seconds, peak RSS
of the whole process tree (parallel builds summed), pages, median and max HTML bytes per page,
search index bytes per release, then the time of a second build with nothing changed.
Syntax highlighting is done while generating: ``bench_highlight.py`` prices it.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from measure import REPO, Run, header, median, run


def build(preset: str, out: Path, cache: Path, config: Path) -> Run:
    result = run([sys.executable, "-m", "generator", "build-site", "--preset", preset, "--out", str(out),
                  "--cache-dir", str(cache), "--config", str(config),
                  "--site-url", "https://example.org/k8s/"], cwd=REPO)
    if result.returncode != 0:
        sys.exit(f"build-site failed:\n{result.output[-3000:]}")
    return result


def site_figures(site: Path) -> None:
    sizes = []
    for release in sorted(p for p in site.iterdir() if p.is_dir() and not p.name.startswith(".")
                          and p.name != "latest"):  # latest/: redirects to the newest release
        pages = [p for p in release.rglob("*.html") if p.name != "404.html"]
        sizes += [p.stat().st_size for p in pages]
        index = release / "search" / "search_index.json"
        total = sum(p.stat().st_size for p in release.rglob("*") if p.is_file())
        print(f"  {release.name:6} {len(pages):5} pages  search index {index.stat().st_size / 1e6:6.2f} MB"
              f"  release total {total / 1e6:7.1f} MB")
    print(f"  all: {len(sizes)} pages, HTML per page median {statistics.median(sizes) / 1e3:.1f} KB, "
          f"max {max(sizes) / 1e3:.1f} KB")


def series(label: str, preset: str, runs: int, tmp: Path, config: Path,
           keep: Path | None = None) -> list[Run]:
    results = []
    cache = tmp / f"cache-{label}"
    for i in range(runs):
        out = keep if keep and i == 0 else tmp / f"site-{label}-{i}"
        result = build(preset, out, cache, config)
        results.append(result)
        print(f"run {i + 1} {label:12} {result.wall:7.1f} s wall {result.cpu:7.1f} s CPU "
              f"{result.peak_tree_mb:6.0f} MB peak RSS (tree), "
              f"largest process {result.peak_process_mb:.0f} MB")
        if i == 0:
            site_figures(out)
            again = build(preset, out, cache, config)
            print(f"  second build, nothing changed: {again.wall:.2f} s ({again.output.strip()})")
        if i < runs - 1 and out != keep:
            shutil.rmtree(out, ignore_errors=True)
    print(f"median {label:12} {median([r.wall for r in results]):7.1f} s wall "
          f"{median([r.cpu for r in results]):7.1f} s CPU "
          f"{median([r.peak_tree_mb for r in results]):6.0f} MB")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", choices=("default", "all"), default="default")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="build the first site here and keep it (must not exist)")
    args = parser.parse_args()
    header(f"build-site --preset {args.preset}, {args.runs} run(s)")
    with tempfile.TemporaryDirectory(prefix="bench-site-") as name:
        tmp = Path(name)
        series(args.preset, args.preset, args.runs, tmp, REPO / "mkdocs.yml", args.keep)


if __name__ == "__main__":
    main()
