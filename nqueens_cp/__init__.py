"""nqueens_cp: N-queens modelled declaratively (CP-SAT, CNF) and checked against hand-written search.

    >>> import nqueens_cp as nq
    >>> nq.count(8)
    92
    >>> next(iter(nq.solutions(8)))
    (0, 4, 7, 5, 2, 6, 1, 3)
"""

from __future__ import annotations

from collections.abc import Mapping

__version__ = "0.1.0"

from .board import (  # noqa: E402
    SYMMETRIES,
    Solution,
    attacking_pair,
    canonical,
    check_solution,
    is_solution,
    orbit,
    render,
)
from .engines import DEFAULT_ENGINE, ENGINE_NAMES, Engine, Search, availability, get_engine  # noqa: E402
from .errors import EngineUnavailableError, InvalidInputError, NQueensError  # noqa: E402
from .known import FUNDAMENTAL, TOTAL  # noqa: E402


def solutions(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None,
              limit: int | None = None, **options: object) -> Search:
    """The solutions of n-queens as a lazy iterator of column tuples (with ``.stats``)."""
    return get_engine(engine, **options).search(n, fixed, limit)


def count(n: int, engine: str = DEFAULT_ENGINE, fixed: Mapping[int, int] | None = None, **options: object) -> int:
    """The number of solutions of n-queens that honour ``fixed``."""
    return get_engine(engine, **options).search(n, fixed).count()


__all__ = [
    "DEFAULT_ENGINE", "ENGINE_NAMES", "FUNDAMENTAL", "SYMMETRIES", "TOTAL", "Engine",
    "EngineUnavailableError", "InvalidInputError", "NQueensError", "Search", "Solution",
    "attacking_pair", "availability", "canonical", "check_solution", "count", "get_engine",
    "is_solution", "orbit", "render", "solutions",
]
