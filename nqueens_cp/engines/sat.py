"""CNF over cell variables on a python-sat solver, enumerated with blocking clauses.

After each model we add one clause that forbids its N true cells from all
being true together.  Since every row has exactly one queen, that clause
excludes exactly this board and nothing else; auxiliary variables never
appear in it, so they cannot multiply solutions (unlike PySAT's
``enum_models``, which blocks whole models).
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from typing import Any

from ..model.board import Solution
from ..model.position import Position
from ..model.encodings import DEFAULT_ENCODING, ENCODINGS
from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from ..stopping import in_child
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
    paradigm = "SAT"
    declarative = True

    options = (
        Option("solver", f"python-sat solver (default: {DEFAULT_SOLVER}); any incremental one (kissat is not, "
               "so it cannot enumerate)", choices=SOLVERS, default=DEFAULT_SOLVER, optimum=True),
        Option("encoding", f"at-most-one encoding of the CNF (default: {DEFAULT_ENCODING}; solve switches to "
               f"seqcounter above N={SOLVE_LARGE_N} unless one is given)", choices=tuple(ENCODINGS)),
        SYMMETRY_BREAKING,
        Option("proof", "when there is no solution, write a DRAT proof of it to FILE and the CNF it "
               "refutes beside it (FILE.drat -> FILE.cnf), and check the pair with drat-trim", solve_only=True),
    )
    statistics = ("solver", "encoding", "variables", "clauses", "conflicts", "decisions", "propagations", "restarts",
                  "proof", "proof_cnf", "proof_lines", "proof_check")
    additive = frozenset({"conflicts", "decisions", "propagations", "restarts"})
    effort = "conflicts"
    enumeration_rate = count_rate = 4e3
    optimum_reach = {"domination": (11, 1.97, 1.7), "independent": (11, 5.31, 7.9)}
    first_solution_max_n = 100
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})
    solver: str
    encoding: str | None
    proof: str | None

    @property
    def cnf_encoding(self) -> str:
        return self.encoding or DEFAULT_ENCODING

    def preload(self) -> None:
        import pysat.solvers  # noqa: F401

    def check_usable(self) -> None:
        """Refuse, before any work, a solver name this build of python-sat lacks (it lists
        names it was not compiled with: minisatgh in 1.8), naming the ones it has."""
        super().check_usable()
        if not _built(self.solver):
            have = [name for name in SOLVERS if _built(name)]
            raise InvalidInputError(f"engine sat: solver {self.solver} is not in this build of python-sat "
                                    f"(choose from {', '.join(have)})")

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        from pysat.solvers import Solver

        from ..model.cnf import encode

        cnf = encode(n, self.cnf_encoding, fixed, self.symmetry_breaking, self.variant)
        cells = n * n
        positive = (0).__lt__
        stats.update(solver=self.solver, encoding=self.cnf_encoding, variables=cnf.nvars, clauses=len(cnf.clauses))
        with Solver(name=self.solver, bootstrap_with=cnf.clauses) as solver:
            solving = False
            try:
                while True:
                    solving = True
                    if not run_solver(solver, deadline):
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


    def check_search(self, n: int, placed: Position, limit: int | None, time_limit: float | None,
                     part: bool = False) -> None:
        if self.proof is not None:
            raise InvalidInputError("option proof (--proof) applies to solve, not to listing or counting solutions")
        super().check_search(n, placed, limit, time_limit, part)
        self._check_size(n, self.cnf_encoding)

    def check_decision(self, n: int, placed: Position, time_limit: float | None) -> None:
        super().check_decision(n, placed, time_limit)
        self._check_size(n, self._solve_encoding(n))

    def _solve_encoding(self, n: int) -> str:
        # The pairwise CNF has about N^3 clauses; the sequential counter is linear.
        return self.encoding or ("seqcounter" if n > SOLVE_LARGE_N else DEFAULT_ENCODING)

    def _check_size(self, n: int, encoding: str) -> None:
        from ..model.cnf import check_size

        check_size(f"engine {self.name}", n, encoding, variant=self.variant)

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        encoding = self._solve_encoding(n)
        if self.proof is not None:
            return self._solve_with_proof(n, placed, time_limit, stats, encoding, self.proof)
        engine = SatEngine(self.variant, solver=self.solver, encoding=encoding, symmetry_breaking=self.symmetry_breaking)
        if not _interruptible(self.solver):
            # CaDiCaL takes neither an interrupt nor a budget of propagations, and a slice of
            # conflicts took up to 2 s on a large board (solve 250 with a 2 s limit answered
            # after 3.6 s; SIGTERM waited for the solve to end, 31 s at N = 200): the whole
            # decision, model building included, runs in a child process, killed at the
            # limit or when this process is stopped.
            answer = in_child(_solve_whole, (engine, n, placed), time_limit)
            if answer is None:
                return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (the solver was stopped)"
            status, solution, reason, found = answer
            stats.update(found)
        else:
            status, solution, reason = Engine._solve(engine, n, placed, time_limit, stats)
        if status is Status.NONE:
            reason = "the SAT solver proved the CNF unsatisfiable"
        return status, solution, reason

    def _solve_with_proof(self, n: int, placed: Any, time_limit: float | None, stats: dict[str, Any],
                          encoding: str, proof: str) -> tuple[Status, Solution | None, str]:
        """One solve with proof logging: a model is decoded; "none" writes the
        DRAT proof and its CNF, and has drat-trim check them."""
        from pysat.solvers import Solver

        from ..model.cnf import encode
        from ..model.dimacs import write_dimacs_file
        from ..model.proofs import PROOF_SOLVERS, check_proof, cnf_beside, ours, write_proof
        from ..files import check_writable, is_stream

        if self.solver not in PROOF_SOLVERS:
            raise InvalidInputError(f"solver {self.solver} cannot log proofs (these can: {', '.join(PROOF_SOLVERS)})")
        if self.symmetry_breaking:
            raise InvalidInputError("a proof refutes the CNF as written by dimacs, which has no symmetry breaking: "
                                    "proof and symmetry breaking do not combine")
        if is_stream(proof):
            raise InvalidInputError(f"--proof {proof}: name a file (the proof's CNF is written beside it)")
        cnf_path = cnf_beside(proof)
        check_writable(proof, str(cnf_path))  # refuse an unwritable place before solving
        if not ours(cnf_path):
            raise InvalidInputError(f"--proof {proof} would overwrite {cnf_path}, which is not a CNF of ours: "
                                    "move it, or name the proof elsewhere")
        cnf = encode(n, encoding, placed, variant=self.variant)  # exactly what write_dimacs_file writes below
        stats.update(solver=self.solver, encoding=encoding, variables=cnf.nvars, clauses=len(cnf.clauses))
        deadline = None if time_limit is None else time.monotonic() + time_limit
        with Solver(name=self.solver, bootstrap_with=cnf.clauses, with_proof=True) as solver:
            try:
                satisfiable = run_solver(solver, deadline)
            except TimeLimitReached:
                return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (no proof written)"
            stats.update(solver.accum_stats())
            if satisfiable:
                model = solver.get_model()[:n * n]
                return Status.SOLVED, tuple((v - 1) % n for v in model if v > 0), ""
            lines = write_proof(proof, solver.get_proof())
        write_dimacs_file(str(cnf_path), n, encoding, placed, variant=self.variant)
        check = check_proof(cnf_path, proof)
        stats.update(proof=str(proof), proof_cnf=str(cnf_path), proof_lines=lines, proof_check=check.status)
        if check.status == "rejected":
            raise NQueensError(f"{check.checker} rejected the solver's proof ({check.detail}): "
                               f"{proof} and {cnf_path} are kept for a bug report")
        checked = f"checked by {check.checker}" if check.verified else f"not checked: {check.detail}"
        return Status.NONE, None, f"the SAT solver proved the CNF unsatisfiable; DRAT proof in {proof} " \
                                  f"({lines} lines) for {cnf_path}, {checked}"


    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """MaxSAT: python-sat's RC2 (core-guided) over the WCNF of
        model/domination.py, every cell a soft clause (-x) of weight 1; RC2's
        optimum is proved by its cores.  RC2 cannot be interrupted: with a time
        limit it runs in a child process, stopped at the limit."""
        if not _limited(self.solver):  # RC2 asks its oracle for limited solves
            raise InvalidInputError(f"engine sat: RC2 cannot run on {self.solver}, which has no limited solve "
                                    f"(choose from {', '.join(name for name in SOLVERS if _limited(name))})")
        # RC2 cannot be interrupted: the WCNF is built and solved in a child process, killed
        # at the limit (the building counts: N = 150 took minutes), at Ctrl-C or SIGTERM (in
        # this process, RC2 held both: a traceback or 10 s), and with this process.
        stats["solver"] = "rc2/" + self.solver
        answer = in_child(_rc2, (n, self.variant, self.solver), time_limit)
        if answer is None:
            return None, False, 1, f"no answer within {time_limit:g} s (RC2 stopped)"
        model, sizes = answer
        stats.update(sizes)
        queens = [divmod(v - 1, n) for v in model if 0 < v <= n * n]
        return queens, True, len(queens), "RC2 proved the cost optimal (MaxSAT cores)"


@functools.lru_cache(maxsize=None)
def _built(name: str) -> bool:
    """Whether this build of python-sat has the solver (made once, empty: milliseconds)."""
    from pysat.solvers import NoSuchSolverError, Solver

    try:
        with Solver(name=name):
            return True
    except NoSuchSolverError:
        return False


@functools.lru_cache(maxsize=None)
def _limited(name: str) -> bool:
    """Whether the solver takes limited solves (RC2 and a time limit need them; lingeling does not)."""
    from pysat.solvers import Solver

    if not _built(name):
        return False
    with Solver(name=name, bootstrap_with=[[1, 2]]) as solver:  # (some crash on an empty formula)
        try:
            solver.solve_limited()
            return True
        except NotImplementedError:
            return False


def _rc2(n: int, variant: Any, solver: str) -> tuple[list[int], dict[str, int]]:
    """RC2's optimal model of the domination question's WCNF, and the WCNF's sizes."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    from ..model.domination import wcnf

    hard, soft = wcnf(n, variant)
    formula = WCNF()
    for clause in hard:
        formula.append(clause)
    for clause in soft:
        formula.append(clause, weight=1)
    # RC2 takes its own oracle names ("cd19" is CaDiCaL 1.9.5)
    with RC2(formula, solver="cd19" if solver.startswith("cadical") else solver) as rc2:
        return list(rc2.compute() or []), {"hard": len(hard), "soft": len(soft)}


def _solve_whole(engine: SatEngine, n: int, placed: Position) -> tuple[Any, ...]:
    """A decision searched whole, for a child process: (status, solution, reason, statistics)."""
    stats: dict[str, Any] = {}
    status, solution, reason = Engine._solve(engine, n, placed, None, stats)
    return status, solution, reason, stats


@functools.lru_cache(maxsize=None)
def _interruptible(name: str) -> bool:
    """Whether the solver stops at an interrupt from another thread (CaDiCaL does not)."""
    from pysat.solvers import Solver

    with Solver(name=name, bootstrap_with=[[1, 2]]) as solver:
        try:
            solver.interrupt()
            solver.clear_interrupt()
            return True
        except NotImplementedError:
            return False


# How each python-sat solver stops at a deadline: most take an interrupt from
# a timer thread; CaDiCaL's binding does not ("Limited solve is currently
# unsupported") but takes a conflict budget, so it solves in slices of
# BUDGET_CONFLICTS conflicts and reads the clock between them (a slice takes
# milliseconds; the solver keeps what it learned from one to the next).
BUDGET_CONFLICTS = 2_000


def run_solver(solver: Any, deadline: float | None = None) -> bool:
    """One call to the solver; raises TimeLimitReached past ``deadline``."""
    timer = None
    try:
        if deadline is None:
            return solver.solve()
        if deadline - time.monotonic() <= 0:
            raise TimeLimitReached
        if "cadical" in type(solver.solver).__name__.lower():
            while True:
                solver.conf_budget(BUDGET_CONFLICTS)
                answer = solver.solve_limited()
                if answer is not None:
                    return answer
                if time.monotonic() >= deadline:
                    raise TimeLimitReached
        timer = threading.Timer(deadline - time.monotonic(), _interrupt, (solver,))
        timer.start()
        answer = solver.solve_limited(expect_interrupt=True)
        if answer is None:
            solver.clear_interrupt()
            raise TimeLimitReached
        return answer
    except NotImplementedError:  # (lingeling: neither an interrupt nor a budget)
        raise InvalidInputError("this solver cannot stop at a time limit: drop --time-limit, or choose another "
                                "--solver (cadical195, glucose4, minisat22, ...)") from None
    except Exception as exc:
        # python-sat turns Ctrl-C during a solve into its own error type.
        if "keyboard interrupt" in str(exc).lower():
            raise KeyboardInterrupt from None
        raise
    finally:
        if timer is not None:
            timer.cancel()


def _interrupt(solver: Any) -> None:
    try:
        solver.interrupt()
    except Exception:  # (the solve ended meanwhile, or the solver is freed: nothing to stop)
        pass
