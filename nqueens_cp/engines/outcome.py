"""What a decision found (:class:`Status`, :class:`Outcome`), and the checks
every answer passes before a caller sees it: "none" proved by the placements
alone; the execution layer validates the board (execution/answers.py)."""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from ..model.board import AnySolution, attacking_pair
from ..model.position import Position
from ..model.variants import Variant


class Status(enum.Enum):
    """What ``solve`` found out."""

    SOLVED = "solved"  # a validated solution that keeps every pre-placed queen
    NONE = "none"  # proven: no solution exists
    UNKNOWN = "unknown"  # the time limit or a step budget came first, or the engine cannot prove "none"

    def __str__(self) -> str:
        return self.value


# The records here and in the execution layer are NamedTuples, not dataclasses: importing
# dataclasses (it imports inspect) took longer than enumerating N = 8 (benchmarks/startup.py).


class Outcome(NamedTuple):
    """The answer of ``solve``: a status, the solution if any, why not otherwise."""

    n: int
    engine: str
    status: Status
    solution: AnySolution | None  # a tuple; Columns above board.TUPLE_MAX_N queens
    seconds: float
    stats: dict[str, Any]
    reason: str  # why "none" or "unknown"
    placed: dict[int, int]
    variant: str = "queens"

    def _repr_svg_(self) -> str | None:
        """In Jupyter, a solved outcome shows its board."""
        from ..model.picture import SVG_MAX_N, board_svg

        return None if self.solution is None or len(self.solution) > SVG_MAX_N else board_svg(tuple(self.solution))

    def to_dict(self, solution: bool = True) -> dict[str, Any]:
        """The outcome as plain data (without the board, ``solution`` false:
        the command line streams a large one)."""
        record: dict[str, Any] = {"n": self.n, "status": self.status.value, "engine": self.engine,
                                  "variant": self.variant}
        if self.solution is not None and solution:
            record["solution"] = list(self.solution)
        if self.reason:
            record["reason"] = self.reason
        record.update(placed=[[r, c] for r, c in sorted(self.placed.items())],
                      blocked=[list(square) for square in sorted(getattr(self.placed, "blocked", ()))],
                      seconds=round(self.seconds, 6), stats=self.stats)
        return record


# What a decision found: (Status, solution or None, reason).
Answer = tuple[Status, "AnySolution | None", str]


def trivial_answer(variant: Variant, n: int, placed: Position) -> Answer | None:
    """"None", proven by the placements alone (two queens that attack each
    other, a queen on a blocked square); else None: search."""
    queens = sorted(placed.items())
    pair = attacking_pair(queens) if variant.is_plain else variant.attacking_pair(n, queens)
    if pair is not None:
        (r1, c1), (r2, c2) = pair
        return Status.NONE, None, f"the pre-placed queens at {r1}:{c1} and {r2}:{c2} attack each other"
    on_blocked = sorted(square for square in placed.items() if square in placed.blocked)
    if on_blocked:
        return Status.NONE, None, f"a queen is pre-placed on the blocked square {on_blocked[0][0]}:{on_blocked[0][1]}"
    return None
