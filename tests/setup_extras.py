"""Install what some tests need beyond the Python extras (idempotent, quiet when done).

Each part is added by the feature that needs it; see the functions below.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLIENTS_DIR = REPO / ".cache" / "clients"
KUBERNETES_CLIENTS = {"1.31": "31.0.0", "1.32": "32.0.1"}
"""Kubernetes release → the official Python client release generated from its spec."""


def client_python(release: str) -> Path:
    """The interpreter of the venv that holds the Python client of ``release``."""
    major = KUBERNETES_CLIENTS[release].split(".")[0]
    return CLIENTS_DIR / major / "bin" / "python"


def install_kubernetes_clients() -> None:
    """One venv per client release under ``.cache/clients/<major>/`` (examples, python names)."""
    for release, pin in KUBERNETES_CLIENTS.items():
        python = client_python(release)
        venv = python.parent.parent
        marker = venv / "installed.txt"
        if marker.is_file() and marker.read_text() == pin and python.exists():
            continue
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        f"kubernetes=={pin}"], check=True)
        marker.write_text(pin)


def main() -> None:
    install_kubernetes_clients()


if __name__ == "__main__":
    main()
