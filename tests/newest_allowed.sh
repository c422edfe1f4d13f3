#!/usr/bin/env bash
# The accelerators' byte-equality tests (generator/mkdocs/accelerators.py) with the newest
# MkDocs, Material and Jinja2 pyproject.toml allows (not constraints.txt), in a venv of its own:
# CI runs it beside tests/run.sh, so a Material release inside the pins that the accelerators
# do not follow fails here, not on a user's machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_MKDOCS_2_WARNING=1 PIP_DISABLE_PIP_VERSION_CHECK=1
PY=${PYTHON:-python3}
# The venv is the machine's (kept between checkouts, upgraded eagerly each run: only what changed
# is installed again); NEWEST_VENV to put it elsewhere.
VENV=${NEWEST_VENV:-$HOME/.cache/k8s-api-docs/newest-allowed}

"$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade --upgrade-strategy eager -e '.[test]'
"$VENV/bin/python" -m pip list 2>/dev/null | grep -iE '^(mkdocs|mkdocs-material|jinja2|markdown) '
# The matrix's integration-tier configurations here (the full matrix runs in tests/run.sh with the
# pinned versions): the accelerators' probes against the newest theme, in two worker processes.
"$VENV/bin/python" -m pytest -q -p no:cacheprovider -n 2 --dist loadgroup tests/test_nav_cache.py \
  tests/test_headings_page.py tests/test_accelerators.py tests/test_search_sections.py \
  tests/test_config_matrix.py -m "not slow" "$@"
