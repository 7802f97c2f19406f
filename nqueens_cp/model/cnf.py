"""N-queens as CNF over N*N cell variables.

Cell (r, c) is variable ``r*N + c + 1``: true when a queen stands there.
Rows and columns get "exactly one" (one at-least-one clause plus an
at-most-one group), diagonals and anti-diagonals of two or more cells get
"at most one".  Auxiliary variables, if the encoding needs any, are numbered
after the N*N cells.  Clause order is fixed: rows, columns, diagonals, then
anti-diagonals, so the same arguments always give the same formula.

Another question of the family changes only its lines and pairs, read from
its data (:mod:`nqueens_cp.model.variants`): the toroidal board's wrapped
diagonals are lines of N cells, the rooks' board has no diagonal lines, and
a superqueen's knight moves (offsets) are binary clauses (-x | -y), added
after the lines.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .position import check_placements
from .encodings import COSTS, DEFAULT_ENCODING, ENCODINGS, Clause, PairwiseClauses
from .variants import PLAIN, Variant
from ..errors import InvalidInputError


@dataclass
class CNF:
    """A formula as plain data."""

    n: int
    encoding: str
    nvars: int
    clauses: list[Clause] = field(repr=False)
    variant: Variant = PLAIN

    def cell(self, row: int, col: int) -> int:
        return row * self.n + col + 1



def lines(n: int, variant: Variant = PLAIN) -> Iterator[list[tuple[int, int]]]:
    """Rows, columns, diagonals (r - c fixed) and anti-diagonals (r + c fixed) of two
    cells or more, cells by row, one at a time (all of them hold 4N^2 cells: 3 GB
    at N = 3,000); the variant's own (:meth:`Variant.lines`)."""
    return variant.lines(n)


def encode(n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
           symmetry_breaking: bool = False, variant: Variant = PLAIN) -> CNF:
    """The CNF for n-queens, every clause in a list (what a solver is given).

    ``fixed`` placements (row -> column) become unit clauses.
    ``symmetry_breaking`` adds the first-row lex-leader constraints of
    :mod:`nqueens_cp.model.symmetry`: for each symmetry g, s[0] <= g(s)[0], as
    clauses (-x(0,a) | -[g(s)[0] = b]) for a > b, at most 7 n(n-1)/2 of them.
    To write a large formula, use :func:`clauses` and :func:`size`, which hold none of it.
    """
    found = list(clauses(n, encoding, fixed, symmetry_breaking, variant))
    # Every auxiliary variable appears in a clause: the largest one is the count.
    nvars = max((abs(lit) for clause in found for lit in clause), default=0)
    return CNF(n, amo_encoding(encoding)[0], max(nvars, n * n), found, variant)


def amo_encoding(encoding: str):
    try:
        return encoding, ENCODINGS[encoding]
    except (KeyError, TypeError):
        raise InvalidInputError(f"unknown encoding {encoding!r} (choose from {', '.join(ENCODINGS)})") from None


def clauses(n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
            symmetry_breaking: bool = False, variant: Variant = PLAIN, groups: bool = False) -> Iterator[Any]:
    """The clauses of :func:`encode`, one at a time, in the same fixed order:
    memory stays bounded by one line's at-most-one group.  With ``groups``, a
    line's pairwise clauses come as one :class:`~.encodings.PairwiseClauses`
    (a writer turns them into text at once) instead of clause by clause."""
    placed = check_placements(n, fixed)
    _, amo = amo_encoding(encoding)
    top = n * n

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    def var(r: int, c: int) -> int:
        return r * n + c + 1

    for index, line in enumerate(lines(n, variant)):
        lits = [var(r, c) for r, c in line]
        if index < 2 * n:  # rows and columns: exactly one
            yield lits
        if len(lits) > 1:
            group = amo(lits, fresh)
            if groups and isinstance(group, PairwiseClauses):
                yield group
            else:
                yield from group
    # [cost family cnf]
    for (r1, c1), (r2, c2) in variant.pairs(n):  # an offset apart (a knight's move)
        yield [-var(r1, c1), -var(r2, c2)]
    # [end cost]
    if symmetry_breaking:
        yield from _symmetry_breaking(n, var, variant)
    for r, c in sorted(placed.items()):
        yield [var(r, c)]
    for r, c in sorted(placed.blocked):
        yield [-var(r, c)]


def size(n: int, encoding: str = DEFAULT_ENCODING, fixed: Mapping[int, int] | None = None,
         symmetry_breaking: bool = False, variant: Variant = PLAIN) -> tuple[int, int]:
    """(variables, clauses) of :func:`encode`, from the encodings' cost
    formulas (:data:`encodings.COSTS`), without building a clause."""
    placed = check_placements(n, fixed)
    amo_encoding(encoding)
    cost = COSTS[encoding]
    nvars, nclauses = n * n, 2 * n  # the cells; one at-least-one clause per row and column
    for k in variant.line_lengths(n):
        if k > 1:
            aux, count = cost(k)
            nvars += aux
            nclauses += count
    nclauses += variant.pair_count(n)
    if symmetry_breaking:
        nclauses += len(_symmetry_breaking(n, lambda r, c: r * n + c + 1, variant))
    return nvars, nclauses + len(placed) + len(placed.blocked)


def _symmetry_breaking(n: int, var, variant: Variant = PLAIN) -> list[Clause]:
    from .symmetry import breaking_terms

    def equals(kind: str, index: int, reflected: bool, b: int) -> int:
        value = n - 1 - b if reflected else b
        return var(index, value) if kind == "col" else var(value, index)

    clauses: list[Clause] = []
    seen: set[tuple[int, ...]] = set()
    for kind, index, reflected in breaking_terms(n, variant.families, variant.offsets):
        for a in range(n):
            for b in range(a):
                clause = tuple(sorted({-var(0, a), -equals(kind, index, reflected, b)}))
                if clause not in seen:
                    seen.add(clause)
                    clauses.append(list(clause))
    return clauses


COUNT_MAX_N = 12  # encodings enumerates every solution up to here by default (N=12: about 3 s per encoding)


# The largest CNF an engine builds (sat holds it as Python lists and again in the solver:
# 1.9 million clauses took 670 MB, and 3 s to build here, seqcounter at N = 400, before any
# solving; modelcount writes it before Ganak's time limit starts): a time limit and a memory
# cap of 1 GB hold up to about half that.
MAX_CLAUSES = 1_000_000
LARGE_N_ADVICE = "cpsat builds N up to 1,000,000"


def check_size(who: str, n: int, encoding: str, max_clauses: int = MAX_CLAUSES, variant: Variant = PLAIN,
               advice: str = LARGE_N_ADVICE) -> None:
    """Refuse, before any work, a CNF too big for ``who`` ("engine sat", "a
    certificate") to build within a time limit and a memory cap, naming the
    sparsest encoding if it fits, and ``advice``.
    At once at any N: beyond the floor every encoding's count passes (an
    at-most-one of k cells takes at least k/2 clauses, on each row and column)
    no encoding's size is summed, a walk over the 6N lines (17 s at N = 10^6)."""
    tail = f"; {advice}" if advice else ""
    floor = 2 * n * (n // 2)
    if floor > max_clauses:
        raise InvalidInputError(f"{who}: a CNF of N={n} has over {floor:,} clauses (every at-most-one of a row or "
                                f"column of N cells takes at least N/2), more than the {max_clauses:,} it builds in "
                                f"memory{tail}")
    clauses = {name: size(n, name, variant=variant)[1] for name in ENCODINGS}
    if clauses[encoding] <= max_clauses:
        return
    sparsest = min(clauses, key=clauses.__getitem__)
    instead = f" (--encoding {sparsest}: {clauses[sparsest]:,})" if clauses[sparsest] <= max_clauses else ""
    raise InvalidInputError(f"{who}: the {encoding} CNF of N={n} has {clauses[encoding]:,} clauses, more than the "
                            f"{max_clauses:,} it builds in memory{instead}{tail}")
