#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Installs the package with its test extras at the exact versions of constraints.txt, the
# per-release Kubernetes Python clients (own venvs) and, where possible, Chromium for the browser
# test; then ruff, mypy and pytest (arguments go to pytest, e.g. the unit tier:
# tests/run.sh -m "not integration and not slow and not browser").
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PY=${PYTHON:-python3}

"$PY" -m pip install -q -c constraints.txt -e '.[test]'
"$PY" tests/setup_extras.py
"$PY" -m ruff check generator tests benchmarks scripts
"$PY" -m mypy
"$PY" -m pytest --durations=25 "$@"
