"""A CNF file of ours read back: its header (the board size, the encoding,
the member, the cell map, the projection line) and, where asked, its body
(every clause, or only the unit clauses over cells: the question's placed
queens and blocked squares).  The format is :mod:`.dimacs`'s."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import variants
from .dimacs import DimacsError, MAX_DIGITS, MAX_LINE, clipped, literals_of, text_lines
from .variants import PLAIN, Variant
from ..errors import InvalidInputError

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
    lines = enumerate(text_lines(source, name), 1)
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
            raise DimacsError(f"{where}: expected a comment or 'p cnf' line, got {clipped(line)}")
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
    elif units and hasattr(source, "read"):
        header.units = _body_units(source, header, number, name)
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
        for lit in literals_of(line.split(), f"{name}, line {number}"):
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


# Characters of a file's body read, checked and converted at once (about 2.7 million literals):
# read a clause at a time in Python, the 12 million clauses of N = 1000's CNF took 40 s of decode.
_BODY_CHUNK = 1 << 24
_NOT_LITERALS = str.maketrans("", "", "0123456789+- \t\r\n")  # (deletes what a text of literals holds)
_LONE_SIGN = re.compile(r"[+-](?![0-9])")  # (NumPy reads a '-' alone as 0)


def _body_units(source: Any, header: CnfHeader, line: int, name: str) -> dict[tuple[int, int], bool]:
    """The unit clauses over cells of the body that follows line ``line`` of
    an open file, read a block at a time and converted at C speed; the body
    checked as the clause-by-clause reader checks it (every word a literal
    over the declared variables, the clauses counted and terminated), its
    errors named by line.  A block with anything but literals in it (a
    comment) is read line by line."""
    import numpy as np

    units: dict[tuple[int, int], bool] = {}
    count = open_run = 0  # clauses closed; literals of the clause still open
    last = 0  # the open clause's last literal (a unit's, where open_run is 1)
    pending = ""
    while True:
        block = source.read(_BODY_CHUNK)
        text = pending + block
        cut = text.rfind("\n") + 1 if block else len(text)
        if block and not cut:  # (no line end in a whole block: one line that long is refused)
            if len(text) > MAX_LINE:
                raise DimacsError(f"{name}, line {line + 1}: longer than {MAX_LINE:,} characters")
            pending = text
            continue
        text, pending = text[:cut], text[cut:]
        literals = _block_literals(text, line, header.nvars, name)
        line += text.count("\n")
        zeros = np.flatnonzero(literals == 0)
        if zeros.size:
            lengths = np.diff(zeros, prepend=-1) - 1
            lengths[0] += open_run
            for at in np.flatnonzero(lengths == 1):
                end = int(zeros[at])
                lit = int(literals[end - 1]) if end else last
                if abs(lit) in header.cells:
                    units[header.cells[abs(lit)]] = lit > 0
            count += zeros.size
            open_run = literals.size - int(zeros[-1]) - 1
        else:
            open_run += literals.size
        if literals.size and (not zeros.size or zeros[-1] != literals.size - 1):
            last = int(literals[-1])
        if not block:
            break
    if open_run:
        raise DimacsError(f"{name}: last clause is not terminated by 0")
    if count != header.nclauses:
        raise DimacsError(f"{name}: {count} clauses, the header declares {header.nclauses}")
    return units


def _block_literals(text: str, line: int, nvars: int, name: str) -> Any:
    """The literals of a block of whole lines (after line ``line``) as a NumPy
    array, checked: only digits, signs and spaces, every word a literal of at
    most MAX_DIGITS digits over variables up to ``nvars``; else read line by
    line, which names the first bad word, or skips a comment line."""
    import warnings

    import numpy as np

    words = text.split()
    if not text.translate(_NOT_LITERALS) and not _LONE_SIGN.search(text) and \
            (not words or max(map(len, words)) <= MAX_DIGITS + 1):
        try:  # (text it cannot read to its end: NumPy 2 raises, NumPy 1 warns and stops short, seen below)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                literals = np.fromstring(text, dtype=np.int64, sep=" ")
        except ValueError:
            literals = None
        if literals is not None and literals.size == len(words) and \
                (not literals.size or int(np.abs(literals).max()) <= nvars):
            return literals
    found: list[int] = []
    for number, each in enumerate(text.split("\n"), line + 1):
        if not each.strip() or each.startswith("c"):
            continue
        for lit in literals_of(each.split(), f"{name}, line {number}"):
            if abs(lit) > nvars:
                raise DimacsError(f"{name}, line {number}: literal {lit} exceeds the declared {nvars} variables")
            found.append(lit)
    return np.array(found, dtype=np.int64)
