"""Model pages on two cores (``pipeline.parallel``): ``generate`` of 1.31 from its swagger and
``mkdocs build`` of this repository's site, split (default) and serial
(``K8S_API_DOCS_PARALLEL=off``), and optionally another checkout (``--base DIR``), runs
interleaved.

    python benchmarks/bench_parallel.py [--runs 3] [--base /path/to/other/checkout] [--only generate|mkdocs]

Each run is a fresh process. Printed per run and as medians: wall; CPU of the whole tree; the CPU
of the main process alone ("main": with the split, the main process's work is the longer of the
two, so on an otherwise idle machine the wall time follows it) and of the worker; peak memory of
the tree as summed RSS (counts the pages a fork shares with its parent twice) and as summed PSS
(counts them once), see ``measure.py``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

from measure import REPO, SHARED, header, median, run

# reports the main process's CPU and that of its waited-for children (the worker) at exit
WRAP = r"""
import atexit, resource, sys
def report():
    s = resource.getrusage(resource.RUSAGE_SELF); c = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stderr.write(f"@@ {s.ru_utime + s.ru_stime:.3f} {c.ru_utime + c.ru_stime:.3f}\n")
atexit.register(report)
if sys.argv[1] == "mkdocs":
    from mkdocs.__main__ import cli
    sys.argv = ["mkdocs", *sys.argv[2:]]
    cli()
else:
    from generator.cli import main
    sys.exit(main(sys.argv[2:]))
"""


def command(what: str, out: Path) -> list[str]:
    if what == "generate":
        spec = SHARED / "specs" / "swagger-1.31.json"
        return [sys.executable, "-c", WRAP, "generate", "generate", "--version", "1.31", "--source",
                str(spec), "--out", str(out), "--quiet"]
    return [sys.executable, "-c", WRAP, "mkdocs", "build", "-q", "-d", str(out)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", type=Path, help="another checkout to run beside this one")
    parser.add_argument("--only", choices=["generate", "mkdocs"])
    args = parser.parse_args()
    sides = [("split", REPO, {}), ("serial", REPO, {"K8S_API_DOCS_PARALLEL": "off"})]
    if args.base:
        sides.append(("base", args.base.resolve(), {}))
    header(f"model pages on two cores, median of {args.runs} runs, interleaved")
    for what in ("generate", "mkdocs"):
        if args.only and what != args.only:
            continue
        rows: dict[str, list[tuple[float, ...]]] = {}
        with tempfile.TemporaryDirectory(prefix="bench-parallel-") as tmp:
            for i in range(args.runs):
                for name, repo, env in sides:
                    out = Path(tmp) / f"{name}-{i}"
                    result = run(command(what, out), cwd=repo,
                                 env={"PYTHONPATH": str(repo), "NO_MKDOCS_2_WARNING": "1", **env})
                    if result.returncode != 0:
                        sys.exit(f"{what} {name} failed:\n{result.output[-2000:]}")
                    marks = [line for line in result.output.splitlines() if line.startswith("@@ ")]
                    main_cpu, worker_cpu = (float(x) for x in marks[-1].split()[1:])
                    row = (result.wall, result.cpu, main_cpu, worker_cpu, result.peak_tree_mb,
                           result.peak_tree_pss_mb)
                    rows.setdefault(name, []).append(row)
                    print(f"run {i + 1} {what:8} {name:6} {row[0]:6.2f} s wall {row[1]:6.2f} s CPU "
                          f"(main {row[2]:5.2f}, worker {row[3]:5.2f}) {row[4]:6.0f} MB RSS "
                          f"{row[5]:6.0f} MB PSS  load {os.getloadavg()[0]:.1f}", flush=True)
                    shutil.rmtree(out, ignore_errors=True)
        for name, values in rows.items():
            wall, cpu, main_cpu, worker_cpu, rss, pss = (median(list(v)) for v in zip(*values, strict=True))
            print(f"median {what:8} {name:6} {wall:6.2f} s wall {cpu:6.2f} s CPU (main {main_cpu:5.2f}, "
                  f"worker {worker_cpu:5.2f}) {rss:6.0f} MB RSS {pss:6.0f} MB PSS")


if __name__ == "__main__":
    main()
