"""Install what some tests need beyond the Python extras (idempotent, quiet when done).

Each part is added by the feature that needs it; see the functions below.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CLIENTS_DIR = REPO / ".cache" / "clients"
MACHINE_CLIENTS = Path(os.environ.get("K8S_API_DOCS_CLIENTS",
                                      Path.home() / ".cache" / "k8s-api-docs" / "clients"))
"""Where a checkout's ``.cache/clients`` points when it has none yet: the client venvs are the
same for every checkout of this machine (each is kept only while its ``installed.txt`` names its
pin), so a fresh clone (CI's) reuses them instead of installing 13 venvs again."""
KUBERNETES_CLIENTS = {
    "1.25": "25.3.0", "1.26": "26.1.0", "1.27": "27.2.0", "1.28": "28.1.0", "1.29": "29.0.0",
    "1.30": "30.1.0", "1.31": "31.0.0", "1.32": "32.0.1", "1.33": "33.1.0", "1.34": "34.1.0",
    "1.35": "35.0.0", "1.36": "36.0.3", "1.37": "37.0.2",
}
"""Kubernetes release → the official Python client generated from its spec (PyPI ``kubernetes``
major N is Kubernetes 1.N; the newest patch of each major, per ``pip index versions kubernetes``)."""


def client_python(release: str) -> Path:
    """The interpreter of the venv that holds the Python client of ``release``."""
    major = KUBERNETES_CLIENTS[release].split(".")[0]
    return CLIENTS_DIR / major / "bin" / "python"


def install_kubernetes_clients() -> None:
    """One venv per client release under ``.cache/clients/<major>/`` (examples, python names;
    a link to ``MACHINE_CLIENTS`` in a checkout that has none); a venv whose ``installed.txt``
    names its pin is kept, so CI installs each client once. Each venv
    gets no pip of its own: this interpreter's pip installs into it (``pip --python``). The venvs
    are made four at a time (each install mostly waits on downloads and unpacking)."""
    if not CLIENTS_DIR.exists() and not CLIENTS_DIR.is_symlink():
        MACHINE_CLIENTS.mkdir(parents=True, exist_ok=True)
        CLIENTS_DIR.parent.mkdir(parents=True, exist_ok=True)
        CLIENTS_DIR.symlink_to(MACHINE_CLIENTS, target_is_directory=True)
    missing = []
    for release, pin in KUBERNETES_CLIENTS.items():
        python = client_python(release)
        marker = python.parent.parent / "installed.txt"
        if not (marker.is_file() and marker.read_text() == pin and python.exists()):
            missing.append((python, pin))
    with ThreadPoolExecutor(max_workers=4) as pool:
        for done in [pool.submit(_install_client, python, pin) for python, pin in missing]:
            done.result()  # the first failure raises


def _install_client(python: Path, pin: str) -> None:
    venv = python.parent.parent
    subprocess.run([sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                    "--disable-pip-version-check", f"kubernetes=={pin}"], check=True)
    (venv / "installed.txt").write_text(pin)


HISTORY_PACKAGE = "kubernetes-validate==1.24.1"
"""The package whose data holds the JSON schemas of Kubernetes 1.10-1.24: what
``scripts/history_data.py`` makes ``generator/sources/history.json.gz`` from (it cannot be
installed beside the newer kubernetes-validate, so its file is only downloaded)."""
HISTORY_DIR = REPO / ".cache" / "history"


def history_package() -> Path | None:
    """The downloaded file of ``HISTORY_PACKAGE`` in ``HISTORY_DIR`` (None: not downloaded)."""
    name, _, version = HISTORY_PACKAGE.partition("==")
    found = sorted(p for p in HISTORY_DIR.glob(f"{name.replace('-', '?')}-{version}*")
                   if p.suffix in (".gz", ".whl"))
    return found[0] if found else None


def download_history_package() -> None:
    """``pip download --no-deps kubernetes-validate==1.24.1`` into ``.cache/history`` (once)."""
    if history_package() is not None:
        return
    HISTORY_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                    "--no-deps", "--no-binary", ":all:", "-d", str(HISTORY_DIR), HISTORY_PACKAGE],
                   check=True)


CHROMIUM = Path("/usr/bin/chromium")
"""The Debian browser the browser test drives (Playwright's own download is not used)."""
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def ensure_chromium() -> None:
    """Debian ``chromium`` + ``chromium-driver`` (as root, via apt) and PyPI ``playwright``."""
    if importlib.util.find_spec("playwright") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "playwright>=1.45"], check=True)
    if CHROMIUM.exists() and CHROMEDRIVER.exists():
        return
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        print(f"setup_extras: {CHROMIUM} missing and apt-get unavailable (or not root); "
              "the browser test will be skipped outside CI", file=sys.stderr)
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([apt, "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run([apt, "install", "-y", "-qq", "--no-install-recommends", "chromium",
                    "chromium-driver"], check=True, env=env, stdout=subprocess.DEVNULL)


def ensure_zensical() -> None:
    """Zensical from PyPI (the extra ``k8s-api-docs[zensical]``): ``build-site --builder
    zensical`` is tested with it (tests/test_zensical.py)."""
    if importlib.util.find_spec("zensical") is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        "zensical>=0.0.70"], check=True)


NPM_DIR = REPO / ".cache" / "npm"
AXE_CORE = "4.14.1"
"""axe-core (npm) that tests/test_site_browser.py injects into pages to check accessibility."""
AXE_JS = NPM_DIR / "node_modules" / "axe-core" / "axe.min.js"


def ensure_axe_core() -> None:
    """``axe-core`` from the npm registry into ``.cache/npm``; Debian's ``npm`` first (as root, via
    apt) when it is missing."""
    package = AXE_JS.parent / "package.json"
    if AXE_JS.is_file() and package.is_file() and f'"version": "{AXE_CORE}"' in package.read_text():
        return
    npm = shutil.which("npm")
    apt = shutil.which("apt-get")
    if npm is None and apt is not None and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run([apt, "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
        subprocess.run([apt, "install", "-y", "-qq", "--no-install-recommends", "npm"], check=True,
                       env=env, stdout=subprocess.DEVNULL)
        npm = shutil.which("npm")
    if npm is None:
        print("setup_extras: npm missing; the accessibility test will be skipped outside CI",
              file=sys.stderr)
        return
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    subprocess.run([npm, "install", "--prefix", str(NPM_DIR), "--no-audit", "--no-fund",
                    "--no-save", "--silent", f"axe-core@{AXE_CORE}"], check=True)


def main() -> None:
    ensure_chromium()
    ensure_zensical()
    ensure_axe_core()
    install_kubernetes_clients()
    download_history_package()


if __name__ == "__main__":
    main()
