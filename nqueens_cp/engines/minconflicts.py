"""Min-conflicts local search (Minton et al. 1992), one queen per row.

It finds one solution, fast on large and loosely constrained boards, and can
never prove that there is none: its "unknown" means only that it gave up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..model.board import Position, Solution
from .base import SEED, Engine, Option, Status

if TYPE_CHECKING:
    import random


class MinConflictsEngine(Engine):
    name = "minconflicts"
    paradigm = "local search"
    summary = "min-conflicts local search from a greedy start; pre-placed queens never move; cannot prove none"
    enumerates = False
    proves_none = False
    options = (
        SEED,
        Option("max_steps", "give up after this many moves (default: 200N + 10000 when no time limit is given)",
               kind=int, low=1, high=2**62),
    )
    statistics = ("steps", "restarts")
    additive = frozenset(statistics)
    effort = "steps"
    seed: int | None
    max_steps: int | None

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        """Start from a greedy placement (each row in turn takes a least-attacked
        column); then repeatedly move the queen of a random attacked row to a
        least-attacked column of its row, ties broken at random.  Pre-placed
        queens never move, and no queen ever stands on a blocked square.  Restart from a new greedy placement after 20N
        steps without a solution.  Stop at the time limit, or after
        ``max_steps`` moves; with neither, after 200N + 10000 moves.
        """
        import random  # here: listing the engines should not import it (start-up)

        rng = random.Random(self.seed)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        # The default budget only stands in for a missing time limit; one given explicitly always holds.
        budget = self.max_steps or (None if deadline is not None else 200 * n + 10_000)
        movable = [row for row in range(n) if row not in placed]
        # Blocked squares are never taken: each row moves among its open columns (a list only for
        # rows with a blocked square, else the range: memory stays linear in N).
        every = range(n)
        blocked_rows = {row for row, _ in getattr(placed, "blocked", ())}
        columns: list[Any] = [placed.columns(row, n) if row in blocked_rows or row in placed else every
                              for row in range(n)]
        empty = next((row for row in movable if not columns[row]), None)
        if empty is not None:
            return Status.NONE, None, f"every square of row {empty} is blocked"
        steps = restarts = 0
        queens = [0] * n
        cols = [0] * n  # queens per column
        diag = [0] * (2 * n - 1)  # queens per diagonal, row - col + n - 1
        anti = [0] * (2 * n - 1)  # queens per anti-diagonal, row + col

        def put(row: int, col: int, delta: int) -> None:
            cols[col] += delta
            diag[row - col + n - 1] += delta
            anti[row + col] += delta

        try:
            while True:
                cols[:] = [0] * n
                diag[:] = anti[:] = [0] * (2 * n - 1)
                for row, col in placed.items():
                    queens[row] = col
                    put(row, col, 1)
                order = movable[:]
                rng.shuffle(order)
                for i, row in enumerate(order):  # greedy start: each row's least-attacked column (N^2 in all)
                    if deadline is not None and not i & 63 and time.monotonic() > deadline:
                        return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (min-conflicts cannot prove none)"
                    col = _least_attacked(row, n, columns[row], cols, diag, anti, rng, None)
                    queens[row] = col
                    put(row, col, 1)
                for _ in range(20 * n + 100):
                    attacked = [row for row in movable
                                if cols[queens[row]] + diag[row - queens[row] + n - 1] + anti[row + queens[row]] > 3]
                    if not attacked:
                        return Status.SOLVED, tuple(queens), ""
                    steps += 1
                    if budget is not None and steps > budget:
                        return Status.UNKNOWN, None, f"min-conflicts found nothing in {budget} steps (it cannot prove none)"
                    if deadline is not None and time.monotonic() > deadline:  # (a step costs O(N): each one)
                        return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (min-conflicts cannot prove none)"
                    row = rng.choice(attacked)
                    put(row, queens[row], -1)
                    col = _least_attacked(row, n, columns[row], cols, diag, anti, rng, queens[row])
                    queens[row] = col
                    put(row, col, 1)
                restarts += 1
        finally:
            stats.update(steps=steps, restarts=restarts)


def _least_attacked(row: int, n: int, columns: Sequence[int], cols: list[int], diag: list[int], anti: list[int],
                    rng: random.Random, current: int | None) -> int:
    best: list[int] = []
    best_score = None
    shift = row + n - 1
    for col in columns:
        score = cols[col] + diag[shift - col] + anti[row + col]
        if best_score is None or score < best_score:
            best_score, best = score, [col]
        elif score == best_score:
            best.append(col)
    if current is not None and len(best) > 1 and current in best:
        best.remove(current)  # prefer moving: a sideways step escapes plateaus
    return rng.choice(best)
