"""Counts by tasks: by symmetry classes (counting/classes.py) and by joining
quarters (counting/join.py), their tasks run on processes, this process or a
cluster, recorded in a checkpoint as they finish, a few restored records
counted again; and where any sub-problems of a plan run (:func:`where`).
The mathematics stays in counting/; :mod:`.execute` calls in here."""

from __future__ import annotations

import itertools
import random
from functools import partial
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from typing import TYPE_CHECKING, Any

from ..counting import classes
from ..errors import NQueensError
from .plan import Plan

if TYPE_CHECKING:
    from concurrent.futures import Executor

# (sub-problems done, sub-problems in all), and a count whose tasks' costs are known passes a third
# value to a callable that takes one: the share of the work done (cli.terminal.Progress does)
Progress = Callable[..., None]

# Sub-boards per task of a count by classes: fewer pay the pool's per-task overhead,
# more leave a core idle at the end (benchmarks/task_size.py; docs/counting.md).
SUB_BOARDS_PER_TASK = 32  # 71 tasks at N = 17, 58 at N = 16: measured best of 1..128 for both


RECOUNTED = 4  # records of a checkpoint counted again on resuming (chosen at random)


class Share:
    """The share of a count's estimated cost done, for the time left: with
    the longest tasks first, a count of tasks done runs behind the work
    done (the first quarter of the tasks is half of it), and the time left
    said from it would be too long."""

    def __init__(self, cost: list[float], done: Any) -> None:
        self.cost, self.whole = cost, sum(cost) or 1.0
        self.finished = sum(cost[i] for i in done)

    def add(self, task: int) -> None:
        self.finished += self.cost[task]

    @property
    def done(self) -> float:
        return self.finished / self.whole


def class_count(plan: Plan, stats: dict[str, Any], deadline: float | None, progress: Progress | None) -> int:
    """The count (total, or fundamental with ``unique``) by symmetry classes:
    :func:`classes.count_by_classes <nqueens_cp.counting.classes.count_by_classes>` does the
    counting; this module runs its tasks (:func:`_run_work`)."""
    per_task = plan.engine.task_size(plan.n) or SUB_BOARDS_PER_TASK
    tally, work, nodes = classes.count_by_classes(plan.n, per_task,
                                                  lambda work: _run_work(plan, work, progress, deadline), deadline)
    stats.update(kernel=kernel_kind(), nodes=nodes, sub_boards=sum(len(task) for task in work.tasks),
                 **tally.to_dict())
    del stats["n"]
    return tally.fundamental if plan.unique else tally.total



def quarters_count(plan: Plan, stats: dict[str, Any], deadline: float | None, progress: Progress | None) -> int:
    """The count (total, or fundamental with ``unique``) by joining quarters:
    :func:`join.count_by_quarters <nqueens_cp.counting.join.count_by_quarters>` does the counting,
    this module runs its parts (:func:`_run_work`, as it runs a count by classes' tasks)."""
    from ..counting import join

    budget = plan.budget
    assert budget is not None
    result, work = join.count_by_quarters(plan.n, budget.cap, lambda work: _run_work(plan, work, progress, deadline),
                                          deadline, partial(plan.engine.count_part, cap=budget.cap))
    stats.update(kernel=kernel_kind(), parts=len(work.tasks), **result.stats(budget))
    return result.fundamental if plan.unique else result.total



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
    # A record's checksum catches a torn write, not a wrong number: a sample of the records
    # restored is counted again beside the rest, and the file refused if one differs.  Where the
    # tasks' costs are known, the sample is drawn among the cheaper half of the records (the
    # check then costs what RECOUNTED middling tasks cost, not the chance of the largest).
    inline = plan.strategy.processes == 0
    # The costs, where a function computes them (a count by quarters': 30 ms of the parent's at N = 18,
    # against the 1.4 s of the count), are computed as the parts go out, once the first of them have
    # started the pool made here: its workers fork and build their tables meanwhile.  At once where this
    # process counts (one job), where the pool is the caller's (already started), where a checkpoint
    # restored records (their sample is drawn by cost) and where progress is shown (its share of the work).
    cost = work.cost
    if callable(cost) and (inline or plan.executor is not None or done_before or progress is not None):
        cost = cost()
    restored = sorted(done_before)
    if isinstance(cost, list) and restored:
        known = cost
        restored = sorted(restored, key=lambda i: known[i])[:max(1, (len(restored) + 1) // 2)]
    again = random.Random().sample(sorted(restored), min(RECOUNTED, len(restored)))
    order = todo + again  # indices into calls: the tasks to count, then the records to count again
    share = Share(cost, done_before) if isinstance(cost, list) else None
    # run_order[k]: the index into order of the k-th call out, as the calls go out
    run_order, head = _run_order(order, len(tasks), cost, workers)

    def calls() -> Iterator[tuple[Any, ...]]:
        # the work's own task, or the engine's (the CPU's loop, or the GPU's), the engine travelling with it
        for k in itertools.count():
            if k == head < len(order) and callable(cost):  # the first parts are out: the rest by their costs
                run_order.extend(head + j for j in _run_order(order[head:], len(tasks), cost(), 0)[0])
            if k == len(run_order):
                return
            yield work.part or plan.engine.count_sub_boards, plan.n, tasks[order[run_order[k]]]

    tallies = [sum(column) for column in zip((0,) * work.width, *done_before.values())]
    # Loaded here, before the pool forks its workers: they inherit the
    # compiled module instead of each loading it.
    kernel_kind()
    side = None
    done = len(done_before)
    report = _reporter(progress, share)
    if report:
        report(done, len(tasks))  # (what a checkpoint restored: where the rate starts)
    try:
        # Counts add up in any order: each task is taken as it finishes.
        with where(plan, deadline, inline) as executor, closing(pools.stream(
                calls(), workers, 4 * workers, executor=executor, deadline=deadline, processes=True,
                ordered=False, clean=not plan.engine.forks_workers)) as results:
            for k, found in results:
                i = run_order[k]  # (results come back numbered as calls went out)
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
                if share:
                    share.add(todo[i])
                if report:
                    report(done, len(tasks))
    finally:
        if record:
            record.close()
    return tuple(tallies), side() if side else work.side()



def _run_order(order: list[int], tasks: int, cost: list[float] | Callable[[], list[float]] | None,
               workers: int) -> tuple[list[int], int]:
    """The order the calls go out in, as indices into ``order``, and how many of them
    go out before the tasks' costs are known: with costs, the longest first, so that the last to finish
    are short and every process is busy to the end (a count by quarters of 22: parts of 16 s to 160 s,
    the last ones run with one core idle); where a function is still to compute them, the first
    ``workers`` tasks alone, in their order, the rest to be ordered once it has.  Without costs, in an
    order of their own, the same every run: the tasks' costs differ tenfold, in runs along their index,
    so that the first to finish, a fair sample of all, make the time left a fair estimate."""
    if callable(cost):
        head = min(workers, len(order))
        return list(range(head)), head
    if cost is not None:
        known = cost
        return sorted(range(len(order)), key=lambda k: -known[order[k]]), 0
    run_order = list(range(len(order)))
    random.Random(tasks).shuffle(run_order)
    return run_order, 0


def _reporter(progress: Progress | None, share: Share | None) -> Callable[[int, int], None] | None:
    """``progress`` as (done, total), with the share of the work done as its
    third value where it is known and the callable takes one."""
    if progress is None or share is None:
        return progress
    import inspect

    try:
        inspect.signature(progress).bind(0, 0, 0.0)
    except (TypeError, ValueError):  # (two values only, or a callable whose signature cannot be read)
        return progress
    return lambda done, total: progress(done, total, share.done)


def kernel_kind() -> str:
    from .. import kernel

    return kernel.kind()


@contextmanager
def where(plan: Plan, deadline: float | None, inline: bool = False) -> Iterator[Executor | None]:
    """Where sub-problems run: this process, the caller's executor, a Dask
    cluster (for the length of one stream, reached before ``deadline``), or
    None: a local pool."""
    from . import pools

    if inline:
        yield pools.InlineExecutor()
    else:
        with pools.using(plan.executor, deadline) as executor:
            yield executor
