"""Print ``constraints.txt``: the exact installed versions of this project's dependencies (those
``pyproject.toml`` lists, with the ``test`` and ``zensical`` extras) and of everything they
require, transitively."""

from __future__ import annotations

import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PROJECT = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
ROOTS = [Requirement(r).name for r in (*PROJECT["dependencies"],
                                       *PROJECT["optional-dependencies"]["test"],
                                       *PROJECT["optional-dependencies"]["zensical"])]
HEADER = """\
# Exact versions the test command installs (tests/run.sh: pip install -c constraints.txt).
# CI is reproducible with these; pyproject.toml's ranges say what users may install, and
# tests/newest_allowed.sh checks the accelerators against the newest Material those allow.
# Regenerate after a deliberate upgrade: python tests/constraints.py > constraints.txt"""


def closure(roots: list[str]) -> dict[str, str]:
    seen: dict[str, str] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[key] = f"{dist.metadata['Name']}=={dist.version}"
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


if __name__ == "__main__":
    print(HEADER)
    print("\n".join(sorted(closure(ROOTS).values(), key=str.lower)))
