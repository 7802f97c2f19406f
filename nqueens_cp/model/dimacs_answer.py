"""A SAT solver's answer on a CNF file of ours, read back as boards: the
SAT-competition form and MiniSat's, read as a stream, each model decoded
through the file's cell map and validated (:func:`decode_model`), the
distinct boards streamed (:class:`Decoding`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .board import Solution, attacking_pair
from .dimacs import DimacsError, clipped, literals_of, text_lines
from .dimacs_read import CnfHeader
from .variants import PLAIN

@dataclass
class Model:
    line: int  # where the model starts, for messages
    literals: list[int]  # (only those over variables up to ``keep``, where the reader was given one)
    largest: int = 0  # the largest variable the model mentions


_STATUS = re.compile(r"s\s+(\S.*?)\s*")


def read_answer(source: str | Iterable[str], name: str = "answer") -> list[Model]:
    """Every model in a solver's output, as a list (see :func:`iter_models`)."""
    return list(iter_models(source, name))


def iter_models(source: str | Iterable[str], name: str = "answer", keep: int | None = None) -> Iterator[Model]:
    """The models in a solver's output, one at a time, read as a stream.

    Understands the SAT-competition form (``s SATISFIABLE`` and ``v`` lines;
    several models as ``clasp -n 0`` or ``picosat --all`` print them) and
    MiniSat's result file (``SAT`` then one line of literals).  With
    ``keep``, a model holds only its literals over variables 1..keep (the
    cells): a solver's answer on a CNF with millions of auxiliary variables
    is read in memory bounded by the board.
    """
    lines = ((number, line.strip()) for number, line in enumerate(text_lines(source, name), 1))
    first = next(((number, line) for number, line in lines if line), None)
    if first is None:
        raise DimacsError(f"{name} is empty")
    if first[1] in ("SAT", "UNSAT", "INDET", "UNSATISFIABLE", "SATISFIABLE"):
        yield _read_minisat(lines, first, name, keep)
    else:
        yield from _read_competition(itertools.chain([first], lines), name, keep)


def _read_minisat(lines: Iterator[tuple[int, str]], first: tuple[int, str], name: str, keep: int | None) -> Model:
    number, status = first
    if status in ("UNSAT", "UNSATISFIABLE"):
        raise DimacsError(f"{name}, line {number}: the solver says UNSATISFIABLE: there is no placement to decode")
    if status == "INDET":
        raise DimacsError(f"{name}, line {number}: the solver gave up (INDET): no model to decode")
    literals: list[int] = []
    start = None
    ended = False
    largest = 0
    for index, line in lines:
        if not line:
            continue
        start = start or index
        for lit in literals_of(line, f"{name}, line {index}"):
            if ended:
                ended = False  # a literal after the 0: malformed, reported below
                break
            if lit == 0:
                ended = True
                continue
            largest = max(largest, abs(lit))
            if keep is None or abs(lit) <= keep:
                literals.append(lit)
    if start is None or not ended or not largest:
        raise DimacsError(f"{name}, line {start or number}: expected one line of literals ending in 0 after SAT")
    return Model(start, literals, largest)


def _read_competition(lines: Iterable[tuple[int, str]], name: str, keep: int | None) -> Iterator[Model]:
    found = 0
    largest = 0
    current: list[int] | None = None
    start = 0
    unsat_line = None
    for number, line in lines:
        if not line or line[0] == "c":
            continue
        where = f"{name}, line {number}"
        if line[0] == "s":
            match = _STATUS.fullmatch(line)
            status = match.group(1) if match else ""
            if status == "UNSATISFIABLE" or status == "SOLUTIONS 0":
                if found or current is not None:
                    raise DimacsError(f"{where}: the solver says UNSATISFIABLE after giving a model: "
                                      "its answer contradicts itself")
                unsat_line = number
            elif not (status == "SATISFIABLE" or re.fullmatch(r"SOLUTIONS \d+", status)):
                if status.startswith("UNKNOWN"):
                    raise DimacsError(f"{where}: the solver gave up (s UNKNOWN): no model to decode")
                raise DimacsError(f"{where}: unknown status line {clipped(line)}")
            continue
        if line[0] != "v" or (len(line) > 1 and not line[1].isspace()):
            raise DimacsError(f"{where}: expected a 'c', 's' or 'v' line, got {clipped(line)}")
        if unsat_line is not None:
            raise DimacsError(f"{where}: a model after the solver said UNSATISFIABLE (line {unsat_line}): "
                              "its answer contradicts itself")
        for lit in literals_of(line[1:], where):
            if current is None:
                current, start, largest = [], number, 0
            if lit == 0:
                found += 1
                yield Model(start, current, largest)
                current = None
            else:
                largest = max(largest, abs(lit))
                if keep is None or abs(lit) <= keep:
                    current.append(lit)
    if current is not None:
        raise DimacsError(f"{name}, line {start}: model is not terminated by 0")
    if unsat_line is not None and not found:
        raise DimacsError(f"{name}, line {unsat_line}: the solver says UNSATISFIABLE: there is no placement to decode")
    if not found:
        raise DimacsError(f"{name}: no model found (want 's SATISFIABLE' and 'v ... 0' lines, or MiniSat's 'SAT' form)")


def decode_model(model: Model, header: CnfHeader, name: str = "answer") -> Solution:
    """The board a model describes, checked to be a valid placement."""
    n = header.n
    where = f"{name}, line {model.line}"
    if model.largest > header.nvars:
        raise DimacsError(f"{where}: a literal is over variable {model.largest}, but the CNF has only "
                          f"{header.nvars} variables")
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
    pair = attacking_pair(queens) if header.variant == PLAIN else header.variant.attacking_pair(n, queens)
    if pair is not None:
        (r1, c1), (r2, c2) = pair
        raise DimacsError(f"{where}: not a valid placement: queens at {r1}:{c1} and {r2}:{c2} attack each other")
    board = tuple(col for _, col in queens)
    for (row, col), queen in sorted(header.units.items()):  # the question the CNF asked beyond N-queens
        if queen and board[row] != col:
            raise DimacsError(f"{where}: not an answer to this CNF: its pre-placed queen at {row}:{col} is missing")
        if not queen and board[row] == col:
            raise DimacsError(f"{where}: not an answer to this CNF: a queen stands on its blocked square {row}:{col}")
    return board


class Decoding:
    """The distinct boards of a solver's answer on one of our CNF files, streamed.

    Iterating reads the answer a model at a time and yields each board the
    first time it appears (an external enumerator gives one model per
    assignment of the auxiliary variables too, so a board can come many
    times); memory stays bounded by the distinct boards.  ``models`` and
    ``repeated`` count what was read.  Every model is checked to be a valid
    placement; the first that is not raises DimacsError with its line.
    """

    def __init__(self, header: CnfHeader, answer: str | Iterable[str], name: str = "answer") -> None:
        self.header = header
        self.name = name
        self.models = 0
        self.repeated = 0
        self._answer = answer

    def __iter__(self) -> Iterator[Solution]:
        from .board import pack

        seen: set[int] = set()
        for model in iter_models(self._answer, self.name, keep=max(self.header.cells)):
            solution = decode_model(model, self.header, self.name)
            self.models += 1
            key = pack(solution, self.header.n)
            if key in seen:
                self.repeated += 1
                continue
            seen.add(key)
            yield solution
