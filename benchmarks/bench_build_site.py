"""Benchmark 2: ``build-site`` of a preset (default: 1.31 + 1.32; all: every bundled release),
with each builder (MkDocs with the plugin, Zensical), side by side.

    python benchmarks/bench_build_site.py [--preset default|all] [--runs 3] [--builder mkdocs|zensical|both]

Each run builds into a fresh site directory with a fresh cache directory (a full build, nothing
reused: Zensical keeps a build cache of its own there); prints wall and CPU seconds, peak RSS of
the whole process tree (parallel builds summed), pages, median and max HTML bytes per page,
search index bytes per release, then the time of a second build with nothing changed; at the
end the medians of both builders side by side. The runs' directories are deleted after the
series, not each just before the next run: on a file system that discards freed blocks (ext4
mounted with ``discard``, as on this project's machines) deleting a ~100 MB site made the next
run spend up to 3 s more in the kernel. Syntax highlighting is done while generating:
``bench_highlight.py`` prices it.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from measure import REPO, Run, header, median, run

BUILDERS = ("mkdocs", "zensical")


def build(preset: str, out: Path, cache: Path, config: Path, builder: str = "mkdocs") -> Run:
    result = run([sys.executable, "-m", "generator", "build-site", "--preset", preset, "--out", str(out),
                  "--cache-dir", str(cache), "--config", str(config), "--builder", builder,
                  "--site-url", "https://example.org/k8s/"], cwd=REPO)
    if result.returncode != 0:
        sys.exit(f"build-site failed:\n{result.output[-3000:]}")
    return result


def site_figures(site: Path) -> float:
    """Prints the figures of a built site; returns the median HTML bytes per page."""
    sizes = []
    for release in sorted(p for p in site.iterdir() if p.is_dir() and not p.name.startswith(".")
                          and p.name != "latest"):  # latest/: redirects to the newest release
        pages = [p for p in release.rglob("*.html") if p.name != "404.html"]
        sizes += [p.stat().st_size for p in pages]
        index = release / "search" / "search_index.json"  # MkDocs' search plugin
        if not index.is_file():
            index = release / "search.json"  # Zensical's
        total = sum(p.stat().st_size for p in release.rglob("*") if p.is_file())
        print(f"  {release.name:6} {len(pages):5} pages  search index {index.stat().st_size / 1e6:6.2f} MB"
              f"  release total {total / 1e6:7.1f} MB")
    print(f"  all: {len(sizes)} pages, HTML per page median {statistics.median(sizes) / 1e3:.1f} KB, "
          f"max {max(sizes) / 1e3:.1f} KB")
    return statistics.median(sizes)


@dataclass
class Series:
    label: str
    runs: list[Run]
    html_median: float
    unchanged: float

    def row(self) -> str:
        return (f"{self.label:18} {median([r.wall for r in self.runs]):7.1f} s wall "
                f"{median([r.cpu for r in self.runs]):7.1f} s CPU "
                f"{median([r.peak_tree_mb for r in self.runs]):6.0f} MB peak RSS  "
                f"HTML/page median {self.html_median / 1e3:5.1f} KB  "
                f"unchanged rebuild {self.unchanged:5.2f} s")


def series(label: str, preset: str, runs: int, tmp: Path, config: Path, builder: str = "mkdocs",
           keep: Path | None = None) -> Series:
    results = []
    html_median = unchanged = 0.0
    done_dirs: list[Path] = []
    for i in range(runs):
        cache = tmp / f"cache-{label}-{i}"
        out = keep if keep and i == 0 else tmp / f"site-{label}-{i}"
        result = build(preset, out, cache, config, builder)
        results.append(result)
        print(f"run {i + 1} {label:18} {result.wall:7.1f} s wall {result.cpu:7.1f} s CPU "
              f"({result.system:.1f} s of it in the kernel) "
              f"{result.peak_tree_mb:6.0f} MB peak RSS (tree), "
              f"largest process {result.peak_process_mb:.0f} MB", flush=True)
        if i == 0:
            html_median = site_figures(out)
            again = build(preset, out, cache, config, builder)
            unchanged = again.wall
            print(f"  second build, nothing changed: {again.wall:.2f} s ({again.output.strip()})")
        done_dirs += [cache] if out == keep else [out, cache]
    for directory in done_dirs:  # not before the next run: see the module's docstring
        shutil.rmtree(directory, ignore_errors=True)
    done = Series(label, results, html_median, unchanged)
    print("median " + done.row(), flush=True)
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--preset", choices=("default", "all"), default="default")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--builder", choices=(*BUILDERS, "both"), default="both")
    parser.add_argument("--keep", type=Path, help="build the first site here and keep it (must not exist)")
    args = parser.parse_args()
    builders = BUILDERS if args.builder == "both" else (args.builder,)
    header(f"build-site --preset {args.preset}, {args.runs} run(s) per builder: {', '.join(builders)}")
    with tempfile.TemporaryDirectory(prefix="bench-site-") as name:
        tmp = Path(name)
        done = [series(f"{args.preset} {builder}", args.preset, args.runs, tmp, REPO / "mkdocs.yml",
                       builder, args.keep if builder == builders[0] else None) for builder in builders]
    print(f"\nside by side (medians of {args.runs} full builds):")
    for one in done:
        print("  " + one.row())


if __name__ == "__main__":
    main()
