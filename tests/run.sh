#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Installs the package with its test extras at the exact versions of constraints.txt, then
# tests/setup_extras.py: the per-release Kubernetes Python clients (own venvs), Zensical and, as
# root through apt when missing, Debian's chromium + chromium-driver (browser tests) and npm (to
# install axe-core for the accessibility test); then ruff, mypy and pytest (arguments go to
# pytest, e.g. the unit tier: tests/run.sh -m "not integration and not slow and not browser").
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PY=${PYTHON:-python3}

"$PY" -m pip install -q -c constraints.txt -e '.[test]'
"$PY" tests/setup_extras.py
"$PY" -m ruff check generator tests benchmarks scripts
"$PY" -m mypy
# Two worker processes (pytest-xdist; PYTEST_WORKERS to change, 0 for none); --dist loadgroup with
# the groups tests/conftest.py gives (a test module's tests in one worker, so its module fixtures
# are built once; the CRD corpus sets apart); whole-site session fixtures are built once for all
# workers (tests/helpers/shared_build.py).
"$PY" -m pytest -n "${PYTEST_WORKERS:-2}" --dist loadgroup --durations=25 "$@"
