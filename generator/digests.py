"""Content digests used to tell whether inputs changed (build manifests, generation memo)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def tree_digest(roots: Iterable[Path]) -> str:
    """sha256 over the relative paths and bytes of every file below ``roots`` (in order); a root
    may also be a single file; a missing root counts as empty."""
    digest = hashlib.sha256()
    for root in roots:
        digest.update(f"root\0{root.name}\n".encode())
        if root.is_dir():
            files = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
        else:
            files = [root] if root.is_file() else []
        for path in files:
            rel = path.relative_to(root).as_posix() if root.is_dir() else path.name
            digest.update(f"{rel}\0{hashlib.sha256(path.read_bytes()).hexdigest()}\n".encode())
    return digest.hexdigest()
