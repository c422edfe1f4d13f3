"""What each accelerator of ``generator/mkdocs`` (``accelerators.NAMES``) earns: one release's
site (``build-site``'s per-release layout, ``mkdocs build``) built with all of them, with each
one left out, and with none, alternating run by run; wall and CPU seconds, medians of ``--runs``.
Every build's files are compared with the build without accelerators (they must be byte-identical;
not the search index, whose text ``search_entries`` writes without markup).

    python benchmarks/bench_accelerators.py [--version 1.32] [--runs 3]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from measure import REPO, header, run

from generator.mkdocs.accelerators import ENV, NAMES

SETTINGS = {"all": "all", **{f"without {n}": ",".join(m for m in NAMES if m != n) for n in NAMES},
            "none": "none"}


def _differing(a: Path, b: Path) -> list[str]:
    out: list[str] = []
    compared = filecmp.dircmp(a, b)
    out += [str(a / n) for n in compared.left_only + compared.right_only + compared.diff_files
            if n != "search_index.json"]  # search_entries' text has no markup (tests/test_search_sections.py)
    for name in compared.common_dirs:
        out += _differing(a / name, b / name)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--version", default="1.32")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    header("generator/mkdocs accelerators, one release site")
    root = Path(tempfile.mkdtemp(prefix="bench-accel-"))
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(REPO / "site_src"),
              "plugins": ["search", {"k8s-api-docs": {
                  "versions": [{"version": "1.31"}, {"version": args.version}],
                  "only": [args.version], "layout": "release", "cache_dir": str(root / "cache")}}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in SETTINGS}
    differences: dict[str, list[str]] = {}
    for index in range(args.runs):
        for name, value in SETTINGS.items():
            site = root / f"site-{name.replace(' ', '-')}"
            shutil.rmtree(site, ignore_errors=True)
            result = run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(root / "mkdocs.yml"),
                          "-d", str(site)], env={**os.environ, ENV: value})
            if result.returncode:
                raise SystemExit(f"{name}: build failed\n{result.output}")
            times[name].append((result.wall, result.cpu))
            if index == args.runs - 1 and name != "none":
                continue
            if index == args.runs - 1:
                for other in SETTINGS:
                    if other != "none":
                        differences[other] = _differing(site, root / f"site-{other.replace(' ', '-')}")
            elif name != "none":
                shutil.rmtree(site)
    base = statistics.median(cpu for _, cpu in times["none"])
    print(f"{'setting':<24} {'wall s':>7} {'CPU s':>7} {'CPU vs none':>12}  files differing")
    for name, runs in times.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name:<24} {wall:7.2f} {cpu:7.2f} {cpu - base:+11.2f}s  {len(differences.get(name, []))}")
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
