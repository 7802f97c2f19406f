"""Boards as a model states them and as the check reads them: a column a row in the model's own
numbering (0- or 1-based, told from its declared domain or its solutions), or the squares holding a
queen; and back, to feed a board to the model in its own terms."""

from __future__ import annotations

from typing import Any

from ..model.board import Solution
from ..model.variants import Square
from .forms import COLUMNS, Instance


def told_base(instance: Instance, raw: tuple[Any, ...], n: int) -> int | None:
    """The model's first column, 0 or 1: from its declared domain, else from a
    solution with column 0 (0-based) or column n (1-based) in it; None while
    it cannot be told."""
    domain = instance.domain
    if domain is not None and domain[0] in (0, 1):
        return domain[0]
    values = {v for square in raw for v in square} if instance.kind != COLUMNS else set(raw)
    if 0 in values:
        return 0
    if n in values:
        return 1
    return None


def board_of(raw: tuple[Any, ...], kind: str, base: int, n: int) -> tuple[Solution | None, tuple[Square, ...]]:
    """(the board, or None where the solution is none: a row without a queen or with two, a column off the
    board), and its queens' squares, 0-based."""
    if kind == COLUMNS:
        columns = tuple(v - base for v in raw)
        squares = tuple(enumerate(columns))
        return (columns if all(0 <= c < n for c in columns) else None), squares
    squares = tuple(sorted((r - base, c - base) for r, c in raw))
    rows = [r for r, _ in squares]
    if rows == list(range(n)) and all(0 <= c < n for _, c in squares):
        return tuple(c for _, c in squares), squares
    return None, squares


def raw_of(board: Solution, kind: str, base: int) -> tuple[Any, ...]:
    """A board as the model states it (the inverse of :func:`board_of`)."""
    if kind == COLUMNS:
        return tuple(c + base for c in board)
    return tuple((r + base, c + base) for r, c in enumerate(board))
