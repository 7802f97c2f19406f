"""A board a person looks at: a solution that shows itself as a board in a
notebook (:class:`Board`), and the picture it shows (:func:`board_svg`).
The text form is :func:`nqueens_cp.render`."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidInputError
from .board import Solution, render

SVG_MAX_N = 200  # Jupyter draws a board up to this size (an Outcome's too); beyond, its text says what it is


class Board(tuple):
    """A solution that shows itself: a picture in Jupyter, the board as text
    when printed.  It is the same tuple of columns by row (equal to it and
    hashed as it), so ``Board(s) == s`` and it goes wherever a solution goes::

        nq.Board(next(nq.solutions(8)))   # in a notebook: the board drawn
        print(nq.Board((1, 3, 0, 2)))     # the board as text, a row a line: ". Q . ." first

    Made of a board of N columns 0..N-1 by row, one a row, each column once
    (whether queens attack is the question's to say: ``nq.is_solution``)."""

    def __new__(cls, solution: Any) -> Board:
        try:
            columns = tuple(int(c) if type(c) is not bool and int(c) == c else c for c in solution)
        except (TypeError, ValueError, OverflowError):
            columns = None
        n = len(columns) if columns is not None else 0
        if columns is None or not all(type(c) is int and 0 <= c < n for c in columns) or len(set(columns)) != n:
            raise InvalidInputError(f"a Board is N columns 0..N-1 by row, each once, got {solution!r}")
        return super().__new__(cls, columns)

    def __repr__(self) -> str:
        return f"Board({tuple(self)!r})"

    def __str__(self) -> str:
        return render(self)

    def _repr_svg_(self) -> str | None:
        return board_svg(self) if len(self) <= SVG_MAX_N else None


def board_svg(solution: Solution, size: int = 32) -> str:
    """The board as SVG: light and dark squares, a queen (``class="queen"``)
    on each (row, column) of the solution, row 0 at the top."""
    n = len(solution)
    side = n * size
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}">']
    for r in range(n):
        for c in range(n):
            fill = "#f0d9b5" if (r + c) % 2 == 0 else "#b58863"
            parts.append(f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" fill="{fill}"/>')
    for r, c in enumerate(solution):
        parts.append(f'<circle class="queen" data-row="{r}" data-col="{c}" cx="{c * size + size / 2}" '
                     f'cy="{r * size + size / 2}" r="{size * 0.35}" fill="#222" stroke="#fff" stroke-width="1.5"/>')
    parts.append("</svg>")
    return "\n".join(parts)
