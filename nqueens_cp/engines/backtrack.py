"""The textbook reference: row-by-row recursion with an is-safe check.

Kept as simple as possible so that it is obviously correct; every other
engine is checked against it.  As in Wirth's classic version, the queens
placed so far are recorded by the columns and diagonals they occupy, so the
is-safe check is three look-ups instead of a scan of every queen above.

For the other questions of the family (toroidal queens, superqueens) it is
the oracle in its plainest form: a square is safe when no queen above
attacks it by the variant's own attack relation
(:meth:`~nqueens_cp.model.variants.Variant.attacks`), asked of each queen.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..model.board import Solution
from ..model.position import Position
from ..model.variants import Square
from ..errors import TimeLimitReached
from .base import Engine


class BacktrackEngine(Engine):
    name = "backtrack"
    summary = "textbook row-by-row backtracking; slow, obviously correct, the oracle"
    statistics = ("nodes", "tries")
    additive = frozenset(statistics)
    effort = "nodes"
    enumeration_rate = count_rate = 6e3
    reports_optimum = True
    optimum_reach = {"domination": (10, 3.72, 5.0), "independent": (11, 1.87, 5.0)}
    first_solution_max_n = 32
    lexicographic_solve = True
    max_n = 500  # one level of recursion a row, within Python's default limit of 1000 frames
    max_n_why = "one level of Python recursion a row; bitmask takes N up to 10,000, construct and minconflicts far more"
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        queens: list[int] = []  # queens[r] is the column of the queen in row r
        column_used = [False] * n
        diagonal_used = [False] * (2 * n - 1)  # row - col + n - 1 is the same along a diagonal
        anti_diagonal_used = [False] * (2 * n - 1)  # row + col is the same along an anti-diagonal
        nodes = tries = 0  # queens placed, placements tried
        columns = [fixed.columns(row, n) for row in range(n)]  # the pre-placed column, or the open ones
        if not self.variant.is_plain:
            return self._search_any(n, columns, stats, deadline)

        def place(row: int) -> Iterator[Solution]:
            nonlocal nodes, tries
            if row == n:
                yield tuple(queens)
                return
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitReached
            for col in columns[row]:
                tries += 1
                # Is (row, col) safe?  The check and the marking are written
                # out here rather than called: a call per try doubled the time.
                diagonal, anti_diagonal = row - col + n - 1, row + col
                if not (column_used[col] or diagonal_used[diagonal] or anti_diagonal_used[anti_diagonal]):
                    nodes += 1
                    queens.append(col)
                    column_used[col] = diagonal_used[diagonal] = anti_diagonal_used[anti_diagonal] = True
                    yield from place(row + 1)
                    column_used[col] = diagonal_used[diagonal] = anti_diagonal_used[anti_diagonal] = False
                    queens.pop()

        return self._searched(place(0), stats, lambda: (nodes, tries))

    @staticmethod
    def _searched(found: Iterator[Solution], stats: dict[str, Any], effort: Any) -> Iterator[Solution]:
        try:
            yield from found
        finally:
            stats.update(nodes=effort()[0], tries=effort()[1])

    # [cost family reference]
    def _search_any(self, n: int, columns: list[list[int]], stats: dict[str, Any],
                    deadline: float | None) -> Iterator[Solution]:
        """The same search for any attack relation: a square is safe when no queen above attacks it."""
        attacks = self.variant.attacks
        queens: list[int] = []
        nodes = tries = 0

        def place(row: int) -> Iterator[Solution]:
            nonlocal nodes, tries
            if row == n:
                yield tuple(queens)
                return
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitReached
            for col in columns[row]:
                tries += 1
                if not any(attacks(n, (r, c), (row, col)) for r, c in enumerate(queens)):
                    nodes += 1
                    queens.append(col)
                    yield from place(row + 1)
                    queens.pop()

        return self._searched(place(0), stats, lambda: (nodes, tries))
    # [end cost]

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """k = 1, 2, ...: the first k for which :func:`dominating` finds queens;
        its "no" for k - 1, a search of every smaller set, is the proof."""
        from .optimum import Standing

        deadline = None if time_limit is None else time.monotonic() + time_limit
        counter = [0]
        try:
            for k in range(1, n * n + 1):
                found = dominating(n, self.variant, k, deadline, counter)
                report(Standing(k + (found is None), k if found is not None else None, counter[0]))
                if found is not None:
                    return found, True, k, f"no {k - 1} queens do: the search tried every set" if k > 1 else \
                        "one queen is the fewest"
            raise AssertionError("n*n queens always dominate")  # (the loop returns by k = n*n)
        except TimeLimitReached:
            return None, False, k, f"no answer within {time_limit:g} s (no {k - 1} queens do)"
        finally:
            stats["nodes"] = counter[0]


def dominating(n: int, variant: Any, k: int, deadline: float | None, counter: list[int]) -> list[Square] | None:
    """At most k queens that occupy or attack every square (and, for an
    independent variant, not each other), or None if there are none: the
    oracle of the domination question, in its plainest correct form.

    Some queen must cover the first uncovered square, so the search tries
    every square that covers it; once a square's subtree is searched, its
    siblings' leave it out (each set is looked at once)."""
    covers: dict[Square, frozenset[Square]] = {}
    for r in range(n):  # (seconds at N = 150: the deadline is looked at as they are listed)
        if deadline is not None and time.monotonic() > deadline:
            raise TimeLimitReached
        covers.update(((r, c), frozenset(variant.covers(n, (r, c)))) for c in range(n))
    order = sorted(covers)

    def search(covered: frozenset[Square], queens: list[Square], left: int,
               excluded: frozenset[Square]) -> list[Square] | None:
        counter[0] += 1
        if deadline is not None and time.monotonic() > deadline:
            raise TimeLimitReached
        target = next((s for s in order if s not in covered), None)
        if target is None:
            return queens
        if left == 0:
            return None
        for square in sorted(covers[target]):  # a queen here covers the target (covering is symmetric)
            if square in excluded or (variant.independent and square in covered):
                continue
            found = search(covered | covers[square], [*queens, square], left - 1, excluded)
            if found is not None:
                return found
            excluded = excluded | {square}
        return None

    return search(frozenset(), [], k, frozenset())
