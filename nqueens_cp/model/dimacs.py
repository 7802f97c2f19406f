"""DIMACS CNF out (read back by :mod:`.dimacs_read`; a SAT solver's answer on it
by :mod:`.dimacs_answer`), and what both readers share.

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
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TextIO

from .cnf import CNF, clauses, size
from .encodings import DEFAULT_ENCODING, PairwiseClauses
from .variants import PLAIN, Variant
from ..errors import NQueensError

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
    for clause in clauses(n, encoding, fixed, symmetry_breaking, variant, groups=True):
        if isinstance(clause, PairwiseClauses):  # (a line's pairs, as text at once)
            out.write("".join(chunk))
            written += len(chunk)
            chunk.clear()
            for text in clause.dimacs():
                out.write(text)
            written += len(clause)
            if progress:
                progress(written, nclauses)
            continue
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


# --- shared by the readers (.dimacs_read, .dimacs_answer) ----------------------------

def text_lines(source: str | Iterable[str], name: str = "input") -> Iterator[str]:
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


def clipped(text: str, width: int = 40) -> str:
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


# A text of literals, each of at most MAX_DIGITS digits, checked whole by one regular expression: a
# solver's 'v' line of 10 MB took seconds word by word (decode of one took 41 s in all).
_LITERAL_TEXT = re.compile(r"(?:\s*[+-]?\d{1,%d}(?![^\s]))*\s*" % MAX_DIGITS)
_SPLIT_MAX = 1 << 24  # characters of a text of literals split at once (its words: about 10 bytes of pointer each)


def literals_of(words: list[str] | str, where: str) -> Iterator[int]:
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
            raise DimacsError(f"{where}: {clipped(word)} is not a literal"
                              + (f" (longer than {MAX_DIGITS} digits)" if re.fullmatch(r"[+-]?\d+", word) else ""))
        yield int(word)
