"""Issue 26 figures: the terminal commands.

``scan`` of 1,000 objects (a multi-document YAML file of Deployments, Services, ConfigMaps,
HorizontalPodAutoscalers and FlowSchemas, some with findings) against one bundled release
(target: ≤ 2 s on 2 cores) and ``explain`` of a deep field path (target: ≤ 0.5 s), each the
whole command in a fresh process (``python -m generator …``, interpreter start-up included), as
the median of ``--runs`` runs of wall and CPU seconds.

Usage: python benchmarks/bench_terminal.py [--runs 3] [--objects 1000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from measure import REPO, header, median, run

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-{i}
  labels: {{app: web-{i}}}
spec:
  replicas: {replicas}
  selector:
    matchLabels: {{app: web-{i}}}
  template:
    metadata:
      labels: {{app: web-{i}}}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports: [{{containerPort: 80}}]
          resources:
            limits: {{cpu: 500m, memory: 128Mi}}
          env:
            - {{name: MODE, value: "on"}}
"""
SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: web-{i}
spec:
  selector: {{app: web-{i}}}
  ports:
    - {{port: 80, targetPort: 8080}}
"""
CONFIG_MAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: settings-{i}
data:
  mode: "on"
"""
HPA = """apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata:
  name: web-{i}
spec:
  scaleTargetRef: {{apiVersion: apps/v1, kind: Deployment, name: web-{i}}}
  maxReplicas: 3
"""
FLOW = """apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata:
  name: flow-{i}
spec:
  priorityLevelConfiguration: {{name: exempt}}
"""
TEMPLATES = (DEPLOYMENT, SERVICE, CONFIG_MAP, DEPLOYMENT, SERVICE, CONFIG_MAP, HPA, FLOW)


def manifests(count: int) -> str:
    docs = []
    for i in range(count):
        template = TEMPLATES[i % len(TEMPLATES)]
        docs.append(template.format(i=i, replicas="three" if i % 50 == 0 else 2))
    return "---\n".join(docs)


ENV: dict[str, str] = {"PYTHONPATH": str(REPO)}


def series(cmd: list[str], runs: int) -> tuple[float, float, str]:
    run(cmd, env=ENV, cwd=REPO)  # untimed: writes the bytecode cache
    results = [run(cmd, env=ENV, cwd=REPO) for _ in range(runs)]
    bad = [r for r in results if r.returncode not in (0, 1)]
    if bad:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{bad[0].output}")
    return median([r.wall for r in results]), median([r.cpu for r in results]), \
        results[0].output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--target", default="1.32")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="every process compiles the sources (PYTHONDONTWRITEBYTECODE=1)")
    args = parser.parse_args()
    header(f"bench_terminal: scan of {args.objects} objects, explain (medians of {args.runs})")
    with tempfile.TemporaryDirectory(prefix="bench-terminal-") as tmp:
        if args.no_bytecode:
            ENV["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            ENV.update(PYTHONDONTWRITEBYTECODE="", PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"))
        print(f"# bytecode cache: {'none' if args.no_bytecode else 'yes (warmed by one run)'}")
        measure(args, Path(tmp))


def measure(args: argparse.Namespace, tmp: Path) -> None:
    path = tmp / "manifests.yaml"
    path.write_text(manifests(args.objects), encoding="utf-8")
    cmd = [sys.executable, "-m", "generator", "scan", str(path), "--target", args.target]
    wall, cpu, output = series(cmd, args.runs)
    summary = output.strip().splitlines()[-1]
    print(f"scan {args.objects} objects --target {args.target}: wall {wall:.2f} s, "
          f"CPU {cpu:.2f} s (target ≤ 2 s)  [{summary}]")
    for path_text in ("deployment.spec.template.spec.containers.image", "pod"):
        cmd = [sys.executable, "-m", "generator", "explain", path_text, "--version", args.target]
        wall, cpu, _ = series(cmd, args.runs)
        print(f"explain {path_text}: wall {wall:.2f} s, CPU {cpu:.2f} s (target ≤ 0.5 s)")
    cmd = [sys.executable, "-m", "generator", "explain", "pod", "--recursive", "--version",
           args.target]
    wall, cpu, _ = series(cmd, args.runs)
    print(f"explain pod --recursive: wall {wall:.2f} s, CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()
