"""Talk to the official Kubernetes Python clients, each in its own venv (one subprocess per call)."""

from __future__ import annotations

import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setup_extras import KUBERNETES_CLIENTS, client_python, install_kubernetes_clients

PROBE = Path(__file__).resolve().parent / "client_probe.py"
RELEASES = tuple(KUBERNETES_CLIENTS)


def probe(release: str, command: str, payload: Any = None) -> Any:
    """Run ``client_probe.py command`` under the client of ``release``; installs it when missing."""
    python = client_python(release)
    if not python.exists():
        install_kubernetes_clients()
    result = subprocess.run(
        [str(python), str(PROBE), command], input=json.dumps(payload), capture_output=True,
        text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def probe_all(releases: tuple[str, ...], command: str) -> dict[str, Any]:
    """``probe`` of every release, as many at once as there are cores (each is a subprocess that
    mostly imports its client); missing clients are installed first, once."""
    if not all(client_python(r).exists() for r in releases):
        install_kubernetes_clients()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(releases, pool.map(lambda r: probe(r, command), releases), strict=True))
