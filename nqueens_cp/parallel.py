"""Parallelism by splitting the problem, never inside a solver.

The first rows are fixed to every non-attacking prefix, and each prefix is an
independent sub-solve in its own process (an enumerating CP-SAT solve must
keep one worker: more lose solutions).  With nothing fixed by the caller,
only first-row columns left of the centre are searched and each solution's
mirror image is produced beside it, which halves the work for every engine.  Solutions travel back as one 64-bit
key per solution (:func:`board.pack`), and come out in prefix order, so the
output is the same whatever the number of jobs.  The executor is a plain
``concurrent.futures.Executor``: any other (a cluster's) can take its place.
"""

from __future__ import annotations

import os
import signal
import sys
from array import array
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, Future
from contextlib import closing
from typing import Any

from .board import Solution, is_solution, pack, unpack
from .engines import Engine

PARALLEL_MIN_N = 11  # below this a whole search takes less than starting the processes

# Counters that add up across sub-problems; other statistics (model size) are per sub-problem.
ADDITIVE = {"nodes", "tries", "branches", "conflicts", "decisions", "propagations", "restarts", "solver_wall_time"}


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def splits(n: int) -> bool:
    """Whether n is searched as sub-problems (in any number of processes, 1 included),
    which fixes the output order whatever the number of jobs."""
    return n >= PARALLEL_MIN_N


class InlineExecutor(Executor):
    """Runs each task at once, in this process: ``--jobs 1``."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever asks for the result
            future.set_exception(error)
        return future


def prefixes(n: int, fixed: dict[int, int], rows: int, mirror: bool = False) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) for every non-attacking placement of the first rows
    that honours ``fixed``.  With ``mirror``, only first-row columns left of
    the centre are kept, with weight 2 (the centre column, odd n, weight 1)."""
    rows = min(rows, n)
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
            found.append((dict(prefix), weight))
            return
        for col in ([fixed[row]] if row in fixed else range(n)):
            if all(c != col and abs(c - col) != row - r for r, c in prefix.items()):
                prefix[row] = col
                extend(prefix)
                del prefix[row]

    extend({})
    return found


# --- in the worker processes ---------------------------------------------------------

def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # A forked worker holds a copy of the parent's unwritten stdout buffer,
    # which multiprocessing would flush when the worker exits: drop it.
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115


def _sub_search(engine: Engine, n: int, fixed: dict[int, int], stats: dict[str, Any]) -> Iterator[Solution]:
    if engine.symmetry_breaking:
        # The survivors in this sub-problem, expanded by their orbits.  Every
        # class has its least survivor in exactly one sub-problem.
        from .symmetry import expand

        return expand(engine._search(n, fixed, None, stats))
    return engine.search(n, fixed)


def _sub_keys(engine: Engine, n: int, fixed: dict[int, int], weight: int) -> tuple[bytes, Solution | None, dict[str, Any]]:
    """One sub-problem's solutions as packed keys, the first invalid board if any, and statistics.

    Weight 2 marks a first-row column left of the centre: each solution is
    followed by its mirror image, which the mirrored sub-problem would find.
    """
    stats: dict[str, Any] = {}
    search = _sub_search(engine, n, fixed, stats)
    keys, invalid = packed(search, n, mirrored=weight == 2)
    stats.update(getattr(search, "stats", {}))
    return keys.tobytes(), invalid, stats


def packed(solutions: Iterable[Solution], n: int, mirrored: bool = False) -> tuple[Any, Solution | None]:
    """Every solution as one integer key (and, if ``mirrored``, its mirror image
    after it), with the first board that fails the independent validator.
    The keys are a 64-bit array for n <= 16, where they fit, else a list."""
    keys: Any = array("Q") if n <= 16 else []
    invalid = None
    for solution in solutions:
        if invalid is None and not is_solution(solution, n):
            invalid = solution
        keys.append(pack(solution, n))
        if mirrored:
            keys.append(pack(tuple(n - 1 - c for c in solution), n))
    return keys, invalid


def _sub_count(engine: Engine, n: int, fixed: dict[int, int]) -> tuple[int, dict[str, Any]]:
    stats: dict[str, Any] = {}
    search = _sub_search(engine, n, fixed, stats)
    if hasattr(search, "count"):
        count = search.count()
        stats.update(search.stats)
    else:
        count = sum(1 for _ in search)
    return count, stats


# --- in the parent -------------------------------------------------------------------

def make_executor(jobs: int) -> Executor:
    if jobs == 1:
        return InlineExecutor()
    from concurrent.futures import ProcessPoolExecutor  # 30 ms of imports that enumerate 8 does without

    return ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker)


def _merge(total: dict[str, Any], part: dict[str, Any]) -> None:
    for key, value in part.items():
        if key in ADDITIVE:
            total[key] = total.get(key, 0) + value
        else:
            total.setdefault(key, value)
    total["subproblems"] = total.get("subproblems", 0) + 1


def _tasks(engine: Engine, n: int, fixed: dict[int, int] | None, mirror: bool):
    placed = engine.search(n, fixed).fixed  # the engine's own checks of n and placements; nothing runs yet
    use_mirror = mirror and not placed and not engine.symmetry_breaking
    found = prefixes(n, placed, engine.split_rows(n), mirror=use_mirror)
    if engine.symmetry_breaking:
        # Survivors keep s[0] <= n-1 - s[0] (the mirror's lex-leader
        # constraint): prefixes right of the centre hold none.
        found = [(prefix, weight) for prefix, weight in found if 2 * prefix[0] <= n - 1]
    return [({**placed, **prefix}, weight) for prefix, weight in found]


def in_order(pool: Executor, calls: Iterable[tuple[Any, ...]], window: int) -> Iterator[Any]:
    """The results of ``calls`` (each ``(fn, *args)``), in order, with at most
    ``window`` submitted and not yet taken, so that a slow consumer holds the
    work back instead of piling results up.

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
        result = pending.popleft().result()
        for fn, *args in todo:
            pending.append(pool.submit(fn, *args))
            break
        yield result


def key_calls(engine: Engine, n: int, fixed: dict[int, int] | None) -> list[tuple[Any, ...]]:
    """The sub-problems of one search, as calls for :func:`in_order` that each
    return (packed keys, first invalid board or None, statistics)."""
    if n > 16:
        raise ValueError("packed keys hold n <= 16")
    return [(_sub_keys, engine, n, task, weight) for task, weight in _tasks(engine, n, fixed, mirror=True)]


def keys(engine: Engine, n: int, fixed: dict[int, int] | None, jobs: int,
         stats: dict[str, Any] | None = None, executor: Executor | None = None) -> Iterator[tuple[bytes, Solution | None]]:
    """Each sub-problem's packed keys (and first invalid board), in prefix order,
    with at most a few sub-problems' results held at once."""
    calls = key_calls(engine, n, fixed)
    own = executor is None
    pool = executor or make_executor(jobs)
    finished = False
    try:
        with closing(in_order(pool, calls, 2 * jobs)) as results:
            for data, invalid, part in results:
                if stats is not None:
                    _merge(stats, part)
                yield data, invalid
        finished = True
    finally:
        if own:
            shutdown(pool, abort=not finished)


def solutions(engine: Engine, n: int, fixed: dict[int, int] | None, jobs: int,
              stats: dict[str, Any] | None = None, executor: Executor | None = None) -> Iterator[Solution]:
    """Every solution, split across processes, in a fixed order whatever ``jobs`` is."""
    for data, _ in keys(engine, n, fixed, jobs, stats, executor):
        block = array("Q")
        block.frombytes(data)
        for key in block:
            yield unpack(key, n)


def count(engine: Engine, n: int, fixed: dict[int, int] | None, jobs: int,
          stats: dict[str, Any] | None = None, executor: Executor | None = None) -> int:
    """The number of solutions, split across processes (mirror-halved when nothing is fixed)."""
    tasks = _tasks(engine, n, fixed, mirror=True)
    own = executor is None
    pool = executor or make_executor(jobs)
    finished = False
    try:
        futures = [(pool.submit(_sub_count, engine, n, task), weight) for task, weight in tasks]
        total = 0
        for future, weight in futures:
            part_count, part = future.result()
            total += weight * part_count
            if stats is not None:
                _merge(stats, part)
        finished = True
        return total
    finally:
        if own:
            shutdown(pool, abort=not finished)


def shutdown(pool: Executor, abort: bool) -> None:
    """Wait for the workers, or after Ctrl-C or an early close stop them at
    once: cancel what has not started and end what has."""
    if abort:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
    pool.shutdown(wait=True)
