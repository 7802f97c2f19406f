"""Sub-problems on a Dask cluster: a user's ``Client`` (or its executor) as a
``concurrent.futures`` executor that survives a lost worker, or a cluster
reached by its scheduler's address (its greeting heard first, in one line
if it is no Dask) or started here ('local:N'), quiet and cleaned up however
the run ends.  :mod:`.pools` hands work to it."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from contextlib import ExitStack, contextmanager
from typing import Any

from .. import scratch
from .. import stopping
from ..errors import NQueensError, TimeLimitReached
from .workers import check_scheduler, dask_kind, default_jobs

class DaskExecutor(Executor):
    """The tasks of a Dask ``client`` as ``concurrent.futures`` futures.

    Dask's own adapter (``client.get_executor()``) reads a task's status
    after its result has arrived: when the worker holding that result dies
    in between, the status reads 'lost' and the adapter fails the future
    with ``ValueError: too many values to unpack`` although Dask is already
    computing it again.  Here a task's outcome is Dask's ``result()``, which
    waits through a lost result for the task run again; only a task that
    itself raised (or that Dask gave up on: a worker killed under it every
    time) fails its future.
    """

    def __init__(self, client: Any) -> None:
        self.client = client
        self._running: set[Any] = set()  # Dask cancels a task whose future nobody holds

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        future.set_running_or_notify_cancel()
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        self._running.add(task)

        def settle(task: Any) -> None:  # (in a thread of Dask's client, never its event loop)
            try:
                result = task.result()
            except BaseException as error:  # handed to whoever asks for the result
                future.set_exception(_cancelled(error) or error)
            else:
                future.set_result(result)
            finally:
                self._running.discard(task)

        task.add_done_callback(settle)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Cancel what is still running (a stream closed early, a time limit):
        the cluster is its owner's, the tasks are ours."""
        self.client.cancel(list(self._running))


def _cancelled(error: BaseException) -> NQueensError | None:
    """Dask's word that it cancelled a task of ours, or that the connection to
    its scheduler closed under a result being fetched, as one line (a traceback
    of FutureCancelledError when the scheduler was killed mid-count; now and
    then its CommClosedError, an OSError, which read as 'cannot write
    output'); else None."""
    kind = type(error).__name__
    if kind not in ("FutureCancelledError", "CancelledError", "CommClosedError", "StreamClosedError"):
        return None
    reason = str(error).partition("reason: ")[2].split("\n")[0].rstrip(".")
    if reason == "scheduler-connection-lost" or kind in ("CommClosedError", "StreamClosedError"):
        said = "the connection to the Dask scheduler was lost"
    else:
        said = f"the Dask cluster cancelled a task{f' ({reason})' if reason else ''}"
    return NQueensError(f"{said}: the work stopped unfinished (a --checkpoint keeps what was done: the same "
                        "command resumes from it)")


def as_executor(executor: Any) -> Executor | None:
    """``executor`` as the sub-problems use it: a Dask ``Client``, or Dask's
    own adapter of one, becomes a :class:`DaskExecutor` on that client."""
    kind = dask_kind(executor)
    if kind == "Client":
        return DaskExecutor(executor)
    if kind == "ClientExecutor":
        return DaskExecutor(executor._client)  # (its one field: Dask documents no other way back)
    return executor


CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler and hear its greeting
GREETING_MAX = 1 << 16  # bytes: a Dask handshake is a few dozen
HANDSHAKES = 3  # tries at Dask's handshake with a scheduler that breaks it (_client)


def speaks_dask(spec: str, deadline: float | None = None) -> float:
    """Refuse, in one line, an address where no Dask scheduler answers, and
    return the seconds left to connect.  Dask's client, pointed at a server
    of another protocol, waits for ever for one that says nothing until
    asked (an HTTP server) and takes the first bytes of one that speaks
    first (an SSH daemon's 'SSH-2.0-') as the length of a message, and
    fails allocating exabytes.  A Dask server speaks first: 8 bytes of
    length, then a handshake of at most a few hundred bytes naming its
    'pickle-protocol'; that is what is read here, within the timeout.
    (Only plain TCP is probed; tls:// and the rest are left to Dask.)"""
    import socket

    left = CONNECT_TIMEOUT if deadline is None else min(CONNECT_TIMEOUT, deadline - time.monotonic())
    if left <= 0:
        raise TimeLimitReached
    scheme, _, address = spec.rpartition("://")
    if scheme not in ("", "tcp"):
        return left
    host, _, port = address.rpartition(":")
    start = time.monotonic()
    heard = b""
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=left) as connection:
            while _unheard(heard):
                connection.settimeout(max(left - (time.monotonic() - start), 0.001))
                chunk = connection.recv(1 << 16)
                if not chunk:
                    break
                heard += chunk
    except socket.timeout:
        if not heard:
            raise NQueensError(f"{spec} does not speak Dask's protocol: it said nothing within {_seconds(left)} s") \
                from None
    except OSError as error:
        raise NQueensError(f"cannot reach the Dask scheduler at {spec}: {error.strerror or error}") from None
    if _unheard(heard) or b"pickle-protocol" not in heard:
        raise NQueensError(f"{spec} does not speak Dask's protocol: it began {heard[:16]!r}")
    return max(left - (time.monotonic() - start), 0.001)


@contextmanager
def environment(changes: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``changes`` for the length of the block (for the
    processes started in it), then as it was."""
    before = {name: os.environ.get(name) for name in changes}
    os.environ.update(changes)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _seconds(value: float) -> str:
    """A wait as a user gave it: to a tenth of a second (the time limit's 0.5 s is
    0.499 s by the time it is read), and no trailing zeros."""
    return f"{max(value, 0.1):.1f}".rstrip("0").rstrip(".")


def _unheard(heard: bytes) -> bool:
    """Whether a Dask server's greeting is still to come: its 8 bytes of
    length, then the short message they announce (a longer one is no greeting)."""
    import struct

    if len(heard) < 8:
        return True
    length = struct.unpack("<Q", heard[:8])[0]
    return length <= GREETING_MAX and len(heard) < 8 + length


# A local cluster's scheduler: no dashboard, and its HTTP server (health, metrics) on a free
# port of 127.0.0.1: on 8787, Dask's default, a second cluster (or a notebook's) printed
# three lines of warning about the port.
LOCAL_HTTP = {"dashboard_address": "127.0.0.1:0", "scheduler_kwargs": {"dashboard": False}}

# The environment entry that marks a local cluster's processes (its value: the cluster's folder's name).
LOCAL_MARK = "NQUEENS_CP_DASK"


@contextmanager
def dask_executor(spec: str, deadline: float | None = None) -> Iterator[Executor]:
    """An executor on a Dask cluster: ``spec`` is its scheduler's address
    (tcp://host:8786), or 'local' / 'local:N' to start N single-threaded
    worker processes on this machine (default: the cores).  Dask runs a task
    again if its worker dies, so a killed worker loses nothing.  A scheduler
    is reached within :data:`CONNECT_TIMEOUT` seconds, or before ``deadline``
    (monotonic) if that comes first."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise NQueensError("a Dask cluster needs the package 'distributed': pip install 'nqueens-cp[cluster]'") from None
    import logging

    check_scheduler(spec)
    import dask

    kind, _, workers = spec.partition(":")
    with ExitStack() as stack:  # (everything below undone in reverse order, however the block ends)
        # Its chatter is not our output: a lost scheduler, say, was a page of ERROR and tracebacks
        # as its client tried to reconnect, before our line saying so.  (As it was, after.)
        # (Dask's configuration gives some of its loggers levels of their own: distributed.client's.)
        for name, chatter in [("distributed", logging.getLogger("distributed")),
                              *logging.root.manager.loggerDict.items()]:
            if name.startswith("distributed.") or name == "distributed":
                if isinstance(chatter, logging.Logger) and chatter.level != logging.NOTSET:
                    stack.callback(chatter.setLevel, chatter.level)
                    chatter.setLevel(logging.CRITICAL)
        # Dask's scratch files (every server of a local cluster writes them), removed with the cluster
        # (and by the watchdog if this process is killed outright; by the next cluster if even that fails)
        guard = stack.enter_context(stopping.watchdog())
        folder = scratch.make("nqueens-dask-", before=guard.folder)
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        local = kind == "local"
        # A local cluster's processes carry a mark of this cluster in their environment, and the watchdog
        # kills them before it removes the folder: left to die with this process, a worker still
        # writing its scratch space (Dask makes the whole path again) put the folder back after the
        # watchdog's last removal (once in a loaded run of the suite, in CI).
        mark = {LOCAL_MARK: os.path.basename(folder)} if local else {}
        for variable, value in mark.items():
            guard.marker(f"{variable}={value}")
        # (its workers ignore Ctrl-C and SIGHUP, which are this process's to handle: .dask_worker)
        preload = {"distributed.worker.preload": ["nqueens_cp.execution.dask_worker"]} if local else {}
        stack.enter_context(dask.config.set({"temporary-directory": folder, **preload}))
        # The workers of a local cluster are processes of their own, each logging
        # to this stderr: their complaints as the cluster shuts down (a heartbeat
        # to a scheduler already closed) are not ours to print.  Dask reads its
        # configuration from the environment as a worker starts.
        stack.enter_context(environment({"DASK_LOGGING__DISTRIBUTED": "critical", **mark} if local else {}))
        try:
            if local:
                stopping.helpers_deaf_to_hangup()
                with signals_held():
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=int(workers or default_jobs()), threads_per_worker=1, processes=True,
                        **LOCAL_HTTP))
                    client = stack.enter_context(Client(cluster))
            else:
                client = stack.enter_context(_client(spec, deadline))
        except (OSError, TimeoutError, ValueError) as error:  # (ValueError: an address Dask cannot parse)
            raise NQueensError(f"cannot reach the Dask scheduler at {spec}: {error}") from None
        yield stack.enter_context(DaskExecutor(client))


def _client(spec: str, deadline: float | None) -> Any:
    """Dask's client of the scheduler at ``spec``, reached before ``deadline``.
    Dask's handshake asserts that the scheduler's first batch of messages to
    a new client is 'stream-start' alone; a scheduler that tells every client
    of a key it has just forgotten within the same 2 ms (a task of a stopped
    count ending late on a worker: distributed's Scheduler.report) trips it,
    an AssertionError from inside Dask (the suite met it connecting just
    after a count stopped on the same cluster).  A race of that moment: the
    client that tripped is closed and another tries, HANDSHAKES in all."""
    from distributed import Client

    tries = 0
    while True:
        tries += 1
        client = object.__new__(Client)  # (made in two steps: one whose handshake failed is ours to close)
        try:
            Client.__init__(client, spec, timeout=speaks_dask(spec, deadline))
            return client
        except AssertionError:
            client.close()
            if tries == HANDSHAKES:
                raise NQueensError(f"the Dask scheduler at {spec} broke Dask's handshake {HANDSHAKES} times "
                                   "running") from None


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and SIGHUP held back (blocked) for the length of the block, then
    delivered: the threads started in the block, and every process they
    start, keep them blocked for good.  A local Dask cluster starts its
    worker processes from threads of its own: a Ctrl-C at the terminal as
    they start reached each (the whole process group gets it) and each
    printed a page of KeyboardInterrupt as it imported, before any of our
    code ran in it.  This process takes the signal at the end of the block,
    and closes the cluster.  (Main thread only; elsewhere nothing is held.)"""
    import signal

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGHUP})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
