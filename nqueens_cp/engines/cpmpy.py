"""CPMpy: the model in CPMpy's modelling language, every board from its ``solveAll``.

CPMpy states a model once in Python and hands it to any solver it has an
interface to (its ``SolverLookup``).  The model is the one the CP-SAT engine
builds: one integer per row, and AllDifferent on q[i], q[i] + i and q[i] - i
for plain queens; for any member that places pieces, the terms its data
gives (:meth:`~nqueens_cp.model.variants.Variant.integer_terms`: wrapped lines
modulo N, offsets as differences).  ``solveAll`` calls back with each board; the callback hands it
over to the caller's thread (:func:`.native.stream`), and stops the search
by raising when nobody reads any more.

The solver is the option ``solver``: OR-Tools' CP-SAT by default (CPMpy's
own), or any other CPMpy solver installed here; a choice whose package is
missing is refused in one line before any work.  CP-SAT enumerates with one
worker, the only exact way (more return duplicates and miss boards).

This engine was added as the proof of the engine template: this module, a
line in the registry and an extra in ``pyproject.toml``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..errors import NQueensError, TimeLimitReached
from ..model.board import Solution
from ..model.position import Position
from .base import Engine, Option

# CPMpy's name for a solver -> the Python modules its interface imports (cpmpy/solvers/*.py).
SOLVERS = {"ortools": ("ortools",), "z3": ("z3",), "pysat": ("pysat", "pypblib"), "exact": ("exact",),
           "choco": ("pychoco",), "gcs": ("gcspy",), "pumpkin": ("pumpkin_solver",)}


class _Stopped(Exception):
    """Raised from the callback: nobody reads any more, or enough was found."""


class CpmpyEngine(Engine):
    name = "cpmpy"
    summary = ("CPMpy model (an AllDifferent a line family, the family's from its data), every board from "
               "solveAll on a CPMpy solver (OR-Tools by default)")
    requires = "cpmpy"
    install = "pip install 'nqueens-cp[cpmpy]'"
    paradigm = "CP"
    declarative = True
    group = "field"
    options = (Option("solver", "CPMpy's solver (default: ortools, CP-SAT with one worker); another needs its "
                      "package installed", choices=tuple(SOLVERS), default="ortools",
                      needs={name: modules for name, modules in SOLVERS.items() if name != "ortools"}),)
    expresses = frozenset({"lines", "wrapping", "offsets"})  # (Variant.integer_terms: any member that places pieces)
    statistics = ("solver", "solutions", "solver_status")
    enumeration_rate = count_rate = 1.5e3
    first_solution_max_n = 100
    solver: str

    def preload(self) -> None:
        import cpmpy  # noqa: F401

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        import warnings

        import cpmpy as cp

        from . import native

        q = cp.intvar(0, n - 1, shape=(n,), name="q")  # (a shape of 1 would give one variable, not an array)
        # [cost family cpmpy]
        groups, differ = self.variant.integer_terms(n, q)  # (the family's model, from its data)
        model = cp.Model([cp.AllDifferent(terms) for terms in groups], [a != b for a, b in differ])
        # [end cost]
        model += [q[r] == c for r, c in fixed.items()] + [q[r] != c for r, c in getattr(fixed, "blocked", ())]
        # (solveAll warns that it adds blocking constraints to the solver: ours is thrown away)
        warnings.filterwarnings("ignore", message="Adding constraints to solver object", category=UserWarning)
        solver = cp.SolverLookup.get(self.solver, model)
        stats["solver"] = self.solver
        # CP-SAT: one worker (more return duplicates and miss boards), and Ctrl-C left to Python
        # (CP-SAT's own SIGINT handler ends the process from the solver's thread).
        settings = {"num_workers": 1, "catch_sigint_signal": False} if self.solver == "ortools" else {}

        def solve(handover: Any) -> Any:
            def show() -> None:
                if handover.cancelled.is_set():
                    raise _Stopped
                handover.add(tuple(int(v) for v in q.value()))

            left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
            try:
                return solver.solveAll(display=show, time_limit=left, solution_limit=limit, **settings)
            except _Stopped:
                return None

        def stop() -> None:  # (a search between two boards: CP-SAT's own stop, where it is CP-SAT)
            ort = getattr(solver, "ort_solver", None)
            if ort is not None:
                ort.stop_search()

        try:
            run = yield from native.stream(solve, stop, f"CPMpy's {self.solver}", deadline)
        finally:
            stats["solver_status"] = solver.status().exitstatus.name
        stats["solutions"] = run.handover.found
        done = stats["solver_status"] in ("OPTIMAL", "UNSATISFIABLE") or (limit is not None and run.handover.found >= limit)
        if run.handover.timed_out or (deadline is not None and not done):
            raise TimeLimitReached
        if not done:
            raise NQueensError(f"CPMpy's {self.solver} stopped before listing every board ({stats['solver_status']})")
