"""Running a plan: the searches, split or whole, on this process, a local
pool or a Dask cluster; the count by symmetry classes with its tasks,
checkpoint, side searches and tallies; and decisions split into parts.

:mod:`.plan` decides how a question is searched and writes the answer down
as a :class:`Plan`; everything here carries it out and decides nothing of
its own.  The pools (:mod:`.pools`, concurrent.futures) are imported where a
pool runs: a search in this process, as ``enumerate 8``, starts without them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING, Any

from ..counting import classes
from ..engines import Engine, Outcome, Search
from ..engines.search import Counter
from ..errors import NQueensError, TimeLimitReached
from ..model.board import Solution
from . import parallel
from .plan import Plan, SolvePlan

if TYPE_CHECKING:
    from concurrent.futures import Executor

# Sub-boards per task of a count by classes: fewer pay the pool's per-task overhead,
# more leave a core idle at the end (benchmarks/task_size.py; docs/counting.md).
INLINE_MAX_N = 15  # a count by classes of one worker runs in this process up to here (0.1 s at N = 15)
SUB_BOARDS_PER_TASK = 32  # 71 tasks at N = 17, 58 at N = 16: measured best of 1..128 for both

Progress = Callable[[int, int], None]  # (sub-problems done, sub-problems in all)


def subproblems(engine: Engine, n: int, placed: dict[int, int]) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) of every sub-problem of a split search: weight 2 means
    the mirror images of its solutions stand for the other half of the first row."""
    mirror = not placed and not engine.symmetry_breaking and "mirror" in engine.variant.symmetries
    found = parallel.prefixes(n, placed, engine.split_rows(n), mirror=mirror, variant=engine.variant)
    if engine.symmetry_breaking:
        # Survivors keep s[0] <= n-1 - s[0] (the mirror's lex-leader
        # constraint): prefixes right of the centre hold none.
        found = [(prefix, weight) for prefix, weight in found if 2 * prefix[0] <= n - 1]
    return found


def translated(plan: Plan) -> list[tuple[dict[int, int], int]]:
    """The sub-problems of a count on the torus (a variant with ``translations``):
    moving every queen one column on gives a board again, so row 0's queen in
    column 0 stands for every column, weight N: N times less to search.
    Empty for any other count (or with pre-placed queens or symmetry breaking)."""
    engine, n = plan.engine, plan.n
    if not engine.variant.translations or plan.placed or engine.symmetry_breaking:
        return []
    return [(prefix, n) for prefix, _ in parallel.prefixes(n, {0: 0}, engine.split_rows(n), variant=engine.variant)]


def key_calls(plan: Plan) -> list[tuple[Any, ...]]:
    """A split plan's search as calls for :func:`pools.in_order`, each
    returning one sub-problem's packed keys, first invalid board, statistics
    and time-out flag (crosscheck feeds several engines through one pool)."""
    return [(parallel.part_keys, plan.engine, plan.n, prefix, weight)
            for prefix, weight in subproblems(plan.engine, plan.n, plan.placed)]


def _workers(plan: Plan, tasks: int) -> int:
    """Processes worth starting for this many sub-problems."""
    return max(1, min(plan.jobs, tasks))


def search(plan: Plan, progress: Progress | None = None) -> Search:
    """The search the plan describes, lazily: nothing runs until it is iterated or counted."""
    engine, n = plan.engine, plan.n
    # Counting plain N by symmetry classes, or by joining quarters, is the outer search's way of counting.
    counter = _quarters_counter(plan, progress) if plan.quarters else \
        _class_counter(plan, progress) if plan.classes else None
    if not plan.split:
        search = engine.checked_search(n, plan.placed, None if plan.unique else plan.limit, plan.time_limit,
                                       counter=None if plan.unique else counter)
    else:
        search = _split_search(plan, progress, None if plan.unique else counter)
    if plan.unique:
        search = _fundamental(search, plan.limit, counter)
    if counter:
        search.label += ", counted by joining quarters" if plan.quarters else ", counted by symmetry classes"
    return search


def _class_counter(plan: Plan, progress: Progress | None) -> Callable[[dict[str, Any], float | None], int]:
    """The count (total, or fundamental with ``unique``) by symmetry classes:
    :func:`classes.count <nqueens_cp.counting.classes.count>` does the
    counting; this module runs its tasks (:func:`_run_work`)."""

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        per_task = plan.engine.task_size(plan.n) or SUB_BOARDS_PER_TASK
        tally, work, nodes = classes.count(plan.n, per_task, lambda work: _run_work(plan, work, progress, deadline),
                                           deadline)
        stats.update(kernel=kernel_kind(), nodes=nodes, sub_boards=sum(len(task) for task in work.tasks),
                     **tally.to_dict())
        del stats["n"]
        return tally.fundamental if plan.unique else tally.total

    return counter


def _quarters_counter(plan: Plan, progress: Progress | None) -> Callable[[dict[str, Any], float | None], int]:
    """The count (total, or fundamental with ``unique``) by joining quarters:
    :func:`join.count <nqueens_cp.counting.join.count>` does the counting,
    this module runs its parts (:func:`_run_work`, as it runs a count by classes' tasks)."""
    from ..counting import join

    budget = plan.quarters
    assert budget is not None

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        result, work = join.count(plan.n, budget.cap, lambda work: _run_work(plan, work, progress, deadline),
                                  deadline)
        stats.update(kernel=kernel_kind(), parts=len(work.tasks), **result.stats(budget))
        return result.fundamental if plan.unique else result.total

    return counter


def _run_work(plan: Plan, work: classes.Work, progress: Progress | None,
                    deadline: float | None) -> tuple[Any, classes.Side]:
    """Every task of a count by classes (or by quarters), each by ``work.part``
    or else the engine's ``count_sub_boards`` (the CPU's loop or the GPU's),
    on processes or a cluster, recorded in the plan's checkpoint as it
    finishes; ``work.side`` beside them.  Their values summed, and the side's."""
    from . import pools

    tasks = work.tasks
    # On a cluster (a Dask scheduler, or an executor given) as many tasks in flight as jobs,
    # even for an engine that searches unsplit here (gpu: one process per GPU).
    workers = _workers(plan, len(tasks)) if plan.split or plan.executor is not None else 1
    record = None
    if plan.checkpoint:
        from .checkpoint import Checkpoint

        record = Checkpoint(plan.checkpoint, work.record, valid=work.valid)
    done_before = dict(record.done) if record else {}
    todo = [i for i in range(len(tasks)) if i not in done_before]
    # the work's own task, or the engine's (the CPU's loop, or the GPU's), the engine travelling with it
    calls = [(work.part or plan.engine.count_sub_boards, plan.n, tasks[i]) for i in todo]
    tallies = [sum(column) for column in zip((0,) * work.width, *done_before.values())]
    # The compiled loop cannot be interrupted: under a time limit, and where
    # the count takes long enough for a Ctrl-C to matter (count 18 -j 1 held
    # one for 11 s), even one worker is a process, which a deadline or a
    # signal stops at once.
    inline = workers == 1 and deadline is None and plan.executor is None and plan.n <= INLINE_MAX_N
    # Loaded here, before the pool forks its workers: they inherit the
    # compiled module instead of each loading it.
    kernel_kind()
    side = None
    try:
        # Counts add up in any order: each task is taken as it finishes.
        with _executor(plan, inline) as executor, closing(pools.stream(
                calls, workers, 4 * workers, executor=executor, deadline=deadline, processes=True,
                ordered=False)) as results:
            for done, (i, found) in enumerate(results, len(done_before) + 1):
                if side is None and not inline:
                    # Beside the workers, in this process, while they count; started
                    # once they are running, as a thread must never be forked.
                    side = pools.in_background(work.side)
                tallies = [a + b for a, b in zip(tallies, found)]
                if record:
                    record.record(todo[i], found)
                if progress:
                    progress(done, len(tasks))
    finally:
        if record:
            record.close()
    return tuple(tallies), side() if side else work.side()


@contextmanager
def _executor(plan: Plan, inline: bool = False) -> Iterator[Executor | None]:
    """Where sub-problems run: this process, the caller's executor, a Dask
    cluster (for the length of one stream), or None: a local pool."""
    from . import pools

    if inline:
        yield pools.InlineExecutor()
    else:
        with pools.using(plan.executor) as executor:
            yield executor


def _split_search(plan: Plan, progress: Progress | None, class_counter: Counter | None) -> Search:
    engine, n = plan.engine, plan.n
    listed: list[list[tuple[dict[int, int], int]]] = []

    def tasks() -> list[tuple[dict[int, int], int]]:
        """The sub-problems, listed when first asked for: a count by classes never asks."""
        if not listed:
            listed.append(subproblems(engine, n, plan.placed))
        return listed[0]

    def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
        if plan.pooled:
            return _pooled(plan, tasks(), _workers(plan, len(tasks())), stats, deadline, progress)
        return _inline(plan, tasks(), stats, deadline, progress)

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        found = translated(plan) or tasks()
        return _pooled_count(plan, found, _workers(plan, len(found)), stats, deadline, progress)

    how = f"on up to {plan.jobs} processes" if plan.pooled else "in this process"
    mirrored = ", mirror-halved" if plan.mirror else ""
    label = f"{engine!r} n={n}{' fixed=' + str(plan.placed) if plan.placed else ''}: " \
            f"split on its first {min(engine.split_rows(n), n)} rows{mirrored}, {how}"
    return Search(label, produce, None if plan.unique else plan.limit, plan.time_limit, class_counter or counter)


def _inline(plan: Plan, tasks: list[tuple[dict[int, int], int]], stats: dict[str, Any], deadline: float | None,
            progress: Progress | None) -> Iterator[Solution]:
    """The sub-problems one after the other in this process, lazily."""
    for done, (prefix, weight) in enumerate(tasks, 1):
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        with plan.engine.subproblem(plan.n, prefix, time_limit=remaining) as part:
            for solution in part:
                yield solution
                if weight == 2:
                    yield parallel.mirror_image(solution)
        parallel.merge_stats(stats, part.stats, plan.engine.additive)
        if part.timed_out:
            raise TimeLimitReached
        if progress:
            progress(done, len(tasks))


def _pooled(plan: Plan, tasks: list[tuple[dict[int, int], int]], workers: int, stats: dict[str, Any],
            deadline: float | None, progress: Progress | None) -> Iterator[Solution]:
    """The sub-problems on worker processes, their solutions in prefix order."""
    from ..model.board import unpack
    from . import pools

    wall = parallel.wall_deadline(deadline)
    calls = [(parallel.part_keys, plan.engine, plan.n, prefix, weight, wall) for prefix, weight in tasks]
    with _executor(plan) as executor, closing(pools.stream(calls, workers, 2 * workers,
                                                               executor=executor)) as results:
        for done, (data, invalid, part, timed_out) in enumerate(results, 1):
            if invalid is not None:
                raise NQueensError(f"engine {plan.engine.name} produced an invalid board: {invalid}")
            parallel.merge_stats(stats, part, plan.engine.additive)
            for key in parallel.unpacked_keys(data):
                yield unpack(key, plan.n)
            if timed_out:
                raise TimeLimitReached
            if progress:
                progress(done, len(tasks))


def _pooled_count(plan: Plan, tasks: list[tuple[dict[int, int], int]], workers: int, stats: dict[str, Any],
                  deadline: float | None, progress: Progress | None) -> int:
    from . import pools

    wall = parallel.wall_deadline(deadline)
    calls = [(parallel.part_count, plan.engine, plan.n, prefix, wall) for prefix, _ in tasks]
    total = 0
    with _executor(plan) as executor, closing(pools.stream(calls, workers, 4 * workers, executor=executor,
                                                               deadline=deadline)) as results:
        for done, ((found, part, timed_out), (_, weight)) in enumerate(zip(results, tasks), 1):
            parallel.merge_stats(stats, part, plan.engine.additive)
            if timed_out:
                raise TimeLimitReached
            total += weight * found
            if progress:
                progress(done, len(tasks))
    return total


def _fundamental(inner: Search, limit: int | None, counter: Counter | None = None) -> Search:
    """One canonical solution per symmetry class of ``inner``'s solutions
    (``counter``: a way to count them without listing them)."""
    from ..model.symmetry import fundamental

    def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
        inner.stats = stats
        inner.time_limit = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        try:
            yield from fundamental(inner)
        finally:
            inner.close()
            if inner.timed_out:
                raise TimeLimitReached

    return Search(f"{inner.label}, one per symmetry class", produce, limit, inner.time_limit, counter)


def kernel_kind() -> str:
    from .. import kernel

    return kernel.kind()


def solve(plan: SolvePlan) -> Outcome:
    """The decision the plan describes: whole, by the engine in this process,
    or split into the engine's :meth:`~Engine.solve_parts` on a pool or
    cluster, whose first solution in search order is the answer (the same as
    on one core).  Validated by the engine either way."""
    engine = plan.engine
    if not plan.split:
        return engine.solve(plan.n, plan.placed, plan.time_limit)
    from . import pools

    placed = engine.check_solve(plan.n, plan.placed, plan.time_limit)
    engine.preload()  # before the workers are forked: they inherit it (and its one warning, if any)
    start = time.perf_counter()
    stats: dict[str, Any] = {}
    answer = engine.trivial_answer(plan.n, placed) or pools.solve_in_parts(
        engine.solve_parts(plan.n, placed), plan.jobs, plan.executor, plan.time_limit, stats)
    return engine.outcome(plan.n, placed, answer, time.perf_counter() - start, stats)
