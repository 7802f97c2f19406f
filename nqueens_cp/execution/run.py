"""The questions, asked: :func:`solutions`, :func:`count`, :func:`counted`
and :func:`solve` take every option the command line has, ask
:func:`.plan.plan` how to search, and hand the plan to :mod:`.execute`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import stopping
from ..engines import DEFAULT_ENGINE, Outcome, Search, engine_class, get_engine
from ..engines.optimum import Optimum, Report
from ..errors import InvalidInputError
from . import execute
from .execute import Count, Progress
from ..model.question import board_size
from ..model.variants import Variant
from .advice import advice, optimum_advice
from .plan import Notify, plan, plan_solve

if TYPE_CHECKING:
    from concurrent.futures import Executor


def solutions(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
              variant: str | Variant | None = None, limit: int | None = None, time_limit: float | None = None,
              jobs: int | None = None,
              unique: bool = False, executor: Executor | str | None = None, progress: Progress | None = None,
              notify: Notify | None = None, blocked: Iterable[tuple[int, int]] | None = None,
              **options: Any) -> Search:
    """The solutions of n-queens that honour ``fixed`` (row -> column), as a lazy :class:`Search`.

    ``blocked`` squares (row, column) hold no queen; whole diagonals are
    :func:`nqueens_cp.model.position.diagonal`'s squares.

    ``engine`` is a registered engine's name and ``options`` its own
    keywords (``solver=``, ``encoding=``, ``symmetry_breaking=``...).
    ``limit`` stops after that many solutions, ``time_limit`` after that many
    seconds (``Search.timed_out`` then says so).  ``jobs`` is the number of
    worker processes (default: the cores); ``executor`` runs the sub-problems
    elsewhere: any ``concurrent.futures.Executor``, a Dask ``Client``, a Dask scheduler's
    address, or 'local' / 'local:N' for a Dask cluster started here.
    ``unique`` gives one solution per class of the 8 symmetries, canonical.
    ``progress(done, total)`` is called as sub-problems finish, and
    ``notify(message)`` with warnings before any work starts.
    ``variant`` asks another question of the family: a name in
    :data:`nqueens_cp.model.variants.VARIANTS` ('toroidal', 'superqueens',
    'rooks', 'semiqueens') or a member made with
    :func:`nqueens_cp.model.variants.family`, where the engine answers it
    (``Engine.answers``, from what it can express); the others refuse in
    one line; None asks plain N-queens (or a made engine's own question).
    N may be any integer type (NumPy's too).
    """
    if engine_class(engine).counts_only:
        raise InvalidInputError(f"engine {engine} counts solutions without listing them: use count")
    n = board_size(n)
    chosen = plan(n, engine, fixed, blocked=blocked, variant=variant, limit=limit, time_limit=time_limit,
                  method="walk",
                  jobs=jobs, unique=unique, executor=executor, **options)
    if notify:
        plain = not chosen.placed and chosen.engine.variant.is_plain  # (advice knows plain N's totals)
        for note in [*chosen.notes, *(advice(n, engine, limit=limit, jobs=chosen.jobs) if plain else [])]:
            notify(note)
    return execute.search(chosen, progress)


def count(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
          variant: str | Variant | None = None, time_limit: float | None = None, jobs: int | None = None,
          unique: bool = False, executor: Executor | str | None = None, progress: Progress | None = None,
          checkpoint: str | None = None, blocked: Iterable[tuple[int, int]] | None = None, method: str = "auto",
          memory: int | str | None = None, **options: Any) -> int:
    """The number of solutions of n-queens that honour ``fixed`` (fundamental ones with ``unique``).

    Takes the keywords of :func:`solutions` but ``limit``, and two of its
    own: ``method`` ("auto", "walk" or "quarters": how bitmask counts plain
    N, by default joining quarters from N = 16, docs/counting.md) and
    ``memory`` (bytes, or a size such as "4G": what a count by quarters may
    hold, default half of this machine's; refused before any work above
    it).  Raises :class:`TimeLimitReached` if ``time_limit`` comes first: a
    partial number is never returned as the count."""
    return counted(n, engine, fixed, variant=variant, time_limit=time_limit, jobs=jobs, unique=unique,
                   executor=executor, progress=progress, checkpoint=checkpoint, blocked=blocked, method=method,
                   memory=memory, **options).count


def counted(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, *,
            variant: str | Variant | None = None, time_limit: float | None = None, jobs: int | None = None,
            unique: bool = False, executor: Executor | str | None = None, progress: Progress | None = None,
            notify: Notify | None = None, checkpoint: str | None = None,
            blocked: Iterable[tuple[int, int]] | None = None, method: str = "auto", memory: int | str | None = None,
            **options: Any) -> Count:
    """:func:`count` as a :class:`Count`: the number with its statistics and timing.

    ``checkpoint`` names a file where finished tasks are recorded as they
    finish; the same count run again resumes from it (bitmask, plain N).  A
    count by tasks calls ``progress(done, total)`` once before it starts
    (done: the tasks a checkpoint restored, 0 without one), then as tasks
    finish; where the tasks' costs are estimated (a count by quarters, its
    parts started longest first) a callable that takes a third value gets
    the share of the estimated work done too."""
    if "limit" in options:  # (plan() takes it: it must not reach it from here)
        raise InvalidInputError("count takes no limit: a count stopped early is not the count "
                                "(solutions(n, limit=K) lists the first K)")
    n = board_size(n)
    chosen = plan(n, engine, fixed, blocked=blocked, variant=variant, time_limit=time_limit, jobs=jobs,
                  unique=unique, executor=executor, checkpoint=checkpoint, method=method, memory=memory,
                  counting=True, **options)
    if notify:
        plain = not chosen.placed and chosen.engine.variant.is_plain
        for note in [*chosen.notes, *(advice(n, engine, counting=not unique, jobs=chosen.jobs,
                                             quarters=chosen.budget is not None,
                                             checkpointed=checkpoint is not None,
                                             resuming=checkpoint if checkpoint and os.path.exists(checkpoint)
                                             else None) if plain else [])]:
            notify(note)
    return execute.count(chosen, progress)


def solve(n: int, engine: str | None = None, fixed: Mapping[int, int] | None = None, *,
          variant: str | Variant | None = None, time_limit: float | None = None,
          blocked: Iterable[tuple[int, int]] | None = None, jobs: int | None = None,
          executor: Executor | str | None = None, notify: Notify | None = None, **options: Any) -> Outcome:
    """One solution of n-queens that keeps every pre-placed queen and leaves
    every ``blocked`` square empty, or a proof that none exists, or "unknown"
    (see :class:`Status`); validated.  Engines that split their search
    (``splits_solve``: bitmask) split it when given ``jobs`` > 1 processes or
    an ``executor`` (as :func:`solutions` runs its sub-problems); the answer
    does not depend on how many.  ``variant`` as for :func:`solutions`;
    ``notify(message)`` is told warnings before any work.  ``engine`` None
    chooses by N (:func:`~nqueens_cp.execution.advice.solve_engine`): cpsat up to
    N = 100, beyond it the hand-written decision search for plain N, and
    ``notify`` is told which."""
    chosen = plan_solve(n, engine, fixed, time_limit=time_limit, blocked=blocked, jobs=jobs, executor=executor,
                        variant=variant, **options)
    for note in chosen.notes if notify else ():
        notify(note)  # type: ignore[misc]
    return execute.solve(chosen)


def optimum(n: int, variant: str | Variant = "domination", engine: str = DEFAULT_ENGINE, *,
            time_limit: float | None = None, notify: Notify | None = None, progress: Report | None = None,
            **options: Any) -> Optimum:
    """The fewest queens that answer a domination question on an n x n board:
    ``variant`` 'domination' (every square occupied or attacked, γ(Q_n),
    OEIS A075458) or 'independent' (and no queen attacking another, i(Q_n),
    A075324), by any engine that answers it (``Engine.variants``: bitmask's
    branch and bound, cpsat, sat (MaxSAT), asp, minizinc, smt, backtrack).
    Proved optimal, or the best found when ``time_limit`` came first
    (:class:`~nqueens_cp.engines.optimum.Optimum`); validated.

    ``notify(note)`` is told before the work what the literature says of this
    optimum and how long the engine would take where N is beyond what it was
    measured to prove (:func:`~nqueens_cp.execution.advice.optimum_advice`);
    ``progress(standing)`` as the bound proved or the best found improves
    (:class:`~nqueens_cp.engines.optimum.Standing`; engines with
    ``reports_optimum``, the others once at the start)."""
    chosen = get_engine(engine, variant, **options)
    size = board_size(n)
    chosen.check_n(size)
    with stopping.sigint_held():  # (as plan's engines: loaded whole, whatever Ctrl-C does)
        chosen.preload()  # (a refusal before the note on what it would take: optimum 1000000 said both)
    for note in optimum_advice(size, chosen.variant, engine, time_limit) if notify else ():
        notify(note)  # type: ignore[misc]
    return execute.optimum(chosen, size, time_limit, progress)
