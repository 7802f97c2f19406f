"""What an engine is and can do, as class data, and what is read from it
(which questions it answers, whether it can run here, ``engines --format
json``): the half of :class:`~nqueens_cp.engines.base.Engine` that no
search needs, read without importing any solver."""

from __future__ import annotations

from typing import Any, ClassVar

from ..counting import classes
from ..model import variants
from ..model.variants import Variant
from .option import Option


class Capabilities:
    """The class attributes every engine sets (or inherits), and what is derived from them."""

    # -- what it is (class data, read without importing any solver) ----------------
    name: ClassVar[str]
    summary: ClassVar[str]
    requires: ClassVar[str | None] = None  # top-level module the engine imports lazily
    programs: ClassVar[tuple[str, ...]] = ()  # programs it runs, looked up on PATH
    install: ClassVar[str | None] = None  # how to get what it requires, for the message when it is absent
    paradigm: ClassVar[str] = "backtracking"  # the way of thinking it stands for, in compare's tables
    declarative: ClassVar[bool] = False  # a model handed to a solver, not a search written by hand
    # Its group: "core" engines are cross-checked and compared by default; "classic" are the
    # tutorial backtrackers, "field" the rest of the declarative field, each asked for by name
    # or by a preset (PRESETS).
    group: ClassVar[str] = "core"
    experimental: ClassVar[str | None] = None  # why its answers are not yet to be trusted; None once verified

    # -- what it can do ------------------------------------------------------------
    enumerates: ClassVar[bool] = True  # lists every solution, so counts and cross-checks
    counts_only: ClassVar[bool] = False  # counts without listing (a model counter): count, not enumerate
    solves: ClassVar[bool] = True  # finds one solution (solve)
    proves_none: ClassVar[bool] = True  # its "none" from solve is a proof
    takes_fixed: ClassVar[bool] = True  # honours pre-placed queens and blocked squares (every split search's parts)
    # What of a question's data it can state (model/variants.py's PARTS: other line families,
    # wrapping lines, offsets, an optimum); the plain question needs none.  Which questions it
    # answers is computed from this and the limits below (answers, questions), never listed.
    expresses: ClassVar[frozenset[str]] = frozenset()
    max_offsets: ClassVar[int | None] = None  # the most offsets a piece may have, where it has a limit
    offset_reach: ClassVar[tuple[int, int] | None] = None  # (rows down, columns across) an offset may reach
    max_n: ClassVar[int | None] = None  # the largest N it serves, if it has a limit ...
    max_n_why: ClassVar[str] = ""  # ... and why, for the one-line refusal beyond it
    options: ClassVar[tuple[Option, ...]] = ()  # its own keywords / flags
    # Options of solve only that its own check() allows some values of when listing
    # (cpsat: workers=1, what listing runs with); any other set one is refused there.
    checks_itself: ClassVar[frozenset[str]] = frozenset()
    statistics: ClassVar[tuple[str, ...]] = ()  # what its stats report
    additive: ClassVar[frozenset[str]] = frozenset()  # the statistics that add up across sub-problems
    effort: ClassVar[str | None] = None  # the statistic that measures its work
    reports_optimum: ClassVar[bool] = False  # _optimum reports its standing (bound, best) before its end

    # -- how the execution layer runs it -------------------------------------------
    counts_classes: ClassVar[bool] = False  # counts plain N once per class of the 8 symmetries (classes.py)
    classes_from: ClassVar[int] = classes.MIN_N  # ... from this N (below, a plain count is quicker on a CPU)
    counts_quarters: ClassVar[bool] = False  # counts plain N by joining quarters of the board (counting/join.py)
    quarters_from: ClassVar[int | None] = None  # ... by default from this N (None: only when asked, --method quarters)
    sub_boards_per_task: ClassVar[int | None] = None  # None: the CPU's measured best (execution/execute.py)
    # Whether its tasks may run in workers forked from this process (the quickest start).  Not
    # those that use CUDA: a child forked from a process that has used it cannot (the runtime's
    # "initialization error"); their workers start from a fork server, a clean process.
    forks_workers: ClassVar[bool] = True
    splits_solve: ClassVar[bool] = False  # solve can run as sub-problems on a pool or cluster (solve_parts)

    # -- how fast it is (measured on one core here: warnings before runs that cannot finish) --
    enumeration_rate: ClassVar[float] = 0.0  # solutions listed per second (compare 12) ...
    count_rate: ClassVar[float] = 0.0  # ... and counted
    first_solution_max_n: ClassVar[int] = 10**9  # beyond, the first few solutions may take very long
    # Its solve of a question beyond plain N is the first board in lexicographic order
    # (a trap for large N: plan_solve then names an engine that gives one sooner).
    lexicographic_solve: ClassVar[bool] = False
    # For each optimum question: the largest N proved within 10 s, its seconds, and the time's
    # growth from the N before (docs/variants.md; advice.optimum_advice extrapolates from them).
    optimum_reach: ClassVar[dict[str, tuple[int, float, float]]] = {}
    instant: ClassVar[bool] = False  # answers every size it takes in about linear time: nothing long to stop

    # -- what it answers, from its data ------------------------------------------------

    @classmethod
    def cannot_express(cls, variant: Variant) -> str | None:
        """What of ``variant``'s data this engine cannot state, in words, or None."""
        missing = sorted(variant.parts - cls.expresses)
        if missing:
            return variants.PARTS[missing[0]]
        if cls.max_offsets is not None and len(variant.offsets) > cls.max_offsets:
            return f"more than {cls.max_offsets} offsets (this member has {len(variant.offsets)})"
        if cls.offset_reach is not None:
            rows, columns = cls.offset_reach
            far = [(dr, dc) for dr, dc in variant.offsets if abs(dr) > rows or abs(dc) > columns]
            if far:
                return f"offsets more than {rows} rows down or {columns} columns across, such as {far[0]}"
        return None

    @classmethod
    def answers(cls, variant: str | Variant) -> bool:
        """Whether the engine answers this question of the family (from its data)."""
        return cls.cannot_express(variants.get(variant)) is None

    @classmethod
    def questions(cls) -> list[str]:
        """The members of :data:`~nqueens_cp.model.variants.VARIANTS` it answers."""
        return [name for name, variant in variants.VARIANTS.items() if cls.answers(variant)]

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """None when the engine can run here, else why not (found without importing)."""
        import importlib.util
        import shutil  # here: imported on every start-up, it would cost more than the search of N = 8

        how = f" ({cls.install})" if cls.install else ""
        if cls.requires and importlib.util.find_spec(cls.requires) is None:
            return f"needs the Python package providing '{cls.requires}'{how}"
        missing = [program for program in cls.programs if shutil.which(program) is None]
        if missing:
            return f"needs the program{'s' * (len(missing) > 1)} {' and '.join(missing)} on PATH{how}"
        return None

    # The attributes ``engines --format json`` shows, in its order.
    SHOWN: ClassVar[tuple[str, ...]] = (
        "name", "summary", "enumerates", "proves_none", "takes_fixed", "max_n", "group", "paradigm", "declarative",
        "counts_only", "solves", "requires", "programs", "statistics", "additive", "effort", "counts_classes",
        "classes_from", "counts_quarters", "quarters_from", "splits_solve", "experimental", "max_offsets", "offset_reach",
        "instant", "forks_workers")

    @classmethod
    def capabilities(cls) -> dict[str, Any]:
        """What the engine can do, as plain data (``engines --format json``)."""
        found = {key: getattr(cls, key) for key in cls.SHOWN}
        found.update({key: list(value) if isinstance(value, (tuple, frozenset)) else value
                      for key, value in found.items()}, additive=sorted(cls.additive))
        reason = cls.unavailable_reason()
        found.update(available=reason is None, unavailable_reason=reason, variants=cls.questions(),
                     expresses=sorted(cls.expresses),
                     options={o.name: {"flag": o.flag, "type": o.kind.__name__, "default": o.default,
                                       "choices": list(o.choices) if o.choices else None, "help": o.help,
                                       "unavailable": {value: f"needs {' and '.join(o.missing(value))}"
                                                       for value in o.needs if o.missing(value)}}
                              for o in cls.options})
        return found
