"""The one way files and directories are put in place: a reader sees the old or the new content,
never half of it, and a process killed at any instant leaves one of them.

Standard library only and nothing of ours, so every layer that keeps files may use it (the
download cache of ``sources`` too; ``tests/architecture.py`` allows exactly this module there).
``ctypes`` and ``shutil`` are imported when first needed: commands that read sources and write
nothing (``diff``) do not pay for them.

Files and directories are created as ``open()`` and ``mkdir()`` create them: mode 0666 / 0777 less
the process umask (0644 / 0755 under umask 022), never the owner-only modes of ``tempfile``, so a
web server running as another user can serve what was written.
"""

from __future__ import annotations

import os
from pathlib import Path

_RENAME_EXCHANGE = 2
"""``renameat2`` flag: swap two paths in one step (Linux 3.15+, glibc 2.28+)."""
_AT_FDCWD = -100
_ATTEMPTS = 100
"""Names tried for a temporary file or directory before giving up (as ``tempfile`` does)."""


def _temp_name(directory: Path, prefix: str) -> Path:
    return directory / f"{prefix}{os.urandom(6).hex()}"


def _temp_file(directory: Path, prefix: str) -> tuple[int, Path]:
    """A new file in ``directory`` opened for writing, created with mode 0666 less the umask (the
    kernel applies it, as for ``open()``; ``tempfile.mkstemp`` would make it 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        path = _temp_name(directory, prefix)
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


def temp_dir(directory: Path, prefix: str) -> Path:
    """A new empty directory in ``directory``, created with mode 0777 less the umask (as
    ``mkdir``; ``tempfile.mkdtemp`` would make it 0700): a staging directory that is later
    renamed into place keeps its mode."""
    for _ in range(_ATTEMPTS):
        path = _temp_name(directory, prefix)
        try:
            path.mkdir(0o777)
            return path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {directory}")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` (``str``: UTF-8, newlines as given) to ``path`` through a temporary
    sibling and a rename; on any error the temporary file is removed and ``path`` is untouched.
    The file gets the mode ``open()`` would give a new file (0666 less the umask)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temp_file(path.parent, ".tmp-")
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

    if not target.exists():
        os.replace(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging, ignore_errors=True)  # now holds the old tree
        return
    old = temp_dir(target.parent, f".{target.name}.old-")
    os.replace(target, old / "tree")
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)
