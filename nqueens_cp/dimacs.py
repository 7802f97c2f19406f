"""DIMACS CNF out, and SAT solvers' answers back in as boards.

The header of every file we write is a contract other tools read::

    c nqueens n=<N> encoding=<NAME>
    c q <row> <col> <var>        one line per cell, 0-based row and column
    c p show <var> ... 0         the N*N cell variables (projection line)
    p cnf <variables> <clauses>

Every comment line starts with ``c `` (PySAT cannot read back a file whose
comments do not), numbering and clause order are deterministic, so the same
arguments give byte-identical files.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .board import Solution, attacking_pair
from .cnf import CNF
from .errors import NQueensError


class DimacsError(NQueensError):
    """A CNF file or a solver's answer that cannot be read or decoded."""


# --- out ------------------------------------------------------------------------

def header_lines(cnf: CNF) -> Iterator[str]:
    n = cnf.n
    yield f"c nqueens n={n} encoding={cnf.encoding}"
    yield f"c cells are variables 1..{cnf.ncells} (row*{n} + col + 1); {cnf.nvars - cnf.ncells} auxiliary variables follow"
    yield "c rows and columns: exactly one queen; diagonals and anti-diagonals: at most one"
    for row in range(n):
        for col in range(n):
            yield f"c q {row} {col} {cnf.cell(row, col)}"
    yield "c p show " + " ".join(str(v) for v in range(1, cnf.ncells + 1)) + " 0"
    yield f"p cnf {cnf.nvars} {len(cnf.clauses)}"


def dimacs_text(cnf: CNF) -> str:
    body = [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses]
    return "\n".join([*header_lines(cnf), *body]) + "\n"


# --- in: the CNF's header ----------------------------------------------------------

@dataclass
class CnfHeader:
    """What decoding needs from a CNF file: the board size and the cell map."""

    n: int
    encoding: str
    nvars: int
    nclauses: int
    cells: dict[int, tuple[int, int]]  # variable -> (row, col)
    show: list[int] | None = None
    clauses: list[list[int]] = field(default_factory=list, repr=False)


_HEADER = re.compile(r"c nqueens n=(\d+) encoding=(\S+)\s*")
_CELL = re.compile(r"c q (\d+) (\d+) (\d+)\s*")
_PROBLEM = re.compile(r"p cnf (\d+) (\d+)\s*")


def read_cnf(text: str, name: str = "CNF", clauses: bool = False) -> CnfHeader:
    """Parse an nqueens_cp DIMACS file; with ``clauses``, read and check the body too."""
    n = encoding = None
    cells: dict[int, tuple[int, int]] = {}
    seen: set[tuple[int, int]] = set()
    show = None
    problem = None
    lines = text.splitlines()
    body_start = len(lines)
    for number, line in enumerate(lines, 1):
        where = f"{name}, line {number}"
        if match := _HEADER.fullmatch(line):
            n, encoding = int(match.group(1)), match.group(2)
            if n < 1:
                raise DimacsError(f"{where}: board size must be positive")
        elif match := _CELL.fullmatch(line):
            if n is None:
                raise DimacsError(f"{where}: cell line before the 'c nqueens n=... encoding=...' line")
            row, col, var = map(int, match.groups())
            if not (row < n and col < n):
                raise DimacsError(f"{where}: cell {row} {col} is off the {n}x{n} board")
            if (row, col) in seen or var in cells:
                raise DimacsError(f"{where}: cell {row} {col} or variable {var} mapped twice")
            seen.add((row, col))
            cells[var] = (row, col)
        elif line.startswith("c p show"):
            words = line.split()[3:]
            if not words or words[-1] != "0" or not all(w.lstrip("-").isdigit() for w in words):
                raise DimacsError(f"{where}: malformed projection line (want 'c p show <var>... 0')")
            show = [int(w) for w in words[:-1]]
        elif line.startswith("p "):
            match = _PROBLEM.fullmatch(line)
            if not match:
                raise DimacsError(f"{where}: malformed problem line (want 'p cnf <variables> <clauses>')")
            problem = tuple(map(int, match.groups()))
            body_start = number
            break
        elif line.strip() and not line.startswith("c"):
            raise DimacsError(f"{where}: expected a comment or 'p cnf' line, got {_clip(line)}")
    if n is None or encoding is None:
        raise DimacsError(f"{name} is not an nqueens_cp CNF: no 'c nqueens n=<N> encoding=<NAME>' line")
    if problem is None:
        raise DimacsError(f"{name}: no 'p cnf <variables> <clauses>' line")
    nvars, nclauses = problem
    if len(cells) != n * n:
        raise DimacsError(f"{name}: maps {len(cells)} cells, a {n}x{n} board has {n * n}")
    if max(cells) > nvars:
        raise DimacsError(f"{name}: cell variable {max(cells)} exceeds the declared {nvars} variables")
    header = CnfHeader(n, encoding, nvars, nclauses, cells, show)
    if clauses:
        header.clauses = _read_clauses(lines, body_start, nvars, nclauses, name)
    return header


def _read_clauses(lines: list[str], start: int, nvars: int, nclauses: int, name: str) -> list[list[int]]:
    result: list[list[int]] = []
    current: list[int] = []
    for number in range(start + 1, len(lines) + 1):
        line = lines[number - 1]
        if not line.strip() or line.startswith("c"):
            continue
        for word in line.split():
            try:
                lit = int(word)
            except ValueError:
                raise DimacsError(f"{name}, line {number}: {_clip(word)} is not a literal") from None
            if abs(lit) > nvars:
                raise DimacsError(f"{name}, line {number}: literal {lit} exceeds the declared {nvars} variables")
            if lit:
                current.append(lit)
            else:
                result.append(current)
                current = []
    if current:
        raise DimacsError(f"{name}: last clause is not terminated by 0")
    if len(result) != nclauses:
        raise DimacsError(f"{name}: {len(result)} clauses, the header declares {nclauses}")
    return result


# --- in: the solver's answer ---------------------------------------------------------

@dataclass
class Model:
    line: int  # where the model starts, for messages
    literals: list[int]


_STATUS = re.compile(r"s\s+(\S.*?)\s*")


def read_answer(text: str, name: str = "answer") -> list[Model]:
    """Every model in a solver's output.

    Understands the SAT-competition form (``s SATISFIABLE`` and ``v`` lines;
    several models as ``clasp -n 0`` or ``picosat --all`` print them) and
    MiniSat's result file (``SAT`` then one line of literals).
    """
    lines = text.splitlines()
    first = next(((i, line.strip()) for i, line in enumerate(lines, 1) if line.strip()), None)
    if first is None:
        raise DimacsError(f"{name} is empty")
    if first[1] in ("SAT", "UNSAT", "INDET", "UNSATISFIABLE", "SATISFIABLE"):
        return _read_minisat(lines, first, name)
    return _read_competition(lines, name)


def _literals(words: list[str], where: str) -> list[int]:
    try:
        return [int(word) for word in words]
    except ValueError:
        bad = next(w for w in words if not re.fullmatch(r"[+-]?\d+", w))
        raise DimacsError(f"{where}: {_clip(bad)} is not a literal") from None


def _read_minisat(lines: list[str], first: tuple[int, str], name: str) -> list[Model]:
    number, status = first
    if status in ("UNSAT", "UNSATISFIABLE"):
        raise DimacsError(f"{name}, line {number}: the solver says UNSATISFIABLE: there is no placement to decode")
    if status == "INDET":
        raise DimacsError(f"{name}, line {number}: the solver gave up (INDET): no model to decode")
    literals: list[int] = []
    start = None
    for index in range(number, len(lines)):
        line = lines[index].strip()
        if not line:
            continue
        start = start or index + 1
        literals += _literals(line.split(), f"{name}, line {index + 1}")
    if start is None or not literals or literals[-1] != 0 or 0 in literals[:-1]:
        raise DimacsError(f"{name}, line {start or number}: expected one line of literals ending in 0 after SAT")
    return [Model(start, literals[:-1])]


def _read_competition(lines: list[str], name: str) -> list[Model]:
    models: list[Model] = []
    current: list[int] | None = None
    start = 0
    unsat_line = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line[0] == "c":
            continue
        where = f"{name}, line {number}"
        if line[0] == "s":
            match = _STATUS.fullmatch(line)
            status = match.group(1) if match else ""
            if status == "UNSATISFIABLE" or status == "SOLUTIONS 0":
                unsat_line = number
            elif not (status == "SATISFIABLE" or re.fullmatch(r"SOLUTIONS \d+", status)):
                if status.startswith("UNKNOWN"):
                    raise DimacsError(f"{where}: the solver gave up (s UNKNOWN): no model to decode")
                raise DimacsError(f"{where}: unknown status line {_clip(line)}")
            continue
        if line[0] != "v" or (len(line) > 1 and not line[1].isspace()):
            raise DimacsError(f"{where}: expected a 'c', 's' or 'v' line, got {_clip(line)}")
        for lit in _literals(line[1:].split(), where):
            if current is None:
                current, start = [], number
            if lit == 0:
                models.append(Model(start, current))
                current = None
            else:
                current.append(lit)
    if current is not None:
        raise DimacsError(f"{name}, line {start}: model is not terminated by 0")
    if unsat_line is not None and not models:
        raise DimacsError(f"{name}, line {unsat_line}: the solver says UNSATISFIABLE: there is no placement to decode")
    if not models:
        raise DimacsError(f"{name}: no model found (want 's SATISFIABLE' and 'v ... 0' lines, or MiniSat's 'SAT' form)")
    return models


def decode_model(model: Model, header: CnfHeader, name: str = "answer") -> Solution:
    """The board a model describes, checked to be a valid placement."""
    n = header.n
    where = f"{name}, line {model.line}"
    value: dict[int, bool] = {}
    for lit in model.literals:
        var = abs(lit)
        if var > header.nvars:
            raise DimacsError(f"{where}: literal {lit} is over variable {var}, but the CNF has only {header.nvars} variables")
        if value.get(var, lit > 0) != (lit > 0):
            raise DimacsError(f"{where}: variable {var} is both true and false")
        value[var] = lit > 0
    queens = []
    for var, (row, col) in header.cells.items():
        if var not in value:
            raise DimacsError(f"{where}: the model leaves cell variable {var} ({row} {col}) unassigned")
        if value[var]:
            queens.append((row, col))
    queens.sort()
    rows = [row for row, _ in queens]
    if rows != list(range(n)):
        missing = sorted(set(range(n)) - set(rows))
        problem = f"row {missing[0]} has no queen" if missing else f"{len(queens)} queens on a {n}x{n} board"
        raise DimacsError(f"{where}: not a valid placement: {problem}")
    pair = attacking_pair(queens)
    if pair is not None:
        (r1, c1), (r2, c2) = pair
        raise DimacsError(f"{where}: not a valid placement: queens at {r1}:{c1} and {r2}:{c2} attack each other")
    return tuple(col for _, col in queens)


def _clip(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")
