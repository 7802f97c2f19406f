"""A user's CNF: a PySAT ``CNF`` from Python, DIMACS files ``PATH-{n}.cnf``, or a generator command.

Enumerated on CaDiCaL with one blocking clause per board over the N^2 cell
variables only, every cell in it (a clause over the true cells alone would
also block a placement of more queens, which a wrong model may accept):
auxiliary variables never multiply the boards, as PySAT's ``enum_models``
does.  Which variable is which cell: the file's ``c q ROW COL VAR`` lines
(the map our DIMACS files carry), else variable ``r*N + c + 1``.

A missing board is explained by clause numbers: each clause gets a selector,
the board's cells and every selector are assumed, and the solver's core,
made minimal by leaving each selector out in turn, names the clauses.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from typing import Any

from ..errors import InvalidInputError
from .forms import EXPECTED, SQUARES, Determined, FilePerN, Instance, ModelError, Reason, UserModel

SOLVER = "cadical195"  # the fastest PySAT enumerator
_CELL = re.compile(r"c\s+q\s+(\d+)\s+(\d+)\s+(\d+)\s*")
_SHOWN = 12  # literals of a clause shown in a reason


def cell_grid(rows: list[Any], n: int, name: str) -> list[list[int]]:
    """A CNF's board: n rows of n positive variable ids."""
    if not rows or not isinstance(rows[0], list):
        raise ModelError(f"{name}({n}): a CNF's board is an n x n grid of its cell variables' ids; expected {EXPECTED}")
    grid = []
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if type(value) is not int or value < 1:
                raise ModelError(f"{name}({n}): the grid's entry [{r}][{c}] is {value!r}, not a variable id "
                                 f"(a positive int); expected {EXPECTED}")
        grid.append(list(row))
    return grid


class CnfInstance(Instance):
    kind = SQUARES

    def __init__(self, clauses: list[list[int]], nvars: int, grid: list[list[int]], n: int,
                 source: str = "the CNF", sites: dict[int, dict[str, Any]] | None = None) -> None:
        self.clauses, self.n, self.source = clauses, n, source
        self.sites = sites or {}  # clause index -> where it was written (a line of the user's code or file)
        self.cells = [(r, c, v) for r, row in enumerate(grid) for c, v in enumerate(row)]
        self.nvars = max([nvars, *(v for _, _, v in self.cells)])
        if len({v for _, _, v in self.cells}) != n * n:
            raise ModelError(f"{source}: two cells of the board share a variable")

    def _solver(self, clauses: list[list[int]]) -> Any:
        from pysat.solvers import Solver

        return Solver(name=SOLVER, bootstrap_with=clauses)

    def solutions(self, deadline: float | None) -> Iterator[tuple[Any, ...]]:
        from ..engines.sat import run_solver

        cells = self.cells
        with self._solver(self.clauses) as solver:
            while run_solver(solver, deadline):
                model = solver.get_model()
                value = _values(model)
                yield tuple((r, c) for r, c, v in cells if value(v))
                solver.add_clause([-v if value(v) else v for _, _, v in cells])

    def _assumed(self, raw: tuple[Any, ...]) -> list[int]:
        queens = set(raw)
        return [v if (r, c) in queens else -v for r, c, v in self.cells]

    def why(self, raw: tuple[Any, ...], deadline: float | None) -> Reason:
        first = self.nvars + 1
        selectors = list(range(first, first + len(self.clauses)))
        guarded = [[*clause, -s] for clause, s in zip(self.clauses, selectors)]
        board = self._assumed(raw)
        with self._solver(guarded) as solver:
            if solver.solve(assumptions=board + selectors):
                return Reason("the SAT solver finds a model with this board: the CNF accepts it, but the "
                              "enumeration never gave it", accepted=True)
            core = sorted(s for s in (solver.get_core() or []) if s >= first)
            for s in list(core):  # leave each clause out in turn: kept out where the rest stay unsatisfiable
                trial = [t for t in core if t != s]
                solver.conf_budget(100_000)
                if solver.solve_limited(assumptions=board + trial) is False:
                    core = trial
        from .sites import named

        parts = tuple(self._clause(s - first) for s in core)
        sites = tuple(self.sites.get(s - first) for s in core)
        if len(parts) == 1:
            place = f" at {named(sites[0])}" if sites[0] else ""
            return Reason(f"{self.source}'s clause {core[0] - first + 1}{place} is false for this board", parts,
                          sites=sites)
        return Reason(f"no single clause of {self.source} is false for this board; these {len(parts)} together "
                      "exclude it (a minimal set, the board's cells fixed)", parts, sites=sites)

    def _clause(self, index: int) -> str:
        """The clause: its line where known, its literals, and the cells it names in words."""
        from .sites import where

        clause = self.clauses[index]
        named = {v: f"(row {r}, column {c})" for r, c, v in self.cells}
        shown = " ".join(f"{'-' if lit < 0 else ''}{abs(lit)}" for lit in clause[:_SHOWN])
        words = [f"{'not ' if lit < 0 else ''}{named.get(abs(lit), f'variable {abs(lit)}')}" for lit in clause[:_SHOWN]]
        more = " ..." if len(clause) > _SHOWN else ""
        place = where(self.sites.get(index))
        return (f"{place}   " if place else "") + f"clause {index + 1}: {shown}{more} 0  ({' or '.join(words)}{more})"

    def determined(self, raw: tuple[Any, ...], deadline: float | None) -> Determined | None:
        board = self._assumed(raw)
        cells = {v for _, _, v in self.cells}
        with self._solver(self.clauses) as solver:
            if not solver.solve(assumptions=board):
                return None
            model = solver.get_model()
            others = [lit for lit in model if abs(lit) not in cells]
            if not others:
                return Determined(True)
            selector = self.nvars + 1
            solver.add_clause([*(-lit for lit in others), -selector])  # some other variable differs
            if not solver.solve(assumptions=[*board, selector]):
                return Determined(True)
            second = set(solver.get_model())
            lit = next(lit for lit in others if lit not in second)
            return Determined(False, f"variable {abs(lit)} can be true or false")


def _values(model: list[int]) -> Any:
    """variable -> whether the model sets it true."""
    true = {lit for lit in model if lit > 0}
    return true.__contains__


def read_dimacs(lines: Any, n: int, source: str) -> CnfInstance:
    """A DIMACS CNF read from its lines: the clauses, and the cells from its
    ``c q`` map or as variables 1..N^2."""
    from .sites import site

    nvars = declared = None
    clauses: list[list[int]] = []
    sites: dict[int, dict[str, Any]] = {}
    path = source if os.path.isabs(source) else ""
    cells: dict[tuple[int, int], int] = {}
    current: list[int] = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("c"):
            if match := _CELL.fullmatch(line):
                r, c, v = map(int, match.groups())
                if not (r < n and c < n):
                    raise ModelError(f"{source}, line {number}: cell {r} {c} is off the {n}x{n} board")
                cells[(r, c)] = v
            continue
        if line.startswith("p"):
            words = line.split()
            if len(words) != 4 or words[1] != "cnf" or not all(w.isdigit() for w in words[2:]):
                raise ModelError(f"{source}, line {number}: malformed problem line (want 'p cnf VARIABLES CLAUSES')")
            nvars, declared = int(words[2]), int(words[3])
            continue
        for word in line.split():
            try:
                lit = int(word)
            except ValueError:
                raise ModelError(f"{source}, line {number}: {word!r} is not a literal") from None
            if lit:
                if not current and path:
                    sites[len(clauses)] = site(path, number, line[:120])
                current.append(lit)
            else:
                clauses.append(current)
                current = []
    if current:
        clauses.append(current)  # (a last clause without its 0: DIMACS readers take it)
    if nvars is None:
        raise ModelError(f"{source}: no 'p cnf VARIABLES CLAUSES' line: not a DIMACS CNF")
    if declared != len(clauses):
        raise ModelError(f"{source}: {len(clauses)} clauses, its 'p cnf' line declares {declared}")
    if cells and len(cells) != n * n:
        raise ModelError(f"{source}: its 'c q' lines map {len(cells)} cells; a {n}x{n} board has {n * n}")
    if not cells:
        if nvars < n * n:
            raise ModelError(f"{source}: {nvars} variables, fewer than the {n * n} cells of a {n}x{n} board "
                             "(the cell of row r, column c is variable r*N + c + 1, or give 'c q ROW COL VAR' lines)")
        cells = {(r, c): r * n + c + 1 for r in range(n) for c in range(n)}
    grid = [[cells[(r, c)] for c in range(n)] for r in range(n)]
    return CnfInstance(clauses, nvars, grid, n, os.path.basename(source) if path else source, sites)


class DimacsFiles(FilePerN):
    """One DIMACS file per N: the path with ``{n}`` in it (``{n:02}`` pads)."""

    tool = "PySAT (CaDiCaL)"
    example = "queens-{n}.cnf, or nqueens-{n:02}-pairwise.cnf for 08"

    def __init__(self, template: str, var: str | None = None) -> None:
        if var is not None:
            raise ModelError("--var names a MiniZinc array or a clingo predicate: a CNF's cells are its variables")
        super().__init__(template)

    def instance(self, n: int) -> Instance:
        path, text = self.text(n)
        return read_dimacs(text.splitlines(), n, os.path.abspath(path))


class Generated(UserModel):
    """A command that writes each N's CNF to stdout: ``{n}`` in its words is N."""

    tool = "PySAT (CaDiCaL)"

    def __init__(self, command: str, var: str | None = None) -> None:
        if var is not None:
            raise ModelError("--var names a MiniZinc array or a clingo predicate: a CNF's cells are its variables")
        try:
            self.words = shlex.split(command)
        except ValueError as error:
            raise InvalidInputError(f"--generator {command!r}: {error}") from None
        if not self.words or not any("{n" in word for word in self.words):
            raise InvalidInputError(f"--generator {command!r}: put {{n}} where N goes, e.g. 'python gen.py {{n}}'")
        self.name = command

    def instance(self, n: int) -> Instance:
        import subprocess
        import tempfile

        words = [word.replace("{n}", str(n)) for word in self.words]
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as out, \
                tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as err:
            try:
                process = subprocess.Popen(words, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
            except OSError as error:
                raise ModelError(f"cannot run the generator {words[0]}: {error.strerror or error}") from None
            try:
                code = process.wait()
            finally:
                if process.poll() is None:  # (Ctrl-C, SIGTERM)
                    process.kill()
                    process.wait()
            if code != 0:
                err.seek(0)
                said = [line.strip() for line in err if line.strip()]
                raise ModelError(f"the generator exited {code} for N = {n}" + (f": {said[-1]}" if said else ""),
                                 "\n".join(said[-20:]))
            out.seek(0)
            return read_dimacs(out, n, f"the generator's CNF for N = {n}")
