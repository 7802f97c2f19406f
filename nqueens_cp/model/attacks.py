"""The question's vocabulary for what is wrong with a board: the line along which two pieces
attack each other, and why a set of queens is no board at all (the words a check's
counterexample is explained in)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .board import Solution
from .variants import Square, Variant

if TYPE_CHECKING:
    from .question import Question

_LINE_WORDS = {0: "column", -1: "diagonal (c - r)", 1: "anti-diagonal (c + r)"}


def line_between(variant: Variant, n: int, a: Square, b: Square) -> str:
    """The line (or offset) of the member along which pieces on ``a`` and ``b`` attack each other."""
    dr, dc = b[0] - a[0], b[1] - a[1]
    if dr == 0:
        return "row"
    for line in variant.families:
        if line.joins(n, dr, dc):
            return ("wrapped " if line.wraps and line.slope else "") + _LINE_WORDS[line.slope]
    offset = f"({abs(dr)}, {dc if dr > 0 else -dc})"
    return f"knight's move {offset}" if {abs(dr), abs(dc)} == {1, 2} else f"offset {offset}"


def attack_text(asked: Question, board: Solution) -> str:
    """Why the question refuses this board: the first two pieces that attack each other, and along what."""
    squares = list(enumerate(board))
    pair = asked.variant.attacking_pair(asked.n, squares)
    if pair is None:  # (not reached: the validator refused it, and it refuses only attacks)
        return "the question's validator refuses it"
    a, b = pair
    line = line_between(asked.variant, asked.n, a, b)
    return f"the queens at {a[0]}:{a[1]} and {b[0]}:{b[1]} attack each other along {'an' if line[0] in 'aeiou' else 'a'} {line}"


def not_board_text(squares: Iterable[Square], n: int) -> str:
    """Why these queens are no board of N: a queen off it, a row without one or with two."""
    placed = list(squares)
    for r, c in placed:
        if not (0 <= r < n and 0 <= c < n):
            return f"a queen at {r}:{c} is off the {n}x{n} board"
    per_row = {r: sum(1 for q, _ in placed if q == r) for r in range(n)}
    for r, k in per_row.items():
        if k != 1:
            return f"row {r} has {'no queen' if not k else f'{k} queens'}"
    return "not one queen a row"
