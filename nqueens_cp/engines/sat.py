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
from ..errors import TimeLimitReached
from .base import SYMMETRY_BREAKING, Engine, Option, Status

# python-sat solvers that can add clauses between calls, so they can enumerate.
# (kissat is not incremental.)  CaDiCaL 1.9.5 enumerates ~10x faster than
# minisat22 or glucose on N=12 here.
SOLVERS = (
    "cadical195", "cadical153", "cadical103", "glucose3", "glucose4", "glucose42",
    "lingeling", "maplechrono", "maplecm", "maplesat", "mergesat3", "minicard",
    "minisat22", "minisatgh", "gluecard3", "gluecard4",
)
DEFAULT_SOLVER = "cadical195"
SOLVE_LARGE_N = 60  # above this the pairwise CNF grows as N^3: solve uses the sequential counter


class SatEngine(Engine):
    name = "sat"
    summary = "CNF over N*N cell variables on python-sat (CaDiCaL), blocking clauses over cells"
    requires = "pysat"

    options = (
        Option("solver", f"python-sat solver (default: {DEFAULT_SOLVER}); any incremental one (kissat is not, "
               "so it cannot enumerate)", choices=SOLVERS, default=DEFAULT_SOLVER),
        Option("encoding", f"at-most-one encoding of the CNF (default: {DEFAULT_ENCODING}; solve switches to "
               f"seqcounter above N={SOLVE_LARGE_N} unless one is given)", choices=tuple(ENCODINGS)),
        SYMMETRY_BREAKING,
    )
    statistics = ("solver", "encoding", "variables", "clauses", "conflicts", "decisions", "propagations", "restarts")
    additive = frozenset({"conflicts", "decisions", "propagations", "restarts"})
    effort = "conflicts"
    enumeration_rate = count_rate = 4e3
    first_solution_max_n = 100
    solver: str
    encoding: str | None

    @property
    def cnf_encoding(self) -> str:
        return self.encoding or DEFAULT_ENCODING

    def preload(self) -> None:
        import pysat.solvers  # noqa: F401

    def _search(self, n: int, fixed: dict[int, int], limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        from pysat.solvers import Solver

        from ..cnf import encode

        cnf = encode(n, self.cnf_encoding, fixed, self.symmetry_breaking)
        cells = n * n
        positive = (0).__lt__
        stats.update(solver=self.solver, encoding=self.cnf_encoding, variables=cnf.nvars, clauses=len(cnf.clauses))
        with Solver(name=self.solver, bootstrap_with=cnf.clauses) as solver:
            solving = False
            try:
                while True:
                    solving = True
                    if not _run_solver(solver, deadline):
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


    def _solve(self, n: int, placed: dict[int, int], time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        engine = self
        if self.encoding is None and n > SOLVE_LARGE_N:
            # The pairwise CNF has about N^3 clauses; the sequential counter is linear.
            engine = SatEngine(solver=self.solver, encoding="seqcounter")
        status, solution, reason = Engine._solve(engine, n, placed, time_limit, stats)
        if status is Status.NONE:
            reason = "the SAT solver proved the CNF unsatisfiable"
        return status, solution, reason


def _run_solver(solver: Any, deadline: float | None = None) -> bool:
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
