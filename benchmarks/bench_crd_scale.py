"""Issue 34 item 6: a CRD set of ≥ 40,000 properties (``synthetic_crds.py``: written by a script,
no other project's CRDs), generated in a fresh process per run: CPU seconds and peak RSS of
``generate`` (targets: ≤ 3 s CPU and ≤ 150 MB, medians), pages and Markdown bytes, and how many
nested objects are shown once and referenced (``model.repeats``).

    python benchmarks/bench_crd_scale.py [--runs 3] [--repo DIR] [--kinds 16 --components 3 --unique 380]

``--repo`` runs another checkout's generator on the same set (before/after on the same machine
state); its package may be ``generator.build.pipeline`` (before the rename) or
``generator.pipeline.build``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import REPO, cores, header, load

CHILD = """
import json, resource, sys, time
try:
    from generator.pipeline.build import generate
except ImportError:
    from generator.build.pipeline import generate
from generator.config import Release
cpu = time.process_time()
site = generate([Release("set", sys.argv[1])])
cpu = time.process_time() - cpu
sizes = [len(text.encode()) for text in site.pages.values()]
repeats = sum(text.count('class="k8s-repeat"') for text in site.pages.values())
print(json.dumps({"cpu": cpu, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "pages": len(sizes), "bytes": sum(sizes), "largest": max(sizes), "repeats": repeats}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--kinds", default="16")
    parser.add_argument("--components", default="3")
    parser.add_argument("--unique", default="380")
    args = parser.parse_args()
    repo = args.repo.resolve()
    header(f"bench_crd_scale: {repo}")
    with tempfile.TemporaryDirectory() as name:
        source = Path(name) / "set"
        made = subprocess.run(
            [
                sys.executable,
                str(Path(__file__).parent / "synthetic_crds.py"),
                str(source),
                "--kinds",
                args.kinds,
                "--components",
                args.components,
                "--unique",
                args.unique,
            ],
            check=True,
            capture_output=True,
            text=True,
        )
        print(made.stdout.strip())
        runs = []
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(source)],
                cwd=repo,
                check=True,
                capture_output=True,
                text=True,
                env={**os.environ, "PYTHONPATH": str(repo)},
            ).stdout
            runs.append(json.loads(out.strip().splitlines()[-1]))
            print(f"  run: {runs[-1]['cpu']:.2f} s CPU, peak RSS {runs[-1]['rss']:.0f} MB")
    first = runs[0]
    print(
        f"generate: {statistics.median(r['cpu'] for r in runs):.2f} s CPU, peak RSS "
        f"{statistics.median(r['rss'] for r in runs):.0f} MB (medians of {args.runs}; {cores()} cores; "
        f"load average {load()}); {first['pages']} pages, {first['bytes'] / 1e6:.1f} MB of Markdown, "
        f"largest {first['largest'] / 1e3:.0f} KB; {first['repeats']} nested objects shown once, referenced"
    )


if __name__ == "__main__":
    main()
