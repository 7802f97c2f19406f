"""Where the sub-problems of a split search run: this process, a local
process pool or a Dask cluster (:mod:`.cluster`); their results streamed
back in order or as they finish; and pools shut down at once when a stream
is closed early.

(:mod:`.parallel` has the sub-problems and what each worker runs.  This
module is imported only when a pool runs: ``concurrent.futures`` and its
logging cost more than ``enumerate 8`` itself.)
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, Future, wait
from concurrent.futures import TimeoutError as FuturesTimeout
from contextlib import closing, nullcontext
from typing import Any, NoReturn

from .. import stopping
from ..errors import TimeLimitReached, WorkerLostError
from ..model.board import Solution
from .cluster import DaskExecutor, as_executor, dask_executor
from .parallel import init_worker
from .workers import check_jobs


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
    stopping.helpers_deaf_to_hangup(forkserver=context.get_start_method() == "forkserver")
    return context


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


def stream(calls: Iterable[tuple[Any, ...]], workers: int, window: int, *, executor: Executor | None = None,
           deadline: float | None = None, processes: bool = False, ordered: bool = True,
           clean: bool = False) -> Generator[Any, None, None]:
    """The results of ``calls`` in order (see :func:`in_order`), or with
    ``ordered=False`` (index, result) pairs as they finish (:func:`as_finished`),
    on ``executor``, or on a pool of ``workers`` made here (:func:`make_executor`)
    and shut down when the stream ends: at once, its workers stopped, if the
    stream is closed early or fails."""
    own = executor is None
    if own and not ordered and _forks(clean):
        yield from forked_as_finished(calls, workers, deadline)
        return
    pool = executor or make_executor(workers, processes, clean)
    finished = False
    try:
        results = in_order(pool, calls, window, deadline) if ordered else as_finished(pool, calls, window, deadline)
        with closing(results):
            try:
                yield from results
            except BrokenExecutor as error:  # (a process pool's: "terminated abruptly")
                raise WorkerLostError(f"{LOST}: {error}") from error
        finished = True
    finally:
        if own:
            shutdown(pool, abort=not finished)


def _forks(clean: bool) -> bool:
    """Whether a pool made now forks its workers from this process (:func:`_start_method`)."""
    return sys.platform.startswith("linux") and not clean and threading.active_count() == 1


def forked_as_finished(calls: Iterable[tuple[Any, ...]], workers: int,
                       deadline: float | None = None) -> Generator[tuple[int, Any], None, None]:
    """:func:`as_finished` on ``workers`` processes forked from this one, each fed
    through a pipe of its own: two calls out at a worker (the one it runs and the
    next), the next sent as each result comes back.  A process pool's futures
    take three of this process's threads a call (its manager, its queue's feeder
    and the caller), about 0.4 ms of this process's time each, which its workers
    lose on a machine whose cores they fill: 0.1 s of ``count 18``'s 256 parts.
    Here only the caller's thread wakes, once a result.  A worker that dies
    fails the stream with :class:`WorkerLostError`, which says how it ended;
    closing the stream early, or a failure, ends the workers as :func:`shutdown`
    does."""
    import multiprocessing
    from multiprocessing.connection import wait as ready

    context = multiprocessing.get_context("fork")
    ends: list[Any] = []  # this process's end of each worker's pipe
    processes: list[Any] = []
    finished = False
    try:
        for _ in range(workers):
            process, here = _started(context, ends)
            ends.append(here)
            processes.append(process)
        todo = enumerate(calls)
        out = dict.fromkeys(ends, 0)

        def feed(end: Any) -> None:
            for k, (fn, *args) in todo:
                try:
                    end.send((k, fn, args))
                except OSError:  # (the worker is gone: EPIPE)
                    lost(end)
                out[end] += 1
                return

        def lost(end: Any) -> NoReturn:
            process = processes[ends.index(end)]
            process.join(1)
            raise _broken(process) from None

        for end in ends:
            feed(end)
            feed(end)
        while busy := [end for end in ends if out[end]]:
            got: list[Any] = ready(busy, None if deadline is None else max(deadline - time.monotonic(), 0))
            if not got:
                raise TimeLimitReached
            for end in got:
                try:
                    k, ok, value = end.recv()
                except (EOFError, OSError):
                    lost(end)
                out[end] -= 1
                feed(end)
                if not ok:
                    raise value
                yield k, value
        finished = True
    finally:
        _ended(processes, ends, abort=not finished)


def _started(context: Any, ends: list[Any]) -> tuple[Any, Any]:
    """A worker forked by ``context`` and this process's end of its pipe; ``ends``
    are those of the workers started before it, which it closes at once."""
    here, there = context.Pipe()
    process = context.Process(target=_serve, args=(there, [*ends, here]), daemon=True)
    process.start()
    there.close()  # (the worker's alone: its death is this end's EOF)
    return process, here


def _serve(conn: Any, others: list[Any]) -> None:
    """A forked worker: each call that comes through ``conn`` run, its result or
    its exception sent back, until ``None`` or the parent's end is gone (a
    stream closed early or failed): then it returns, quietly."""
    from multiprocessing.reduction import ForkingPickler

    for other in others:  # (the parent's ends of every pipe so far, its own included, inherited by the fork:
        other.close()  # held here, they would keep the parent's end of its own pipe open after the parent let go)
    init_worker()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        k, fn, args = message
        try:
            reply = (k, True, fn(*args))
        except BaseException as error:  # sent back, raised in the parent
            reply = (k, False, error)
        try:
            sent = ForkingPickler.dumps(reply)  # (what conn.send writes, pickled first here)
        except Exception as error:  # (a value or exception that does not pickle)
            sent = ForkingPickler.dumps((k, False, RuntimeError(f"a worker's result could not be sent back: {error}")))
        try:
            conn.send_bytes(sent)
        except OSError:  # (EPIPE: the parent has let go of the stream, and is ending this worker)
            return


LOST = "a worker process died in the middle of its work, and the search stopped"


def _broken(process: Any) -> WorkerLostError:
    import signal

    code = process.exitcode
    how = (f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else
           f"exit status {code}" if code is not None else "its pipe closed")
    if code == -signal.SIGKILL:
        how += ", as the system's out-of-memory killer does"
    return WorkerLostError(f"{LOST} ({how})")


def _ended(processes: list[Any], ends: list[Any], abort: bool) -> None:
    """The forked workers ended: told to stop when the work is done, stopped at once
    (SIGTERM, then SIGKILL after TERMINATE_SECONDS) after a failure or an early close."""
    for end in ends:
        try:
            if abort:
                end.close()
            else:
                end.send(None)
        except OSError:
            pass
    if abort:
        for process in processes:
            if process.is_alive():
                process.terminate()
    ends_at = time.monotonic() + TERMINATE_SECONDS
    for process in processes:
        process.join(max(0.0, ends_at - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
    for end in ends:
        end.close()


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


TERMINATE_SECONDS = 10.0  # what a terminated worker has to clean up its search before it is killed


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
        # A worker that SIGTERM reaches as it starts (in an at-fork hook, where an exception is only
        # reported) lives on, and the manager thread waits for it forever: 1 in a few hundred closes
        # under load.  Those still there after their cleanup's time are ended outright.
        ends = time.monotonic() + TERMINATE_SECONDS
        for process in processes:
            process.join(max(0.0, ends - time.monotonic()))
            if process.is_alive():
                process.kill()
    pool.shutdown(wait=True)
    if thread is not None:
        thread.join(timeout=60)  # (its workers are ended: it sees them gone and returns)
        wakeups = getattr(sys.modules.get("concurrent.futures.process"), "_threads_wakeups", None)
        if wakeups is not None and not thread.is_alive():
            wakeups.pop(thread, None)  # nothing is left to wake at exit
