"""An explicit solution for every N except 2 and 3, in O(N): the classic rule by N mod 6.

It finds one solution of plain N and nothing else: it cannot enumerate and
cannot take pre-placed queens.
"""

from __future__ import annotations

from typing import Any

from ..model.board import Position, Solution
from .base import Engine, Status


def construct(n: int) -> Solution | None:
    """An explicit solution for every n except 2 and 3, in O(n) (the classic rule by n mod 6).

    Write the even numbers 2, 4, ..., then the odd ones 1, 3, ... (1-based).
    If n mod 6 is 2, swap 1 and 3 and move 5 to the end of the odd list; if
    n mod 6 is 3, move 2 to the end of the even list and 1, 3 to the end of
    the odd list.  The k-th number is the row of the queen in column k.
    """
    if n in (2, 3):
        return None
    if n == 1:
        return (0,)
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *odds[3:], 5] if n >= 8 else [3, 1]
    elif n % 6 == 3:
        evens = [*evens[1:], 2]
        odds = [*odds[2:], 1, 3]
    rows = evens + odds  # rows[k] is the 1-based row of the queen in column k
    solution = [0] * n
    for col, row in enumerate(rows):
        solution[row - 1] = col
    return tuple(solution)


class ConstructEngine(Engine):
    name = "construct"
    paradigm = "construction"
    summary = "an O(N) formula by N mod 6: one solution of plain N, a million queens in about a second"
    enumerates = False
    takes_fixed = False
    proves_none = True  # only N = 2 and 3 have no solution, a known fact
    statistics = ("formula",)

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        solution = construct(n)
        if solution is None:
            return Status.NONE, None, f"N={n} has no solution (the only such N are 2 and 3)"
        stats["formula"] = f"n mod 6 = {n % 6}"
        return Status.SOLVED, solution, ""
