"""Writing output files: regular files atomically, anything else as a stream.

A regular file (new or existing) is written to a temporary file in the same
directory, then renamed over it: an interrupted or failed write never leaves
a truncated file behind, a reader never sees a half-written one, and an
existing file keeps its permissions.  Anything that is not a regular file
(a device such as /dev/null, a FIFO, /dev/stdout on a pipe, ``-`` for
standard output) is written in place as a stream and never renamed over:
replacing /dev/null with a file would break the machine.
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from contextlib import suppress
from collections.abc import Callable
from pathlib import Path

from . import scratch
from .errors import InvalidInputError, NQueensError

STDOUT = "-"  # the output path that means standard output


def is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is written in place: ``-``, anything under /dev or
    /proc, or an existing device, FIFO or socket."""
    if str(path) == STDOUT:
        return True
    if os.path.abspath(path).startswith(("/dev/", "/proc/")):
        return True  # a device or an open descriptor (/dev/stdout into a file too): never renamed over
    try:
        mode = os.stat(path).st_mode  # (follows links: /dev/stdout -> the pipe)
    except (FileNotFoundError, NotADirectoryError):  # (under a regular file: said as a usage error by the caller)
        return False
    except OSError as error:  # a symlink loop, a name too long...
        raise NQueensError(f"cannot write {path}: {error.strerror or error}") from None
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def atomic_write(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """Call ``write(temporary_path)``, then put the result at ``path``: renamed
    over a regular file (a symlink is followed: the file it points to is
    replaced, the link stays), copied as a stream into anything else."""
    if is_stream(path):
        _write_stream(path, write)
        return
    target = Path(os.path.realpath(path))
    directory = target.parent if str(target.parent) else Path(".")
    mode = None
    if target.exists():
        if not os.access(target, os.W_OK):
            raise NQueensError(f"cannot write {path}: permission denied")
        mode = stat.S_IMODE(os.stat(target).st_mode)
    try:
        # The temporary name keeps the target's extension: some writers
        # (OR-Tools' model export) choose the format by it.
        # (its owner in its name: one a killed run left is removed by the next write there, .scratch)
        prefix = f".{target.name}."
        fd, temporary = tempfile.mkstemp(prefix=scratch.tagged(prefix), suffix=f".tmp{target.suffix}",
                                         dir=scratch.swept(prefix, directory))
    except OSError as error:
        raise NQueensError(f"cannot write {target}: {error.strerror or error}") from None
    try:
        os.close(fd)
        write(temporary)
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask  # mkstemp makes 0600; give what open() would
        os.chmod(temporary, mode)
        with open(temporary, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException as error:  # (SIGTERM too: the CLI turns it into an exception)
        with suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise NQueensError(f"cannot write {target}: {error.strerror or error}") from None
        raise


def _write_stream(path: str | os.PathLike[str], write: Callable[[str], None]) -> None:
    """``write`` straight into a device or FIFO by its name, in place, as it
    goes; for ``-``, into a scratch file whose bytes then go to stdout (a
    writer opens what it writes by name)."""
    try:
        if str(path) != STDOUT:
            write(str(path))
            return
        with scratch.folder("nqueens-stdout-") as folder:
            temporary = os.path.join(folder, "out")
            write(temporary)
            with open(temporary, "rb") as source:
                sys.stdout.flush()
                shutil.copyfileobj(source, sys.stdout.buffer)
                sys.stdout.buffer.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise NQueensError(f"cannot write {path}: {error.strerror or error}") from None


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="ascii", newline="\n") as handle:
            handle.write(text)

    atomic_write(path, write)


def check_regular(path: str, what: str) -> None:
    """Refuse an existing ``path`` that is not a regular file (a FIFO with no
    writer would block the read for ever), naming ``what`` it was given as."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # (missing: created, or reported where it is read)
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise InvalidInputError(f"{path}: {what} must be a regular file, and this is {kind}")


def check_not_input(output: str, *inputs: str | None) -> None:
    """Refuse an output that is one of the command's inputs: it would be overwritten with
    what was read from it (dimacs same.param -D 8 -o same.param replaced the instance)."""
    for source in inputs:
        if source is not None and not is_stream(output) and os.path.exists(output) and os.path.exists(source) \
                and os.path.samefile(output, source):
            raise InvalidInputError(f"cannot write {output}: it is the input {source}; name another file")


def check_room(path: str, size: int, what: str) -> None:
    """Refuse, before any work, a file of about ``size`` bytes where its disk has
    less room (``dimacs 1000000 -o f`` said "about 19999976000 GB" and began to
    write); a stream (stdout, a device) is not asked."""
    import shutil

    if is_stream(path):
        return
    folder = os.path.dirname(os.path.realpath(path)) or "."
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return  # (no answer: the write itself will say)
    if size > free:
        raise InvalidInputError(f"cannot write {path}: {what} is about {_bytes(size)}, and its disk has "
                                f"{_bytes(free)} free")


def _bytes(size: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if size < 1000 or unit == "PB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1000
    return f"{size:,.1f} PB"


def check_writable(*paths: str) -> None:
    """Refuse output paths that cannot be written, before any work."""
    for path in paths:
        _check_writable(path)


def _check_writable(path: str) -> None:
    if is_stream(path):
        if str(path) != STDOUT and not os.path.exists(path):  # (written in place: it must be there)
            raise InvalidInputError(f"cannot write {path}: there is no such device or file (nothing is made "
                                    "under /dev or /proc)")
        return
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise InvalidInputError(f"cannot write {path}: it is a directory")
    directory = target.parent
    if not directory.is_dir():
        raise InvalidInputError(f"cannot write {path}: no directory {directory}")
    if not os.access(directory, os.W_OK):
        raise InvalidInputError(f"cannot write {path}: the directory {directory} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise InvalidInputError(f"cannot write {path}: permission denied")
    if not target.exists() or target.is_file():
        # Where a file would be made, make one: access() answers yes for root in /proc and
        # on a read-only mount, where every write then fails (exit 1 after the work).
        import tempfile

        try:
            handle, probe = tempfile.mkstemp(dir=directory, prefix=".nqueens-probe-")
        except OSError as error:
            raise InvalidInputError(f"cannot write {path}: {error.strerror or error}") from None
        os.close(handle)
        os.unlink(probe)
