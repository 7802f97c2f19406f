"""The one place that decides how a question is searched.

:func:`solutions`, :func:`count` and :func:`solve` take every option the
command line has.  Whether a search is split into sub-problems, mirror-
halved, reduced to fundamental solutions, and which executor runs it is
decided here and nowhere else, so the CLI and the Python API get the same
solutions in the same order.

The rules:

- From N = 11 (:data:`SPLIT_MIN_N`) a search is split by fixing its first
  rows (the engine says how many), whatever the number of jobs: a long
  single CP-SAT enumeration slows down as it goes, many small ones do not,
  and the output order then never depends on the jobs.  Below that a
  whole search takes less than starting the workers.
- With nothing fixed and no symmetry breaking, only first-row columns left
  of the centre are searched; each solution's mirror image follows it.
- Sub-problems run in worker processes (``jobs`` of them, default: the
  cores) when every solution is wanted and N <= 16 (one 64-bit key per
  solution crosses between processes); with a ``limit``, beyond N = 16, or
  with ``jobs=1`` they run one after the other in this process, lazily, so
  the first solutions come at once.  Counting always uses the workers.
- ``unique`` keeps one solution per symmetry class, in canonical form.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import Any

from .counting import classes
from .counting import parallel
from .model.board import Solution, check_placements
from .engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, Engine, Outcome, Search, engine_class, get_engine
from .errors import InvalidInputError, NQueensError, TimeLimitReached
from .known import TOTAL

# Sub-boards per task of a count by classes: fewer pay the pool's per-task overhead,
# more leave a core idle at the end (benchmarks/task_size.py; benchmarks/README.md).
SUB_BOARDS_PER_TASK = 32  # 71 tasks at N = 17, 58 at N = 16: measured best of 1..128 for both
SPLIT_MIN_N = 11  # below this a whole search takes less than starting the workers
SPLIT_SOLVE_MIN_N = 12  # below this a whole decision takes less than starting the workers
HOPELESS_SECONDS = 3600.0  # estimated work beyond this gets a warning note

Progress = Callable[[int, int], None]  # (sub-problems done, sub-problems in all)
Notify = Callable[[str], None]  # told warnings (a hopeless run, too many jobs) before the work starts


@dataclass
class Count:
    """The result of counting: what was counted, the number, and how."""

    n: int
    engine: str
    count: int
    unique: bool
    seconds: float
    fixed: dict[int, int] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "count": self.count, "unique": self.unique, "engine": self.engine,
                "fixed": [[r, c] for r, c in sorted(self.fixed.items())], "options": self.options,
                "seconds": round(self.seconds, 6), "stats": self.stats}


def solutions(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
              limit: int | None = None, time_limit: float | None = None, jobs: int | None = None,
              unique: bool = False, executor: Executor | str | None = None, progress: Progress | None = None,
              notify: Notify | None = None, blocked: Iterable[tuple[int, int]] | None = None,
              **options: Any) -> Search:
    """The solutions of n-queens that honour ``fixed`` (row -> column), as a lazy :class:`Search`.

    ``blocked`` squares (row, column) hold no queen; whole diagonals are
    :func:`nqueens_cp.model.board.diagonal`'s squares.

    ``engine`` is a registered engine's name and ``options`` its own
    keywords (``solver=``, ``encoding=``, ``symmetry_breaking=``...).
    ``limit`` stops after that many solutions, ``time_limit`` after that many
    seconds (``Search.timed_out`` then says so).  ``jobs`` is the number of
    worker processes (default: the cores); ``executor`` runs the sub-problems
    elsewhere: any ``concurrent.futures.Executor``, or a Dask scheduler's
    address, or 'local' / 'local:N' for a Dask cluster started here.
    ``unique`` gives one solution per class of the 8 symmetries, canonical.
    ``progress(done, total)`` is called as sub-problems finish, and
    ``notify(message)`` with warnings before any work starts.
    """
    plan = _Plan(n, engine, _position(n, fixed, blocked), limit, time_limit, jobs, unique, executor, options)
    if notify:
        for note in [*plan.notes, *(advice(n, engine, limit=limit, jobs=plan.jobs) if not plan.placed else [])]:
            notify(note)
    return plan.search(progress)


def count(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
          time_limit: float | None = None, jobs: int | None = None, unique: bool = False,
          executor: Executor | str | None = None, progress: Progress | None = None, checkpoint: str | None = None,
          blocked: Iterable[tuple[int, int]] | None = None, **options: Any) -> int:
    """The number of solutions of n-queens that honour ``fixed`` (fundamental ones with ``unique``).

    Takes the keywords of :func:`solutions` but ``limit``.  Raises
    :class:`TimeLimitReached` if ``time_limit`` comes first: a partial
    number is never returned as the count."""
    return counted(n, engine, fixed, time_limit=time_limit, jobs=jobs, unique=unique, executor=executor,
                   progress=progress, checkpoint=checkpoint, blocked=blocked, **options).count


def counted(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
            time_limit: float | None = None, jobs: int | None = None, unique: bool = False,
            executor: Executor | str | None = None, progress: Progress | None = None, notify: Notify | None = None,
            checkpoint: str | None = None, blocked: Iterable[tuple[int, int]] | None = None,
            **options: Any) -> Count:
    """:func:`count` as a :class:`Count`: the number with its statistics and timing.

    ``checkpoint`` names a file where finished tasks are recorded as they
    finish; the same count run again resumes from it (bitmask, plain N)."""
    plan = _Plan(n, engine, _position(n, fixed, blocked), None, time_limit, jobs, unique, executor, options)
    if checkpoint is not None:
        if not plan.classes:
            raise InvalidInputError("checkpoints are kept for counts by symmetry classes: the bitmask engine, "
                                    "plain N (no pre-placed queens, no symmetry breaking)")
        plan.checkpoint = checkpoint
    if notify:
        for note in [*plan.notes, *(advice(n, engine, counting=not unique, jobs=plan.jobs) if not plan.placed else [])]:
            notify(note)
    start = time.perf_counter()
    search = plan.search(progress)
    found = search.count()
    return Count(n, plan.engine.name, found, unique, time.perf_counter() - start, plan.placed,
                 plan.engine.settings, search.stats)


def solve(n: int, engine: str = DEFAULT_SOLVE_ENGINE, fixed: Mapping[int, int] | None = None, *,
          time_limit: float | None = None, blocked: Iterable[tuple[int, int]] | None = None,
          jobs: int | None = None, executor: Executor | str | None = None, **options: Any) -> Outcome:
    """One solution of n-queens that keeps every pre-placed queen and leaves
    every ``blocked`` square empty, or a proof that none exists, or "unknown"
    (see :class:`Status`); validated.  Engines that split their search
    (``splits_solve``: bitmask) use ``jobs`` processes (default: the cores)
    or ``executor``, as :func:`solutions` does; the answer does not depend on them."""
    parallel.check_jobs(jobs)
    _check_executor(executor)
    chosen = get_engine(engine, **options)
    split = chosen.splits_solve and (jobs != 1 or executor is not None) and n >= SPLIT_SOLVE_MIN_N

    def run_parts(parts: list[tuple[Any, ...]], stats: dict[str, Any]) -> tuple[Any, Any, str]:
        return parallel.solve_in_parts(parts, jobs, executor, time_limit, stats)

    return chosen.solve(n, _position(n, fixed, blocked), time_limit, run_parts=run_parts if split else None)


def _check_executor(executor: Any) -> None:
    if executor is not None and not isinstance(executor, (Executor, str)):
        raise InvalidInputError(f"executor must be a concurrent.futures.Executor or a Dask scheduler's "
                                f"address, got {executor!r}")


def _position(n: int, fixed: Mapping[int, int] | None, blocked: Iterable[tuple[int, int]] | None) -> Any:
    """``fixed`` with the blocked squares, checked; ``fixed`` as given when nothing is blocked."""
    if blocked is None:
        return fixed
    if isinstance(blocked, (str, bytes)) or not isinstance(blocked, Iterable):
        raise InvalidInputError(f"blocked takes (row, column) squares, got {blocked!r}")
    return check_placements(n, fixed, [tuple(square) if isinstance(square, list) else square for square in blocked])


def advice(n: int, engine: str = DEFAULT_ENGINE, *, counting: bool = False, limit: int | None = None,
           jobs: int | None = None) -> list[str]:
    """Warnings for runs that cannot finish in reasonable time, naming a
    better command where there is one.  Empty for sensible runs."""
    cls = engine_class(engine)
    workers = jobs or parallel.default_jobs()
    notes = []
    total = _estimated_total(n)
    if limit is None:
        rate = (cls.count_rate if counting else cls.enumeration_rate) * min(workers, parallel.default_jobs())
        seconds = total / rate if rate else math.inf
        if seconds > HOPELESS_SECONDS:
            what = "count" if counting else "list"
            notes.append(f"N={n} has {'about ' if n not in TOTAL else ''}{_big(total)} solutions: at about "
                         f"{_big(rate)} per second here, {engine} would need {_duration(seconds)} to {what} them")
    elif n > cls.first_solution_max_n:
        notes.append(f"a {engine} search for the first solutions of N={n} may run for a very long time (backtracking "
                     f"time is irregular in N); 'solve {n} --engine construct' or '--engine minconflicts' gives one "
                     "at once")
    return notes


# --- the decisions ----------------------------------------------------------------------

def splits(n: int) -> bool:
    """Whether a search of n is split into sub-problems (in any number of processes, 1 included)."""
    return n >= SPLIT_MIN_N


def subproblems(engine: Engine, n: int, placed: dict[int, int]) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) of every sub-problem of a split search: weight 2 means
    the mirror images of its solutions stand for the other half of the first row."""
    mirror = not placed and not engine.symmetry_breaking
    found = parallel.prefixes(n, placed, engine.split_rows(n), mirror=mirror)
    if engine.symmetry_breaking:
        # Survivors keep s[0] <= n-1 - s[0] (the mirror's lex-leader
        # constraint): prefixes right of the centre hold none.
        found = [(prefix, weight) for prefix, weight in found if 2 * prefix[0] <= n - 1]
    return found


def key_calls(engine: Engine, n: int) -> list[tuple[Any, ...]]:
    """A whole search of n split into calls for :func:`parallel.in_order`, each
    returning one sub-problem's packed keys, first invalid board, statistics
    and time-out flag (crosscheck feeds several engines through one pool)."""
    return [(parallel.part_keys, engine, n, prefix, weight) for prefix, weight in subproblems(engine, n, {})]


class _Plan:
    """What was asked, checked, and how it will be searched."""

    def __init__(self, n: int, engine: str, fixed: Mapping[int, int] | None, limit: int | None,
                 time_limit: float | None, jobs: int | None, unique: bool, executor: Executor | str | None,
                 options: dict[str, Any]) -> None:
        self.engine: Engine = get_engine(engine, **options)
        self.placed = self.engine.check(n, fixed, limit, time_limit)  # the engine's own checks; nothing runs
        self.jobs = parallel.check_jobs(jobs)
        if type(unique) is not bool:
            raise InvalidInputError(f"unique takes True or False, got {unique!r}")
        _check_executor(executor)
        self.checkpoint: str | None = None
        self.n, self.limit, self.time_limit, self.unique = n, limit, time_limit, unique
        self.executor = executor
        self.split = splits(n)
        self.mirror = self.split and not self.placed and not self.engine.symmetry_breaking
        # Counting plain N: one board per class of the 8 symmetries, where the engine can.
        self.classes = self.engine.counts_classes and not self.placed and not self.engine.symmetry_breaking \
            and n >= classes.MIN_N
        self.notes: list[str] = []
        cores = parallel.default_jobs()
        if self.jobs > cores and executor is None and self.split:
            self.notes.append(f"jobs={self.jobs} is more than the {cores} cores here: at most one process per "
                              "sub-problem is started, and more processes than cores only add overhead")

    def tasks(self) -> list[tuple[dict[int, int], int]]:
        return subproblems(self.engine, self.n, self.placed)

    def workers(self, tasks: int) -> int:
        """Processes worth starting for this many sub-problems."""
        return max(1, min(self.jobs, tasks))

    def search(self, progress: Progress | None) -> Search:
        engine, n = self.engine, self.n
        if not self.split:
            search = engine.search(n, self.placed, None if self.unique else self.limit, self.time_limit)
        else:
            search = self._split_search(progress)
        if self.unique:
            search = _fundamental(search, self.limit)
        if self.classes:
            search.counter = self._class_counter(progress)
            search.label += ", counted by symmetry classes"
        return search

    def _class_counter(self, progress: Progress | None) -> Callable[[dict[str, Any], float | None], int]:
        """The count (total, or fundamental with ``unique``) by symmetry classes:
        corner / inner sub-boards in the compiled loop (classes.py)."""

        def counter(stats: dict[str, Any], deadline: float | None) -> int:
            chunks = classes.chunks(self.n, SUB_BOARDS_PER_TASK)
            workers = self.workers(len(chunks)) if self.split else 1
            record = None
            if self.checkpoint:
                from .counting.checkpoint import Checkpoint

                record = Checkpoint(self.checkpoint, {"n": self.n, "method": classes.METHOD, "tasks": len(chunks),
                                                      "sub_boards_per_task": SUB_BOARDS_PER_TASK})
            done_before = dict(record.done) if record else {}
            todo = [i for i in range(len(chunks)) if i not in done_before]
            calls = [(classes.count_sub_boards, self.n, chunks[i]) for i in todo]
            tallies = [sum(column) for column in zip((0,) * classes.VALUES, *done_before.values())]
            # The compiled loop cannot be interrupted: under a time limit even
            # one worker is a process, which the deadline can stop.
            inline = workers == 1 and deadline is None and self.executor is None
            n = self.n

            def side_work() -> tuple[tuple[int, int], int]:
                """The small searches of the check and of the tie squares."""
                return classes.symmetric_counts(n, deadline), classes.symmetric_on_ties(n, deadline)

            # Compiled (or read from the cache) here, before the pool forks its
            # workers: they inherit the machine code instead of each loading it.
            kind = kernel_kind()

            side = None
            try:
                # Counts add up in any order: each task is taken as it finishes.
                with self._executor(inline) as executor, closing(parallel.stream(
                        calls, workers, 4 * workers, executor=executor, deadline=deadline, processes=True,
                        ordered=False)) as results:
                    for done, (i, found) in enumerate(results, len(done_before) + 1):
                        if side is None and not inline:
                            # Beside the workers, in this process, while they count; started
                            # once they are running, as a thread must never be forked.
                            side = parallel.in_background(side_work)
                        task = todo[i]
                        tallies = [a + b for a, b in zip(tallies, found)]
                        if record:
                            record.record(task, found)
                        if progress:
                            progress(done, len(chunks))
            finally:
                if record:
                    record.close()
            eight, four, two, nodes, tied = tallies
            searched, on_ties = side() if side else side_work()
            tally = classes.tally(n, eight, four, two, tied, on_ties)
            tally.check(deadline, searched)
            stats.update(kernel=kind, nodes=nodes, sub_boards=sum(len(c) for c in chunks), **tally.to_dict())
            del stats["n"]
            return tally.fundamental if self.unique else tally.total

        return counter

    @contextmanager
    def _executor(self, inline: bool = False) -> Iterator[Executor | None]:
        """Where sub-problems run: this process, the caller's executor, a Dask
        cluster (for the length of one stream), or None: a local pool."""
        if inline:
            yield parallel.InlineExecutor()
        else:
            with parallel.using(self.executor) as executor:
                yield executor

    def _split_search(self, progress: Progress | None) -> Search:
        engine, n = self.engine, self.n
        tasks = self.tasks()
        pooled = self.limit is None and n <= parallel.KEY_MAX_N and (self.jobs > 1 or self.executor is not None)
        workers = self.workers(len(tasks)) if pooled else 1

        def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
            if pooled:
                return self._pooled(tasks, workers, stats, deadline, progress)
            return self._inline(tasks, stats, deadline, progress)

        def counter(stats: dict[str, Any], deadline: float | None) -> int:
            return self._pooled_count(tasks, self.workers(len(tasks)), stats, deadline, progress)

        how = f"{workers} processes" if pooled else "in this process"
        mirrored = ", mirror-halved" if self.mirror else ""
        label = f"{engine!r} n={n}{' fixed=' + str(self.placed) if self.placed else ''}: " \
                f"{len(tasks)} sub-problems{mirrored}, {how}"
        return Search(label, produce, None if self.unique else self.limit, self.time_limit, counter)

    def _inline(self, tasks: list[tuple[dict[int, int], int]], stats: dict[str, Any], deadline: float | None,
                progress: Progress | None) -> Iterator[Solution]:
        """The sub-problems one after the other in this process, lazily."""
        for done, (prefix, weight) in enumerate(tasks, 1):
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise TimeLimitReached
            with self.engine.subproblem(self.n, prefix, time_limit=remaining) as part:
                for solution in part:
                    yield solution
                    if weight == 2:
                        yield parallel.mirror_image(solution)
            parallel.merge_stats(stats, part.stats, self.engine.additive)
            if part.timed_out:
                raise TimeLimitReached
            if progress:
                progress(done, len(tasks))

    def _pooled(self, tasks: list[tuple[dict[int, int], int]], workers: int, stats: dict[str, Any],
                deadline: float | None, progress: Progress | None) -> Iterator[Solution]:
        """The sub-problems on worker processes, their solutions in prefix order."""
        from .model.board import unpack

        wall = _wall_deadline(deadline)
        calls = [(parallel.part_keys, self.engine, self.n, prefix, weight, wall) for prefix, weight in tasks]
        with self._executor() as executor, closing(parallel.stream(calls, workers, 2 * workers,
                                                                   executor=executor)) as results:
            for done, (data, invalid, part, timed_out) in enumerate(results, 1):
                if invalid is not None:
                    raise NQueensError(f"engine {self.engine.name} produced an invalid board: {invalid}")
                parallel.merge_stats(stats, part, self.engine.additive)
                for key in parallel.unpacked_keys(data):
                    yield unpack(key, self.n)
                if timed_out:
                    raise TimeLimitReached
                if progress:
                    progress(done, len(tasks))

    def _pooled_count(self, tasks: list[tuple[dict[int, int], int]], workers: int, stats: dict[str, Any],
                      deadline: float | None, progress: Progress | None) -> int:
        wall = _wall_deadline(deadline)
        calls = [(parallel.part_count, self.engine, self.n, prefix, wall) for prefix, _ in tasks]
        total = 0
        with self._executor() as executor, closing(parallel.stream(calls, workers, 4 * workers, executor=executor,
                                                                   deadline=deadline)) as results:
            for done, ((found, part, timed_out), (_, weight)) in enumerate(zip(results, tasks), 1):
                parallel.merge_stats(stats, part, self.engine.additive)
                if timed_out:
                    raise TimeLimitReached
                total += weight * found
                if progress:
                    progress(done, len(tasks))
        return total


def _fundamental(inner: Search, limit: int | None) -> Search:
    """One canonical solution per symmetry class of ``inner``'s solutions."""
    from .model.symmetry import fundamental

    def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
        inner.stats = stats
        inner.time_limit = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        try:
            yield from fundamental(inner)
        finally:
            inner.close()
            if inner.timed_out:
                raise TimeLimitReached

    search = Search(f"{inner.label}, one per symmetry class", produce, limit, inner.time_limit)
    return search


def _wall_deadline(deadline: float | None) -> float | None:
    """A monotonic deadline as wall-clock time, which every process of the machine shares."""
    return None if deadline is None else time.time() + (deadline - time.monotonic())


def _estimated_total(n: int) -> float:
    """A000170 where published, else extrapolated from its last ratio."""
    if n in TOTAL:
        return float(TOTAL[n])
    top = max(TOTAL)
    return TOTAL[top] * (TOTAL[top] / TOTAL[top - 1]) ** (n - top)


def _big(x: float) -> str:
    return f"{x:,.0f}" if x < 1e9 else f"{x:.1e}"


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= size:
            value = seconds / size
            return f"about {value:,.0f} {unit}" if value < 1e6 else f"about {value:.0e} {unit}"
    return f"about {seconds:.0f} seconds"


def kernel_kind() -> str:
    from . import kernel

    return kernel.kind()
