"""The textbook reference: row-by-row recursion with an is-safe check.

Kept as simple as possible so that it is obviously correct; every other
engine is checked against it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..board import Solution
from .base import Engine


class BacktrackEngine(Engine):
    name = "backtrack"
    summary = "textbook row-by-row backtracking; slow, obviously correct, the oracle"

    def _search(self, n: int, fixed: dict[int, int], limit: int | None, stats: dict[str, Any]) -> Iterator[Solution]:
        stats.update(nodes=0, tries=0)
        queens: list[int] = []  # queens[r] is the column of the queen in row r

        def is_safe(row: int, col: int) -> bool:
            for r, c in enumerate(queens):
                if c == col or abs(c - col) == row - r:
                    return False
            return True

        def place(row: int) -> Iterator[Solution]:
            if row == n:
                yield tuple(queens)
                return
            for col in ([fixed[row]] if row in fixed else range(n)):
                stats["tries"] += 1
                if is_safe(row, col):
                    stats["nodes"] += 1
                    queens.append(col)
                    yield from place(row + 1)
                    queens.pop()

        yield from place(0)
