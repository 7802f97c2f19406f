"""Running a plan: the searches, split or whole, on this process, a local
pool or a Dask cluster; the count by symmetry classes with its tasks,
checkpoint, side searches and tallies; and decisions split into parts.

:mod:`.plan` decides how a question is searched and writes the answer down
as a :class:`Plan`; everything here carries it out and decides nothing of
its own.  The pools (:mod:`.pools`, concurrent.futures) are imported where a
pool runs: a search in this process, as ``enumerate 8``, starts without them.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING, Any

from ..counting import classes
from ..engines import Outcome, Search
from ..engines.search import Counter
from ..errors import NQueensError, TimeLimitReached
from ..model.board import Solution
from . import parallel
from .plan import Plan, SolvePlan

if TYPE_CHECKING:
    from concurrent.futures import Executor

# Sub-boards per task of a count by classes: fewer pay the pool's per-task overhead,
# more leave a core idle at the end (benchmarks/task_size.py; docs/counting.md).
SUB_BOARDS_PER_TASK = 32  # 71 tasks at N = 17, 58 at N = 16: measured best of 1..128 for both

Progress = Callable[[int, int], None]  # (sub-problems done, sub-problems in all)
RECOUNTED = 4  # records of a checkpoint counted again on resuming (chosen at random)


def subproblems(plan: Plan, listing: bool = True) -> list[tuple[dict[int, int], int]]:
    """(prefix, weight) of every sub-problem of the plan's split search, as
    its strategy says: weight 2 means the mirror images of its boards stand
    for the other half of the first row; weight N (a count on the torus,
    ``listing`` false) that row 0's piece in column 0 stands for every column."""
    engine, n, strategy = plan.engine, plan.n, plan.strategy
    if strategy.weights == "translations" and not listing:
        return [(prefix, n) for prefix, _ in parallel.prefixes(n, {0: 0}, strategy.rows, variant=engine.variant)]
    found = parallel.prefixes(n, plan.placed, strategy.rows, mirror=strategy.weights == "mirror",
                              variant=engine.variant)
    if engine.symmetry_breaking:
        # Survivors keep s[0] <= n-1 - s[0] (the mirror's lex-leader
        # constraint): prefixes right of the centre hold none.
        found = [(prefix, weight) for prefix, weight in found if 2 * prefix[0] <= n - 1]
    return found


def key_calls(plan: Plan) -> list[tuple[Any, ...]]:
    """A split plan's search as calls for :func:`pools.in_order`, each
    returning one sub-problem's packed keys, what first failed the validator,
    statistics and time-out flag (crosscheck feeds several engines through one pool)."""
    return [(parallel.part_keys, plan.engine, plan.question, prefix, weight) for prefix, weight in subproblems(plan)]


def _workers(plan: Plan, tasks: int) -> int:
    """Processes worth starting for this many sub-problems."""
    return max(1, min(plan.jobs, tasks))


def search(plan: Plan, progress: Progress | None = None) -> Search:
    """The search the plan's strategy describes, lazily: nothing runs until it
    is iterated or counted.  Every board it hands on has passed the question's
    validator (here, or in the worker that found it)."""
    engine, n, strategy = plan.engine, plan.n, plan.strategy
    counting = plan._replace(strategy=plan.counted_by) if plan.counted_by else plan  # (what count() runs)
    counter = _quarters_counter(counting, progress) if counting.strategy.kind == "quarters" else \
        _class_counter(counting, progress) if counting.strategy.kind == "classes" else None
    if strategy.kind == "split":
        search = _split_search(plan, progress, None if plan.unique else counter)
    else:
        whole = engine.checked_search(n, plan.placed, None if plan.unique else plan.limit, plan.time_limit,
                                      counter=None if plan.unique else counter)
        search = _validated(whole, plan)
    if plan.unique:
        search = _fundamental(search, plan, counter)
    fixed = f" fixed={dict(plan.placed)}" if plan.placed else ""
    counted = f"; its count(): {plan.counted_by.label}" if plan.counted_by else ""
    search.label = f"{engine!r} n={n}{fixed}: {strategy.label}{counted}"
    return search


def _validated(inner: Search, plan: Plan) -> Search:
    """``inner``'s boards, each through the question's validator before it is
    handed on: a board that fails is an error naming the engine and the path."""
    check = parallel.Validator(plan.question)

    def validate(boards: Iterator[Solution]) -> Iterator[Solution]:
        with _invalid_is_an_error(plan):
            yield from parallel.checked(boards, check)

    return _wrapped(inner, validate, inner.limit, inner.counter)


@contextmanager
def _invalid_is_an_error(plan: Plan) -> Iterator[None]:
    try:
        yield
    except parallel.InvalidBoard as wrong:
        raise NQueensError(f"engine {plan.engine.name} ({plan.strategy.label}): {wrong}") from None


def _wrapped(inner: Search, through: Callable[[Iterator[Solution]], Iterator[Solution]], limit: int | None,
             counter: Counter | None) -> Search:
    """A search whose boards are ``through(inner's boards)``, with inner's statistics and time limit."""

    def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
        inner.stats = stats
        inner.time_limit = None if deadline is None else max(deadline - time.monotonic(), 1e-3)
        try:
            yield from through(inner)
        finally:
            inner.close()
            if inner.timed_out:
                raise TimeLimitReached

    return Search(inner.label, produce, limit, inner.time_limit, counter)


def _class_counter(plan: Plan, progress: Progress | None) -> Callable[[dict[str, Any], float | None], int]:
    """The count (total, or fundamental with ``unique``) by symmetry classes:
    :func:`classes.count_by_classes <nqueens_cp.counting.classes.count_by_classes>` does the
    counting; this module runs its tasks (:func:`_run_work`)."""

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        per_task = plan.engine.task_size(plan.n) or SUB_BOARDS_PER_TASK
        tally, work, nodes = classes.count_by_classes(plan.n, per_task, lambda work: _run_work(plan, work, progress, deadline),
                                           deadline)
        stats.update(kernel=kernel_kind(), nodes=nodes, sub_boards=sum(len(task) for task in work.tasks),
                     **tally.to_dict())
        del stats["n"]
        return tally.fundamental if plan.unique else tally.total

    return counter


def _quarters_counter(plan: Plan, progress: Progress | None) -> Callable[[dict[str, Any], float | None], int]:
    """The count (total, or fundamental with ``unique``) by joining quarters:
    :func:`join.count_by_quarters <nqueens_cp.counting.join.count_by_quarters>` does the counting,
    this module runs its parts (:func:`_run_work`, as it runs a count by classes' tasks)."""
    from ..counting import join

    budget = plan.budget
    assert budget is not None

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        result, work = join.count_by_quarters(plan.n, budget.cap, lambda work: _run_work(plan, work, progress, deadline),
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
    workers = max(1, min(plan.strategy.processes, len(tasks)))  # (0: in this process)
    record = None
    if plan.checkpoint:
        from .checkpoint import Checkpoint

        record = Checkpoint(plan.checkpoint, work.record, valid=work.valid)
    done_before = dict(record.done) if record else {}
    todo = [i for i in range(len(tasks)) if i not in done_before]
    # In an order of their own, the same every run: the tasks' costs differ tenfold, in runs along their
    # index (a count by quarters of 22: 16 s to 160 s among its first eight), so that the first to finish,
    # a fair sample of all, make the time left a fair estimate.
    random.Random(len(tasks)).shuffle(todo)
    # A record's checksum catches a torn write, not a wrong number: a sample of the records
    # restored is counted again beside the rest, and the file refused if one differs.
    again = random.Random().sample(sorted(done_before), min(RECOUNTED, len(done_before)))
    # the work's own task, or the engine's (the CPU's loop, or the GPU's), the engine travelling with it
    calls = [(work.part or plan.engine.count_sub_boards, plan.n, tasks[i]) for i in todo + again]
    tallies = [sum(column) for column in zip((0,) * work.width, *done_before.values())]
    inline = plan.strategy.processes == 0
    # Loaded here, before the pool forks its workers: they inherit the
    # compiled module instead of each loading it.
    kernel_kind()
    side = None
    done = len(done_before)
    if progress:
        progress(done, len(tasks))  # (what a checkpoint restored: where the rate starts)
    try:
        # Counts add up in any order: each task is taken as it finishes.
        with _executor(plan, deadline, inline) as executor, closing(pools.stream(
                calls, workers, 4 * workers, executor=executor, deadline=deadline, processes=True,
                ordered=False, clean=not plan.engine.forks_workers)) as results:
            for i, found in results:
                if side is None and not inline:
                    # Beside the workers, in this process, while they count; started
                    # once they are running, as a thread must never be forked.
                    side = pools.in_background(work.side)
                if i >= len(todo):  # a record counted again
                    task = again[i - len(todo)]
                    if [found[k] for k in work.exact] != [done_before[task][k] for k in work.exact]:
                        assert record is not None
                        raise NQueensError(f"checkpoint {record.path}: task {task} is recorded as "
                                           f"{list(done_before[task])} and counts {list(found)} again: refused "
                                           f"({len(again)} of its {len(done_before)} records were counted again; "
                                           "use another file)")
                    continue
                tallies = [a + b for a, b in zip(tallies, found)]
                if record:
                    record.record(todo[i], found)
                done += 1
                if progress:
                    progress(done, len(tasks))
    finally:
        if record:
            record.close()
    return tuple(tallies), side() if side else work.side()


@contextmanager
def _executor(plan: Plan, deadline: float | None, inline: bool = False) -> Iterator[Executor | None]:
    """Where sub-problems run: this process, the caller's executor, a Dask
    cluster (for the length of one stream, reached before ``deadline``), or
    None: a local pool."""
    from . import pools

    if inline:
        yield pools.InlineExecutor()
    else:
        with pools.using(plan.executor, deadline) as executor:
            yield executor


def _split_search(plan: Plan, progress: Progress | None, count: Counter | None = None) -> Search:
    engine, n = plan.engine, plan.n
    listed: dict[bool, list[tuple[dict[int, int], int]]] = {}

    def tasks(listing: bool) -> list[tuple[dict[int, int], int]]:
        """The sub-problems, listed when first asked for."""
        if listing not in listed:
            listed[listing] = subproblems(plan, listing)
        return listed[listing]

    def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
        if plan.strategy.pooled:
            return _pooled(plan, tasks(True), _workers(plan, len(tasks(True))), stats, deadline, progress)
        return _inline(plan, tasks(True), stats, deadline, progress)

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        found = tasks(False)
        _sample_images(plan, found, deadline)
        return _pooled_count(plan, found, _workers(plan, len(found)), stats, deadline, progress)

    return Search(f"{engine!r} n={n}", produce, None if plan.unique else plan.limit, plan.time_limit,
                  count or counter)


def _inline(plan: Plan, tasks: list[tuple[dict[int, int], int]], stats: dict[str, Any], deadline: float | None,
            progress: Progress | None) -> Iterator[Solution]:
    """The sub-problems one after the other in this process, lazily, each
    board and each mirror image through the question's validator."""
    blocks = parallel.Blocks()
    for done, (prefix, weight) in enumerate(tasks, 1):
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        check = parallel.part_check(plan.question, plan.engine, prefix)
        with plan.engine.subproblem(plan.n, prefix, time_limit=remaining) as part, _invalid_is_an_error(plan):
            yield from parallel.checked(part, check, mirrored=weight == 2, blocks=blocks)
        parallel.merge_stats(stats, part.stats, plan.engine.additive)
        if part.timed_out:
            raise TimeLimitReached
        if progress:
            progress(done, len(tasks))


SAMPLED_PARTS = 3  # a count by weights validates the images of the boards of this many sub-problems ...
SAMPLE_TRIES = 6  # ... found among at most this many (evenly spread) ...
SAMPLED_BOARDS = 64  # ... at most this many boards of each


def _sample_images(plan: Plan, tasks: list[tuple[dict[int, int], int]], deadline: float | None) -> None:
    """A count that multiplies sub-problems by a weight (the mirror's 2, the
    torus's N) counts images it never sees: here the first boards of a few
    weighted sub-problems, and every image they stand for, pass the question's
    validator, or the count is refused as an error naming the engine and the path."""
    weighted = [(prefix, weight) for prefix, weight in tasks if weight > 1]
    step = max(1, len(weighted) // SAMPLE_TRIES)
    checked = 0
    for prefix, weight in weighted[::step][:SAMPLE_TRIES]:
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            raise TimeLimitReached
        with plan.engine.subproblem(plan.n, prefix, time_limit=remaining) as part:
            found = list(itertools.islice(part, SAMPLED_BOARDS))
        check = parallel.part_check(plan.question, plan.engine, prefix)
        n = plan.n
        for board in found:
            images = [(board, "")] + ([(parallel.mirror_image(board), "mirror")] if weight == 2 else
                                      [(tuple((c + k) % n for c in board), f"{k}-column translation")
                                       for k in range(1, n)])
            for image, how in images:
                wrong = check(image, how)
                if wrong is not None:
                    raise NQueensError(f"engine {plan.engine.name} ({plan.strategy.label}): {wrong}")
        checked += bool(found)
        if checked == SAMPLED_PARTS:
            return


def _pooled(plan: Plan, tasks: list[tuple[dict[int, int], int]], workers: int, stats: dict[str, Any],
            deadline: float | None, progress: Progress | None) -> Iterator[Solution]:
    """The sub-problems on worker processes, their solutions in prefix order."""
    from ..model.board import unpack
    from . import pools

    wall = parallel.wall_deadline(deadline)
    calls = [(parallel.part_keys, plan.engine, plan.question, prefix, weight, wall) for prefix, weight in tasks]
    with _executor(plan, deadline) as executor, closing(pools.stream(calls, workers, 2 * workers,
                                                               executor=executor)) as results:
        for done, (data, invalid, part, timed_out) in enumerate(results, 1):
            if invalid is not None:
                raise NQueensError(f"engine {plan.engine.name} ({plan.strategy.label}): {invalid}")
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
    with _executor(plan, deadline) as executor, closing(pools.stream(calls, workers, 4 * workers, executor=executor,
                                                               deadline=deadline)) as results:
        for done, ((found, part, timed_out), (_, weight)) in enumerate(zip(results, tasks), 1):
            parallel.merge_stats(stats, part, plan.engine.additive)
            if timed_out:
                raise TimeLimitReached
            total += weight * found
            if progress:
                progress(done, len(tasks))
    return total


def _fundamental(inner: Search, plan: Plan, counter: Counter | None = None) -> Search:
    """One canonical solution per class of the question's symmetries among
    ``inner``'s solutions (``counter``: a way to count them without listing them)."""
    from ..model.symmetry import fundamental

    names = plan.strategy.symmetries
    return _wrapped(inner, lambda boards: fundamental(boards, names), plan.limit, counter)


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
