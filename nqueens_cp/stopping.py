"""What a worker process cleans up when its pool stops it (SIGTERM).

A pool stops its workers at once (Ctrl-C, ``| head``, a time limit), with
SIGTERM's default action: one in the compiled search could not run a Python
handler until its task ended.  A search that starts something the kernel
would not take away with the worker (a solver's child process, a temporary
folder) registers its clean-up for as long as it runs (:func:`registered`);
in a worker, SIGTERM then runs the clean-ups and exits (:func:`stop`).  In
any other process (the command line has its own SIGTERM handling) a
registration does nothing but keep a dict entry.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .errors import NQueensError

_CLEANUPS: dict[int, Callable[[], None]] = {}
_worker = False


def worker() -> None:
    """This process is a pool's worker (``execution.parallel.init_worker``)."""
    global _worker
    _worker = True


@contextmanager
def registered(cleanup: Callable[[], None]) -> Iterator[None]:
    """Run ``cleanup`` if this worker is stopped within the block."""
    key = id(cleanup)
    _CLEANUPS[key] = cleanup
    handle = _worker and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, stop) if handle else None
    try:
        yield
    finally:
        _CLEANUPS.pop(key, None)
        if handle:
            signal.signal(signal.SIGTERM, previous)


def stop(signum: int, frame: object) -> None:
    """SIGTERM in a worker with clean-ups registered: run them all, then exit."""
    for cleanup in list(_CLEANUPS.values()):
        try:
            cleanup()
        except Exception:  # noqa: BLE001 - the others still run, and the process exits anyway
            pass
    os._exit(128 + signum)


def die_with_parent(signum: int = signal.SIGKILL) -> None:
    """Ask Linux to kill this process (SIGKILL) when its parent dies, however it
    dies (SIGKILL included, which runs no clean-up): a child that searches in
    native code for its parent must not outlive it.  Elsewhere, nothing.
    (``signum``: another signal instead, one this process handles to clean up.)"""
    import sys

    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signum, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request: no signal will come
        if signum != signal.SIGKILL:
            os.kill(os.getpid(), signum)
        else:
            os._exit(128 + signal.SIGKILL)


def in_child(fn: Any, args: tuple[Any, ...], seconds: float | None) -> Any:
    """fn(*args) in a forked child process, or None once ``seconds`` pass (None: no
    limit).  The child is killed then, and when this process is stopped (Ctrl-C,
    SIGTERM: the wait here is interruptible, where a native solve is not), and
    when it dies (the child asks Linux for SIGKILL when its parent goes)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)

    def run() -> None:
        die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the parent decides: it kills this process)
        try:
            writer.send((True, fn(*args)))
        except BaseException as error:  # noqa: BLE001 - said to the parent, never a traceback here
            try:
                writer.send((False, error if isinstance(error, NQueensError) else NQueensError(
                    f"the solver's process failed: {type(error).__name__}: {error}")))
            finally:
                os._exit(1)

    child = context.Process(target=run, daemon=True)
    child.start()
    writer.close()  # (the child's copy is the only one: its end is seen as EOF)
    try:
        if not reader.poll(seconds):
            return None
        try:
            ok, value = reader.recv()
        except EOFError:
            raise NQueensError(f"the solver's process ended without an answer (exit {child.exitcode})") from None
        if not ok:
            raise value
        return value
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        reader.close()


# The watchdog's whole program (see :func:`watchdog`), run by ``python -I -S -c``:
# it reads its orders until its parent's end of the pipe closes.
_WATCHDOG = r"""
import os, shutil, signal, sys, time
sessions, folders, markers, done = [], [], [], False
pending = b""
while True:
    try:
        chunk = os.read(0, 4096)
    except InterruptedError:
        continue
    except OSError:
        break
    if not chunk:
        break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    for line in lines:
        order, _, value = line.decode("utf-8", "surrogateescape").partition(" ")
        if order == "session":
            sessions.append(int(value))
        elif order == "folder":
            folders.append(value)
        elif order == "marker":
            markers.append(value.encode("utf-8", "surrogateescape"))
        elif order == "done":
            done = True
if not done:
    for _ in range(2):  # (a process forking as it is killed: its child is caught by the second pass)
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    if os.getsid(int(name)) in sessions:
                        os.kill(int(name), signal.SIGKILL)
                        continue
                except OSError:
                    continue
                if markers:
                    try:
                        with open(f"/proc/{name}/environ", "rb") as handle:
                            entries = handle.read().split(b"\0")
                        if any(marker in entries for marker in markers):
                            os.kill(int(name), signal.SIGKILL)
                    except OSError:
                        pass
    # A folder is removed again while it is still there, a bounded while: a process that dies with its
    # parent (a Dask worker of a local cluster) may still write in it as the first removal runs, and the
    # folder stayed (the suite saw it once, under load).
    for folder in folders:
        for _ in range(100):
            shutil.rmtree(folder, ignore_errors=True)
            if not os.path.lexists(folder):
                break
            time.sleep(0.05)
"""


class Watchdog:
    """Orders for the watchdog process of :func:`watchdog`."""

    def __init__(self, pipe: Any) -> None:
        self._pipe = pipe

    def session(self, pid: int) -> None:
        """Kill every process of the session ``pid`` leads (a child started with
        ``start_new_session``, and whatever it starts) if this process dies."""
        self._say(f"session {pid}")

    def folder(self, path: str) -> None:
        """Remove ``path`` if this process dies."""
        self._say(f"folder {path}")

    def marker(self, entry: str) -> None:
        """Kill every process whose environment holds ``entry`` (``NAME=VALUE``)
        if this process dies: what a sandbox started, also what left its session."""
        self._say(f"marker {entry}")

    def _say(self, line: str) -> None:
        try:
            os.write(self._pipe.fileno(), (line + "\n").encode("utf-8", "surrogateescape"))
        except OSError:  # (the watchdog is gone: a safety net lost, never a failure of the search)
            pass


@contextmanager
def watchdog() -> Iterator[Watchdog]:
    """A process that outlives this one to clean up after it: for the length
    of the block, if this process dies however it dies (SIGKILL, a closed
    terminal, a crash in native code), the sessions and folders it was told
    of are killed and removed.

    A solver's own processes (MiniZinc and the Gecode it starts, a model
    counter) run in a session of their own, so that a Ctrl-C at the terminal
    is this process's alone to handle; this process ends them on every exit
    it lives through.  On one it does not live through they ran on, at full
    speed, and their folders stayed.  The watchdog, in a session of its own
    too, reads a pipe from this process: the pipe closes when this process
    is gone, and unless it said "done" first, the watchdog cleans up.  (On
    Linux; elsewhere the block runs without one.)"""
    import subprocess
    import sys

    if not os.path.isdir("/proc") or not hasattr(os, "getsid"):
        with open(os.devnull, "wb") as nobody:
            yield Watchdog(nobody)
        return
    process = subprocess.Popen([sys.executable, "-I", "-S", "-c", _WATCHDOG], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    assert process.stdin is not None
    guard = Watchdog(process.stdin)
    try:
        yield guard
    finally:
        guard._say("done")  # (never raises: whatever ends the block goes on as it was)
        process.stdin.close()
        process.wait()


@contextmanager
def sigint_held() -> Iterator[None]:
    """Ctrl-C held until the block ends, then raised as it would have been (in the
    main thread; elsewhere the block runs as it is).  A solver package's first
    import, interrupted halfway, left it half made for the rest of a Python
    session (CP-SAT's 'partially initialized module pandas' in every later call:
    a notebook needed a restart); imports run in such a block.  The signal is
    held at Python's level, so that it waits whichever thread the process
    receives it on."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    except ValueError:  # (not the main interpreter's main thread after all)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if came:
            if callable(previous):
                previous(signal.SIGINT, None)  # (Python's default raises KeyboardInterrupt; so does the CLI's)
            elif previous == signal.SIG_DFL:
                os.kill(os.getpid(), signal.SIGINT)


def helpers_deaf_to_hangup(forkserver: bool = False) -> None:
    """Start multiprocessing's helper processes (its resource tracker, and
    the fork server if asked) with SIGHUP ignored, as they ignore Ctrl-C:
    they serve this process for its whole life, and a closed terminal
    (SIGHUP to the whole process group) killed the tracker, whose
    replacement printed a page of KeyErrors as the workers went.  This
    process handles SIGHUP itself (the command line's clean exit, 129).  An
    ignored signal stays ignored across exec; a helper already running is
    left as it is.  (Only the main thread can change a handler.)"""
    import signal

    if not hasattr(signal, "SIGHUP") or threading.current_thread() is not threading.main_thread():
        return
    from multiprocessing import forkserver as server
    from multiprocessing import resource_tracker

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
        if forkserver:
            server.ensure_running()
    finally:
        signal.signal(signal.SIGHUP, before)
