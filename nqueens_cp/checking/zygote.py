"""Starting a model's process in milliseconds: a zygote that has imported the solvers once, and forks.

A fresh interpreter that imports OR-Tools takes half a second (it brings
pandas), more than a right model's whole check at N = 10; a class of models,
or a notebook's loop over ``check``, paid it each time.  The zygote is one
process a checker starts once (``python -m nqueens_cp.checking.zygote FD``,
in a session of its own), which imports the package's checking modules and
the solvers' packages found here, then waits on a socket.  For each model
the checker sends the request and the model's pipes and output file (their
descriptors, over the socket); the zygote forks a *keeper*, which forks the
model's process and waits for it: the keeper writes the model's pid on a
status pipe of the checker's, then how it ended.  The model's process then
becomes exactly what :mod:`.sandbox` would have spawned (a session of its
own, its folder, its environment, its limits: :func:`become`), and runs
:func:`nqueens_cp.checking.child.main`.

Each dies with its parent (Linux's PDEATHSIG): the checker gone, the zygote
goes, then the keepers, then the models; the checker's watchdog kills the
models' sessions and marked processes too.  Where a zygote cannot be had
(no Unix socket that carries descriptors, a zygote that died) the sandbox
spawns the model's interpreter itself, as before.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from typing import Any

# What every model's process would import: OR-Tools (half a second: it brings pandas); the others
# (PySAT, clingo, CPMpy) are quick or rare, imported by the models that use them (a one-off check
# waited 0.1 s longer for its zygote with them)
PRELOAD = ("ortools.sat.python.cp_model",)
_lock = threading.Lock()
_zygote: Zygote | None = None  # this process's, started at its first isolated check (as multiprocessing's forkserver)


class Launched:
    """A model's process started by a keeper (the zygote's, or a fork of the
    checker's, ``keeper``: reaped here): its pid, and how it ended."""

    def __init__(self, status: int, keeper: int | None = None) -> None:
        self._keeper = keeper
        self._status = os.fdopen(status, "rb")
        line = self._status.readline()
        if not line.strip().isdigit():
            self._status.close()
            if keeper is not None:
                os.waitpid(keeper, 0)
            raise OSError("the keeper did not start the model's process")
        self.pid = int(line)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        import select

        if self.returncode is None and select.select([self._status], [], [], 0)[0]:
            self.wait()
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            line = self._status.readline().strip()
            self._status.close()
            self.returncode = int(line) if line.lstrip(b"-").isdigit() else -signal.SIGKILL
            if self._keeper is not None:
                os.waitpid(self._keeper, 0)
        return self.returncode


class Zygote:
    """The checker's end of its zygote."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen([sys.executable, "-m", "nqueens_cp.checking.zygote", str(theirs.fileno())],
                                            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                            start_new_session=True)
        finally:
            theirs.close()
        self.socket = ours
        self._sending = threading.Lock()

    def alive(self) -> bool:
        return self.process.poll() is None

    def launch(self, request: dict[str, Any], fds: tuple[int, int, int]) -> Launched:
        """The model's process, forked with ``fds`` (its request pipe, its answer pipe, its output file)."""
        status_read, status_write = os.pipe()
        try:
            with self._sending:
                socket.send_fds(self.socket, [json.dumps(request).encode()], [*fds, status_write])
        finally:
            os.close(status_write)
        return Launched(status_read)

    def close(self) -> None:
        self.socket.close()  # (the zygote reads the end of its socket and exits)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def zygote() -> Zygote | None:
    """This process's zygote, started at the first call (None where none can be had)."""
    global _zygote
    if not hasattr(socket, "send_fds") or not hasattr(socket, "SOCK_SEQPACKET") or not sys.platform.startswith("linux"):
        return None
    with _lock:
        if _zygote is None or not _zygote.alive():
            try:
                _zygote = Zygote()
            except OSError:
                return None
            import atexit

            atexit.register(_zygote.close)
        return _zygote


def become(request: dict[str, Any], to_child: int, from_child: int, output: int, function: Any = None) -> None:
    """Make this forked process the model's: a session of its own, its
    folder, its environment, stdin from /dev/null, stdout and stderr to its
    output file, the default signal handlers; then the child's life
    (``function``: a model given as a function, in a fork of the checker)."""
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    for fd in (null, output):
        if fd > 2:
            os.close(fd)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    import tempfile

    tempfile.tempdir = None  # (read again from the model's TMPDIR, if a preloaded package had asked for it)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False, buffering=1)  # noqa: SIM115
    from . import child

    child.main([str(to_child), str(from_child)], function)


def main(fd: int) -> None:
    """The zygote: import once, then fork a keeper for each request until the checker goes."""
    from .. import stopping

    stopping.die_with_parent()
    import importlib

    for name in ("nqueens_cp.checking.child", "nqueens_cp.checking.reading", "nqueens_cp.checking.python",
                 "nqueens_cp.checking.cpsat", "nqueens_cp.checking.cnf", *PRELOAD):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a package missing here: its models import it themselves, and fail there
            pass
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (the keepers are reaped by the kernel)
    requests = socket.socket(fileno=fd)
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(requests, 1 << 20, 4)
        except OSError:
            break
        if not message:
            break  # the checker has gone
        if len(fds) != 4:
            for handle in fds:
                os.close(handle)
            continue
        if os.fork() == 0:
            try:
                requests.close()
                _keep_request(json.loads(message), *fds)
            finally:
                os._exit(0)
        for handle in fds:
            os.close(handle)


def _keep_request(request: dict[str, Any], to_child: int, from_child: int, output: int, status: int) -> None:
    keep(status, lambda: become(request, to_child, from_child, output), (to_child, from_child, output))


class _Orphaned(BaseException):
    """The keeper's parent (the zygote, or the checker) has died."""


def _orphaned(signum: int, frame: object) -> None:
    raise _Orphaned


def keep(status: int, start: Any, close: tuple[int, ...] = ()) -> None:
    """The keeper: fork the model's process (``start()`` there, never
    returning), say its pid on ``status``, wait for it, end whatever it left
    behind, then say how it ended.  The keeper is a subreaper: a process the
    model forked that left its session and its parent is still the keeper's
    child, and is killed before the model is said to have ended; when the
    keeper's own parent dies (SIGTERM, asked of Linux), it ends the model and
    all of it, then itself."""
    import ctypes

    from .. import stopping

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, _orphaned)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass
    stopping.die_with_parent(signal.SIGTERM)
    pid = os.fork()
    if pid == 0:
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.close(status)
            start()
        finally:
            os._exit(70)
    for handle in close:
        os.close(handle)
    code = -signal.SIGKILL
    try:
        os.write(status, f"{pid}\n".encode())
        _, how = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(how)
    except _Orphaned:
        pass
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _end_children()
    try:
        os.write(status, f"{code}\n".encode())
    except OSError:
        pass


def _end_children() -> None:
    """Kill this process's children until none is left (orphans reparented here come as they are made)."""
    while True:
        me = str(os.getpid())
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                        parent = handle.read().rsplit(")", 1)[1].split()[1]
                    if parent == me:
                        os.kill(int(name), signal.SIGKILL)
                except (OSError, IndexError):
                    continue
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


if __name__ == "__main__":
    main(int(sys.argv[1]))
