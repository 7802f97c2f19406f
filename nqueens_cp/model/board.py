"""Solutions, the independent validator, rendering and the symmetries of the square.

A solution is a tuple of 0-based column indices, one per row: ``(1, 3, 0, 2)``
puts the row-0 queen in column 1.  It is hashable, so solution sets compare
with ``==``.  Nothing here is used by the engines, which keeps the validator
independent of the code it checks.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Union, overload

from ..errors import InvalidInputError

Solution = tuple[int, ...]
Placement = tuple[int, int]  # (row, column), 0-based

# A board of more queens than this comes as Columns (4 bytes a queen), not a
# tuple (about 36: a pointer and an int object each).
TUPLE_MAX_N = 100_000


class Columns(Sequence[int]):
    """A solution too large for a tuple: the columns by row in a buffer of
    32-bit ints (an ``array('i')`` or a NumPy int32 array, 4 bytes a queen),
    read-only.  It reads like the tuple of its columns (indexing, iteration,
    ``len``), compares equal to it and hashes as it does.  The searches that
    reach millions of queens (local search, the construction) return one
    above :data:`TUPLE_MAX_N`; :func:`board_of` makes one."""

    __slots__ = ("_view",)

    def __init__(self, columns: Any) -> None:
        view = memoryview(columns)
        if view.ndim != 1 or view.itemsize != 4 or view.format not in ("i", "=i", "<i", "@i"):
            raise TypeError(f"Columns holds a buffer of 32-bit ints, got format {view.format!r}")
        self._view = view.toreadonly()

    def __len__(self) -> int:
        return len(self._view)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if isinstance(index, slice):
            return tuple(self._view[index].tolist())
        return int(self._view[index])

    def __iter__(self) -> Iterator[int]:
        return iter(self._view)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Columns):
            return self._view == other._view
        if isinstance(other, tuple):
            return len(other) == len(self) and all(a == b for a, b in zip(self._view, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._view.tolist()))

    def __repr__(self) -> str:
        head = ", ".join(map(str, self._view[:8].tolist()))
        return f"Columns(<{len(self):,} queens: {head}, ...>)"

    def memoryview(self) -> memoryview:
        """The columns' buffer, read-only (NumPy reads it without a copy)."""
        return self._view


# What a decision returns: a tuple, or Columns above TUPLE_MAX_N queens.
AnySolution = Union[Solution, Columns]


def board_of(columns: Any) -> AnySolution:
    """A solution of ``columns`` (a buffer of 32-bit ints): a tuple up to
    :data:`TUPLE_MAX_N` queens, else :class:`Columns` over the buffer itself."""
    return tuple(memoryview(columns).tolist()) if len(columns) <= TUPLE_MAX_N else Columns(columns)


def attacking_pair(placements: Iterable[Placement]) -> tuple[Placement, Placement] | None:
    """The first two queens that share a row, column or diagonal, or None."""
    seen: dict[tuple[str, int], Placement] = {}
    for row, col in placements:
        for line in (("row", row), ("column", col), ("diagonal", row - col), ("anti-diagonal", row + col)):
            if line in seen:
                return seen[line], (row, col)
            seen[line] = (row, col)
    return None


def whole(value: Any) -> int | None:
    """``value`` as an int where it is a whole number of any integer type
    (NumPy's too: a notebook passes them all the time), else None; True and
    False are not numbers here."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def as_columns(solution: Iterable[Any]) -> Solution | None:
    """The columns of ``solution`` as a tuple of ints (NumPy's integers and
    arrays taken), or None where one is not a whole number."""
    cols = tuple(solution)
    if all(type(c) is int for c in cols):
        return cols
    found = tuple(whole(c) for c in cols)
    return None if None in found else found  # type: ignore[return-value]


def is_solution(solution: Iterable[int], n: int) -> bool:
    """True when ``solution`` places n mutually non-attacking queens on an n x n board.

    One queen per row by construction; the columns must be a permutation of
    0..n-1, and the n diagonals (col - row) and anti-diagonals (col + row)
    all different.  Linear time: a million queens take well under a second.
    """
    if isinstance(solution, Columns):
        return columns_valid(solution, n, ((0, False), (-1, False), (1, False)), ())
    cols = as_columns(solution)
    if cols is None or len(cols) != n or set(cols) != set(range(n)):
        return False
    return len({c - r for r, c in enumerate(cols)}) == n and len({c + r for r, c in enumerate(cols)}) == n


VALIDATE_CHUNK = 1 << 20  # rows a step of the NumPy validator: its temporaries stay a few MiB


def columns_valid(solution: Columns, n: int, families: Iterable[tuple[int, bool]],
                  offsets: Iterable[tuple[int, int]]) -> bool:
    """The validator of a board too large for a tuple, in NumPy, by the same
    definition: each family of lines (slope, wraps), keyed ``c + slope * r``
    (modulo n where it wraps), takes n distinct keys; no offset (dr, dc)
    joins two queens.  Linear time, a few bytes a queen (a flag a line, one
    family at a time), a million rows a step; it shares nothing with the
    searches."""
    import numpy as np  # here: only boards of millions of queens need it

    cols = np.frombuffer(solution.memoryview(), dtype=np.int32)
    if len(cols) != n or n == 0 or int(cols.min()) < 0 or int(cols.max()) >= n:
        return False
    for slope, wraps in families:
        taken = np.zeros(n if wraps or not slope else 2 * n - 1, dtype=bool)
        for start in range(0, n, VALIDATE_CHUNK):
            key = cols[start:start + VALIDATE_CHUNK].astype(np.int64)
            key += slope * np.arange(start, start + len(key), dtype=np.int64)
            key = key % n if wraps else key + (n - 1 if slope < 0 else 0)
            taken[key] = True
        if int(np.count_nonzero(taken)) != n:  # n queens on n distinct lines
            return False
    for dr, dc in offsets:
        for start in range(0, n - dr, VALIDATE_CHUNK):
            stop = min(start + VALIDATE_CHUNK, n - dr)
            if bool(np.any(cols[start + dr:stop + dr] - cols[start:stop] == dc)):
                return False
    return True


def check_solution(solution: Iterable[int], n: int) -> Solution:
    """Return ``solution`` as a tuple, or raise InvalidInputError saying what is wrong."""
    cols = tuple(solution)
    if len(cols) != n:
        raise InvalidInputError(f"a solution for N={n} needs {n} queens, got {len(cols)}")
    for row, col in enumerate(cols):
        if type(col) is not int or not 0 <= col < n:
            raise InvalidInputError(f"row {row}: column {col!r} is off the {n}x{n} board")
    pair = attacking_pair(enumerate(cols))
    if pair is not None:
        (r1, c1), (r2, c2) = pair
        raise InvalidInputError(f"queens at {r1}:{c1} and {r2}:{c2} attack each other")
    return cols


def render(solution: Solution) -> str:
    """The board as text: ``Q`` for a queen, ``.`` for an empty square, one row per line."""
    n = len(solution)
    if any(type(c) is not int or not 0 <= c < n for c in solution):
        raise InvalidInputError(f"render takes a board of columns 0..{n - 1} by row, got {tuple(solution)!r}")
    rows = _rows(n)
    return "\n".join([rows[col] for col in solution])


@functools.lru_cache(maxsize=8)
def _rows(n: int) -> tuple[str, ...]:
    """The n possible rows of an n x n board, by the column of their queen."""
    return tuple(" ".join("Q" if c == col else "." for c in range(n)) for col in range(n))


# --- Keys: one integer per solution, for compact sets and sorted arrays. -----

def pack(solution: Solution, n: int) -> int:
    """The solution as one integer, its columns read as base-n digits (row 0 most
    significant), so that key order is lexicographic solution order.  Fits in
    64 bits for n <= 16."""
    key = 0
    for col in solution:
        key = key * n + col
    return key


def unpack(key: int, n: int) -> Solution:
    """Inverse of :func:`pack`."""
    cols = []
    for _ in range(n):
        key, col = divmod(key, n)
        cols.append(col)
    return tuple(reversed(cols))


# --- The dihedral group D4 acting on solutions. ------------------------------

def _permuted(n: int, pairs: Iterable[Placement]) -> Solution:
    cols = [0] * n
    for row, col in pairs:
        cols[row] = col
    return tuple(cols)


# The one definition of the square's eight symmetries, as maps of the squares (r, c) of an
# n x n board.  Everything else is derived from it: the maps of solutions below, the maps of
# displacements (symmetry.linear), the images of the join's middle queens (counting/join.py);
# the compiled code's quarter turns are held to it by tests/test_symmetry.py.
SQUARE_MAPS: dict[str, Callable[[int, int, int], tuple[int, int]]] = {
    "identity": lambda n, r, c: (r, c),
    "rotate90": lambda n, r, c: (c, n - 1 - r),  # a quarter turn clockwise
    "rotate180": lambda n, r, c: (n - 1 - r, n - 1 - c),  # a half turn
    "rotate270": lambda n, r, c: (n - 1 - c, r),  # a quarter turn anticlockwise
    "mirror": lambda n, r, c: (r, n - 1 - c),  # reflection in the vertical axis
    "flip": lambda n, r, c: (n - 1 - r, c),  # reflection in the horizontal axis
    "transpose": lambda n, r, c: (c, r),  # reflection in the main diagonal
    "antitranspose": lambda n, r, c: (n - 1 - c, n - 1 - r),  # reflection in the anti-diagonal
}


def _on_solutions(name: str) -> Callable[[Solution], Solution]:
    image = SQUARE_MAPS[name]

    def apply(s: Solution) -> Solution:
        n = len(s)
        return _permuted(n, (image(n, r, c) for r, c in enumerate(s)))

    apply.__name__ = name
    apply.__doc__ = f"The solution under {name}: each queen's square moved by SQUARE_MAPS[{name!r}]."
    return apply


SYMMETRIES: dict[str, Callable[[Solution], Solution]] = {name: _on_solutions(name) for name in SQUARE_MAPS}
identity, rotate90, rotate180, rotate270, mirror, flip, transpose, antitranspose = SYMMETRIES.values()


def orbit(s: Solution) -> frozenset[Solution]:
    """Every image of ``s`` under the 8 symmetries (1, 2, 4 or 8 distinct boards).

    The same images as applying each of :data:`SYMMETRIES`, computed faster:
    the four that swap rows and columns all derive from one inverse
    permutation (transpose is the inverse itself).
    """
    s = _permutation(s)
    n = len(s)
    last = n - 1
    inverse = [0] * n
    for row, col in enumerate(s):
        inverse[col] = row
    mirrored = [last - c for c in s]
    flipped_inverse = inverse[::-1]
    return frozenset((
        tuple(s), tuple(mirrored), tuple(s[::-1]), tuple(mirrored[::-1]),  # identity, mirror, flip, rotate180
        tuple(inverse), tuple([last - r for r in inverse]),  # transpose, rotate90
        tuple(flipped_inverse), tuple([last - r for r in flipped_inverse]),  # rotate270, antitranspose
    ))


def _permutation(s: Any) -> Solution:
    """``s`` as a tuple of ints (NumPy's integers taken), checked to be a board
    the symmetries act on: one queen a row and a column, columns 0..n-1."""
    cols = as_columns(s) if not isinstance(s, (str, bytes)) else None
    if cols is None or len(set(cols)) != len(cols) or (cols and (min(cols) < 0 or max(cols) >= len(cols))):
        raise InvalidInputError(f"the symmetries of the square map a board with one queen a row and a column "
                                f"(columns 0..n-1 by row), got {s!r}")
    return cols


def canonical(s: Solution) -> Solution:
    """The lexicographically least image of ``s``: one representative per class."""
    return min(orbit(s))
