#!/usr/bin/env bash
# The test command (README "Run the tests"; .ci/run calls exactly this).
# Installs the test extras, the per-release Kubernetes Python clients (own venvs) and, where
# possible, Chromium for the browser test; then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PY=${PYTHON:-python3}

"$PY" -m pip install -q -e '.[test]'
"$PY" tests/setup_extras.py
"$PY" -m ruff check generator tests benchmarks
"$PY" -m pytest "$@"
