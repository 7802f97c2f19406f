"""Writing files atomically: a temporary file in the same directory, then a rename.

An interrupted or failed write never leaves a truncated file behind, and a
reader never sees a half-written one.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import suppress
from collections.abc import Callable
from pathlib import Path

from .errors import InvalidInputError, NQueensError


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call ``write(temporary_path)``, then move the result onto ``path``.

    A symlink is followed: the file it points to is replaced, the link stays."""
    target = Path(os.path.realpath(path))
    directory = target.parent if str(target.parent) else Path(".")
    try:
        # The temporary name keeps the target's extension: some writers
        # (OR-Tools' model export) choose the format by it.
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=f".tmp{target.suffix}", dir=directory)
    except OSError as error:
        raise NQueensError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        os.close(fd)
        write(temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes 0600; give what open() would
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise NQueensError(f"cannot write {target}: {error.strerror or error}") from None
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="ascii", newline="\n") as handle:
            handle.write(text)

    atomic_write(path, write)


def check_writable(*paths: str) -> None:
    """Refuse output paths that cannot be written, before any work."""
    for path in paths:
        _check_writable(path)


def _check_writable(path: str) -> None:
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise InvalidInputError(f"cannot write {path}: it is a directory")
    directory = target.parent
    if not directory.is_dir():
        raise InvalidInputError(f"cannot write {path}: no directory {directory}")
    if not os.access(directory, os.W_OK):
        raise InvalidInputError(f"cannot write {path}: the directory {directory} is not writable")
