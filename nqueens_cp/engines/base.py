"""The one interface every engine implements, and what each engine can do, as data.

An engine class states its capabilities as class attributes (whether it
enumerates, whether its "none" is a proof, whether it takes pre-placed
queens, its own options, its statistics and which of them add up across
sub-problems).  Every list the CLI, ``compare``, ``complete bench`` and the
tests use is derived from these attributes; nothing else names engines.
"""

from __future__ import annotations

import enum
import importlib.util
import time
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, NamedTuple

from ..counting import classes
from ..counting.classes import SubBoard, Values
from ..model import variants
from ..model.board import AnySolution, Position, Solution, attacking_pair, check_placements, whole
from ..model.variants import PLAIN, Variant
from ..errors import EngineUnavailableError, InvalidInputError, NQueensError
from .search import Counter, Search, check_limit, check_time_limit

SEED_MAX = 2**31 - 1  # OR-Tools' random_seed is a signed 32-bit integer; minconflicts takes the same range


class Option(NamedTuple):
    """One engine-specific keyword (and CLI flag): its type, default, choices and help."""

    name: str
    help: str
    kind: type = str
    default: Any = None
    choices: tuple[str, ...] | None = None
    low: int | None = None
    high: int | None = None
    solve_only: bool = False  # a flag of solve (and the batches that solve), not of enumerate or count
    solve_help: str | None = None  # what it means for solve, where that differs
    optimum: bool = False  # a flag of optimum too (the domination questions): ignored there otherwise, so refused

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def check(self, engine: str, value: Any) -> Any:
        """The value if it is valid for this option, else InvalidInputError naming the option."""
        where = f"engine {engine}: option {self.name}"
        if value is None and self.default is None:
            return None  # not set
        if self.kind is bool:
            if type(value) is not bool:
                raise InvalidInputError(f"{where} takes True or False, got {value!r}")
        elif self.kind is int:
            number = whole(value)  # (NumPy's integers too)
            if number is None or (self.low is not None and number < self.low) or \
                    (self.high is not None and number > self.high):
                raise InvalidInputError(f"{where} takes an integer from {self.low} to {self.high}, got {value!r}")
            return number
        elif self.choices is not None and value not in self.choices:
            raise InvalidInputError(f"{where}: unknown value {value!r} (choose from {', '.join(self.choices)})")
        elif self.kind is str and (type(value) is not str or not value):
            raise InvalidInputError(f"{where} takes a non-empty string, got {value!r}")
        return value


SYMMETRY_BREAKING = Option(
    "symmetry_breaking", "add the first-row lex-leader constraints of all 8 symmetries and expand the "
    "survivors' orbits: the output is still the exact full set", kind=bool, default=False,
    solve_help="add the first-row lex-leader constraints of all 8 symmetries: fewer boards to search, "
    "and the solution found is one whose first row no symmetry makes less")
SEED = Option("seed", f"random seed, 0..{SEED_MAX}: the same seed gives the same board (cpsat's solve then runs "
              "one worker unless told to run more: a portfolio's board is whichever worker finishes "
              "first; an optimum's witness too may differ, never its value)", kind=int, low=0, high=SEED_MAX)


class Status(enum.Enum):
    """What ``solve`` found out."""

    SOLVED = "solved"  # a validated solution that keeps every pre-placed queen
    NONE = "none"  # proven: no solution exists
    UNKNOWN = "unknown"  # the time limit or a step budget came first, or the engine cannot prove "none"

    def __str__(self) -> str:
        return self.value


# The records here and in the execution layer are NamedTuples, not dataclasses: importing
# dataclasses (it imports inspect) took longer than enumerating N = 8 (benchmarks/startup.py).
SVG_MAX_N = 200  # Jupyter draws a solved board up to this size


class Outcome(NamedTuple):
    """The answer of ``solve``: a status, the solution if any, why not otherwise."""

    n: int
    engine: str
    status: Status
    solution: AnySolution | None  # a tuple; Columns above board.TUPLE_MAX_N queens
    seconds: float
    stats: dict[str, Any]
    reason: str  # why "none" or "unknown"
    placed: dict[int, int]
    variant: str = "queens"

    def _repr_svg_(self) -> str | None:
        """In Jupyter, a solved outcome shows its board."""
        from ..model.board import board_svg

        return None if self.solution is None or len(self.solution) > SVG_MAX_N else board_svg(tuple(self.solution))

    def to_dict(self, solution: bool = True) -> dict[str, Any]:
        """The outcome as plain data (without the board, ``solution`` false:
        the command line streams a large one)."""
        record: dict[str, Any] = {"n": self.n, "status": self.status.value, "engine": self.engine,
                                  "variant": self.variant}
        if self.solution is not None and solution:
            record["solution"] = list(self.solution)
        if self.reason:
            record["reason"] = self.reason
        record.update(placed=[[r, c] for r, c in sorted(self.placed.items())],
                      blocked=[list(square) for square in sorted(getattr(self.placed, "blocked", ()))],
                      seconds=round(self.seconds, 6), stats=self.stats)
        return record


class Engine:
    """A way of finding N-queens solutions.

    Subclasses that enumerate implement :meth:`_search`, a generator that
    yields solutions and fills a statistics dict as it goes, and may
    implement :meth:`_count` when they can count faster than they enumerate.
    Subclasses that only find one solution implement :meth:`_solve`.
    """

    # -- capabilities (class data, read without importing any solver) --------
    name: ClassVar[str]
    summary: ClassVar[str]
    requires: ClassVar[str | None] = None  # top-level module the engine imports lazily
    programs: ClassVar[tuple[str, ...]] = ()  # programs it runs, looked up on PATH
    install: ClassVar[str | None] = None  # how to get what it requires, for the message when it is absent
    paradigm: ClassVar[str] = "backtracking"  # the way of thinking it stands for, in compare's tables
    declarative: ClassVar[bool] = False  # a model handed to a solver, not a search written by hand
    enumerates: ClassVar[bool] = True  # lists every solution, so counts and cross-checks
    counts_only: ClassVar[bool] = False  # counts without listing (a model counter): count, not enumerate
    solves: ClassVar[bool] = True  # finds one solution (solve)
    proves_none: ClassVar[bool] = True  # its "none" from solve is a proof
    takes_fixed: ClassVar[bool] = True  # honours pre-placed queens
    max_n: ClassVar[int | None] = None  # the largest N it serves, if it has a limit ...
    max_n_why: ClassVar[str] = ""  # ... and why, for the one-line refusal beyond it
    # "core" engines are cross-checked and compared by default; "classic" are the
    # tutorial backtrackers, asked for by name or as the preset "classic".
    family: ClassVar[str] = "core"
    options: ClassVar[tuple[Option, ...]] = ()  # its own keywords / flags
    statistics: ClassVar[tuple[str, ...]] = ()  # what its stats report
    additive: ClassVar[frozenset[str]] = frozenset()  # the statistics that add up across sub-problems
    counts_classes: ClassVar[bool] = False  # counts plain N once per class of the 8 symmetries (classes.py)
    classes_from: ClassVar[int] = classes.MIN_N  # ... from this N (below, a plain count is quicker on a CPU)
    counts_quarters: ClassVar[bool] = False  # counts plain N by joining quarters of the board (counting/join.py)
    sub_boards_per_task: ClassVar[int | None] = None  # None: the CPU's measured best (execution/execute.py)
    splits_solve: ClassVar[bool] = False  # solve can run as sub-problems on a pool or cluster (solve_parts)
    effort: ClassVar[str | None] = None  # the statistic that measures its work
    # What of a question's data it can state (model/variants.py's PARTS: other line families,
    # wrapping lines, offsets, an optimum); the plain question needs none.  Which questions it
    # answers is computed from this (answers, questions), never listed.
    expresses: ClassVar[frozenset[str]] = frozenset()
    # Options of solve only that its own check() allows some values of when listing
    # (cpsat: workers=1, what listing runs with); any other set one is refused there.
    checks_itself: ClassVar[frozenset[str]] = frozenset()
    # Why its answers are not yet to be trusted (never run where it must run), said
    # before every run and in the engine list; None once verified.
    experimental: ClassVar[str | None] = None
    # Rough speeds on one core of the development machine (compare 12), used
    # only to warn before runs that cannot finish: solutions listed, or
    # counted, per second; and the N beyond which finding the first few
    # solutions by enumeration may take very long.
    # Its solve of a question beyond plain N is the first board in lexicographic order
    # (a trap for large N: plan_solve then names an engine that gives one sooner).
    lexicographic_solve: ClassVar[bool] = False
    enumeration_rate: ClassVar[float] = 0.0
    count_rate: ClassVar[float] = 0.0
    # Whether _optimum reports its standing (the bound proved, the best found) before its end.
    reports_optimum: ClassVar[bool] = False
    # Measured (docs/variants.md, benchmarks/variants.py --tables times, a 10 s cap): for each
    # optimum question, the largest N proved within the cap, its seconds, and the time's growth
    # from the N before (plan.optimum_advice extrapolates from them).
    optimum_reach: ClassVar[dict[str, tuple[int, float, float]]] = {}
    first_solution_max_n: ClassVar[int] = 10**9

    symmetry_breaking: bool = False  # set by the option of that name, where an engine has it
    variant: Variant = PLAIN  # the question this engine answers (set on construction)

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

    @classmethod
    def cannot_express(cls, variant: Variant) -> str | None:
        """What of ``variant``'s data this engine cannot state, in words, or None."""
        missing = sorted(variant.parts - cls.expresses)
        return variants.PARTS[missing[0]] if missing else None

    @classmethod
    def answers(cls, variant: str | Variant) -> bool:
        """Whether the engine answers this question of the family (from its data)."""
        return cls.cannot_express(variants.get(variant)) is None

    @classmethod
    def questions(cls) -> list[str]:
        """The members of :data:`~nqueens_cp.model.variants.VARIANTS` it answers."""
        return [name for name, variant in variants.VARIANTS.items() if cls.answers(variant)]

    @classmethod
    def refusal(cls, variant: Variant) -> str:
        """Why this engine does not answer ``variant``, and which engines do (one line)."""
        from . import ENGINE_NAMES, engine_class

        others = [name for name in ENGINE_NAMES if engine_class(name).answers(variant)]
        return f"engine {cls.name} does not answer {variant.title}: it cannot express {cls.cannot_express(variant)} " \
            f"(it answers: {', '.join(cls.questions())}); engines that do: {', '.join(others) or 'none'}"

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """None when the engine can run here, else why not (found without importing)."""
        import shutil  # here: imported on every start-up, it would cost more than the search of N = 8

        how = f" ({cls.install})" if cls.install else ""
        if cls.requires and importlib.util.find_spec(cls.requires) is None:
            return f"needs the Python package providing '{cls.requires}'{how}"
        missing = [program for program in cls.programs if shutil.which(program) is None]
        if missing:
            return f"needs the program{'s' * (len(missing) > 1)} {' and '.join(missing)} on PATH{how}"
        return None

    @classmethod
    def capabilities(cls) -> dict[str, Any]:
        """What the engine can do, as plain data (``engines --format json``)."""
        return {
            "name": cls.name, "summary": cls.summary, "available": cls.unavailable_reason() is None,
            "unavailable_reason": cls.unavailable_reason(), "enumerates": cls.enumerates,
            "proves_none": cls.proves_none, "takes_fixed": cls.takes_fixed, "max_n": cls.max_n,
            "family": cls.family, "paradigm": cls.paradigm, "declarative": cls.declarative,
            "counts_only": cls.counts_only, "solves": cls.solves, "requires": cls.requires, "programs": list(cls.programs),
            "options": {o.name: {"flag": o.flag, "type": o.kind.__name__, "default": o.default,
                                 "choices": list(o.choices) if o.choices else None, "help": o.help}
                        for o in cls.options},
            "statistics": list(cls.statistics), "additive": sorted(cls.additive), "effort": cls.effort,
            "counts_classes": cls.counts_classes, "classes_from": cls.classes_from,
            "counts_quarters": cls.counts_quarters, "splits_solve": cls.splits_solve,
            "experimental": cls.experimental,
            "variants": cls.questions(), "expresses": sorted(cls.expresses),
        }

    def count_sub_boards(self, n: int, chunk: list[SubBoard]) -> Values:
        """One task of a count by symmetry classes (engines that ``counts_classes``):
        a list of sub-boards -> (classes of 8, 4, 2, nodes, boards on a tie
        square), :func:`nqueens_cp.counting.classes.count_sub_boards`'s contract.
        Here, on this CPU's kernel.  A task runs where the execution layer
        sends it, the engine with it."""
        return classes.count_sub_boards(n, chunk)

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

    def _check_usable(self) -> None:
        reason = self.unavailable_reason()
        if reason:
            raise EngineUnavailableError(f"engine '{self.name}' is unavailable: {reason}")

    # -- the public entry points ------------------------------------------------

    def search(self, n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None,
               time_limit: float | None = None, *, counter: Counter | None = None) -> Search:
        """All solutions of n-queens that honour ``fixed`` (row -> column), lazily.

        ``limit`` stops after that many solutions.  ``time_limit`` (seconds,
        counted from the first request for a solution) ends the search early;
        ``Search.timed_out`` then says so.  Nothing is computed until the
        result is iterated or counted.  ``counter`` replaces the engine's
        own way of counting (a count by symmetry classes, say).
        """
        placed = self.check(n, fixed, limit, time_limit)
        return self._make_search(n, placed, limit, time_limit, counter)

    def checked_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None, *,
                       counter: Counter | None = None) -> Search:
        """:meth:`search` of what :meth:`check` returned, not checked again
        (the execution layer's: its plan checked the question once)."""
        return self._make_search(n, placed, limit, time_limit, counter)

    def check(self, n: int, fixed: Mapping[int, int] | None = None, limit: int | None = None,
              time_limit: float | None = None, part: bool = False) -> Position:
        """The placements as a plain dict if :meth:`search` (or, with ``part``,
        :meth:`subproblem`) would take these arguments; else InvalidInputError
        or EngineUnavailableError saying why.  Nothing is searched."""
        placed = check_placements(n, fixed)
        self._check_n(n)
        self._check_place()
        self._check_symmetry_breaking(n)
        if not self.enumerates and not self.counts_only:
            raise InvalidInputError(f"engine {self.name} finds one solution and cannot enumerate: use solve")
        check_limit(limit)
        check_time_limit(time_limit)
        self._check_usable()
        if self.symmetry_breaking and placed and not part:
            raise InvalidInputError("symmetry breaking cannot be combined with fixed placements")
        return placed

    def subproblem(self, n: int, prefix: Mapping[int, int], time_limit: float | None = None) -> Search:
        """One part of a split search: the solutions whose rows in ``prefix``
        hold the given columns.  Unlike :meth:`search`, symmetry breaking is
        allowed here: each part expands its own survivors, and every class
        has its least survivor in exactly one part."""
        placed = self.check(n, prefix, None, time_limit, part=True)
        return self._make_search(n, placed, None, time_limit)

    def solve(self, n: int, fixed: Mapping[int, int] | None = None,
              time_limit: float | None = None) -> Outcome:
        """One solution that keeps every pre-placed queen, or why there is none
        (see :class:`Status`), searched whole in this process.  (A split
        decision, for engines that ``splits_solve``, is the execution layer's:
        :func:`nqueens_cp.execution.execute.solve`.)  Every solution is
        validated before it is returned."""
        placed = self.check_solve(n, fixed, time_limit)
        start = time.perf_counter()
        stats: dict[str, Any] = {}
        answer = self.trivial_answer(n, placed) or self._solve(n, placed, time_limit, stats)
        return self.outcome(n, placed, answer, time.perf_counter() - start, stats)

    def check_listing_options(self) -> None:
        """Refuse an option of solve only, set, when the engine is asked to list or
        count (the plan of a search, not the searches a solve makes of its own)."""
        self._check_options(lambda option: not option.solve_only or option.name in self.checks_itself,
                            "listing or counting")

    def _check_options(self, applies: Any, what: str) -> None:
        """Refuse an option set to other than its default that does not apply to ``what``
        (``applies(option)`` false): the engine would ignore it."""
        for option in self.options:
            if not applies(option) and getattr(self, option.name) != option.default:
                takes = ", ".join(o.flag for o in self.options if applies(o)) or "none"
                raise InvalidInputError(f"option {option.name} ({option.flag}) does not apply to {what} "
                                        f"(engine {self.name}'s options there: {takes})")

    def optimum(self, n: int, time_limit: float | None = None, progress: Any = None) -> Any:
        """The fewest queens that answer the engine's domination question
        (its ``variant``: domination or independent) on an n x n board, as an
        :class:`~nqueens_cp.engines.optimum.Optimum`: proved optimal, or the
        best found when ``time_limit`` (seconds) came first.  Validated.
        ``progress(standing)`` is called with a
        :class:`~nqueens_cp.engines.optimum.Standing` as the bound proved or the
        best found improves (``reports_optimum``: the engines that say so
        before their end; the others only at the start)."""
        from .optimum import Optimum, Standing, silent

        if self.variant.question != "optimum":
            raise InvalidInputError(f"{self.variant.title} asks for boards of N queens, not an optimum: use "
                                    "enumerate, count or solve (variants with an optimum: domination, independent)")
        if type(n) is not int or n < 1:
            raise InvalidInputError(f"N must be a positive integer, got {n!r}")
        self._check_n(n)
        check_time_limit(time_limit)
        self._check_options(lambda option: option.optimum, "an optimum")
        self._check_usable()
        start = time.perf_counter()
        stats: dict[str, Any] = {}
        report = progress or silent
        report(Standing(1, None))
        queens, proved, bound, reason = self._optimum(n, time_limit, stats, report)
        placed = tuple(sorted((int(r), int(c)) for r, c in queens or ()))
        if queens is not None and not self.variant.is_dominating(placed, n):
            raise NQueensError(f"engine {self.name} returned queens that do not answer {self.variant.title}: "
                               f"{list(placed)}")
        size = len(placed) if queens is not None else None
        return Optimum(n, str(self.variant), self.name, size, placed, proved, size if proved and size else bound,
                       time.perf_counter() - start, stats, reason)

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """(queens or None, proved, lower bound, reason): engines that list domination in ``variants``;
        ``report(Standing)`` as the search goes, where it can (``reports_optimum``)."""
        raise NotImplementedError

    def check_solve(self, n: int, fixed: Mapping[int, int] | None = None,
                    time_limit: float | None = None) -> Position:
        """The placements, checked, if :meth:`solve` would take these arguments;
        else InvalidInputError or EngineUnavailableError saying why."""
        placed = check_placements(n, fixed)
        self._check_n(n)
        self._check_place()
        self._check_symmetry_breaking(n)
        check_time_limit(time_limit)
        if not self.solves:
            raise InvalidInputError(f"engine {self.name} counts solutions without finding one: use count")
        if placed and not self.takes_fixed:
            raise InvalidInputError(f"engine {self.name} solves plain N only: it cannot take pre-placed queens "
                                    "or blocked squares")
        if placed and self.symmetry_breaking:
            raise InvalidInputError("symmetry breaking cannot be combined with fixed placements")
        self._check_usable()
        return placed

    def trivial_answer(self, n: int, placed: Position) -> Answer | None:
        """"None", proven by the placements alone (two queens that attack each
        other, a queen on a blocked square); else None: search."""
        queens = sorted(placed.items())
        pair = attacking_pair(queens) if self.variant.is_plain else self.variant.attacking_pair(n, queens)
        if pair is not None:
            (r1, c1), (r2, c2) = pair
            return Status.NONE, None, f"the pre-placed queens at {r1}:{c1} and {r2}:{c2} attack each other"
        on_blocked = sorted(square for square in placed.items() if square in placed.blocked)
        if on_blocked:
            return Status.NONE, None, f"a queen is pre-placed on the blocked square {on_blocked[0][0]}:" \
                f"{on_blocked[0][1]}"
        return None

    def outcome(self, n: int, placed: Position, answer: Answer, seconds: float, stats: dict[str, Any]) -> Outcome:
        """The answer as an :class:`Outcome`, its board validated: a solution,
        every pre-placed queen kept, no queen on a blocked square."""
        status, solution, reason = answer
        if status is Status.SOLVED:
            if solution is None or not self.variant.is_solution(solution, n):
                raise NQueensError(f"engine {self.name} returned an invalid board")
            broken = placed.broken_by(solution)
            if broken is not None:
                what, (r, c) = broken
                raise NQueensError(f"engine {self.name} moved the pre-placed queen at {r}:{c}" if what == "moved" else
                                   f"engine {self.name} put a queen on the blocked square {r}:{c}")
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

    # -- shared checks ----------------------------------------------------------

    def _check_symmetry_breaking(self, n: int) -> None:
        """Symmetry breaking states the 8 symmetries of the square: refused
        where the question does not keep them all at this N."""
        if self.symmetry_breaking and not self.variant.symmetric_at(n):
            raise InvalidInputError(f"symmetry breaking states the 8 symmetries of the square, and "
                                    f"{self.variant.title} keeps only {', '.join(self.variant.symmetries_at(n))} "
                                    f"at N={n}")

    def _check_place(self) -> None:
        if self.variant.question != "place":
            raise InvalidInputError(f"{self.variant.title} asks for an optimum, not for boards of N queens: "
                                    f"use optimum (nqueens_cp.optimum)")

    def refuses(self, n: int) -> str | None:
        """Why this engine refuses a board of size n for its question (beyond the
        largest N it serves), or None: what a study asks before it runs one."""
        try:
            self._check_n(n)
        except InvalidInputError as error:
            return str(error)
        return None

    def _check_n(self, n: int) -> None:
        if self.max_n is not None and n > self.max_n:
            raise InvalidInputError(f"engine {self.name} serves N <= {self.max_n}, got N={n} "
                                    f"({self.max_n_why or self.summary})")

    def _make_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     counter: Counter | None = None) -> Search:
        def produce(stats: dict[str, Any], deadline: float | None) -> Iterator[Solution]:
            if not self.symmetry_breaking:
                return self._search(n, placed, limit, stats, deadline)
            from ..model.symmetry import expand

            # The engine's own limit would count survivors, not solutions: Search applies it.
            return expand(self._search(n, placed, None, stats, deadline))

        def own_counter(stats: dict[str, Any], deadline: float | None) -> int | None:
            return None if self.symmetry_breaking or deadline is not None else self._count(n, placed, stats)

        fixed = f" fixed={dict(placed)}" if len(placed) else ""
        blocked = f" blocked={len(placed.blocked)} squares" if getattr(placed, "blocked", None) else ""
        return Search(f"{self!r} n={n}{fixed}{blocked}", produce, limit, time_limit, counter or own_counter)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.settings.items() if v != next(o.default for o in self.options if o.name == k)}
        options = "".join(f" {k}={v!r}" for k, v in changed.items())
        variant = f" variant={self.variant}" if self.variant != variants.PLAIN else ""
        return f"<engine {self.name}{variant}{options}>"


# What a decision found: (Status, solution or None, reason).
Answer = tuple["Status", "AnySolution | None", str]
