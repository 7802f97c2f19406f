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

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TextIO

from .board import Solution, attacking_pair
from .cnf import CNF, clauses, size
from . import variants
from .encodings import DEFAULT_ENCODING
from .variants import PLAIN, Variant
from ..errors import InvalidInputError, NQueensError

MAX_DIGITS = 12  # no variable, count or board size of ours is longer; longer numbers are refused, not parsed
MAX_LINE = 1 << 26  # characters: a solver's 'v' line for N = 1,000 is 8 to 50 MB; an endless line is refused


class DimacsError(NQueensError):
    """A CNF file or a solver's answer that cannot be read or decoded."""


# --- out ------------------------------------------------------------------------

def header_text(n: int, encoding: str, nvars: int, nclauses: int, variant: Variant = PLAIN) -> Iterator[str]:
    """The header of our DIMACS files, in pieces of bounded size (newlines
    included): at N = 10,000 it maps 10^8 cells, a gigabyte of text that is
    never held at once.  Another question of the family than plain N-queens
    is named on the first line with its data (``variant=toroidal family=0,-1w,1w``:
    :attr:`Variant.spec`), so that a reader can rebuild a member it does not keep."""
    cells = n * n
    named = f" variant={variant} family={variant.spec}" if variant != PLAIN else ""  # (a copy from another process too)
    yield f"c nqueens n={n} encoding={encoding}{named}\n"
    yield f"c cells are variables 1..{cells} (row*{n} + col + 1); {nvars - cells} auxiliary variables follow\n"
    yield "c rows and columns: exactly one queen; diagonals and anti-diagonals: at most one\n" if variant.is_plain \
        else f"c rows and columns: exactly one queen; at most one on each line and offset of: {variant.describe}\n"
    for row in range(n):
        yield "".join(f"c q {row} {col} {row * n + col + 1}\n" for col in range(n))
    yield "c p show"
    for start in range(1, cells + 1, _CHUNK):
        yield "".join(f" {var}" for var in range(start, min(start + _CHUNK, cells + 1)))
    yield f" 0\np cnf {nvars} {nclauses}\n"


def write_dimacs(out: TextIO, n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
                 symmetry_breaking: bool = False, progress: Callable[[int, int], None] | None = None,
                 variant: Variant = PLAIN) -> tuple[int, int]:
    """Write the CNF of n-queens to ``out`` as it is generated: memory stays
    bounded however large N is.  Returns (variables, clauses).
    ``progress(written, total)`` is called now and then."""
    nvars, nclauses = size(n, encoding, fixed, symmetry_breaking, variant)
    for piece in header_text(n, encoding, nvars, nclauses, variant):
        out.write(piece)
    written = 0
    chunk: list[str] = []
    for clause in clauses(n, encoding, fixed, symmetry_breaking, variant):
        chunk.append(" ".join(map(str, clause)) + " 0\n")
        if len(chunk) == _CHUNK:
            out.write("".join(chunk))
            chunk.clear()
            written += _CHUNK
            if progress:
                progress(written, nclauses)
    out.write("".join(chunk))
    written += len(chunk)
    if written != nclauses:  # the cost formulas and the generator disagree: a bug of ours
        raise NQueensError(f"internal error: wrote {written} clauses, the header says {nclauses}")
    return nvars, nclauses


_CHUNK = 1 << 12  # clauses per write


def dimacs_bytes(n: int, nvars: int, nclauses: int) -> int:
    """About how many bytes :func:`write_dimacs` writes, without writing: the
    header's N^2 cell lines (``c q ROW COL VAR``) and projection line, and the
    clauses at 12 bytes each (a binary clause of large variables is longer,
    a unit clause shorter)."""
    digits = len(str(max(nvars, 1)))
    cell_line = len("c q ") + 2 * len(str(max(n - 1, 0))) + digits + 3
    return n * n * (cell_line + digits + 1) + 12 * nclauses


def write_dimacs_file(path: str, n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
                      symmetry_breaking: bool = False,
                      progress: Callable[[int, int], None] | None = None, variant: Variant = PLAIN) -> tuple[int, int]:
    """:func:`write_dimacs` to a file, atomically (a temporary file, then a
    rename); to a device or a FIFO in place, as it goes (``files.atomic_write``)."""
    from ..files import atomic_write

    size_: list[tuple[int, int]] = []

    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="ascii", newline="\n") as handle:
            size_.append(write_dimacs(handle, n, encoding, fixed, symmetry_breaking, progress, variant))

    atomic_write(path, write)
    return size_[0]


def dimacs_text(cnf: CNF) -> str:
    """A CNF held in memory as DIMACS text (small formulas: model files, tests)."""
    body = [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses]
    head = header_text(cnf.n, cnf.encoding, cnf.nvars, len(cnf.clauses), cnf.variant)
    return "".join(head) + "".join(line + "\n" for line in body)


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
    # The unit clauses over cells (read with ``units``): the question the CNF
    # asks beyond N-queens, pre-placed queens (True) and blocked squares (False).
    units: dict[tuple[int, int], bool] = field(default_factory=dict)
    variant: Variant = PLAIN  # the question of the family it asks (its first line names any but plain)


_NUMBER = rf"(\d{{1,{MAX_DIGITS}}})"
_HEADER = re.compile(rf"c nqueens n={_NUMBER} encoding=(\S+)(?: variant=(\S+)(?: family=(\S+))?)?\s*")
_CELL = re.compile(rf"c q {_NUMBER} {_NUMBER} {_NUMBER}\s*")
_PROBLEM = re.compile(rf"p cnf {_NUMBER} {_NUMBER}\s*")


def _lines(source: str | Iterable[str], name: str = "input") -> Iterator[str]:
    """Lines without their ends, from a text or from an open file (streamed,
    a line of at most MAX_LINE characters: an endless one, as /dev/zero,
    would take all memory)."""
    if isinstance(source, str):
        yield from source.splitlines()
        return
    readline = getattr(source, "readline", None)
    if readline is None:
        for line in source:
            yield line.rstrip("\r\n")
        return
    number = 0
    while line := readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE:
            raise DimacsError(f"{name}, line {number}: longer than {MAX_LINE:,} characters")
        yield line.rstrip("\r\n")


def read_cnf(source: str | Iterable[str], name: str = "CNF", clauses: bool = False,
             units: bool = False) -> CnfHeader:
    """Parse an nqueens_cp DIMACS file's header, reading no further than its
    'p cnf' line; with ``clauses``, read and check the body too (held); with
    ``units``, stream the body and keep only its unit clauses over cells."""
    n = encoding = None
    variant = PLAIN
    cells: dict[int, tuple[int, int]] = {}
    seen: set[tuple[int, int]] = set()
    show = None
    problem = None
    lines = enumerate(_lines(source, name), 1)
    for number, line in lines:
        where = f"{name}, line {number}"
        if match := _HEADER.fullmatch(line):
            n, encoding = int(match.group(1)), match.group(2)
            if n < 1:
                raise DimacsError(f"{where}: board size must be positive")
            member, spec = match.group(3), match.group(4)  # (not name: the file's, in messages)
            if spec is not None:
                try:
                    variant = variants.from_spec(member, spec)
                except InvalidInputError as error:
                    raise DimacsError(f"{where}: {error}") from None
            elif member not in (None, *variants.PLACE):
                raise DimacsError(f"{where}: unknown variant {member!r} (one of {', '.join(variants.PLACE)}, "
                                  "or any with its data: family=...)")
            else:
                variant = variants.get(member or "queens")
        elif line.startswith("c nqueens"):
            raise DimacsError(f"{where}: malformed header (want 'c nqueens n=<N> encoding=<NAME>', "
                              f"N of at most {MAX_DIGITS} digits)")
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
        elif line.startswith("c q "):
            raise DimacsError(f"{where}: malformed cell line (want 'c q <row> <col> <var>')")
        elif line.startswith("c p show"):
            words = line.split()[3:]
            if not words or words[-1] != "0" or not all(re.fullmatch(r"-?\d{1,%d}" % MAX_DIGITS, w) for w in words):
                raise DimacsError(f"{where}: malformed projection line (want 'c p show <var>... 0')")
            show = [int(w) for w in words[:-1]]
        elif line.startswith("p "):
            match = _PROBLEM.fullmatch(line)
            if not match:
                raise DimacsError(f"{where}: malformed problem line (want 'p cnf <variables> <clauses>')")
            problem = tuple(map(int, match.groups()))
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
    header = CnfHeader(n, encoding, nvars, nclauses, cells, show, variant=variant)
    if clauses:
        header.clauses = _read_clauses(lines, nvars, nclauses, name)
        header.units = _cell_units(header, header.clauses)
    elif units:
        header.units = _cell_units(header, _stream_clauses(lines, nvars, nclauses, name))
    return header


def _cell_units(header: CnfHeader, clauses: Iterable[list[int]]) -> dict[tuple[int, int], bool]:
    return {header.cells[abs(clause[0])]: clause[0] > 0 for clause in clauses
            if len(clause) == 1 and abs(clause[0]) in header.cells}


def _read_clauses(lines: Iterable[tuple[int, str]], nvars: int, nclauses: int, name: str) -> list[list[int]]:
    return list(_stream_clauses(lines, nvars, nclauses, name))


def _stream_clauses(lines: Iterable[tuple[int, str]], nvars: int, nclauses: int, name: str) -> Iterator[list[int]]:
    count = 0
    current: list[int] = []
    for number, line in lines:
        if not line.strip() or line.startswith("c"):
            continue
        for lit in _literals(line.split(), f"{name}, line {number}"):
            if abs(lit) > nvars:
                raise DimacsError(f"{name}, line {number}: literal {lit} exceeds the declared {nvars} variables")
            if lit:
                current.append(lit)
            else:
                count += 1
                yield current
                current = []
    if current:
        raise DimacsError(f"{name}: last clause is not terminated by 0")
    if count != nclauses:
        raise DimacsError(f"{name}: {count} clauses, the header declares {nclauses}")


# --- in: the solver's answer ---------------------------------------------------------

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
    lines = ((number, line.strip()) for number, line in enumerate(_lines(source, name), 1))
    first = next(((number, line) for number, line in lines if line), None)
    if first is None:
        raise DimacsError(f"{name} is empty")
    if first[1] in ("SAT", "UNSAT", "INDET", "UNSATISFIABLE", "SATISFIABLE"):
        yield _read_minisat(lines, first, name, keep)
    else:
        yield from _read_competition(itertools.chain([first], lines), name, keep)


# A text of literals, each of at most MAX_DIGITS digits, checked whole by one regular expression: a
# solver's 'v' line of 10 MB took seconds word by word (decode of one took 41 s in all).
_LITERAL_TEXT = re.compile(r"(?:\s*[+-]?\d{1,%d}(?![^\s]))*\s*" % MAX_DIGITS)
_SPLIT_MAX = 1 << 24  # characters of a text of literals split at once (its words: about 10 bytes of pointer each)


def _literals(words: list[str] | str, where: str) -> Iterator[int]:
    """The literals of a list of words, or of a text (a solver's 'v' line can be
    tens of megabytes): checked whole by one pattern and converted at C speed
    where it is all literals, else read word by word to name the first bad one."""
    if isinstance(words, str) and len(words) <= _SPLIT_MAX and _LITERAL_TEXT.fullmatch(words):
        return iter(list(map(int, words.split())))
    return _literals_by_word(words, where)


def _literals_by_word(words: list[str] | str, where: str) -> Iterator[int]:
    found = (match.group() for match in re.finditer(r"\S+", words)) if isinstance(words, str) else iter(words)
    for word in found:
        if not re.fullmatch(r"[+-]?\d{1,%d}" % MAX_DIGITS, word):
            raise DimacsError(f"{where}: {_clip(word)} is not a literal"
                              + (f" (longer than {MAX_DIGITS} digits)" if re.fullmatch(r"[+-]?\d+", word) else ""))
        yield int(word)


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
        for lit in _literals(line, f"{name}, line {index}"):
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
                raise DimacsError(f"{where}: unknown status line {_clip(line)}")
            continue
        if line[0] != "v" or (len(line) > 1 and not line[1].isspace()):
            raise DimacsError(f"{where}: expected a 'c', 's' or 'v' line, got {_clip(line)}")
        if unsat_line is not None:
            raise DimacsError(f"{where}: a model after the solver said UNSATISFIABLE (line {unsat_line}): "
                              "its answer contradicts itself")
        for lit in _literals(line[1:], where):
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


def _clip(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[:width] + "...")


def open_text(path: str) -> TextIO:
    """A file to read as text ('-' is stdin), or DimacsError saying why not."""
    import sys

    if path == "-":
        if sys.stdin is None:
            raise DimacsError("cannot read stdin: it is closed")
        return sys.stdin
    try:
        return open(path, encoding="utf-8", errors="replace")
    except OSError as error:
        raise DimacsError(f"cannot read {path}: {error.strerror or error}") from None


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
