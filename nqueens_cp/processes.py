"""Running a program in a session of its own, and ending it with everything it started.

A solver's program (MiniZinc and the Gecode it starts, a model counter) and
a user's model (:mod:`nqueens_cp.checking.isolate`) run in a session of their
own, so that a Ctrl-C at the terminal is this process's alone to handle,
and this process ends them on every exit it lives through (and its
watchdog, :func:`nqueens_cp.stopping.watchdog`, on one it does not).  This
module is the one place that knows how: the processes of a session, of an
environment marker, killed and waited for until they are gone; the run's
own temporary folder, named before it exists.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import subprocess

    from .stopping import Watchdog

GONE_SECONDS = 10.0  # for killed processes to end (a SIGKILL; a bound, not a wait)


def in_session(session: int) -> list[int]:
    """The processes of a session (Linux's /proc: field 6 of /proc/PID/stat)."""
    found = []
    for name in _pids():
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # (gone meanwhile)
        if len(fields) > 3 and fields[3] == str(session):
            found.append(int(name))
    return found


def marked(marker: str, prefix: bool = False) -> list[int]:
    """The processes whose environment holds ``marker`` (``NAME=VALUE``; with
    ``prefix``, an entry that starts so): what a sandbox started, also what left its session (setsid) or its group, since
    a child inherits its parent's environment.  (This user's processes only:
    /proc/PID/environ of another's cannot be read.)"""
    wanted = marker.encode("utf-8", "surrogateescape")
    found = []
    match = (lambda entries: any(entry.startswith(wanted) for entry in entries)) if prefix else \
        (lambda entries: wanted in entries)
    for name in _pids():
        if int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                entries = handle.read().split(b"\0")
        except OSError:
            continue
        if match(entries):
            found.append(int(name))
    return found


def _pids() -> Iterable[str]:
    return (name for name in (os.listdir("/proc") if os.path.isdir("/proc") else ()) if name.isdigit())


def kill_all(pids: Iterable[int], seconds: float = GONE_SECONDS) -> None:
    """SIGKILL each process and wait until each has ended (at most ``seconds`` in all)."""
    pids = list(pids)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    wait_gone(pids, seconds)


def kill(process: subprocess.Popen) -> None:
    """A program and whatever it started, gone when this returns.  MiniZinc puts
    the solver (fzn-gecode) in a process group of its own, so killing MiniZinc's
    group left Gecode running; both stay in the session MiniZinc was started in,
    so every process of that session is killed.  A kill is delivered when the
    process next runs, which on a busy machine can be a while after the worker
    that sent it has exited: the worker waits for each to end (its exit, not a
    moment: a pidfd becomes readable when the process is gone)."""
    kill_all([process.pid, *in_session(process.pid)])


def wait_gone(pids: list[int], seconds: float) -> None:
    """Wait until each process has ended (at most ``seconds`` in all).  A
    child of this process is gone once reaped: waiting for it is its parent's."""
    import select

    if not hasattr(os, "pidfd_open"):
        return
    deadline = time.monotonic() + seconds
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except OSError:  # (gone already)
            continue
        try:
            select.select([handle], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(handle)


def make_folder(path: str) -> None:
    os.mkdir(path, 0o700)  # (readable by this user only, as tempfile.mkdtemp's)


@contextmanager
def own_folder(started: dict[str, Any], guard: Watchdog, prefix: str) -> Iterator[str]:
    """A temporary folder for one run, removed however the run ends (by
    ``guard``'s watchdog if this process dies).  Its name is in ``started``
    before the folder exists, so a stop at any moment (a KeyboardInterrupt
    here, or a pool's SIGTERM, whose clean-up is :func:`stop`) finds it.
    With TemporaryDirectory a stop just after the folder was made and before
    its name was kept left it behind, empty (the suite's leftover check
    caught one); holding the signals while it is made does not do, as
    another thread may take them."""
    import shutil

    from . import scratch

    try:
        name = started["folder"] = scratch.name(prefix)
        guard.folder(name)
        try:
            make_folder(name)
        except FileExistsError:
            del started["folder"]  # another's (64 random bits alike): never removed here
            raise
        yield name
    finally:
        if "folder" in started:
            shutil.rmtree(started.pop("folder"), ignore_errors=True)


def stop(started: dict[str, Any]) -> None:
    """A worker stopped by its pool at any point of a run (nqueens_cp.stopping): no
    program left running, no folder left behind."""
    if "process" in started:
        kill(started["process"])
    if "folder" in started:
        import shutil

        shutil.rmtree(started["folder"], ignore_errors=True)
