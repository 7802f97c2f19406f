"""Running a plan: a listing (:func:`search`, lazy, every board through the
question's validator), a count (:func:`count`, which never lists: by
quarters or classes in :mod:`.tasks`, by sub-problems counted where they
run, or by the engine's own count), and a decision, whole or split into
parts; each on this process, a local pool or a Dask cluster.

:mod:`.plan` decides how a question is searched and writes the answer down
as a :class:`Plan`; everything here carries it out and decides nothing of
its own.  The pools (:mod:`.pools`, concurrent.futures) are imported where a
pool runs: a search in this process, as ``enumerate 8``, starts without them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any, NamedTuple

from ..engines import Engine, Outcome, Search
from ..engines.search import count_cut_short
from ..errors import NQueensError, TimeLimitReached
from ..model.board import Solution
from . import answers, parallel
from .plan import Plan, SolvePlan, for_counting
from .tasks import Progress, class_count, quarters_count, where


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


class Count(NamedTuple):
    """The result of counting: what was counted, the number, and how."""

    n: int
    engine: str
    count: int  # type: ignore[assignment]  # (in place of tuple.count: a Count is read by its names)
    unique: bool
    seconds: float
    fixed: dict[int, int]
    options: dict[str, Any]
    stats: dict[str, Any]
    variant: str = "queens"
    strategy: str = ""  # how it was counted, in words (the plan's Strategy.label)

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "count": self.count, "unique": self.unique, "engine": self.engine,
                "variant": self.variant, "strategy": self.strategy,
                "fixed": [[r, c] for r, c in sorted(self.fixed.items())], "options": self.options,
                "seconds": round(self.seconds, 6), "stats": self.stats}


def count(plan: Plan, progress: Progress | None = None) -> Count:
    """The count the plan's strategy describes: by joining quarters, by symmetry
    classes, by the split's sub-problems (each counted where it runs, weighted
    by the images it stands for), or by the engine's own count.  No listing is
    built: boards are seen only where the count is of them (one per class with
    ``unique``, or an engine with no count of its own), each through the
    question's validator.  TimeLimitReached if the time limit comes first."""
    start = time.perf_counter()
    stats: dict[str, Any] = {}
    deadline = None if plan.time_limit is None else time.monotonic() + plan.time_limit
    try:
        found = _count(plan, stats, deadline, progress)
    except TimeLimitReached:
        raise count_cut_short(plan.time_limit) from None
    stats["strategy"] = plan.strategy.kind
    engine = plan.engine
    return Count(plan.n, engine.name, found, plan.unique, time.perf_counter() - start, plan.placed,
                 engine.settings, stats, str(engine.variant), plan.strategy.label)


def _count(plan: Plan, stats: dict[str, Any], deadline: float | None, progress: Progress | None) -> int:
    kind = plan.strategy.kind
    if kind == "quarters":
        return quarters_count(plan, stats, deadline, progress)
    if kind == "classes":
        return class_count(plan, stats, deadline, progress)
    if not plan.unique and kind == "split":
        tasks = subproblems(plan, listing=False)
        _sample_images(plan, tasks, deadline)
        return _pooled_count(plan, tasks, _workers(plan, len(tasks)), stats, deadline, progress)
    own = None if plan.unique else plan.engine.own_count(plan.n, plan.placed, stats, deadline)
    return own if own is not None else sum(1 for _ in _boards(plan, stats, deadline, progress))


def search(plan: Plan, progress: Progress | None = None) -> Search:
    """The listing the plan's strategy describes, lazily: nothing runs until it
    is iterated.  Every board it hands on has passed the question's validator
    (here, or in the worker that found it).  Its ``count()`` lists, unless the
    question's count goes another way (by symmetry classes, or weighted by
    the images a sub-problem stands for): that count's plan, said in the label."""
    counting = for_counting(plan)

    def counter(stats: dict[str, Any], deadline: float | None) -> int:
        return _count(counting, stats, deadline, progress)

    counted = f"; its count(): {counting.strategy.label}" if counting.strategy != plan.strategy._replace(
        counting=True) else ""
    return Search(f"{plan.engine.describe(plan.n, plan.placed)}: {plan.strategy.label}{counted}",
                  lambda stats, deadline: _boards(plan, stats, deadline, progress), plan.limit, plan.time_limit,
                  counter if counting is not plan else None)


def _boards(plan: Plan, stats: dict[str, Any], deadline: float | None, progress: Progress | None
            ) -> Iterator[Solution]:
    """The plan's boards, each through the question's validator (one per class with ``unique``)."""
    if plan.strategy.kind == "split":
        tasks = subproblems(plan)
        boards = _pooled(plan, tasks, _workers(plan, len(tasks)), stats, deadline, progress) \
            if plan.strategy.pooled else _inline(plan, tasks, stats, deadline, progress)
    else:
        boards = _validated(plan.engine.stream(plan.n, plan.placed, None if plan.unique else plan.limit, stats,
                                               deadline), plan)
    if not plan.unique:
        return boards
    from ..model.symmetry import fundamental

    return fundamental(boards, plan.strategy.symmetries)


def _validated(boards: Iterator[Solution], plan: Plan) -> Iterator[Solution]:
    """``boards``, each through the question's validator before it is handed on:
    a board that fails is an error naming the engine and the path."""
    try:
        with _invalid_is_an_error(plan):
            yield from parallel.checked(boards, parallel.Validator(plan.question))
    finally:
        close = getattr(boards, "close", None)  # (a native solver's memory, freed at once)
        if close is not None:
            close()


@contextmanager
def _invalid_is_an_error(plan: Plan) -> Iterator[None]:
    try:
        yield
    except parallel.InvalidBoard as wrong:
        raise NQueensError(f"engine {plan.engine.name} ({plan.strategy.label}): {wrong}") from None


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
    with where(plan, deadline) as executor, closing(pools.stream(calls, workers, 2 * workers,
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
    with where(plan, deadline) as executor, closing(pools.stream(calls, workers, 4 * workers, executor=executor,
                                                               deadline=deadline)) as results:
        for done, ((found, part, timed_out), (_, weight)) in enumerate(zip(results, tasks), 1):
            parallel.merge_stats(stats, part, plan.engine.additive)
            if timed_out:
                raise TimeLimitReached
            total += weight * found
            if progress:
                progress(done, len(tasks))
    return total


def solve(plan: SolvePlan) -> Outcome:
    """The decision the plan describes: whole, by the engine in this process,
    or split into the engine's :meth:`~Engine.solve_parts` on a pool or
    cluster, whose first solution in search order is the answer (the same as
    on one core).  Validated here either way (:func:`.answers.decision`)."""
    engine, placed = plan.engine, plan.placed
    if not plan.split:
        return answers.decision(engine.name, plan.question, engine.solve_checked(plan.n, placed, plan.time_limit))
    from . import pools

    engine.check_decision(plan.n, placed, plan.time_limit)
    engine.preload()  # before the workers are forked: they inherit it (and its one warning, if any)
    start = time.perf_counter()
    stats: dict[str, Any] = {}
    answer = engine.trivial_answer(plan.n, placed) or pools.solve_in_parts(
        engine.solve_parts(plan.n, placed), plan.jobs, plan.executor, plan.time_limit, stats)
    return answers.decision(engine.name, plan.question,
                            engine.outcome(plan.n, placed, answer, time.perf_counter() - start, stats))


def optimum(engine: Engine, n: int, time_limit: float | None = None, progress: Any = None) -> Any:
    """The engine's optimum of n (:meth:`Engine.optimum`), its queens validated."""
    return answers.optimum(engine, engine.optimum(n, time_limit, progress))
