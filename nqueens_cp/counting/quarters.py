"""Counting by joining quarters of the board: the reference (issue 41).

Backtracking visits every partial board.  This method visits each quarter's
partial solutions once and matches them, trading memory for time; the
fastest public CPU counters work this way.  This module is the lesson and
the specification: short, in Python, for small N.  A compiled counter will be
held against it, as the kernel's searches are held against their twin.

The board is cut by its middle row and column into four quarters of h x h
squares, h = N // 2 (for odd N the middle row and column are left out):
north-west, north-east, south-west, south-east.

1. **The middle** (odd N only).  The queens of the middle row and of the
   middle column are placed first: one queen in the centre, or two (one on
   each), not attacking each other.  Their diagonals are taken before the
   quarters start.
2. **The quarters' tables.**  For each quarter, every way to place queens
   on it that attack nothing within it, kept by (the rows it uses, the
   columns it uses) with the diagonals it takes: ``quarter_table``.  A
   quarter's placements are listed once, however often they are joined.
3. **The halves.**  Every row's queen stands east or west of the middle.
   For each choice of the rows whose queen is east (as many as the east
   has free columns), the east half's placements are the north-east
   quarter's with those rows north joined to the south-east quarter's with
   those rows south, on complementary columns and diagonals apart: ``half``.
   The west half is the same with the other rows.
4. **The join.**  An east half and a west half make a board when they take
   no diagonal in common (their rows and columns are disjoint by
   construction); the count is the number of such pairs, summed over the
   choices of east rows.
5. **The longest diagonals.**  The board's two longest diagonals
   hold a queen each at most.  The main one (row = column) crosses the
   north-west and south-east quarters, the other the north-east and
   south-west (and for odd N the centre, a middle queen's square).  Mirrored in the other long diagonal, a board with its main
   diagonal's queen in the south-east becomes one with it in the
   north-west, and its other long diagonal keeps its queen where it was;
   transposed (in the main diagonal), the same holds the other way round.
   So the boards whose long diagonals' queens stand east are as many as
   those whose stand west: only east halves with no queen on either long
   diagonal are joined, and a west half with a queen on one counts twice,
   on both four times (``_long_diagonals``).  That skips the pairs of an
   east half with a queen on a long diagonal, most of them.

Diagonals are kept as bit sets in board coordinates: a queen on (r, c)
takes diagonal c - r + N - 1 and anti-diagonal r + c.  What the compiled
counter must do faster is step 4, matching many halves by their diagonals;
docs/counting.md says how the measurements will decide it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations

Sig = tuple[int, int]  # (diagonals, anti-diagonals) taken, as bit sets
Table = dict[tuple[int, int], list[Sig]]  # (rows used, columns used) -> the placements' diagonals


def _bits(items: Iterable[int]) -> int:
    return sum(1 << i for i in items)


def _sig(n: int, r: int, c: int) -> Sig:
    return 1 << (c - r + n - 1), 1 << (r + c)


def quarter_table(n: int, rows: list[int], cols: list[int]) -> Table:
    """Every placement of queens on the squares rows x cols that attack nothing
    among themselves (one a row and a column at most, diagonals apart, none
    at all included), by (rows used, columns used) as bit sets of board rows
    and columns, each with the diagonals it takes."""
    table: Table = {}

    def place(i: int, used_rows: int, used_cols: int, d: int, a: int) -> None:
        if i == len(rows):
            table.setdefault((used_rows, used_cols), []).append((d, a))
            return
        place(i + 1, used_rows, used_cols, d, a)  # row rows[i] has no queen in this quarter
        r = rows[i]
        for c in cols:
            qd, qa = _sig(n, r, c)
            if not used_cols >> c & 1 and not d & qd and not a & qa:
                place(i + 1, used_rows | 1 << r, used_cols | 1 << c, d | qd, a | qa)

    place(0, 0, 0, 0, 0)
    return table


def half(north: Table, south: Table, rows_north: int, rows_south: int, cols: list[int]) -> Iterator[Sig]:
    """The placements of one half (east or west): its rows ``rows_north`` in the
    north quarter and ``rows_south`` in the south, every column of ``cols``
    used once; the north quarter's on some of the columns, the south's on the
    rest, their diagonals apart."""
    k = bin(rows_north).count("1")
    every = _bits(cols)
    for chosen in combinations(cols, k):
        up = _bits(chosen)
        for d1, a1 in north.get((rows_north, up), ()):
            for d2, a2 in south.get((rows_south, every ^ up), ()):
                if not d1 & d2 and not a1 & a2:
                    yield d1 | d2, a1 | a2


def _middles(n: int) -> Iterator[tuple[list[tuple[int, int]], int, int]]:
    """The queens of the middle row and column (odd N; none for even N), each
    way they can stand: (their squares, the diagonals they take, the anti-diagonals)."""
    if n % 2 == 0:
        yield [], 0, 0
        return
    m = n // 2
    yield [(m, m)], *_sig(n, m, m)
    for x in range(n):  # the middle row's queen in column x, the middle column's in row y
        for y in range(n):
            if x == m or y == m:
                continue
            (d1, a1), (d2, a2) = _sig(n, m, x), _sig(n, y, m)
            if d1 != d2 and a1 != a2:
                yield [(m, x), (y, m)], d1 | d2, a1 | a2


def _long_diagonals(n: int) -> Sig:
    """The board's two longest diagonals (r = c and r + c = n - 1) as (diagonals,
    anti-diagonals) bit sets: diagonal c - r + n - 1 and anti-diagonal r + c."""
    return 1 << (n - 1), 1 << (n - 1)


def count(n: int) -> int:
    """The number of N-queens boards, by joining quarters (the reference: small N)."""
    if n < 1:
        raise ValueError(f"N must be positive, got {n}")
    if n == 1:
        return 1
    h, total = n // 2, 0
    north, south = list(range(h)), list(range(n - h, n))
    west, east = list(range(h)), list(range(n - h, n))
    tables = {(v, w): quarter_table(n, v_rows, w_cols)
              for v, v_rows in (("n", north), ("s", south)) for w, w_cols in (("w", west), ("e", east))}
    long_d, long_a = _long_diagonals(n)
    for queens, d0, a0 in _middles(n):
        taken_rows = _bits(r for r, _ in queens)
        taken_cols = _bits(c for _, c in queens)
        free_rows = [r for r in (*north, *south) if not taken_rows >> r & 1]
        east_cols = [c for c in east if not taken_cols >> c & 1]
        west_cols = [c for c in west if not taken_cols >> c & 1]
        if len(free_rows) != len(east_cols) + len(west_cols):
            continue
        for east_rows in combinations(free_rows, len(east_cols)):
            e_rows = _bits(east_rows)
            w_rows = _bits(free_rows) ^ e_rows
            upper = _bits(north)
            easts = [(d, a) for d, a in half(tables["n", "e"], tables["s", "e"], e_rows & upper, e_rows & ~upper,
                                             east_cols) if not d & (d0 | long_d) and not a & (a0 | long_a)]
            if not easts:
                continue
            for d, a in half(tables["n", "w"], tables["s", "w"], w_rows & upper, w_rows & ~upper, west_cols):
                if not d & d0 and not a & a0:
                    weight = 1 << (bool(d & long_d) + bool(a & long_a))  # the east's mirror images (step 5)
                    total += weight * sum(1 for d2, a2 in easts if not d & d2 and not a & a2)
    return total
