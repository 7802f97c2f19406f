"""The one interface every engine implements, and what each engine can do, as data.

An engine is one module: a class deriving from :class:`Engine` whose class
attributes say what it is and can do (whether it enumerates, whether its
"none" is a proof, whether it takes pre-placed queens, which questions of the
family it can state, its own options and statistics), and one to three
methods that search (``_search``, and where they help ``_count``, ``_solve``,
``_optimum``).  Every list of engines the command line, the studies and the
tests use is derived from these attributes; nothing else names engines.
``engines/TEMPLATE.py`` is a working engine to copy, run by the shared tests.

What it can do is ``capabilities.py``'s data, what it refuses and why
``checks.py``'s; the records (:class:`Outcome`, :class:`Status`) live in
``outcome.py``, the options in ``option.py``, the optimum's runner in ``optimum.py``, and the
thread that runs a native solver in ``native.py``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from typing import Any

from ..counting import classes, join
from ..counting.classes import SubBoard, Values
from ..counting.join import Part
from ..model import variants
from ..model.board import Solution
from ..model.position import Position, check_placements
from ..model.variants import Variant
from ..errors import InvalidInputError
from .checks import Checks
from .option import SEED, SEED_MAX, SYMMETRY_BREAKING, Option
from .outcome import Answer, Outcome, Status, trivial_answer
from .search import Search

__all__ = ["Answer", "Engine", "Option", "Outcome", "SEED", "SEED_MAX", "SYMMETRY_BREAKING", "Status"]


class Engine(Checks):
    """A way of finding N-queens solutions.

    Subclasses that enumerate implement :meth:`_search`, a generator that
    yields solutions and fills a statistics dict as it goes, and may
    implement :meth:`_count` when they can count faster than they enumerate.
    Subclasses that only find one solution implement :meth:`_solve`.
    """

    def __init__(self, variant: str | Variant = "queens", **options: Any) -> None:
        self.variant = variants.get(variant)
        if not self.answers(self.variant):
            raise InvalidInputError(self.refusal(self.variant))
        known = {option.name: option for option in self.options}
        for key in options:
            if key not in known:
                takes = f"its options: {', '.join(known)}" if known else "it takes none"
                raise InvalidInputError(f"engine {self.name} has no option '{key}' ({takes})")
        for option in self.options:
            value = options.get(option.name, option.default)
            setattr(self, option.name, option.check(self.name, value))

    @property
    def settings(self) -> dict[str, Any]:
        """The engine's options as set (defaults included)."""
        return {option.name: getattr(self, option.name) for option in self.options}

    def count_sub_boards(self, n: int, chunk: list[SubBoard]) -> Values:
        """One task of a count by symmetry classes (engines that ``counts_classes``):
        a list of sub-boards -> (classes of 8, 4, 2, nodes, boards on a tie
        square), :func:`nqueens_cp.counting.classes.count_sub_boards`'s contract.
        Here, on this CPU's kernel.  A task runs where the execution layer
        sends it (a pool's process, a Dask worker), the engine with it."""
        return classes.count_sub_boards(n, chunk)

    def count_part(self, n: int, part: Part, cap: int) -> join.Values:
        """One part of a count by quarters (engines that ``counts_quarters``),
        :func:`nqueens_cp.counting.join.count_part`'s contract: here the
        compiled join on this CPU, halves listed ``cap`` keys at a time."""
        return join.count_part(n, part, cap)

    def quarters_working_bytes(self, n: int, cap: int) -> int:
        """What a process of a count by quarters holds besides the quarters'
        table, its lists ``cap`` keys each (:func:`join.budget` reads it)."""
        return join.working_bytes(n, cap)

    def task_size(self, n: int) -> int | None:
        """Sub-boards to a task of a count by classes of N (None: the CPU's
        measured best, execution/execute.py)."""
        return self.sub_boards_per_task

    def split_rows(self, n: int) -> int:
        """Rows fixed per sub-problem when a search of n-queens is split:
        two rows (about n*n tasks) balance the cores best."""
        return 2

    def preload(self) -> None:
        """Import the solver package now, so that its cost can be timed apart from the search."""

    # -- the public entry points ------------------------------------------------

    def search(self, n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None,
               time_limit: float | None = None) -> Search:
        """All solutions of n-queens that honour ``fixed`` (row -> column), lazily.

        ``limit`` stops after that many solutions.  ``time_limit`` (seconds,
        counted from the first request for a solution) ends the search early;
        ``Search.timed_out`` then says so.  Nothing is computed until the
        result is iterated or counted.
        """
        placed = self.check(n, fixed, limit, time_limit)
        return self._make_search(n, placed, limit, time_limit)

    def subproblem(self, n: int, prefix: Mapping[int, int], time_limit: float | None = None) -> Search:
        """One part of a split search: the solutions whose rows in ``prefix``
        hold the given columns (a :class:`Position` the execution layer made
        from a checked question is taken as it is).  Unlike :meth:`search`,
        symmetry breaking is allowed here: each part expands its own survivors,
        and every class has its least survivor in exactly one part."""
        placed = prefix if isinstance(prefix, Position) else check_placements(n, prefix)
        self.check_search(n, placed, None, time_limit, part=True)
        return self._make_search(n, placed, None, time_limit)

    def solve(self, n: int, fixed: Mapping[int, int] | None = None,
              time_limit: float | None = None) -> Outcome:
        """One solution that keeps every pre-placed queen, or why there is none
        (see :class:`Status`), searched whole in this process.  (A split
        decision, for engines that ``splits_solve``, is the execution layer's:
        :func:`nqueens_cp.execution.execute.solve`.)  The engine's answer as
        found, as :meth:`search` gives its boards: ``nq.solve`` validates it
        (:mod:`nqueens_cp.execution.answers`), as ``nq.solutions`` does a
        search's."""
        return self.solve_checked(n, check_placements(n, fixed), time_limit)

    def solve_checked(self, n: int, placed: Position, time_limit: float | None = None) -> Outcome:
        """:meth:`solve` of placements already checked (the execution layer's:
        its plan checked the question once); the engine's own checks run here."""
        self.check_decision(n, placed, time_limit)
        start = time.perf_counter()
        stats: dict[str, Any] = {}
        answer = self.trivial_answer(n, placed) or self._solve(n, placed, time_limit, stats)
        return self.outcome(n, placed, answer, time.perf_counter() - start, stats)

    def optimum(self, n: int, time_limit: float | None = None, progress: Any = None) -> Any:
        """The fewest queens that answer the engine's domination question
        (its ``variant``: domination or independent) on an n x n board, as an
        :class:`~nqueens_cp.engines.optimum.Optimum`: proved optimal, or the
        best found when ``time_limit`` (seconds) came first; ``nq.optimum``
        validates it (:mod:`nqueens_cp.execution.answers`).
        ``progress(standing)``: :func:`.optimum.run`."""
        from .optimum import run

        return run(self, n, time_limit, progress)

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """(queens or None, proved, lower bound, reason): engines that list domination in ``variants``;
        ``report(Standing)`` as the search goes, where it can (``reports_optimum``)."""
        raise NotImplementedError

    def trivial_answer(self, n: int, placed: Position) -> Answer | None:
        """"None", proven by the placements alone (:func:`.outcome.trivial_answer`); else None: search."""
        return trivial_answer(self.variant, n, placed)

    def outcome(self, n: int, placed: Position, answer: Answer, seconds: float, stats: dict[str, Any]) -> Outcome:
        """The answer as an :class:`Outcome`, as found (the execution layer validates it:
        :func:`nqueens_cp.execution.answers.decision`)."""
        status, solution, reason = answer
        return Outcome(n, self.name, status, solution, seconds, stats, reason, placed, str(self.variant))

    # -- for subclasses -------------------------------------------------------

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        """Yield solutions; raise TimeLimitReached once ``time.monotonic()`` passes ``deadline``."""
        raise NotImplementedError

    def _count(self, n: int, fixed: Position, stats: dict[str, Any]) -> int | None:
        """A faster count than enumerating, or None to enumerate."""
        return None

    def solve_parts(self, n: int, placed: Any) -> list[tuple[Any, ...]]:
        """Calls ``(fn, *args)`` returning ``(solution or None, nodes)`` whose first
        solution, in order, is the answer (engines that ``splits_solve``)."""
        raise NotImplementedError

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> Answer:
        """(status, solution, reason) for one solution; by default the first of :meth:`search`."""
        with self.search(n, placed, limit=1, time_limit=time_limit) as search:
            solution = next(search, None)
        stats.update(search.stats)
        if solution is not None:
            return Status.SOLVED, solution, ""
        if search.timed_out:
            return Status.UNKNOWN, None, f"no answer within {time_limit:g} s"
        return Status.NONE, None, f"{self.name} searched every placement"

    def stream(self, n: int, placed: Position, limit: int | None, stats: dict[str, Any],
               deadline: float | None) -> Iterator[Solution]:
        """The engine's boards of what :meth:`check` returned, as a generator that
        fills ``stats`` and raises TimeLimitReached past ``deadline`` (what a
        :class:`Search` iterates; the execution layer's plans, checked once, call it
        directly)."""
        if not self.symmetry_breaking:
            return self._search(n, placed, limit, stats, deadline)
        from ..model.symmetry import expand

        # The engine's own limit would count survivors, not solutions: Search applies it.
        return expand(self._search(n, placed, None, stats, deadline))

    def own_count(self, n: int, placed: Position, stats: dict[str, Any], deadline: float | None) -> int | None:
        """The engine's own count of what :meth:`check` returned, faster than
        listing (its ``_count``), or None: the boards are to be counted.  Not
        under a deadline, which such counts do not watch, nor with symmetry
        breaking, whose survivors are not the solutions."""
        return None if self.symmetry_breaking or deadline is not None else self._count(n, placed, stats)

    def _make_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None) -> Search:
        def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
            return self.stream(n, placed, limit, stats, deadline)

        def own_counter(stats: dict[str, Any], deadline: float | None) -> int | None:
            return self.own_count(n, placed, stats, deadline)

        return Search(self.describe(n, placed), produce, limit, time_limit, own_counter)

    def describe(self, n: int, placed: Position) -> str:
        """The engine and the question in words, as a search's label starts."""
        fixed = f" fixed={dict(placed)}" if len(placed) else ""
        blocked = f" blocked={len(placed.blocked)} squares" if getattr(placed, "blocked", None) else ""
        return f"{self!r} n={n}{fixed}{blocked}"

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.settings.items() if v != next(o.default for o in self.options if o.name == k)}
        options = "".join(f" {k}={v!r}" for k, v in changed.items())
        variant = f" variant={self.variant}" if self.variant != variants.PLAIN else ""
        return f"<engine {self.name}{variant}{options}>"
