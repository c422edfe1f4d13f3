"""Issue 14 and 23 figures: CRD sets as releases.

For the Gateway API v1.2.0 set, the cert-manager set, the largest sets of ``../shared/crds/corpus``
(argo-cd, cluster-api, crossplane, external-secrets, opentelemetry-operator; target ≤ 10 s each
on 2 cores; ``--corpus all``: every corpus project) and a ~5 MB set (every CRD file of
``../shared/crds`` copied under renamed groups into a temporary directory until it holds 5 MB),
prints the median of ``--runs`` runs (each in a fresh process) of the seconds to load and render
every page (``generate``, versions feature on; target for 5 MB: ≤ 2 s) as wall and CPU time (the
machine is shared: CPU seconds are what to compare), the load (YAML to model) part of it, and the
largest Markdown page. With ``--html`` it also runs ``mkdocs build`` once per set and prints the
largest HTML page (target: none over 500 KB), and the same for cert-manager combined with
Kubernetes 1.31 (its core and meta groups: the CRD pages link their types). ``--profile`` prints
the functions with the most own time of one profiled ``generate`` of the 5 MB set. ``--repo DIR``
runs another checkout's generator and MkDocs build (before/after comparisons on the same machine
state).

Usage: python benchmarks/bench_crds.py [--runs 3] [--html] [--profile] [--repo DIR] [--corpus all]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import REPO, SHARED, header, load

CHILD = """
import json, sys, time
t0 = time.perf_counter()
from generator.pipeline.build import generate, load_api
from generator.config import Release
t1 = time.perf_counter()
c1 = time.process_time()
load_api(Release("set", sys.argv[1]))
c2 = time.process_time()
t2 = time.perf_counter()
site = generate([Release("set", sys.argv[1])])
t3 = time.perf_counter()
c3 = time.process_time()
sizes = sorted((len(text.encode()), path) for path, text in site.pages.items())
print(json.dumps({"import": t1 - t0, "generate": t3 - t2, "cpu": c3 - c2, "load_cpu": c2 - c1,
                  "pages": len(site.pages), "largest": sizes[-1]}))
"""
PROFILE = """
import cProfile, pstats, sys
from generator.pipeline.build import generate
from generator.config import Release
profile = cProfile.Profile()
profile.runcall(generate, [Release("set", sys.argv[1])])
pstats.Stats(profile).sort_stats("tottime").print_stats(15)
"""
GROUPS = ("gateway.networking.k8s.io", "cert-manager.io", "alb.networking.azure.io")
LARGEST = ("argo-cd", "cluster-api", "crossplane", "external-secrets", "opentelemetry-operator")
"""The largest corpus sets (by bytes; argo-cd's ApplicationSet is the largest kind)."""


def five_mb_set(directory: Path, target: int = 5 * 1024 * 1024) -> int:
    """Copies of every shared CRD file under renamed groups until ``target`` bytes."""
    files = sorted(p for p in (SHARED / "crds").rglob("*.yaml"))
    if not files:
        sys.exit(f"no CRD files under {SHARED / 'crds'} (set K8S_API_DOCS_SHARED)")
    folders = sorted({p.parent for p in files})
    total, copy = 0, 0
    while total < target:
        copy += 1
        for path in files:
            text = path.read_text(encoding="utf-8")
            tag = f"c{copy}f{folders.index(path.parent)}"  # each release of a set: its own groups
            for group in GROUPS:
                text = text.replace(group, f"{tag}.{group}")
            out = directory / f"c{copy}" / path.relative_to(SHARED / "crds")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
            total += len(text.encode())
            if total >= target:
                break
    return total


def measure(source: Path, runs: int, repo: Path = REPO) -> None:
    results = []
    for _ in range(runs):
        started = time.perf_counter()
        out = subprocess.run([sys.executable, "-c", CHILD, str(source)], cwd=repo, check=True,
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(repo)}).stdout
        figures = json.loads(out.strip().splitlines()[-1])
        figures["wall"] = time.perf_counter() - started
        results.append(figures)
    generate = statistics.median(r["generate"] for r in results)
    cpu = statistics.median(r["cpu"] for r in results)
    load_cpu = statistics.median(r["load_cpu"] for r in results)
    wall = statistics.median(r["wall"] for r in results)
    size, page = results[0]["largest"]
    print(f"  generate {generate:.2f} s wall, {cpu:.2f} s CPU (of which loading {load_cpu:.2f} s) "
          f"(medians of {runs}; process wall {wall:.2f} s; load average {load()}), "
          f"{results[0]['pages']} pages, largest Markdown {size / 1e3:.0f} KB ({page})")


def html_sizes(source: Path, tmp: Path, repo: Path = REPO, *, release: str = "",
               groups: tuple[str, ...] = ()) -> None:
    """Build the set with MkDocs (as its own release, or as the CRDs of Kubernetes ``release``
    limited to ``groups``) and print its largest HTML page."""
    root = tmp / f"site-{source.name}{'-' + release if release else ''}"
    shutil.copytree(repo / "site_src", root / "docs")
    entry = ({"version": release, "crds": [str(source)]} if release
             else {"version": "set", "source": str(source)})
    plugin: dict[str, object] = {"versions": [entry], "cache_dir": ".cache"}
    if groups:
        plugin["groups"] = list(groups)
    config = {"INHERIT": str(repo / "mkdocs.yml"), "docs_dir": "docs", "nav": ["index.md"],
              "plugins": ["search", {"k8s-api-docs": plugin}]}
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "site"], cwd=root, check=True,
                   env={**os.environ, "PYTHONPATH": str(repo), "NO_MKDOCS_2_WARNING": "1"})
    pages = sorted((p.stat().st_size, p) for p in (root / "site").rglob("*.html"))
    size, page = pages[-1]
    print(f"  HTML{' with Kubernetes ' + release if release else ''}: {len(pages)} pages, largest "
          f"{size:,} bytes ({page.relative_to(root / 'site')}), over 500,000: "
          f"{sum(s > 500_000 for s, _ in pages)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--html", action="store_true", help="also build with mkdocs and size the HTML")
    parser.add_argument("--profile", action="store_true",
                        help="also profile one generate of the 5 MB set (cProfile, own time)")
    parser.add_argument("--repo", type=Path, default=REPO,
                        help="checkout whose generator runs (default: this one)")
    parser.add_argument("--corpus", choices=("largest", "all", "none"), default="largest",
                        help="which sets of ../shared/crds/corpus to measure too (default: the largest)")
    args = parser.parse_args()
    header(f"bench_crds: {args.repo.resolve()}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("# PYTHONDONTWRITEBYTECODE is set: every process compiles the package's sources again "
              "(~0.2 s CPU of each 'process wall' figure that an installed package does not pay)")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        big = tmp / "five-mb"
        size = five_mb_set(big)
        corpus = SHARED / "crds" / "corpus"
        names = {"largest": LARGEST, "none": (),
                 "all": tuple(sorted(p.name for p in corpus.iterdir() if p.is_dir()))}[args.corpus]
        for label, source in (("gateway-api v1.2.0", SHARED / "crds" / "gateway-api" / "v1.2.0"),
                              ("cert-manager", SHARED / "crds" / "cert-manager"),
                              *((f"corpus/{name}", corpus / name) for name in names),
                              (f"{size / 1e6:.1f} MB set", big)):
            print(label)
            measure(source, args.runs, args.repo.resolve())
            if args.html and source != big:
                html_sizes(source, tmp, args.repo.resolve())
        if args.html:  # the largest pages: cert-manager's, linked to a Kubernetes release's types
            print("cert-manager combined with Kubernetes 1.31")
            html_sizes(SHARED / "crds" / "cert-manager", tmp, args.repo.resolve(), release="1.31",
                       groups=("cert-manager.io", "acme.cert-manager.io", "core", "meta"))
        if args.profile:
            print(subprocess.run([sys.executable, "-c", PROFILE, str(big)], cwd=args.repo, check=True,
                                 capture_output=True, text=True,
                                 env={**os.environ, "PYTHONPATH": str(args.repo.resolve())}).stdout)


if __name__ == "__main__":
    main()
