"""Every answer of every command, validated here before it is handed on:
a decision's board and an optimum's queens (a search's boards pass
:class:`.parallel.Validator`, in blocks, where :mod:`.execute` lists them).
The engines answer and validate nothing; an engine called directly
(``Engine.search``, ``solve``, ``optimum``) hands back what it found, as is.
The checks are the question's own (:meth:`~nqueens_cp.model.question.Question.is_solution`,
``Variant.is_dominating``), which share no code with the engines."""

from __future__ import annotations

from typing import Any

from ..engines import Outcome, Status
from ..errors import NQueensError
from ..model.question import Question


def decision(engine: str, asked: Question, outcome: Outcome) -> Outcome:
    """``outcome`` if its board (when it found one) is a board of the question:
    N pieces of the member, none attacking another, every pre-placed queen
    kept, no piece on a blocked square; else an error naming the engine."""
    if outcome.status is not Status.SOLVED:
        return outcome
    solution = outcome.solution
    if solution is None or not asked.variant.is_solution(solution, asked.n):
        raise NQueensError(f"engine {engine} returned an invalid board")
    broken = asked.position().broken_by(solution)
    if broken is not None:
        what, (r, c) = broken
        raise NQueensError(f"engine {engine} moved the pre-placed queen at {r}:{c}" if what == "moved" else
                           f"engine {engine} put a queen on the blocked square {r}:{c}")
    return outcome


def optimum(engine: Any, found: Any) -> Any:
    """``found`` (an :class:`~nqueens_cp.engines.optimum.Optimum`) if its queens
    answer the engine's question (every square covered; for independent
    domination, no two queens attacking); else an error naming the engine."""
    if found.size is not None and not engine.variant.is_dominating(found.queens, found.n):
        raise NQueensError(f"engine {engine.name} returned queens that do not answer {engine.variant.title}: "
                           f"{list(found.queens)}")
    return found
