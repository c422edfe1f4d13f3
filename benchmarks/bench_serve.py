"""Benchmark 3: ``mkdocs serve --dirty`` edit-to-reload latency.

    python benchmarks/bench_serve.py [--runs 3] [--spec-only]

Serves the default site (1.31 + 1.32; 1.31 read from a copy of its kubernetes-validate
definitions so it can be edited) from a temporary config that INHERITs mkdocs.yml, and measures
from the moment a file is written until the served page shows the edit (HTTP polling every
20 ms):
1. one spec edit, the description of a model ("spec field edit", also on index pages) and of a
   field (1.31 is reloaded; only the pages that can show the edit are rendered and rebuilt);
2. one hand-written page edited;
3. a template edit, serving with the filter ``K8S_API_DOCS_ONLY=1.32`` (and again with
   ``K8S_API_DOCS_GROUPS=apps`` too): every page of the release changes.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path

import yaml
from measure import REPO, header, median

from generator.render.env import shipped_templates
from generator.sources.jsonschema_pkg import package_bytes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return ""


def wait_for(url: str, text: str, timeout: float = 300) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if text in fetch(url):
            return time.perf_counter() - start
        time.sleep(0.02)
    raise TimeoutError(f"{url} never showed {text!r}")


class Server:
    def __init__(self, tmp: Path, env: Mapping[str, str], templates: Path | None = None) -> None:
        self.tmp = tmp
        self.docs = tmp / "docs"
        if not self.docs.exists():
            shutil.copytree(REPO / "site_src", self.docs)
        self.spec = tmp / "defs-1.31.json"
        if not self.spec.exists():
            self.spec.write_bytes(package_bytes("1.31"))
        plugin = {"versions": [{"version": "1.31", "source": str(self.spec)}, {"version": "1.32"}],
                  "cache_dir": str(tmp / "cache")}
        if templates:
            plugin["templates"] = str(templates)
        config = {"INHERIT": str(REPO / "mkdocs.yml"), "docs_dir": str(self.docs),
                  "plugins": {"search": {}, "k8s-api-docs": plugin}}
        self.config = tmp / "mkdocs-serve.yml"
        self.config.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.log = (tmp / "serve.log").open("w")
        start = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "--dirty", "--livereload",
             "-a", f"127.0.0.1:{self.port}", "-f", str(self.config)],
            stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONUNBUFFERED": "1", **env})
        wait_for(self.base, "Kubernetes")
        self.first_build = time.perf_counter() - start
        self.cpu_seconds: list[float] = []
        """Server CPU seconds of each edit, from the write until the page showed it."""
        self.build_seconds: list[float] = []
        """MkDocs' own figure for the first rebuild after each edit ("Documentation built in
        …"): the rest of an edit's wall time is the watcher noticing the write (it polls every
        0.5 s and waits 0.1 s for more changes) and the page's request."""
        self.builds: list[int] = []
        """How many rebuilds the log had when each edit's page showed it (0: not logged yet)."""

    def edit(self, path: Path, change: Callable[[str], str], url: str, marker: str) -> float:
        text = path.read_text(encoding="utf-8")
        time.sleep(0.3)  # let the watcher settle after the previous build
        self.log.flush()
        logged = (self.tmp / "serve.log").stat().st_size
        cpu = self.cpu()
        path.write_text(change(text), encoding="utf-8")
        seconds = wait_for(self.base + url, marker)
        self.cpu_seconds.append(self.cpu() - cpu)
        with (self.tmp / "serve.log").open("rb") as log:
            log.seek(logged)
            built = re.findall(r"Documentation built in ([0-9.]+) seconds",
                               log.read().decode("utf-8", "replace"))
        self.build_seconds.append(float(built[0]) if built else float("nan"))
        self.builds.append(len(built))
        return seconds

    def cpu(self) -> float:
        """CPU seconds (user + system) the server has used so far (Linux ``/proc``)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()


def edit_spec(marker: str, field: bool = False) -> Callable[[str], str]:
    """Edit Overhead's description (also shown on index pages), or with ``field`` the
    description of its field ``podFixed`` (the model page, its referrers and 1.32 counterpart)."""
    def change(text: str) -> str:
        document = json.loads(text)
        overhead = document["$defs"]["io.k8s.api.node.v1.Overhead"]
        if field:
            overhead["properties"]["podFixed"]["description"] = f"podFixed {marker}."
        else:
            overhead["description"] = f"Overhead {marker}."
        return json.dumps(document)
    return change


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spec-only", action="store_true",
                        help="only the spec and hand-written page edits (no template servers)")
    args = parser.parse_args()
    header(f"mkdocs serve --dirty, median of {args.runs} edits")
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as name:
        tmp = Path(name)
        server = Server(tmp / "default", {})
        print(f"first build (default site, full): {server.first_build:.1f} s")
        try:
            spec = [server.edit(server.spec, edit_spec(f"specedit{i}"), "1.31/node/v1/overhead/",
                                f"specedit{i}") for i in range(args.runs)]
            page = [server.edit(server.docs / "index.md", lambda t, i=i: t + f"\npageedit{i}\n", "",
                                f"pageedit{i}") for i in range(args.runs)]
            again = [server.edit(server.spec, edit_spec(f"specagain{i}"), "1.31/node/v1/overhead/",
                                 f"specagain{i}") for i in range(args.runs)]
            fields = [server.edit(server.spec, edit_spec(f"fieldedit{i}", field=True),
                                  "1.31/node/v1/overhead/", f"fieldedit{i}") for i in range(args.runs)]
        finally:
            server.stop()
        n = args.runs
        cpu, built = server.cpu_seconds, server.build_seconds
        for label, times, part in (("spec field edit", spec + again, [*range(n), *range(2 * n, 3 * n)]),
                                   ("spec field description edit", fields, range(3 * n, 4 * n)),
                                   ("hand-written page edit", page, range(n, 2 * n))):
            print(f"{label} → reload: median {median(times):.2f} s "
                  f"({', '.join(f'{x:.2f}' for x in times)}); server CPU median "
                  f"{median([cpu[i] for i in part]):.2f} s; rebuild (MkDocs' figure) median "
                  f"{median([built[i] for i in part if server.builds[i]]):.2f} s; rebuilds logged "
                  f"{[server.builds[i] for i in part]}")
        if args.spec_only:
            return
        templates = tmp / "templates"
        (templates / "pages").mkdir(parents=True)
        model = templates / "pages" / "model.md.j2"
        model.write_text((shipped_templates() / "pages" / "model.md.j2").read_text(encoding="utf-8"),
                         encoding="utf-8")
        for label, env, url in (
                ("K8S_API_DOCS_ONLY=1.32", {"K8S_API_DOCS_ONLY": "1.32"}, "1.32/apps/v1/deployment/"),
                ("K8S_API_DOCS_ONLY=1.32 K8S_API_DOCS_GROUPS=apps",
                 {"K8S_API_DOCS_ONLY": "1.32", "K8S_API_DOCS_GROUPS": "apps"}, "1.32/apps/v1/deployment/")):
            server = Server(tmp / label.replace(" ", "_"), env, templates)
            try:
                markers = [f"templateedit{i}{label[-4:]}" for i in range(args.runs)]
                times = [server.edit(model, lambda t, m=m: t + f"\n{m}\n", url, m) for m in markers]
            finally:
                server.stop()
            print(f"template edit with {label} (first build {server.first_build:.1f} s) → reload: "
                  f"median {median(times):.2f} s ({', '.join(f'{x:.2f}' for x in times)})")


if __name__ == "__main__":
    main()
