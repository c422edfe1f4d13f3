"""The one way files and directories are put in place: a reader sees the old or the new content,
never half of it, and a process killed at any instant leaves one of them.

Standard library only and nothing of ours, so every layer that keeps files may use it (the
download cache of ``sources`` too; ``tests/architecture.py`` allows exactly this module there).
``ctypes``, ``shutil`` and ``tempfile`` are imported when first needed: commands that read
sources and write nothing (``diff``) do not pay for them.
"""

from __future__ import annotations

import os
from pathlib import Path

_RENAME_EXCHANGE = 2
"""``renameat2`` flag: swap two paths in one step (Linux 3.15+, glibc 2.28+)."""
_AT_FDCWD = -100


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` (``str``: UTF-8, newlines as given) to ``path`` through a temporary
    sibling and a rename; on any error the temporary file is removed and ``path`` is untouched."""
    import tempfile

    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _exchange(a: Path, b: Path) -> bool:
    """Swap ``a`` and ``b`` atomically; False where the system cannot."""
    import ctypes
    import ctypes.util

    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    try:
        renameat2 = ctypes.CDLL(libc_name, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    errno = ctypes.get_errno()
    if errno in (38, 22, 95):  # ENOSYS, EINVAL, EOPNOTSUPP: not here (kernel, file system)
        return False
    raise OSError(errno, os.strerror(errno), str(b))


def swap_dir(staging: Path, target: Path) -> None:
    """Put the fully built ``staging`` directory at ``target``, replacing what was there. Where
    the system can (Linux), one atomic exchange: ``target`` never goes missing, not even for a
    process killed mid-swap; elsewhere two renames."""
    import shutil
    import tempfile

    if not target.exists():
        os.replace(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the old tree
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.replace(target, old / "tree")
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)
