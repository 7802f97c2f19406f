"""Where the sub-problems of a split search run: this process, a local
process pool or a Dask cluster; their results streamed back in order or as
they finish; and pools shut down at once when a stream is closed early.

(:mod:`.parallel` has the sub-problems and what each worker runs.  This
module is imported only when a pool runs: ``concurrent.futures`` and its
logging cost more than ``enumerate 8`` itself.)
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures import TimeoutError as FuturesTimeout
from contextlib import ExitStack, closing, contextmanager, nullcontext
from typing import Any

from .. import scratch
from .. import stopping
from ..errors import NQueensError, TimeLimitReached
from ..model.board import Solution
from .parallel import init_worker
from .workers import check_jobs, check_scheduler, dask_kind, default_jobs


class InlineExecutor(Executor):
    """Runs each task at once, in this process: ``jobs=1``."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever asks for the result
            future.set_exception(error)
        return future


# --- in the parent -------------------------------------------------------------------

def make_executor(jobs: int, processes: bool = False, clean: bool = False) -> Executor:
    """``jobs`` worker processes; for one job this process, unless ``processes``
    asks for a real one; ``clean``: none forked from this process."""
    if jobs == 1 and not processes:
        return InlineExecutor()
    from concurrent.futures import ProcessPoolExecutor  # 30 ms of imports that enumerate 8 does without

    return ProcessPoolExecutor(max_workers=jobs, initializer=init_worker, mp_context=_start_method(clean))


def _start_method(clean: bool = False) -> Any:
    """How workers start: forked from this process when it runs one thread
    (the quickest), else from a fork server started once, clean.  Forking a
    process whose other threads hold locks (a CP-SAT solve, another count
    called from a thread pool) copies the locks held: the child deadlocks.
    ``clean`` (an engine that does not ``forks_workers``: CUDA) always takes
    the fork server: what this process set up is not copied.  (Its native
    threads, CUDA's, are not counted by ``threading``.)"""
    import multiprocessing
    import threading

    if (threading.active_count() == 1 and not clean) or sys.platform == "win32":
        return None
    context = multiprocessing.get_context("forkserver" if sys.platform != "darwin" else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["nqueens_cp.execution.forkserver", "nqueens_cp.execution.parallel",
                                        "nqueens_cp.kernel"])
    helpers_deaf_to_hangup(forkserver=context.get_start_method() == "forkserver")
    return context


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


def in_order(pool: Executor, calls: Iterable[tuple[Any, ...]], window: int,
             deadline: float | None = None) -> Generator[Any, None, None]:
    """The results of ``calls`` (each ``(fn, *args)``), in order, with at most
    ``window`` submitted and not yet taken, so that a slow consumer holds the
    work back instead of piling results up.  Past ``deadline`` (monotonic)
    it raises TimeLimitReached instead of waiting for a result.

    Closing the generator submits nothing more; what is already submitted is
    the pool owner's to cancel (see :func:`shutdown`).  Cancelling it here
    would break Python 3.11's process pool: a future cancelled by hand and
    then failed by the pool's own clean-up raises in the pool's thread.
    """
    pending: deque[Future] = deque()
    todo = iter(calls)
    for fn, *args in todo:
        pending.append(pool.submit(fn, *args))
        if len(pending) >= window:
            break
    while pending:
        try:
            result = pending.popleft().result(None if deadline is None else max(deadline - time.monotonic(), 0))
        except FuturesTimeout:
            raise TimeLimitReached from None
        for fn, *args in todo:
            pending.append(pool.submit(fn, *args))
            break
        yield result


def in_background(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """Start ``fn(*args)`` in a thread of this process (a daemon: it never
    holds the process up at exit); the function returned waits for its
    result, or raises what it raised."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = fn(*args)
        except BaseException as error:  # handed to the caller of the result
            outcome["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def result() -> Any:
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["result"]

    return result


def as_finished(pool: Executor, calls: Iterable[tuple[Any, ...]], window: int,
                deadline: float | None = None) -> Generator[tuple[int, Any], None, None]:
    """(index, result) of each of ``calls`` as it finishes, with at most
    ``window`` submitted and not yet taken: for work whose order does not
    matter (counts add up), so that one long task never leaves the other
    workers idle behind it as :func:`in_order` would.  Deadline and closing
    as for :func:`in_order`."""
    pending: dict[Future, int] = {}
    todo = enumerate(calls)

    def submit() -> None:
        for i, (fn, *args) in todo:
            pending[pool.submit(fn, *args)] = i
            return

    for _ in range(window):
        submit()
    while pending:
        done, _ = wait(pending, None if deadline is None else max(deadline - time.monotonic(), 0),
                       return_when=FIRST_COMPLETED)
        if not done:
            raise TimeLimitReached
        for future in done:
            i = pending.pop(future)
            result = future.result()
            submit()
            yield i, result


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
    """Dask's word that it cancelled a task of ours, as one line (a traceback
    of FutureCancelledError when the scheduler was killed mid-count); else None."""
    if type(error).__name__ not in ("FutureCancelledError", "CancelledError"):
        return None
    reason = str(error).partition("reason: ")[2].split("\n")[0].rstrip(".")
    if reason == "scheduler-connection-lost":
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
    import os

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
        folder = scratch.make("nqueens-dask-")
        stack.enter_context(stopping.watchdog()).folder(folder)
        stack.callback(shutil.rmtree, folder, ignore_errors=True)
        local = kind == "local"
        # (its workers ignore Ctrl-C and SIGHUP, which are this process's to handle: .dask_worker)
        preload = {"distributed.worker.preload": ["nqueens_cp.execution.dask_worker"]} if local else {}
        stack.enter_context(dask.config.set({"temporary-directory": folder, **preload}))
        # The workers of a local cluster are processes of their own, each logging
        # to this stderr: their complaints as the cluster shuts down (a heartbeat
        # to a scheduler already closed) are not ours to print.  Dask reads its
        # configuration from the environment as a worker starts.
        stack.enter_context(environment({"DASK_LOGGING__DISTRIBUTED": "critical"} if local else {}))
        try:
            if local:
                helpers_deaf_to_hangup()
                with signals_held():
                    cluster = stack.enter_context(LocalCluster(
                        n_workers=int(workers or default_jobs()), threads_per_worker=1, processes=True,
                        **LOCAL_HTTP))
                    client = stack.enter_context(Client(cluster))
            else:
                client = stack.enter_context(Client(spec, timeout=speaks_dask(spec, deadline)))
        except (OSError, TimeoutError, ValueError) as error:  # (ValueError: an address Dask cannot parse)
            raise NQueensError(f"cannot reach the Dask scheduler at {spec}: {error}") from None
        yield stack.enter_context(DaskExecutor(client))


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


def stream(calls: Iterable[tuple[Any, ...]], workers: int, window: int, *, executor: Executor | None = None,
           deadline: float | None = None, processes: bool = False, ordered: bool = True,
           clean: bool = False) -> Generator[Any, None, None]:
    """The results of ``calls`` in order (see :func:`in_order`), or with
    ``ordered=False`` (index, result) pairs as they finish (:func:`as_finished`),
    on ``executor``, or on a pool of ``workers`` made here (:func:`make_executor`)
    and shut down when the stream ends: at once, its workers stopped, if the
    stream is closed early or fails."""
    own = executor is None
    pool = executor or make_executor(workers, processes, clean)
    finished = False
    try:
        results = in_order(pool, calls, window, deadline) if ordered else as_finished(pool, calls, window, deadline)
        with closing(results):
            yield from results
        finished = True
    finally:
        if own:
            shutdown(pool, abort=not finished)


def solve_in_parts(parts: list[tuple[Any, ...]], jobs: int | None, executor: Executor | str | None,
                   time_limit: float | None, stats: dict[str, Any]) -> tuple[Any, Solution | None, str]:
    """A decision split into ``parts`` (calls returning ``(solution or None,
    nodes)``), run in order on ``jobs`` processes or ``executor``: the first
    solution in order, as on one core, or "none" once every part is searched."""
    from ..engines.base import Status

    workers = min(check_jobs(jobs), max(len(parts), 1))
    deadline = None if time_limit is None else time.monotonic() + time_limit
    nodes = done = 0
    try:
        with using(executor, deadline) as pool, closing(stream(parts, workers, 2 * workers, executor=pool, deadline=deadline,
                                             processes=True)) as results:
            for solution, searched in results:
                nodes += searched
                done += 1
                if solution is not None:
                    return Status.SOLVED, solution, ""
    except TimeLimitReached:
        return Status.UNKNOWN, None, f"no answer within {time_limit:g} s ({done} of {len(parts)} parts searched)"
    finally:
        stats.update(nodes=nodes, parts=len(parts), parts_searched=done, workers=workers)
    return Status.NONE, None, f"every one of {len(parts)} parts was searched ({workers} workers)"


def using(executor: Executor | str | None, deadline: float | None = None) -> Any:
    """A context giving the executor to run on: a Dask cluster for a scheduler's
    address or 'local:N' (for the length of the block, reached before
    ``deadline``, monotonic); a Dask ``Client`` (or its
    ``get_executor()``) as a :class:`DaskExecutor`, whose tasks still running
    when the block ends are cancelled; else ``executor`` as it is (None: the
    caller's own pool)."""
    if isinstance(executor, str):
        return dask_executor(executor, deadline)
    pool = as_executor(executor)
    return pool if isinstance(pool, DaskExecutor) else nullcontext(pool)


def shutdown(pool: Executor, abort: bool) -> None:
    """Wait for the workers, or after Ctrl-C or an early close stop them at
    once: cancel what has not started and end what has."""
    # A process pool's manager thread, taken now: shutdown(wait=False) forgets
    # it, and a later shutdown(wait=True) then joins nothing.  Left running,
    # it races CPython's exit hook, which writes to the thread's wake-up pipe
    # as the thread closes it ("Exception ignored ... Bad file descriptor").
    thread = getattr(pool, "_executor_manager_thread", None)
    if abort:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()  # (a worker cleans up what its search started: nqueens_cp.stopping)
    pool.shutdown(wait=True)
    if thread is not None:
        thread.join(timeout=60)  # (its workers are ended: it sees them gone and returns)
        wakeups = getattr(sys.modules.get("concurrent.futures.process"), "_threads_wakeups", None)
        if wakeups is not None and not thread.is_alive():
            wakeups.pop(thread, None)  # nothing is left to wake at exit
