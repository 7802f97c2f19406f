"""nqueens_cp: N-queens modelled declaratively (CP-SAT, CNF) and checked against hand-written search.

    >>> import nqueens_cp as nq
    >>> nq.count(8)
    92
    >>> next(iter(nq.solutions(8)))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> nq.solve(8, fixed={0: 0, 1: 2}).status
    <Status.NONE: 'none'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

from .model.board import (  # noqa: E402
    SYMMETRIES,
    Solution,
    attacking_pair,
    canonical,
    check_solution,
    is_solution,
    orbit,
    render,
)
from .engines import (  # noqa: E402
    DEFAULT_ENGINE,
    DEFAULT_SOLVE_ENGINE,
    ENGINE_NAMES,
    Engine,
    Outcome,
    Search,
    Status,
    availability,
    engine_class,
    get_engine,
    names,
    preset,
)
from .errors import (  # noqa: E402
    EngineUnavailableError,
    InvalidInputError,
    NQueensError,
    SearchFinishedError,
    TimeLimitReached,
    WorkerLostError,
)
from .known import FUNDAMENTAL, TOTAL  # noqa: E402
from .execution.run import count, optimum, solutions, solve  # noqa: E402
from .model.question import Question, question  # noqa: E402
from .model.variants import VARIANTS, Lines, Variant, family  # noqa: E402
from .model.board import Columns  # noqa: E402
from .model.picture import Board  # noqa: E402

# Loaded when first used (PEP 562): a certificate's and a check's machinery is no part of enumerate 8's start-up.
_LAZY = {"certify": "certificates", "certify_optimum": "certificates", "verify": "certificates", "check": "checking",
         "grade": "checking"}
if TYPE_CHECKING:
    from .certificates import certify, certify_optimum, verify
    from .checking import check, grade


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Board", "Columns", "DEFAULT_ENGINE", "DEFAULT_SOLVE_ENGINE", "ENGINE_NAMES", "FUNDAMENTAL", "SYMMETRIES", "TOTAL", "Engine",
    "EngineUnavailableError", "InvalidInputError", "Lines", "NQueensError", "Outcome", "Question", "Search",
    "SearchFinishedError", "Solution", "Status", "TimeLimitReached", "VARIANTS", "WorkerLostError", "Variant", "attacking_pair", "availability", "canonical", "check_solution",
    "certify", "certify_optimum", "check", "count", "grade", "engine_class", "family", "get_engine", "is_solution", "names", "optimum", "orbit",
    "preset", "question", "render", "solutions", "solve", "verify",
]
