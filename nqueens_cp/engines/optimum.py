"""The optimum of a domination question (queen domination, independent
domination: :mod:`nqueens_cp.model.variants`), as engines answer it.

:meth:`Engine.optimum <nqueens_cp.engines.base.Engine.optimum>` checks the
question, asks the engine's ``_optimum`` and validates what comes back with
the variant's own validator: every square occupied or attacked, and for the
independent question no queen attacking another.  An optimum is *proved*
when the engine showed that one queen fewer is impossible (the solver's
proof of optimality, or a search that exhausted the smaller sets), and only
*found* (``proved`` false, ``bound`` the best lower bound known) when the
time limit came first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

Square = tuple[int, int]


class Standing(NamedTuple):
    """Where a search for an optimum stands, as it goes: what a terminal shows."""

    bound: int  # shown: no fewer queens answer (1 before anything is shown)
    best: int | None  # the fewest queens found so far (None: none yet)
    nodes: int | None = None  # the search's nodes so far, where it counts them


Report = Callable[[Standing], None]


def silent(standing: Standing) -> None:
    """The report of a caller that asked for none."""


class Optimum(NamedTuple):
    """The answer to a domination question."""

    n: int
    variant: str
    engine: str
    size: int | None  # the fewest queens found (None: none found in time)
    queens: tuple[Square, ...]  # their squares, sorted
    proved: bool  # one queen fewer is impossible, shown
    bound: int  # the best lower bound shown (size when proved)
    seconds: float
    stats: dict[str, Any]
    reason: str  # how it was proved, or why not

    @property
    def status(self) -> str:
        return "optimal" if self.proved else "feasible" if self.size is not None else "unknown"

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "variant": self.variant, "status": self.status, "size": self.size,
                "queens": [list(q) for q in self.queens], "bound": self.bound, "engine": self.engine,
                "reason": self.reason, "seconds": round(self.seconds, 6), "stats": self.stats}

    def board(self) -> str:
        """The board as text: Q for a queen, . for an empty square."""
        placed = set(self.queens)
        return "\n".join(" ".join("Q" if (r, c) in placed else "." for c in range(self.n)) for r in range(self.n))



def run(engine: Any, n: int, time_limit: float | None = None, progress: Report | None = None) -> Optimum:
    """What :meth:`Engine.optimum <nqueens_cp.engines.base.Engine.optimum>`
    does: check the question and the engine's options, ask its ``_optimum``
    (the queens it returns are validated by the execution layer:
    :func:`nqueens_cp.execution.answers.optimum`)."""
    import time

    from ..errors import InvalidInputError
    from .search import check_time_limit

    if not engine.variant.optimizes:
        raise InvalidInputError(f"{engine.variant.title} asks for boards of N queens, not an optimum: use "
                                "enumerate, count or solve (variants with an optimum: domination, independent)")
    if type(n) is not int or n < 1:
        raise InvalidInputError(f"N must be a positive integer, got {n!r}")
    engine.check_n(n)
    check_time_limit(time_limit)
    engine.check_options(lambda option: option.optimum, "an optimum")
    engine.check_usable()
    start = time.perf_counter()
    stats: dict[str, Any] = {}
    report = progress or silent
    report(Standing(1, None))
    queens, proved, bound, reason = engine._optimum(n, time_limit, stats, report)
    placed = tuple(sorted((int(r), int(c)) for r, c in queens or ()))  # (validated by the execution layer)
    size = len(placed) if queens is not None else None
    return Optimum(n, str(engine.variant), engine.name, size, placed, proved, size if proved and size else bound,
                   time.perf_counter() - start, stats, reason)
