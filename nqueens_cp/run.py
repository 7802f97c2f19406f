"""The one place that decides how a question is searched.

:func:`solutions`, :func:`count` and :func:`solve` take every option the
command line has.  Whether a search is split into sub-problems, mirror-
halved, reduced to fundamental solutions, and which executor runs it is
decided here and nowhere else, so the CLI and the Python API get the same
solutions in the same order.

The rules:

- From N = 11 (:data:`SPLIT_MIN_N`) to 64 a search is split by fixing its first
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
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from .counting import classes, execute, parallel
from .counting.execute import Plan, Progress
from .engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, Outcome, Search, engine_class, get_engine
from .errors import InvalidInputError
from .known import TOTAL
from .model.board import check_placements

SPLIT_MIN_N = 11  # below this a whole search takes less than starting the workers
SPLIT_MAX_N = 64  # beyond, a search is not split (see splits)
SPLIT_SOLVE_MIN_N = 12  # below this a whole decision takes less than starting the workers
HOPELESS_SECONDS = 3600.0  # estimated work beyond this gets a warning note

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
    if engine_class(engine).counts_only:
        raise InvalidInputError(f"engine {engine} counts solutions without listing them: use count")
    chosen = plan(n, engine, _position(n, fixed, blocked), limit=limit, time_limit=time_limit, jobs=jobs,
                  unique=unique, executor=executor, **options)
    if notify:
        for note in [*chosen.notes, *(advice(n, engine, limit=limit, jobs=chosen.jobs) if not chosen.placed else [])]:
            notify(note)
    return execute.search(chosen, progress)


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
    chosen = plan(n, engine, _position(n, fixed, blocked), time_limit=time_limit, jobs=jobs, unique=unique,
                  executor=executor, checkpoint=checkpoint, **options)
    if notify:
        for note in [*chosen.notes,
                     *(advice(n, engine, counting=not unique, jobs=chosen.jobs) if not chosen.placed else [])]:
            notify(note)
    start = time.perf_counter()
    search = execute.search(chosen, progress)
    found = search.count()
    return Count(n, chosen.engine.name, found, unique, time.perf_counter() - start, chosen.placed,
                 chosen.engine.settings, search.stats)


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
    if isinstance(executor, str):
        parallel.check_scheduler(executor)


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
    total = _log_total(n)
    counting = counting or cls.counts_only
    if limit is None:
        rate = (cls.count_rate if counting else cls.enumeration_rate) * min(workers, parallel.default_jobs())
        seconds = total - math.log10(rate) if rate else -math.inf  # no rate, no estimate
        if seconds > math.log10(HOPELESS_SECONDS):
            what = "count" if counting else "list"
            notes.append(f"N={n} has {'about ' if n not in TOTAL else ''}{_big(total)} solutions: at about "
                         f"{_big(math.log10(rate))} per second here, {engine} would need {_duration(seconds)} to "
                         f"{what} them")
    elif n > cls.first_solution_max_n:
        notes.append(f"a {engine} search for the first solutions of N={n} may run for a very long time (backtracking "
                     f"time is irregular in N); 'solve {n} --engine construct' or '--engine minconflicts' gives one "
                     "at once")
    return notes


# --- the decisions ----------------------------------------------------------------------

def splits(n: int) -> bool:
    """Whether a search of n is split into sub-problems (in any number of
    processes, 1 included): from SPLIT_MIN_N to SPLIT_MAX_N.  Beyond, the
    N^2 sub-problems would take longer to list than any search finds in a
    lifetime, and one search in this process keeps memory to O(N)."""
    return SPLIT_MIN_N <= n <= SPLIT_MAX_N


def plan(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
         limit: int | None = None, time_limit: float | None = None, jobs: int | None = None,
         unique: bool = False, executor: Executor | str | None = None, checkpoint: str | None = None,
         **options: Any) -> Plan:
    """What was asked, checked, and how it will be searched (the rules above),
    for :func:`solutions` and :func:`counted` alike.  Nothing runs."""
    chosen = get_engine(engine, **options)
    placed = chosen.check(n, fixed, limit, time_limit)  # the engine's own checks
    workers = parallel.check_jobs(jobs)
    if type(unique) is not bool:
        raise InvalidInputError(f"unique takes True or False, got {unique!r}")
    _check_executor(executor)
    split = splits(n) and not chosen.counts_only  # a model counter counts the whole question at once
    # Counting plain N: one board per class of the 8 symmetries, where the engine can.
    by_classes = chosen.counts_classes and not placed and not chosen.symmetry_breaking \
        and classes.MIN_N <= n <= classes.MAX_N
    if chosen.counts_only and unique and not by_classes:
        raise InvalidInputError(f"engine {engine} counts every solution without seeing any: it cannot count "
                                "one per symmetry class (unique)")
    if checkpoint is not None and not by_classes:
        raise InvalidInputError("checkpoints are kept for counts by symmetry classes: the bitmask engine, "
                                "plain N (no pre-placed queens, no symmetry breaking)")
    notes = []
    cores = parallel.default_jobs()
    if workers > cores and executor is None and split:
        notes.append(f"jobs={workers} is more than the {cores} cores here: at most one process per "
                     "sub-problem is started, and more processes than cores only add overhead")
    return Plan(n, chosen, placed, limit, time_limit, workers, unique, executor, split,
                mirror=split and not placed and not chosen.symmetry_breaking, classes=by_classes,
                checkpoint=checkpoint, notes=tuple(notes))


def _log_total(n: int) -> float:
    """log10 of A000170 where published, else extrapolated from its last
    ratio (in logarithms: the number itself overflows a float from N = 329)."""
    if n in TOTAL:
        return math.log10(TOTAL[n]) if TOTAL[n] else -math.inf
    top = max(TOTAL)
    return math.log10(TOTAL[top]) + (n - top) * math.log10(TOTAL[top] / TOTAL[top - 1])


def _big(log: float) -> str:
    """A number given as its log10, readably: 14,200 or 2.3e+14 or 1e+1100."""
    if log < 9:
        return f"{10 ** log:,.0f}"
    exponent = math.floor(log)
    return f"{10 ** (log - exponent):.1f}e+{exponent:02d}"


def _duration(log_seconds: float) -> str:
    """A time given as log10 of its seconds."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        log = log_seconds - math.log10(size)
        if log >= 0:
            return f"about {10 ** log:,.0f} {unit}" if log < 6 else f"about {_big(log)} {unit}"
    return f"about {10 ** log_seconds:.0f} seconds"
