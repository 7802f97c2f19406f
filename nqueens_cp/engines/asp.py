"""Answer set programming: the Potassco guide's N-queens program, grounded and solved by clingo.

The program is the one ``nqueens-cp export N --format lp`` writes (one
choice rule with bounds per row and per column, a cardinality constraint per
diagonal; :mod:`nqueens_cp.model.formats`).  Every answer set is one board:
only ``queen/2`` varies, so clasp's default enumeration (backtracking over
the answer sets, no projection needed and none asked for) lists each board
exactly once, which the cross-check verifies.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..errors import NQueensError, TimeLimitReached
from ..model import formats
from ..model.board import Solution
from ..model.position import Position
from .base import Engine, Option

# clasp's preset configurations.  Enumerating N = 12 here (clingo 5.8, one
# run): frumpy 0.41 s, crafty 0.56, jumpy 0.60, handy 0.70, trendy 0.75,
# tweety 2.84, auto (= tweety for ASP) 3.12.  With every answer set wanted,
# the search never ends early, and tweety's aggressive restarts and
# heuristic only throw work away; frumpy, clasp's "conservative defaults",
# keeps it.
CONFIGURATIONS = ("frumpy", "crafty", "jumpy", "handy", "trendy", "tweety", "auto")
DEFAULT_CONFIGURATION = "frumpy"


class AspEngine(Engine):
    name = "asp"
    summary = "answer set program (choice rules, cardinality constraints) grounded and solved by clingo"
    requires = "clingo"
    install = "pip install clingo, or the 'declarative' extra"
    paradigm = "ASP"
    declarative = True
    group = "field"
    options = (Option("configuration", f"clasp's preset configuration (default: {DEFAULT_CONFIGURATION}, the "
                      "fastest to enumerate here; clingo's own default is auto)", choices=CONFIGURATIONS,
                      default=DEFAULT_CONFIGURATION, optimum=True),)
    statistics = ("configuration", "atoms", "rules", "choices", "conflicts")
    additive = frozenset({"choices", "conflicts"})
    effort = "conflicts"
    enumeration_rate = count_rate = 3e4
    optimum_reach = {"domination": (10, 9.95, 5.4), "independent": (11, 5.49, 7.8)}
    first_solution_max_n = 100
    # Grounding cannot be interrupted, and outlasts a time limit beyond: 2.1 s at N = 150, 4.4 s at 200,
    # 16 s at 300 (solve --time-limit 2, measured here); N = 1000 grounded for minutes.
    max_n = 150
    max_n_why = "clingo's grounding cannot be interrupted: beyond, it outlasts any time limit; solve without --engine picks an engine that answers any N"
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})
    configuration: str

    def preload(self) -> None:
        import clingo  # noqa: F401

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        import clingo

        from . import native

        messages: list[str] = []
        # --models=0: every answer set (clingo's own default is one).
        control = clingo.Control(["--models=0", f"--configuration={self.configuration}"],
                                 logger=lambda code, message: messages.append(message))
        # Grounding cannot be interrupted: it runs on a thread of its own, so that a Ctrl-C or SIGTERM is
        # taken at once and the grounding left to end on its daemon thread (in the caller's thread the
        # signal waited for it: 4 to 14 s at N = 150 on a busy machine, test_signals).
        try:
            control.add("base", [], formats.text("lp", n, fixed, self.variant))
            native.call(lambda: control.ground([("base", [])]), _cannot_stop, "clingo", patience=0.0)
        except (RuntimeError, NQueensError) as exc:  # (the grounding's own error comes as native.call's cause)
            cause = exc if isinstance(exc, RuntimeError) else exc.__cause__
            if not isinstance(cause, RuntimeError):
                raise
            raise NQueensError(f"clingo rejected the program: {' '.join(messages) or cause}") from cause
        stats["configuration"] = self.configuration

        squares: dict[Any, tuple[int, int]] = {}  # queen(R,C) -> (R, C): reading a symbol's arguments is slow

        def square(atom: Any) -> tuple[int, int]:
            row, column = atom.arguments
            squares[atom] = found = (row.number, column.number)
            return found

        def solve(handover: Any) -> Any:
            def record(model: Any) -> bool:
                columns = [0] * n
                for atom in model.symbols(shown=True):
                    row, column = squares.get(atom) or square(atom)
                    columns[row] = column
                handover.add(tuple(columns))
                # False stops the search: enough found, or nobody reads any more.
                return not handover.cancelled.is_set() and (limit is None or handover.found < limit)

            return control.solve(on_model=record)

        # The solver runs on a thread of its own and reports through the callback;
        # this thread waits on the batches (a model at a time through a
        # yielding handle costs 3.5x as much at N = 12).
        try:
            run = yield from native.stream(solve, control.interrupt, "clingo", deadline)
        finally:
            _statistics(control, stats)
        if run.handover.timed_out:
            raise TimeLimitReached

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """clingo's #minimize (the program of model/domination.py), in
        clasp's optimisation mode: an exhausted search proves the last model
        optimal.  Grounding cannot be interrupted (114 s at N = 150 for a 3 s
        limit) and a search waited for in one call holds Ctrl-C: both run in a
        child process, which ends its search at the limit with the best model
        found, and is killed a moment later if grounding outlasted it, at
        Ctrl-C or SIGTERM, and with this process."""
        from ..stopping import in_child

        answer = in_child(_optimise, (n, self.variant, self.configuration, time_limit),
                          None if time_limit is None else time_limit + _GRACE)
        if answer is None:
            return None, False, 1, f"no answer within {time_limit:g} s (clingo was still grounding)"
        queens, finished, exhausted, found = answer
        stats.update(found)
        if finished and exhausted and queens is not None:
            return queens, True, len(queens), "clasp exhausted the search: the last model is optimal"
        return queens, False, 1, f"not proved optimal within {time_limit:g} s"


def _optimise(n: int, variant: Any, configuration: str, time_limit: float | None) -> tuple[Any, ...]:
    """Ground and search in this (child) process: (best queens or None, finished,
    exhausted, statistics); the search is cancelled at the limit, counted from here."""
    import clingo

    from ..model.domination import write

    deadline = None if time_limit is None else time.monotonic() + time_limit
    control = clingo.Control(["--opt-mode=opt", f"--configuration={configuration}"],
                             logger=lambda code, message: None)
    control.add("base", [], "".join(write("lp", n, None, variant)))
    control.ground([("base", [])])
    best: dict[str, Any] = {}

    def record(model: Any) -> None:
        best["queens"] = [(a.arguments[0].number, a.arguments[1].number) for a in model.symbols(shown=True)]

    with control.solve(on_model=record, async_=True) as handle:
        finished = handle.wait(-1 if deadline is None else max(0.0, deadline - time.monotonic()))
        if not finished:
            handle.cancel()
        result = handle.get()
    stats: dict[str, Any] = {}
    _statistics(control, stats)
    return best.get("queens"), finished, result.exhausted, stats


_GRACE = 1.0  # seconds past the limit for the child to hand over its best model before it is killed


def _statistics(control: Any, stats: dict[str, Any]) -> None:
    summary = control.statistics
    solvers = summary.get("solving", {}).get("solvers", {})
    program = summary.get("problem", {}).get("lp", {})
    stats.update(atoms=int(program.get("atoms", 0)), rules=int(program.get("rules", 0)),
                 choices=int(solvers.get("choices", 0)), conflicts=int(solvers.get("conflicts", 0)))


def _cannot_stop() -> None:
    """What stops a grounding: nothing (clingo has no way to)."""
