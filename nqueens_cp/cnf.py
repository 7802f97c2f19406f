"""N-queens as CNF over N*N cell variables.

Cell (r, c) is variable ``r*N + c + 1``: true when a queen stands there.
Rows and columns get "exactly one" (one at-least-one clause plus an
at-most-one group), diagonals and anti-diagonals of two or more cells get
"at most one".  Auxiliary variables, if the encoding needs any, are numbered
after the N*N cells.  Clause order is fixed: rows, columns, diagonals, then
anti-diagonals, so the same arguments always give the same formula.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .board import check_placements
from .encodings import DEFAULT_ENCODING, ENCODINGS, Clause
from .errors import InvalidInputError


@dataclass
class CNF:
    """A formula as plain data."""

    n: int
    encoding: str
    nvars: int
    clauses: list[Clause] = field(repr=False)

    def cell(self, row: int, col: int) -> int:
        return row * self.n + col + 1

    @property
    def ncells(self) -> int:
        return self.n * self.n


def lines(n: int) -> list[list[tuple[int, int]]]:
    """Rows, columns, diagonals (r - c fixed) and anti-diagonals (r + c fixed), cells by row."""
    rows = [[(r, c) for c in range(n)] for r in range(n)]
    cols = [[(r, c) for r in range(n)] for c in range(n)]
    diags = [[(r, r - d) for r in range(n) if 0 <= r - d < n] for d in range(-(n - 1), n)]
    antis = [[(r, s - r) for r in range(n) if 0 <= s - r < n] for s in range(2 * n - 1)]
    return rows + cols + diags + antis


def encode(n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
           symmetry_breaking: bool = False) -> CNF:
    """The CNF for n-queens; ``fixed`` placements (row -> column) become unit clauses.

    ``symmetry_breaking`` adds the first-row lex-leader constraints of
    :mod:`nqueens_cp.symmetry`: for each symmetry g, s[0] <= g(s)[0], as
    clauses (-x(0,a) | -[g(s)[0] = b]) for a > b, at most 7 n(n-1)/2 of them.
    """
    placed = check_placements(n, fixed)
    try:
        amo = ENCODINGS[encoding]
    except KeyError:
        raise InvalidInputError(f"unknown encoding '{encoding}' (choose from {', '.join(ENCODINGS)})") from None
    top = n * n

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    def var(r: int, c: int) -> int:
        return r * n + c + 1

    clauses: list[Clause] = []
    for index, line in enumerate(lines(n)):
        lits = [var(r, c) for r, c in line]
        if index < 2 * n:  # rows and columns: exactly one
            clauses.append(lits)
        if len(lits) > 1:
            clauses.extend(amo(lits, fresh))
    if symmetry_breaking:
        clauses.extend(_symmetry_breaking(n, var))
    clauses.extend([var(r, c)] for r, c in sorted(placed.items()))
    return CNF(n, encoding, top, clauses)


def _symmetry_breaking(n: int, var) -> list[Clause]:
    from .symmetry import breaking_terms

    def equals(kind: str, index: int, reflected: bool, b: int) -> int:
        value = n - 1 - b if reflected else b
        return var(index, value) if kind == "col" else var(value, index)

    clauses: list[Clause] = []
    seen: set[tuple[int, ...]] = set()
    for kind, index, reflected in breaking_terms(n):
        for a in range(n):
            for b in range(a):
                clause = tuple(sorted({-var(0, a), -equals(kind, index, reflected, b)}))
                if clause not in seen:
                    seen.add(clause)
                    clauses.append(list(clause))
    return clauses
