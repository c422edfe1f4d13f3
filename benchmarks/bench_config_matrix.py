"""Page size and build time of the plugin inside Material sites as users configure them (issue
35's configuration matrix, ``tests/helpers/site_matrix.py``) against the same releases built
with this repository's ``mkdocs.yml``: ``mkdocs build`` of each, median HTML per page, site size,
wall and CPU seconds (medians of ``--runs``), and the ratio of CPU to the repository's build.
Issue 35 asks for a median page ≤ 100 KB and a build within 1.5 times in every configuration.

    python benchmarks/bench_config_matrix.py [--runs 3] [--only large-real-site,tabs-two-releases]
        [--groups apps] [--accelerators all|none]

Without ``--groups`` whole releases are built (each configuration's own: one or two); the
"large real Material site" configuration is built on the default two releases (1.31 + 1.32).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from measure import REPO, header, run

sys.path.insert(0, str(REPO / "tests"))
from helpers.site_matrix import SITES, UserSite, median_page_kb, write_site

from generator.mkdocs.accelerators import ENV


def _repo_config(root: Path, releases: tuple[str, ...], groups: list[str], name: str) -> Path:
    """This repository's ``mkdocs.yml`` with ``releases`` (and ``groups``)."""
    options = {"versions": [{"version": v} for v in releases], "cache_dir": str(root / f"cache-{name}"),
               **({"groups": groups} if groups else {})}
    config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(REPO / "site_src"),
              "site_dir": str(root / name), "plugins": ["search", {"k8s-api-docs": options}]}
    path = root / f"{name}.yml"
    path.write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    return path


def _measure(config: Path, site: Path, runs: int, switch: str) -> tuple[float, float, float, float]:
    """Median wall and CPU seconds of ``mkdocs build``, median page KB, site MB."""
    times = []
    for _ in range(runs):
        shutil.rmtree(site, ignore_errors=True)
        result = run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)],
                     env={**os.environ, ENV: switch, "NO_MKDOCS_2_WARNING": "1"})
        if result.returncode:
            raise SystemExit(f"{config.name}: build failed\n{result.output}")
        times.append((result.wall, result.cpu))
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file()) / 1e6
    return (statistics.median(w for w, _ in times), statistics.median(c for _, c in times),
            median_page_kb(site), size)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="comma list of configuration names")
    parser.add_argument("--groups", default="", help="comma list of API groups (default: all)")
    parser.add_argument("--accelerators", default="all", help=f"the {ENV} value")
    args = parser.parse_args()
    only = {n for n in args.only.split(",") if n}
    groups = [g for g in args.groups.split(",") if g]
    sites: list[UserSite] = [s for s in SITES if not s.skip and (not only or s.name in only)]
    header(f"configuration matrix: mkdocs build, {ENV}={args.accelerators}, "
           f"groups {groups or 'all'}, medians of {args.runs}")
    root = Path(tempfile.mkdtemp(prefix="bench-matrix-"))
    baselines: dict[tuple[str, ...], tuple[float, float, float, float]] = {}
    print(f"{'configuration':<32} {'releases':<10} {'wall s':>7} {'CPU s':>7} {'x repo':>7} "
          f"{'page KB':>8} {'site MB':>8}")
    try:
        for site in sites:
            if site.releases not in baselines:
                name = "repo-" + "-".join(site.releases)
                baselines[site.releases] = _measure(_repo_config(root, site.releases, groups, name),
                                                    root / name, args.runs, args.accelerators)
                wall, cpu, page, size = baselines[site.releases]
                print(f"{'(this repository mkdocs.yml)':<32} {'+'.join(site.releases):<10} "
                      f"{wall:7.2f} {cpu:7.2f} {1:7.2f} {page:8.1f} {size:8.1f}", flush=True)
            site_root = root / site.name
            site_root.mkdir()
            wall, cpu, page, size = _measure(write_site(site_root, site, groups), site_root / "site",
                                             args.runs, args.accelerators)
            ratio = cpu / baselines[site.releases][1]
            print(f"{site.name:<32} {'+'.join(site.releases):<10} {wall:7.2f} {cpu:7.2f} "
                  f"{ratio:7.2f} {page:8.1f} {size:8.1f}", flush=True)
            shutil.rmtree(site_root, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
