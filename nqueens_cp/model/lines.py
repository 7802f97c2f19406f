"""The vocabulary the family of questions is stated in: squares, offsets,
and :class:`Lines`, a family of parallel lines on which pieces attack.  It
reads nothing of the family (:mod:`.variants`) or of the symmetries
(:mod:`.symmetry`), which both read it."""

from __future__ import annotations

from typing import NamedTuple

Square = tuple[int, int]  # (row, column), 0-based
Offset = tuple[int, int]  # (rows down, columns across): dr >= 1

SLOPES = (0, -1, 1)  # the line families a model can state: columns, diagonals, anti-diagonals


class Lines(NamedTuple):
    """A family of parallel lines: the squares (r, c) that share one value of
    ``c + slope * r`` (modulo N where it ``wraps``) hold at most one piece."""

    slope: int  # 0: columns; -1: diagonals (c - r); 1: anti-diagonals (c + r)
    wraps: bool = False

    def key(self, n: int, r: int, c: int) -> int:
        """The line of square (r, c) in this family."""
        value = c + self.slope * r
        return value % n if self.wraps else value

    def joins(self, n: int, dr: int, dc: int) -> bool:
        """Whether two squares (dr, dc) apart lie on one line of this family (their keys
        are equal): the one attack test of a line family, which every other reads."""
        value = dc + self.slope * dr
        return value % n == 0 if self.wraps else value == 0

    def lengths(self, n: int) -> list[int]:
        """The number of squares on each line of the family, in line order
        (lines of one square included), without listing a square."""
        if self.slope == 0 or self.wraps:
            return [n] * n
        return [*range(1, n), n, *range(n - 1, 0, -1)]  # |slope| 1: the diagonals of the square

    @property
    def words(self) -> str:
        kind = {0: "columns", -1: "diagonals (c - r)", 1: "anti-diagonals (c + r)"}[self.slope]
        return f"wrapped {kind}" if self.wraps and self.slope else kind


COLUMNS = Lines(0)
QUEEN_LINES = (COLUMNS, Lines(-1), Lines(1))
KNIGHT = ((1, -2), (1, 2), (2, -1), (2, 1))

# The parts of a question that an engine must be able to express (Engine.expresses).  The plain
# question has none: every engine answers it.
PARTS = {
    "lines": "line families other than the queens' columns, diagonals and anti-diagonals",
    "wrapping": "lines that wrap around the board (a torus)",
    "offsets": "attacks by offsets (a knight's moves)",
    "optimum": "an optimum (the fewest queens), not boards of N pieces",
}
