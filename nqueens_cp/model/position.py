"""What a question fixes beforehand: the pre-placed queens and the blocked
squares (:class:`Position`), checked once against N (:func:`check_placements`),
and the squares of a diagonal, as ``--block-diagonal`` names them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import InvalidInputError
from .board import Placement, whole


class Position(dict):
    """What a problem fixes beforehand: pre-placed queens (row -> column, the
    dict itself) and ``blocked`` squares where no queen may stand.

    It is true when it constrains anything (a queen or a blocked square), so
    ``if placed:`` asks "is this plain N?".  A pre-placed queen on a blocked
    square, like two pre-placed queens that attack each other, is a question
    whose answer is "no solution".
    """

    def __init__(self, placed: Mapping[int, int] | None = None, blocked: Iterable[Placement] = (),
                 checked_for: int | None = None) -> None:
        super().__init__(placed or {})
        self.blocked: frozenset[Placement] = frozenset(blocked)
        # The N it was checked against (check_placements, a Question): taken as it is for that N, never checked
        # again.  None: as given.
        self.checked_for = checked_for

    def __bool__(self) -> bool:
        return bool(len(self) or self.blocked)

    def __reduce__(self) -> tuple[Any, ...]:
        return Position, (dict(self), self.blocked, self.checked_for)

    def __repr__(self) -> str:
        blocked = f", blocked={sorted(self.blocked)}" if self.blocked else ""
        return f"Position({dict(self)}{blocked})"

    def with_queens(self, more: Mapping[int, int]) -> Position:
        """This position with more queens placed (the same blocked squares), checked for
        the N it was if the queens added are on that board (a split's prefixes)."""
        n = self.checked_for
        on_board = n is not None and all(type(r) is int and type(c) is int and 0 <= r < n and 0 <= c < n
                                         for r, c in more.items())
        return Position({**self, **more}, self.blocked, n if on_board else None)

    def broken_by(self, board: Sequence[int]) -> tuple[str, Placement] | None:
        """What of this position a board (a column by row) does not honour:
        ("moved", the first pre-placed queen it does not keep), ("blocked",
        the first blocked square it takes), or None."""
        moved = next(((r, c) for r, c in sorted(self.items()) if board[r] != c), None)
        if moved is not None:
            return "moved", moved
        taken = next(((r, c) for r, c in sorted(self.blocked) if board[r] == c), None)
        return None if taken is None else ("blocked", taken)

    def columns(self, row: int, n: int) -> list[int]:
        """The columns a queen may take in ``row``: the pre-placed one, or every
        column whose square is not blocked."""
        if row in self:
            return [] if (row, self[row]) in self.blocked else [self[row]]
        return [c for c in range(n) if (row, c) not in self.blocked]

    def mask(self, row: int, n: int) -> int:
        """:meth:`columns` as a bit mask (bit c = column c), in time linear
        in the blocked squares, not in n."""
        if row in self:
            return 0 if (row, self[row]) in self.blocked else 1 << self[row]
        mask = (1 << n) - 1
        for r, c in self.blocked:
            if r == row and 0 <= c < n:
                mask &= ~(1 << c)
        return mask


def diagonal(n: int, kind: str, k: int) -> list[Placement]:
    """The squares of one diagonal of an n x n board: ``kind`` "r+c" (row +
    column = k, an anti-diagonal) or "r-c" (row - column = k)."""
    if kind == "r+c":
        return [(r, k - r) for r in range(n) if 0 <= k - r < n]
    if kind == "r-c":
        return [(r, r - k) for r in range(n) if 0 <= r - k < n]
    raise InvalidInputError(f"a diagonal is r+c=K or r-c=K, got {kind!r}")


def check_placements(n: int, fixed: Mapping[int, int] | None, blocked: Iterable[Placement] | None = None) -> Position:
    """Validate fixed placements (row -> column) and blocked squares (row,
    column) for an n x n board; returns a :class:`Position`.  A Position
    given as ``fixed`` keeps its blocked squares, and ``blocked`` adds to them.

    Placements that attack each other are allowed: that is a question whose
    answer is "no solution", not a malformed question.
    """
    if isinstance(fixed, Position) and fixed.checked_for == n and blocked is None:
        return fixed  # (checked once, where the question was made)
    return _checked_position(n, fixed, blocked)


def _checked_position(n: int, fixed: Mapping[int, int] | None, blocked: Iterable[Placement] | None) -> Position:
    if type(n) is not int or n < 1:
        raise InvalidInputError(f"N must be a positive integer, got {n!r}")
    if fixed is not None and not isinstance(fixed, Mapping):
        raise InvalidInputError(f"fixed takes a mapping of row to column (e.g. {{0: 0, 1: 2}}), got {fixed!r}")
    placed: dict[int, int] = {}
    for row, col in (fixed or {}).items():
        r, c = whole(row), whole(col)
        for what, value, whole_value in (("row", row, r), ("column", col, c)):
            if whole_value is None or not 0 <= whole_value < n:
                raise InvalidInputError(f"placement {row}:{col}: {what} {value!r} is off the {n}x{n} board")
        placed[r] = c  # type: ignore[index,assignment]
    squares: set[Any] = set()
    for square in [*getattr(fixed, "blocked", ()), *(blocked or ())]:
        if not isinstance(square, tuple) or len(square) != 2 or any(whole(v) is None for v in square):
            raise InvalidInputError(f"blocked square {square!r} is not a (row, column) on the {n}x{n} board")
        if not all(0 <= whole(v) < n for v in square):  # type: ignore[operator]
            raise InvalidInputError(f"blocked square {square[0]}:{square[1]} is off the {n}x{n} board")
        squares.add((whole(square[0]), whole(square[1])))
    return Position(placed, squares, n)
