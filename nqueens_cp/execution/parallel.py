"""Mechanism for split searches: sub-problems, ordered streams of results, shutdown.

Nothing here decides anything (:mod:`.plan` does): it fixes the
first rows to every non-attacking prefix, runs each prefix as an
independent sub-search through an engine's public :meth:`Engine.subproblem`
on any ``concurrent.futures.Executor`` (a local process pool, this process,
or a cluster's), and hands results back in prefix order, so that the output
is the same whatever the number of workers.  Solutions travel back as one
integer key each (:func:`board.pack`), 64-bit for N <= 16.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing, contextmanager, nullcontext
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures import TimeoutError as FuturesTimeout
from typing import Any

from ..model.board import Position, Solution, is_solution, pack
from ..errors import InvalidInputError, NQueensError, TimeLimitReached

KEY_MAX_N = 16  # n**n < 2**64: a solution's key fits an unsigned 64-bit word


def default_jobs() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def check_jobs(jobs: int | None) -> int:
    """The number of worker processes asked for (None: the cores), checked."""
    if jobs is not None and (type(jobs) is not int or jobs < 1):
        raise InvalidInputError(f"jobs must be a positive integer, got {jobs!r}")
    return jobs or default_jobs()


class InlineExecutor(Executor):
    """Runs each task at once, in this process: ``jobs=1``."""

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever asks for the result
            future.set_exception(error)
        return future


def prefixes(n: int, fixed: dict[int, int], rows: int, mirror: bool = False) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) for every non-attacking placement of the first rows
    that honours ``fixed`` (a :class:`Position`'s blocked squares too; each
    prefix is a Position that keeps them).  With ``mirror``, only first-row columns left of
    the centre are kept, with weight 2 (the centre column, odd n, weight 1)."""
    rows = min(rows, n)
    position = fixed if isinstance(fixed, Position) else Position(fixed)
    found: list[tuple[dict[int, int], int]] = []

    def extend(prefix: dict[int, int]) -> None:
        row = len(prefix)
        if row == rows:
            weight = 1
            if mirror:
                first = prefix[0]
                if 2 * first > n - 1:
                    return
                weight = 1 if 2 * first == n - 1 else 2
            found.append((position.with_queens(prefix), weight))
            return
        for col in position.columns(row, n):
            if all(c != col and abs(c - col) != row - r for r, c in prefix.items()):
                prefix[row] = col
                extend(prefix)
                del prefix[row]

    extend({})
    return found


def mirror_image(solution: Solution) -> Solution:
    last = len(solution) - 1
    return tuple([last - c for c in solution])


def merge_stats(total: dict[str, Any], part: dict[str, Any], additive: Iterable[str]) -> None:
    """Add a sub-problem's statistics to the total: counters add up, the rest
    (model size, solver name) is kept from the first sub-problem."""
    additive = set(additive)
    for key, value in part.items():
        if key in additive:
            total[key] = total.get(key, 0) + value
        else:
            total.setdefault(key, value)
    total["subproblems"] = total.get("subproblems", 0) + 1


# --- in the workers -----------------------------------------------------------------

def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a pool stopping its workers: no clean-up of the parent's
    _die_with_parent()
    # A forked worker holds a copy of the parent's unwritten stdout buffer,
    # which multiprocessing would flush when the worker exits: drop it.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115


def _die_with_parent() -> None:
    """A worker in the compiled loop cannot be interrupted: if the parent is
    killed outright (SIGKILL, no clean-up), the kernel kills the worker too
    (Linux's PR_SET_PDEATHSIG; elsewhere nothing is done)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
        if os.getppid() == 1:  # the parent died before prctl took effect
            os._exit(1)
    except (OSError, AttributeError):
        pass


def _remaining(deadline: float | None) -> float | None:
    """Seconds left until a wall-clock ``deadline`` (time.time(): the same on every process of a machine)."""
    return None if deadline is None else max(deadline - time.time(), 1e-3)


def part_keys(engine: Any, n: int, prefix: dict[int, int], weight: int,
              deadline: float | None = None) -> tuple[Any, Solution | None, dict[str, Any], bool]:
    """One sub-problem's solutions as packed keys (each followed by its mirror
    image's when ``weight`` is 2), the first board that fails the independent
    validator, the statistics, and whether the deadline cut it short."""
    with engine.subproblem(n, prefix, time_limit=_remaining(deadline)) as search:
        keys, invalid = packed(search, n, mirrored=weight == 2)
    data = keys.tobytes() if isinstance(keys, array) else keys
    return data, invalid, search.stats, search.timed_out


def part_count(engine: Any, n: int, prefix: dict[int, int],
               deadline: float | None = None) -> tuple[int, dict[str, Any], bool]:
    """One sub-problem's count, its statistics, and whether the deadline cut it short."""
    search = engine.subproblem(n, prefix, time_limit=_remaining(deadline))
    try:
        found = search.count()
    except TimeLimitReached:
        return 0, search.stats, True
    return found, search.stats, False


def packed(solutions: Iterable[Solution], n: int, mirrored: bool = False) -> tuple[Any, Solution | None]:
    """Every solution as one integer key (and, if ``mirrored``, its mirror image
    after it), with the first board that fails the independent validator.
    The keys are a 64-bit array for n <= 16, where they fit, else a list."""
    keys: Any = array("Q") if n <= KEY_MAX_N else []
    invalid = None
    for solution in solutions:
        if invalid is None and not is_solution(solution, n):
            invalid = solution
        keys.append(pack(solution, n))
        if mirrored:
            keys.append(pack(mirror_image(solution), n))
    return keys, invalid


def unpacked_keys(data: Any) -> Iterable[int]:
    if isinstance(data, bytes):
        block = array("Q")
        block.frombytes(data)
        return block
    return data


# --- in the parent -------------------------------------------------------------------

def make_executor(jobs: int, processes: bool = False) -> Executor:
    """``jobs`` worker processes; for one job this process, unless ``processes`` asks for a real one."""
    if jobs == 1 and not processes:
        return InlineExecutor()
    from concurrent.futures import ProcessPoolExecutor  # 30 ms of imports that enumerate 8 does without

    return ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, mp_context=_start_method())


def _start_method() -> Any:
    """How workers start: forked from this process when it runs one thread
    (the quickest), else from a fork server started once, clean.  Forking a
    process whose other threads hold locks (a CP-SAT solve, another count
    called from a thread pool) copies the locks held: the child deadlocks."""
    import multiprocessing
    import threading

    if threading.active_count() == 1 or sys.platform == "win32":
        return None
    context = multiprocessing.get_context("forkserver" if sys.platform != "darwin" else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["nqueens_cp.execution.parallel", "nqueens_cp.kernel"])
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


LOCAL_WORKERS_MAX = 256  # 'local:N': more single-threaded workers than this on one machine is a mistake
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?[A-Za-z0-9.\-_\[\]:]+:\d{1,5}|inproc://\S+")


def check_scheduler(spec: str) -> None:
    """Refuse a --scheduler that cannot name a Dask cluster, before any work:
    'local', 'local:N' (1 <= N <= 256) or a scheduler's address (tcp://HOST:PORT)."""
    kind, colon, workers = spec.partition(":")
    if kind == "local":
        if colon and not (workers.isdigit() and 1 <= int(workers) <= LOCAL_WORKERS_MAX):
            raise InvalidInputError(f"a local cluster is 'local' or 'local:N' with N from 1 to {LOCAL_WORKERS_MAX}, "
                                    f"got '{spec}'")
    elif not _ADDRESS.fullmatch(spec):
        raise InvalidInputError(f"--scheduler takes a Dask scheduler's address (tcp://HOST:PORT), 'local' or "
                                f"'local:N', got '{spec}'")


@contextmanager
def dask_executor(spec: str) -> Iterator[Executor]:
    """An executor on a Dask cluster: ``spec`` is its scheduler's address
    (tcp://host:8786), or 'local' / 'local:N' to start N single-threaded
    worker processes on this machine (default: the cores).  Dask runs a task
    again if its worker dies, so a killed worker loses nothing."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise NQueensError("a Dask cluster needs the package 'distributed': pip install 'nqueens-cp[cluster]'") from None
    import logging

    logging.getLogger("distributed").setLevel(logging.ERROR)  # its chatter is not our output
    check_scheduler(spec)
    cluster = None
    kind, _, workers = spec.partition(":")
    try:
        if kind == "local":
            cluster = LocalCluster(n_workers=int(workers or default_jobs()), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
        else:
            client = Client(spec, timeout=10)
    except (OSError, TimeoutError, ValueError) as error:  # (ValueError: an address Dask cannot parse)
        if cluster is not None:
            cluster.close()
        raise NQueensError(f"cannot reach the Dask scheduler at {spec}: {error}") from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def stream(calls: Iterable[tuple[Any, ...]], workers: int, window: int, *, executor: Executor | None = None,
           deadline: float | None = None, processes: bool = False, ordered: bool = True) -> Generator[Any, None, None]:
    """The results of ``calls`` in order (see :func:`in_order`), or with
    ``ordered=False`` (index, result) pairs as they finish (:func:`as_finished`),
    on ``executor``, or on a pool of ``workers`` made here and shut down when
    the stream ends: at once, its workers stopped, if the stream is closed
    early or fails."""
    own = executor is None
    pool = executor or make_executor(workers, processes)
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
        with using(executor) as pool, closing(stream(parts, workers, 2 * workers, executor=pool, deadline=deadline,
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


def using(executor: Executor | str | None) -> Any:
    """A context giving the executor to run on: a Dask cluster for a scheduler's
    address or 'local:N' (for the length of the block), else ``executor`` as it is
    (None: the caller's own pool)."""
    return dask_executor(executor) if isinstance(executor, str) else nullcontext(executor)


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
            process.terminate()
    pool.shutdown(wait=True)
    if thread is not None:
        thread.join(timeout=60)  # (its workers are ended: it sees them gone and returns)
        wakeups = getattr(sys.modules.get("concurrent.futures.process"), "_threads_wakeups", None)
        if wakeups is not None and not thread.is_alive():
            wakeups.pop(thread, None)  # nothing is left to wake at exit
