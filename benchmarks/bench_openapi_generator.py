"""Benchmark 1: our Markdown generation of 1.31 vs openapi-generator on the same swagger.json.

    python benchmarks/bench_openapi_generator.py [--runs 3]

Both run as fresh processes (start-up included) on ``../shared/specs/swagger-1.31.json``:
ours is ``python -m generator generate``; theirs is ``openapi-generator-cli generate -g python
--skip-validate-spec --global-property models,modelDocs=true,modelTests=false`` (the PyPI package
``openapi-generator-cli`` bundles the jar; needs Java). Prints medians, peak memory and ratios.

Peak memory is of the whole process tree (``measure.py``), two figures: RSS summed over the
processes ("RSS"; ours forks a worker for the model pages on two cores, whose copy-on-write
pages shared with its parent this sum counts twice) and PSS summed over them ("PSS": each page
counted once). Both are printed, with the ratio of each.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from measure import SHARED, Run, header, median, run


def ours(spec: Path, out: Path) -> Run:
    return run([sys.executable, "-m", "generator", "generate", "--version", "1.31", "--source",
                str(spec), "--out", str(out), "--quiet"])


def theirs(spec: Path, out: Path) -> Run:
    tool = shutil.which("openapi-generator-cli") or str(Path(sys.executable).parent / "openapi-generator-cli")
    return run([tool, "generate", "-g", "python", "-i", str(spec), "-o", str(out),
                "--skip-validate-spec", "--global-property", "models,modelDocs=true,modelTests=false"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    spec = SHARED / "specs" / "swagger-1.31.json"
    header(f"generator vs openapi-generator on {spec.name}, median of {args.runs} runs")
    results: dict[str, list[Run]] = {"ours": [], "openapi-generator": []}
    with tempfile.TemporaryDirectory(prefix="bench-oag-") as tmp:
        for i in range(args.runs):
            for name, fn in (("ours", ours), ("openapi-generator", theirs)):
                out = Path(tmp) / f"{name}-{i}"
                result = fn(spec, out)
                if result.returncode != 0:
                    sys.exit(f"{name} failed:\n{result.output[-2000:]}")
                results[name].append(result)
                files = sum(1 for p in out.rglob("*") if p.is_file())
                print(f"run {i + 1} {name:18} {result.wall:6.2f} s wall {result.cpu:6.2f} s CPU "
                      f"{result.peak_tree_mb:7.0f} MB peak RSS {result.peak_tree_pss_mb:7.0f} MB "
                      f"peak PSS  {files} files")
                shutil.rmtree(out, ignore_errors=True)
    medians = {name: (median([r.wall for r in rs]), median([r.cpu for r in rs]),
                      median([r.peak_tree_mb for r in rs]), median([r.peak_tree_pss_mb for r in rs]))
               for name, rs in results.items()}
    for name, (wall, cpu, rss, pss) in medians.items():
        print(f"median {name:18} {wall:6.2f} s wall {cpu:6.2f} s CPU {rss:7.0f} MB peak RSS "
              f"{pss:7.0f} MB peak PSS")
    (ow, oc, orss, opss), (tw, tc, trss, tpss) = medians["ours"], medians["openapi-generator"]
    print(f"ratio: ours is {tw / ow:.1f}x faster (wall), {tc / oc:.1f}x less CPU, "
          f"uses {orss / trss:.2f} of its memory by summed RSS, {opss / tpss:.2f} by summed PSS")


if __name__ == "__main__":
    main()
