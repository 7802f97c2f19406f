"""Scratch folders that name their owner, so that one left by a killed run is
removed by the next.

A run that is killed outright (SIGKILL, the machine's out-of-memory killer, a
crash in native code) removes nothing: its folders stay.  The long-lived ones
(a certificate's ``.D.partial-*``, a local Dask cluster's scratch, MiniZinc's
and the model counter's) are also told to the watchdog
(:func:`nqueens_cp.stopping.watchdog`), which removes them at once.  Every
scratch folder (and an atomic write's temporary file, :mod:`nqueens_cp.files`)
is made here with its owner in its name, ``PREFIX{pid}@{host}-{random}``; the
first one of a kind a process makes in a place removes those of that kind
there whose owner is gone (on this host, this user's): nothing of a killed
run outlives the next run of its kind.  A folder another host made (a shared file system) or a live process
owns is never touched, and a process that reuses a dead one's pid only keeps
that folder a while longer.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

_swept: set[tuple[str, str]] = set()  # (place, prefix) swept by this process


@functools.cache
def _host() -> str:
    import socket  # (here and below: imported when a folder is made, not at the package's start-up)

    return re.sub(r"[^A-Za-z0-9.]", "", socket.gethostname())[:40] or "host"


def tagged(prefix: str) -> str:
    """``prefix`` with this process as its owner: ``PREFIX{pid}@{host}-``."""
    return f"{prefix}{os.getpid()}@{_host()}-"


def swept(prefix: str, place: str | os.PathLike[str] | None = None) -> str:
    """``place`` (default: the temporary folder), its stale entries of ``prefix``
    removed first, once a process."""
    import tempfile

    where = os.fspath(place) if place is not None else tempfile.gettempdir()
    if (where, prefix) not in _swept:
        _swept.add((where, prefix))
        sweep(prefix, where)
    return where


def name(prefix: str, parent: str | os.PathLike[str] | None = None) -> str:
    """A new path ``parent/PREFIX{pid}@{host}-{random}`` (parent: the temporary
    folder), not yet made; the stale ones of ``prefix`` in ``parent`` removed
    first, once a process."""
    import secrets

    return os.path.join(swept(prefix, parent), tagged(prefix) + secrets.token_hex(6))


def make(prefix: str, parent: str | os.PathLike[str] | None = None,
         before: Callable[[str], object] | None = None) -> str:
    """A new folder named by :func:`name`, readable by this user only (as
    tempfile.mkdtemp's).  ``before`` (a watchdog's ``folder``) is told its
    path before it is made: told after, a SIGKILL between the two left the
    folder for good (a local Dask cluster's, once in a loaded run)."""
    while True:
        path = name(prefix, parent)
        if before is not None:
            before(path)
        try:
            os.mkdir(path, 0o700)
            return path
        except FileExistsError:  # (48 random bits alike: another name)
            continue


@contextmanager
def folder(prefix: str, parent: str | os.PathLike[str] | None = None,
           before: Callable[[str], object] | None = None) -> Iterator[str]:
    """A folder made by :func:`make` (``before`` as there), removed with everything in it however the block ends."""
    import shutil

    path = make(prefix, parent, before)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def owner(prefix: str, folder_name: str) -> tuple[int, str] | None:
    """(pid, host) read from a name :func:`name` made, else None."""
    if not folder_name.startswith(prefix):
        return None
    pid, at, rest = folder_name[len(prefix):].partition("@")
    host, dash, _ = rest.rpartition("-")
    if not (at and dash and pid.isdigit()):
        return None
    return int(pid), host


def sweep(prefix: str, place: str | os.PathLike[str]) -> list[str]:
    """Remove the folders (and files) of ``prefix`` in ``place`` that a process
    of this host and user made and that has ended; the paths removed."""
    import shutil

    removed: list[str] = []
    host, me = _host(), os.getuid() if hasattr(os, "getuid") else None
    try:
        entries = list(os.scandir(place))
    except OSError:
        return removed
    for entry in entries:
        made_by = owner(prefix, entry.name)
        if made_by is None or made_by[1] != host or _alive(made_by[0]):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if me is not None and info.st_uid != me:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            with suppress(OSError):
                os.unlink(entry.path)
        removed.append(entry.path)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # (on Windows os.kill(pid, 0) would end the process)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (PermissionError: another user's process, alive)
        return True
    return True
