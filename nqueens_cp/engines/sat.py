"""CNF over cell variables on a python-sat solver, enumerated with blocking clauses.

After each model we add one clause that forbids its N true cells from all
being true together.  Since every row has exactly one queen, that clause
excludes exactly this board and nothing else; auxiliary variables never
appear in it, so they cannot multiply solutions (unlike PySAT's
``enum_models``, which blocks whole models).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from ..board import Solution
from ..encodings import DEFAULT_ENCODING, ENCODINGS
from ..errors import InvalidInputError, TimeLimitReached
from .base import Engine

# python-sat solvers that can add clauses between calls, so they can enumerate.
# (kissat is not incremental.)  CaDiCaL 1.9.5 enumerates ~10x faster than
# minisat22 or glucose on N=12 here.
SOLVERS = (
    "cadical195", "cadical153", "cadical103", "glucose3", "glucose4", "glucose42",
    "lingeling", "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard",
    "minisat22", "minisatgh", "gluecard3", "gluecard4",
)
DEFAULT_SOLVER = "cadical195"


class SatEngine(Engine):
    name = "sat"
    summary = "CNF over N*N cell variables on python-sat (CaDiCaL), blocking clauses over cells"
    requires = "pysat"

    def __init__(self, solver: str = DEFAULT_SOLVER, encoding: str = DEFAULT_ENCODING,
                 symmetry_breaking: bool = False) -> None:
        if solver not in SOLVERS:
            raise InvalidInputError(f"unknown SAT solver '{solver}' (choose from {', '.join(SOLVERS)})")
        if encoding not in ENCODINGS:
            raise InvalidInputError(f"unknown encoding '{encoding}' (choose from {', '.join(ENCODINGS)})")
        self.solver = solver
        self.encoding = encoding
        self.symmetry_breaking = symmetry_breaking

    def preload(self) -> None:
        import pysat.solvers  # noqa: F401

    def _search(self, n: int, fixed: dict[int, int], limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        from pysat.solvers import Solver

        from ..cnf import encode

        cnf = encode(n, self.encoding, fixed, self.symmetry_breaking)
        cells = n * n
        positive = (0).__lt__
        stats.update(solver=self.solver, encoding=self.encoding, variables=cnf.nvars, clauses=len(cnf.clauses))
        with Solver(name=self.solver, bootstrap_with=cnf.clauses) as solver:
            solving = False
            try:
                while True:
                    solving = True
                    if not _solve(solver, deadline):
                        break
                    solving = False
                    # Cell (r, c) is variable r*n+c+1, literal +-(r*n+c+1) at model
                    # index r*n+c.  Only the N true cells matter, one per row, in
                    # row order; filter() keeps that scan out of the interpreter.
                    true_cells = list(filter(positive, solver.get_model()[:cells]))
                    yield tuple((v - 1) % n for v in true_cells)
                    solver.add_clause([-v for v in true_cells])
                solving = False
            finally:
                # A solve cut short by Ctrl-C leaves CaDiCaL in a state where
                # asking for statistics aborts the process: skip them then.
                if not solving:
                    stats.update(solver.accum_stats())


def _solve(solver: Any, deadline: float | None = None) -> bool:
    """One call to the solver; raises TimeLimitReached past ``deadline``."""
    timer = None
    try:
        if deadline is None:
            return solver.solve()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeLimitReached
        timer = threading.Timer(remaining, solver.interrupt)
        timer.start()
        answer = solver.solve_limited(expect_interrupt=True)
        if answer is None:
            solver.clear_interrupt()
            raise TimeLimitReached
        return answer
    except Exception as exc:
        # python-sat turns Ctrl-C during a solve into its own error type.
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise
    finally:
        if timer is not None:
            timer.cancel()
