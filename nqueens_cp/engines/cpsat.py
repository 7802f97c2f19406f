"""OR-Tools CP-SAT: one integer variable per row, AllDifferent on q[i], q[i]+i, q[i]-i.

Solutions are enumerated by a solution callback with
``enumerate_all_solutions``.  The solver runs in a worker thread and hands
solutions over in small batches, so they stream to the caller as they are
found and a slow consumer holds the search back instead of piling them up.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

from ..model.board import Solution
from ..model.position import Position
from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..model.cpsat import build_model
from .base import SEED, SYMMETRY_BREAKING, Engine, Option, Status

OPTIMUM_WORKERS = 8  # the fewest workers an optimum is proved with (CP-SAT's full portfolio)


class CpSatEngine(Engine):
    name = "cpsat"
    summary = "OR-Tools CP-SAT model (3 AllDifferent), solution callback, 1 worker"
    requires = "ortools"
    paradigm = "CP-SAT"
    declarative = True
    options = (SYMMETRY_BREAKING,
               SEED._replace(optimum=True),
               Option("workers", "CP-SAT's search workers (default: every core, a portfolio, or one with "
                      "--seed; for an optimum at least 8, its full portfolio); listing and counting always use "
                      "one, the only exact way", kind=int, low=1, high=1024,
                      solve_only=True, optimum=True))
    statistics = ("variables", "constraints", "branches", "conflicts", "solver_time", "status")
    # solver_time: seconds in CP-SAT's solves (its wall_time), added up over a split search's
    # sub-problems, those of every worker: a total of the solver's work, not the wall (named
    # solver_wall_time, it read 0.72 s for a count whose two workers took 0.4 s)
    additive = frozenset({"branches", "conflicts", "solver_time"})
    effort = "conflicts"
    enumeration_rate = count_rate = 3e3
    reports_optimum = True
    optimum_reach = {"domination": (12, 7.47, 4.9), "independent": (11, 1.51, 1.7)}
    first_solution_max_n = 100
    # The model is N integers and 3N terms, built in Python and then held by the solver: at N = 10^6
    # the building alone outlasted a 5 s limit by 15 s; N = 10^18 never ended.
    max_n = 1_000_000
    max_n_why = ("its model holds 3N terms, built in Python: beyond, minutes and gigabytes before any search; "
                 "solve without --engine answers any N")
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})
    seed: int | None
    workers: int | None
    checks_itself = frozenset({"workers"})  # (check(): 1 is what listing runs with)

    def preload(self) -> None:
        from ortools.sat.python import cp_model  # noqa: F401

    def check_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     part: bool = False) -> None:
        if self.workers not in (None, 1):
            raise InvalidInputError("option workers (--workers) applies to solve: listing and counting solutions "
                                    "use one worker (more return duplicates and miss solutions)")
        super().check_search(n, placed, limit, time_limit, part)

    def split_rows(self, n: int) -> int:
        # Each sub-solve pays CP-SAT's set-up (tens of ms): one row up to
        # N=12, two beyond, where balancing the cores matters more (measured).
        return 1 if n <= 12 else 2

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        from ortools.sat.python import cp_model

        model, q = build_model(n, fixed, self.symmetry_breaking, self.variant)
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        # More than one worker returns duplicates and loses solutions while
        # still reporting OPTIMAL (seen with OR-Tools 9.15: 80 of 92 at N=8).
        solver.parameters.num_workers = 1
        # Ctrl-C is Python's to handle (KeyboardInterrupt in the consumer);
        # CP-SAT's own SIGINT handler aborts the process from a worker thread.
        solver.parameters.catch_sigint_signal = False
        solver.parameters.search_branching = cp_model.FIXED_SEARCH  # the model's strategy
        # Enumeration sends the search back to the root after most solutions,
        # and each time the SAT layer's inprocessing (vivification, probing of
        # the learned clauses) runs again: off, enumerating N=12 is 2.2x faster
        # here, with the same solutions.
        solver.parameters.use_sat_inprocessing = False
        if self.seed is not None:
            solver.parameters.random_seed = self.seed
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.001)
        from . import native

        rows = [v.index for v in q]

        def solve(handover: Any) -> Any:
            class Recorder(cp_model.CpSolverSolutionCallback):
                def on_solution_callback(self) -> None:
                    # By variable index: on an N=13 sub-problem the callback took
                    # 0.18 s this way and 0.44 s with value(expression).
                    value = self.SolutionIntegerValue
                    handover.add(tuple([value(i) for i in rows]))
                    if (limit is not None and handover.found >= limit) or handover.cancelled.is_set():
                        self.stop_search()

            return solver.solve(model, Recorder())

        try:
            run = yield from native.stream(solve, solver.stop_search, "CP-SAT")
        finally:
            stats.update(variables=len(model.proto.variables), constraints=len(model.proto.constraints))
            try:
                stats.update(branches=solver.num_branches, conflicts=solver.num_conflicts,
                             solver_time=solver.wall_time)
            except RuntimeError:  # no response: stopped before its solve began, or one left running past patience
                pass  # (raised here, it would have taken the place of the Ctrl-C that stopped it)
        stats["status"] = solver.status_name(run.result)
        if run.result == cp_model.MODEL_INVALID:
            raise NQueensError("CP-SAT rejected the model as invalid")
        stopped_by_us = limit is not None and run.handover.found >= limit
        if deadline is not None and not stopped_by_us and run.result not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise TimeLimitReached

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        """One solution: unlike enumeration, a portfolio of workers is safe and fast here.  With a
        seed and no workers option, one worker: a portfolio's answer is whichever worker finishes
        first, so the same seed gave different boards run to run; one worker with a seed is
        reproducible (and on 2 cores no slower: N = 200 in 48 s against 79 s)."""
        if time_limit is not None and n > CHILD_MIN_N:
            # Building a large model cannot be interrupted (N = 10^6 outlasted a 5 s limit by 15 s): the
            # whole decision runs in a child process, killed at the limit or when this one is stopped.
            from ..stopping import in_child

            answer = in_child(_solve_here, (self, n, placed, time_limit), time_limit + STOP_GRACE)
            if answer is None:
                return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (CP-SAT was stopped)"
            status_, solution, reason, found = answer
            stats.update(found)
            return status_, solution, reason
        return self._solve_here(n, placed, time_limit, stats)

    def _solve_here(self, n: int, placed: Position, time_limit: float | None,
                    stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        """:meth:`_solve` in this process."""
        from ortools.sat.python import cp_model

        deadline = None if time_limit is None else time.monotonic() + time_limit
        model, q = build_model(n, placed, self.symmetry_breaking, self.variant)
        solver, status = self._solve_once(model, deadline, stats, 1 if self.seed is not None else 0)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Status.SOLVED, tuple(solver.value(v) for v in q), ""
        if status == cp_model.INFEASIBLE:
            return Status.NONE, None, "CP-SAT proved the model infeasible"
        if status == cp_model.MODEL_INVALID:
            raise NQueensError("CP-SAT rejected the model as invalid")
        return Status.UNKNOWN, None, f"no answer within {time_limit:g} s" if time_limit else "CP-SAT gave up"

    def _solve_once(self, model: Any, deadline: float | None, stats: dict[str, Any],
                    workers: int = 0, callback: Any = None) -> tuple[Any, Any]:
        """(solver, status) of one solve of ``model`` by a portfolio of workers (safe for one answer,
        unlike enumeration), its statistics into ``stats``; ``workers`` when the option is not set
        (0: every core, each with its own strategy).  ``deadline`` (time.monotonic()) covers the
        model's building too: the solve gets what is left of it."""
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers or workers
        solver.parameters.catch_sigint_signal = False
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(deadline - time.monotonic(), 0.001)
        if self.seed is not None:
            solver.parameters.random_seed = self.seed
        status = _stoppable(solver, model, deadline, callback)
        stats.update(solver_time=solver.wall_time, status=solver.status_name(status))
        if solver.parameters.num_workers == 1:  # (a portfolio's response counts one worker's search, often 0)
            stats.update(branches=solver.num_branches, conflicts=solver.num_conflicts)
        return solver, status

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """CP-SAT's Minimize over Boolean cells, every square covered (a
        portfolio of workers: safe for one optimum); OPTIMAL is its proof."""
        import math

        from ortools.sat.python import cp_model

        from ..model.domination import coverers, lines

        deadline = None if time_limit is None else time.monotonic() + time_limit
        model = cp_model.CpModel()
        x = {(r, c): model.new_bool_var(f"x{r}_{c}") for r in range(n) for c in range(n)}
        # [cost domination cpsat]
        for _, cover in coverers(n, self.variant):
            model.add_bool_or([x[s] for s in cover])
            if deadline is not None and time.monotonic() > deadline:  # (N = 200: minutes of building)
                return None, False, 1, f"no answer within {time_limit:g} s (the model was not built)"
        model.minimize(sum(x.values()))
        # [end cost]
        # [cost independent cpsat]
        for line in lines(n) if self.variant.independent else ():
            model.add_at_most_one([x[s] for s in line])
        # [end cost]
        # At least CP-SAT's full portfolio of 8 (time-sliced where there are fewer cores): its
        # LP and core-guided workers prove the bound, which 2 plain workers do not in any
        # reasonable time (benchmarks/variants.py --tables workers, 2 cores: gamma(8) in 0.8 s
        # with 8 workers, not within 10 s with 2).
        solver, status = self._solve_once(model, deadline, stats, max(OPTIMUM_WORKERS, os.cpu_count() or 1),
                                          _standing_callback(report))
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None, False, max(1, math.ceil(solver.best_objective_bound - 1e-6)), \
                f"no answer within {time_limit:g} s" if time_limit else "CP-SAT gave up"
        queens = [s for s, v in x.items() if solver.value(v)]
        if status == cp_model.OPTIMAL:
            return queens, True, len(queens), "CP-SAT proved the objective optimal"
        return queens, False, max(1, math.ceil(solver.best_objective_bound - 1e-6)), \
            f"not proved optimal within {time_limit:g} s"


def _standing_callback(report: Any) -> Any:
    """A solution callback that reports each better set of queens and the bound
    proved so far (:class:`~nqueens_cp.engines.optimum.Standing`), from the
    solver's thread."""
    import math

    from ortools.sat.python import cp_model

    from .optimum import Standing

    class Callback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            report(Standing(max(1, math.ceil(self.best_objective_bound - 1e-6)), round(self.objective_value),
                            self.num_branches))

    return Callback()


STOP_GRACE = 0.5  # seconds past a deadline before a solve that has not kept it is stopped
CHILD_MIN_N = 20_000  # beyond, a decision under a time limit runs in a child process (its model takes seconds)


def _solve_here(engine: CpSatEngine, n: int, placed: Position, time_limit: float | None) -> tuple[Any, ...]:
    """A decision in this (child) process: (status, solution, reason, statistics)."""
    stats: dict[str, Any] = {}
    status, solution, reason = engine._solve_here(n, placed, time_limit, stats)
    return status, solution, reason, stats


def _stoppable(solver: Any, model: Any, deadline: float | None, callback: Any = None) -> Any:
    """``solver.solve(model)`` on a thread of its own (:func:`.native.call`): this one
    stays free to take Ctrl-C and SIGTERM, and stops a solve that overruns its
    deadline (presolve does not always look at the clock).  Stopped, the solve
    returns what it has."""
    from . import native

    return native.call(lambda: solver.solve(model, callback), solver.stop_search, "CP-SAT", deadline, STOP_GRACE)
