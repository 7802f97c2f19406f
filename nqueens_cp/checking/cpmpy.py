"""A user's CPMpy model, enumerated by ``solveAll`` on OR-Tools (one worker), a missing board explained by CPMpy's MUS.

CPMpy's own explanation tool (``cpmpy.tools.explain.mus``) takes the board
fixed as hard constraints and the model's constraints as soft ones and
returns a minimal unsatisfiable subset: the model's constraints that exclude
the board, printed as CPMpy prints them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..errors import TimeLimitReached
from .forms import EXPECTED, COLUMNS, SQUARES, Determined, Instance, ModelError, Reason

_SETTINGS = {"num_workers": 1, "catch_sigint_signal": False}  # one worker: the only exact enumeration


class _Stopped(Exception):
    pass


class CpmpyInstance(Instance):
    def __init__(self, model: Any, rows: list[Any], n: int, name: str) -> None:
        from cpmpy.expressions.variables import _IntVarImpl

        self.model, self.n, self.name = model, n, name

        def variable(value: Any, where: str) -> Any:
            if not isinstance(value, _IntVarImpl):
                raise ModelError(f"{name}({n}): the board's entry {where} is of type {type(value).__name__}, not a CPMpy "
                                 f"variable; expected {EXPECTED}")
            return value

        if rows and isinstance(rows[0], list):
            self.kind = SQUARES
            self.cells = [(r, c, variable(v, f"[{r}][{c}]")) for r, row in enumerate(rows) for c, v in enumerate(row)]
            for r, c, v in self.cells:
                if v.lb < 0 or v.ub > 1:
                    raise ModelError(f"{name}({n}): the grid's entry [{r}][{c}] ({v}) takes {v.lb}..{v.ub}; a grid "
                                     "holds 0/1 variables")
        else:
            self.kind = COLUMNS
            self.board = [variable(v, f"[{r}]") for r, v in enumerate(rows)]
            self.domain = (min(v.lb for v in self.board), max(v.ub for v in self.board)) if self.board else None

    def _raw(self) -> tuple[Any, ...]:
        if self.kind == COLUMNS:
            return tuple(int(v.value()) for v in self.board)
        return tuple((r, c) for r, c, v in self.cells if v.value())

    def _fixing(self, raw: tuple[Any, ...]) -> list[Any]:
        if self.kind == COLUMNS:
            return [v == value for v, value in zip(self.board, raw)]
        queens = set(raw)
        return [v == int((r, c) in queens) for r, c, v in self.cells]

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        import warnings

        import cpmpy as cp

        from ..engines import native

        warnings.filterwarnings("ignore", message="Adding constraints to solver object", category=UserWarning)
        solver = cp.SolverLookup.get("ortools", self.model)

        def solve(handover: Any) -> Any:
            def show() -> None:
                if handover.cancelled.is_set():
                    raise _Stopped
                handover.add(self._raw())

            left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
            try:
                return solver.solveAll(display=show, time_limit=left, **_SETTINGS)
            except _Stopped:
                return None

        def stop() -> None:
            ort = getattr(solver, "ort_solver", None)
            if ort is not None:
                ort.stop_search()

        run = yield from native.stream(solve, stop, "CPMpy's ortools", deadline)
        status = solver.status().exitstatus.name
        if run.handover.timed_out or status not in ("OPTIMAL", "UNSATISFIABLE"):
            raise TimeLimitReached

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        import cpmpy as cp
        from cpmpy.tools.explain import mus

        hard = self._fixing(raw)
        if cp.Model(self.model.constraints, hard).solve(solver="ortools", **_SETTINGS):
            return Reason("CPMpy finds a solution with this board: the model accepts it, but its enumeration "
                          "never gave it", accepted=True)
        core = mus(soft=list(self.model.constraints), hard=hard, solver="ortools")
        parts = tuple(str(c) for c in core)
        if len(parts) == 1:
            return Reason(f"the model's constraint {parts[0]} is false for this board", parts)
        return Reason(f"no single constraint excludes it; these {len(parts)} together do (CPMpy's MUS, the board "
                      "fixed)", parts)

    def optimize(self, deadline: float | None) -> tuple[int | None, bool, tuple[Any, ...] | None, int | None]:
        import cpmpy as cp

        solver = cp.SolverLookup.get("ortools", self.model)
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        found = solver.solve(time_limit=left, catch_sigint_signal=False)
        status = solver.status().exitstatus.name
        if not found:
            if status == "UNSATISFIABLE":
                return None, True, None, None
            raise TimeLimitReached
        value = int(round(float(solver.objective_value())))
        return value, status == "OPTIMAL", self._raw(), value

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        import cpmpy as cp

        found = cp.Model(self.model.constraints, self._fixing(raw)).solveAll(solver="ortools", solution_limit=2, **_SETTINGS)
        if found < 2:
            return Determined(True) if found else None
        return Determined(False, "two solutions differ outside the board")
