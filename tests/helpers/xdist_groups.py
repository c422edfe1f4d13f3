"""Which tests one pytest-xdist worker runs together (``tests/run.sh``: ``-n 2 --dist
loadgroup``; ``tests/conftest.py`` gives every test its group)."""

from __future__ import annotations

import pytest

SPLIT_BY_PARAMETER = {"tests/test_crd_corpus_pages.py": ("name", "argo-cd"),
                      "tests/test_nav_cache.py": ("sites", "combined")}
"""Modules whose tests build a site (or two) per value of a parameter: one xdist group per value
of the named parameter (tests without it join the group of the given value): a CRD set, a
navigation layout."""


def xdist_group(item: pytest.Item) -> str:
    """The tests one pytest-xdist worker runs together (``tests/run.sh``: ``--dist loadgroup``):
    a module's tests, so that its module-scoped fixtures are made once; in the modules of
    ``SPLIT_BY_PARAMETER``, the tests of one parameter value (one CRD set's build, one layout's)."""
    module = item.nodeid.split("::", 1)[0]
    split = next((v for k, v in SPLIT_BY_PARAMETER.items() if module.endswith(k)), None)
    if split is None:
        return module
    callspec = getattr(item, "callspec", None)
    return f"{module}::{callspec.params.get(split[0], split[1]) if callspec else split[1]}"
