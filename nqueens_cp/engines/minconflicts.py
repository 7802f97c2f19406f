"""Local search for one board of a huge N: Sosič and Gu's conflict
minimisation (1991, 1994) in C, min-conflicts' modern form.

The board is a permutation, repaired by swaps that lower the number of
attacking pairs (:mod:`nqueens_cp.kernel.twin_repair` explains it step by
step; ``kernel/repair.c`` runs it).  Linear time and about 20 bytes a queen:
3,000,000 queens in well under a second (benchmarks/local_search.py).  It
finds one solution and can never prove that there is none: its "unknown"
means only that it gave up.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from ..errors import InvalidInputError
from ..model.board import board_of
from ..model.position import Position
from ..model.variants import Variant
from ..machine import available_memory
from .base import SEED, Answer, Engine, Option, Status

SLICE = 1 << 18  # swaps between two looks at the clock: a few ms even at N = 10^8


class MinConflictsEngine(Engine):
    name = "minconflicts"
    instant = True
    paradigm = "local search"
    summary = ("local search (Sosic and Gu): a permutation repaired by swaps, in C; 3,000,000 queens in well "
               "under a second; pre-placed queens never move; cannot prove none")
    enumerates = False
    proves_none = False
    options = (
        SEED,
        Option("max_steps", "give up after about this many swaps tried (default: 200N + 10000 when no time limit "
               "is given)", kind=int, low=1, high=2**62),
    )
    statistics = ("steps", "moves", "restarts", "attacked")
    additive = frozenset({"steps", "moves", "restarts"})
    effort = "steps"
    # Not "wrapping": on the torus (and the semi-queens' one wrapping direction) boards are so rare that
    # the swaps stall on local minima (measured: no board of N = 11..37 in 200,000 swaps; none of
    # N = 10^4..10^6 in 5 s); construct's modular rule answers those members.
    expresses = frozenset({"lines", "offsets"})
    max_offsets = 8  # repair.h's REPAIR_MAX_OFFSETS
    max_n = (1 << 30) - 1
    max_n_why = "lines are counted in 32-bit ints, 2N - 1 of them"
    seed: int | None
    max_steps: int | None

    @classmethod
    def cannot_express(cls, variant: Variant) -> str | None:
        missing = super().cannot_express(variant)
        if missing and any(lines.wraps for lines in variant.families):
            return f"{missing}: its swaps stall on the torus's rare boards (construct answers it)"
        return missing

    def check_decision(self, n: int, placed: Position, time_limit: float | None) -> None:
        """As :meth:`Engine.check_solve`, and a board that would not fit in the
        memory available is refused before anything is allocated."""
        from .. import kernel

        super().check_decision(n, placed, time_limit)
        need, have = kernel.repair_bytes(n, self.variant, len(placed)), available_memory()
        if have is not None and need > have:
            raise InvalidInputError(f"N={n:,} needs {need / 2**30:.1f} GiB for the local search's board and lines, "
                                    f"more than the {have / 2**30:.1f} GiB available here")

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> Answer:
        """Swap until no queen attacks another (kernel.Repair), reading the
        clock every SLICE swaps.  Stop at the time limit, or after about
        ``max_steps`` swaps tried; with neither, after 200N + 10000."""
        from .. import kernel

        deadline = None if time_limit is None else time.monotonic() + time_limit
        if self.variant.exists(n) is False:
            return Status.UNKNOWN, None, f"no board of {self.variant.title} exists at N={n} ({self.variant.source}); " \
                "local search proves nothing, so it does not search"
        per_row = Counter(r for r, _ in placed.blocked)
        full = next((row for row, blocked in sorted(per_row.items()) if blocked == n and row not in placed), None)
        if full is not None:
            return Status.NONE, None, f"every square of row {full} is blocked"
        # The default budget only stands in for a missing time limit; one given explicitly always holds.
        budget = self.max_steps or (None if deadline is not None else 200 * n + 10_000)
        search = kernel.Repair(n, self.variant, placed.items(), placed.blocked, self.seed or 0)
        try:
            while True:
                if budget is not None and search.swaps >= budget:
                    return Status.UNKNOWN, None, f"local search found nothing in {budget} swaps (it cannot prove none)"
                if deadline is not None and time.monotonic() > deadline:
                    return Status.UNKNOWN, None, f"no answer within {time_limit:g} s (local search cannot prove none)"
                if search.advance(SLICE if budget is None else min(SLICE, budget - search.swaps), deadline):
                    return Status.SOLVED, board_of(search.solution()), ""
        finally:
            stats.update(steps=search.swaps, moves=search.moves, restarts=search.restarts, attacked=search.attacked)
