"""Two checkouts of this project side by side: ``build-site`` (a preset) and ``mkdocs build`` of
the default site, alternating the two run by run (fresh site and cache directories each run,
deleted after the series), wall and CPU seconds, medians of ``--runs``; then every file of the
last runs' outputs compared (the differing ones listed).

    python benchmarks/bench_versions.py OTHER [--preset default|all] [--runs 3] [--what site|mkdocs|both]
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from measure import REPO, header, run


def _differing(a: Path, b: Path, prefix: str = "") -> list[str]:
    compared = filecmp.dircmp(a, b, ignore=[".k8s-api-docs"])
    out = [prefix + n for n in compared.left_only + compared.right_only]
    out += [prefix + n for n in compared.common_files if not filecmp.cmp(a / n, b / n, shallow=False)]
    for name in compared.common_dirs:
        out += _differing(a / name, b / name, f"{prefix}{name}/")
    return out


def _command(checkout: Path, what: str, preset: str, out: Path, cache: Path) -> list[str]:
    if what == "site":
        return [sys.executable, "-m", "generator", "build-site", "--preset", preset, "--out", str(out),
                "--cache-dir", str(cache), "--site-url", "https://example.org/k8s/", "--config",
                str(checkout / "mkdocs.yml"), "-q"]
    return [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(checkout / "mkdocs.yml"), "-d", str(out)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("other", type=Path)
    parser.add_argument("--preset", choices=("default", "all"), default="default")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--what", choices=("site", "mkdocs", "both"), default="both")
    args = parser.parse_args()
    checkouts = {"this": REPO, "other": args.other.resolve()}
    header(f"this checkout vs {checkouts['other']}")
    for what in ("site", "mkdocs") if args.what == "both" else (args.what,):
        root = Path(tempfile.mkdtemp(prefix="bench-versions-"))
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
        for index in range(args.runs):
            for name, checkout in checkouts.items():
                out, cache = root / f"{name}-{index}", root / f"cache-{name}-{index}"
                env = {**os.environ, "PYTHONPATH": str(checkout), "NO_MKDOCS_2_WARNING": "1",
                       "SOURCE_DATE_EPOCH": "1700000000"}
                result = run(_command(checkout, what, args.preset, out, cache), env=env, cwd=checkout)
                if result.returncode:
                    raise SystemExit(f"{name} {what} failed:\n{result.output[-3000:]}")
                times[name].append((result.wall, result.cpu))
        last = args.runs - 1
        differing = _differing(root / f"this-{last}", root / f"other-{last}")
        label = f"build-site --preset {args.preset}" if what == "site" else "mkdocs build (default site)"
        print(f"\n{label}")
        for name, runs in times.items():
            walls = ", ".join(f"{w:.1f}" for w, _ in runs)
            print(f"  {name:<6} wall {statistics.median(w for w, _ in runs):6.1f} s (runs {walls})  "
                  f"CPU {statistics.median(c for _, c in runs):6.1f} s")
        medians = {name: statistics.median(w for w, _ in runs) for name, runs in times.items()}
        ratio = medians["this"] / medians["other"]
        print(f"  this/other wall: {ratio:.2f}; files differing: {len(differing)}")
        for path in differing[:40]:
            print(f"    {path}")
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
