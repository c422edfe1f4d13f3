"""Entry point of a process of ours: ``python -m generator`` and the ``k8s-api-docs`` command
(``run``). What only such a process may decide for itself happens here, before anything is
imported: which SHA-256 it hashes with (``builtin_hashes``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

OWN_CODE_ONLY = frozenset({"generate", "export", "diff", "check", "explain", "scan", "completion"})
"""Commands that run none of the user's Python code (``build-site`` and ``assemble`` run MkDocs
and its plugins, which may ask ``hashlib`` for what only OpenSSL has)."""


def builtin_hashes(argv: Sequence[str]) -> bool:
    """Make ``hashlib`` use Python's built-in SHA-256 instead of OpenSSL's (it does when
    ``_hashlib`` cannot be imported); whether it was done. OpenSSL's library is ~3.5 MB of
    resident pages in every process that imports ``hashlib`` (Jinja does), while a command hashes
    its inputs once (the built-in hash is ~4 ms a MB slower). Only for ``OWN_CODE_ONLY``
    commands, only before ``hashlib`` is imported, and only where the built-in module exists."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)
    if command not in OWN_CODE_ONLY or "hashlib" in sys.modules or "_hashlib" in sys.modules:
        return False
    from importlib.util import find_spec

    if not any(find_spec(name) for name in ("_sha2", "_sha256")):  # 3.12+, 3.11
        return False
    sys.modules["_hashlib"] = None  # type: ignore[assignment]  # import _hashlib: ImportError
    return True


def run() -> NoReturn:
    """The process's command line."""
    builtin_hashes(sys.argv[1:])
    from generator.cli import main

    raise SystemExit(main())


if __name__ == "__main__":
    run()
