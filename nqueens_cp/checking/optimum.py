"""Checking an optimisation model: queen domination and independent domination, N by N.

A domination model (``--variant domination`` or ``independent``) minimises the
queens that occupy or attack every square (and, independent, attack no other).
For each N the model's own solver finds its best board (:meth:`Instance.optimize`
in the model's process); here, where the model cannot reach, the board goes
through the question's own validator, its size is compared with the reference's
proved optimum (the hand-written branch and bound, ``nq.optimum``), and:

- where the model's board is no answer, an uncovered square (or two queens that
  attack each other) says why;
- where its best is larger than the optimum, a reference board with fewer queens
  is fed to the model, and the constraints that exclude it are named at their
  lines (the same reason a placement check gives);
- where its solver did not prove its best (a time limit), the row says so.

MiniZinc's own solution checkers say of optimality that "we cannot easily verify
this claim"; with the optimum proved, we can.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..errors import NQueensError
from ..model.question import Question
from ..model.variants import Square
from .forms import SQUARES, ModelError, Reason, UserModel


@dataclass
class OptimumCheck:
    """One N of an optimisation check."""

    n: int
    agrees: bool
    optimum: int | None  # the queens on the model's best board (None: it found none)
    proved: bool  # the model's solver proved its best optimal
    reference: int  # the reference's proved optimum
    witness: tuple[Square, ...]  # the model's best board: its queens' squares
    valid: bool  # the board answers the question (the validator's word)
    attack: str | None  # why the model's board is no answer: an uncovered square, two attacking queens
    excluded: tuple[Square, ...]  # a reference board the model excludes (its best was larger), or ()
    why: Reason | None  # why the model excludes it
    objective: int | None  # the model's objective value, where it is not its count of queens
    seconds: float
    reference_seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "agrees": self.agrees, "optimum": self.optimum, "proved": self.proved,
                "reference": self.reference, "witness": [list(q) for q in self.witness], "valid": self.valid,
                "attack": self.attack, "excluded": [list(q) for q in self.excluded],
                "why": self.why.to_dict() if self.why else None, "objective": self.objective,
                "seconds": round(self.seconds, 6), "reference_seconds": round(self.reference_seconds, 6)}


def check_optimum(user: UserModel, asked: Question, deadline: float | None) -> OptimumCheck:
    """The model's best board at N against the proved optimum (see the module's docstring)."""
    from ..execution.run import optimum

    n, variant = asked.n, asked.variant
    started = time.monotonic()
    instance = user.instance(n)
    try:
        if instance.kind != SQUARES:
            raise ModelError(f"{user.name}({n}): a {variant.name} model's board is an n x n grid of 0/1 variables (a "
                             "queen on each square that is 1), not a column a row")
        value, proved, raw, objective = instance.optimize(deadline)
        seconds = time.monotonic() - started
        started = time.monotonic()
        left = None if deadline is None else max(deadline - time.monotonic(), 0.001)
        best = optimum(n, variant, time_limit=left)
        reference_seconds = time.monotonic() - started
        if not best.proved or best.size is None:
            raise NQueensError(f"the reference could not prove the optimum of N={n} in the time left")
        squares = tuple(sorted(raw)) if raw is not None else ()
        valid = raw is not None and variant.is_dominating(squares, n)
        attack = None if raw is None or valid else _not_an_answer(asked, squares)
        excluded: tuple[Square, ...] = ()
        why = None
        if valid and len(squares) > best.size:
            excluded = best.queens
            why = instance.why(excluded, deadline)
        size = len(squares) if raw is not None else None
        return OptimumCheck(n, valid and size == best.size, size, proved, best.size, squares, valid, attack,
                            excluded, why, None if objective in (None, size) else objective, seconds,
                            reference_seconds)
    finally:
        instance.close()


def _not_an_answer(asked: Question, squares: tuple[Square, ...]) -> str:
    """Why these queens answer no domination question: two that attack each other (independent), or a square
    none of them occupies or attacks."""
    from ..model.attacks import line_between

    n, variant = asked.n, asked.variant
    if variant.independent:
        pair = variant.attacking_pair(n, list(squares))
        if pair is not None:
            (a, b), line = pair, line_between(variant, n, *pair)
            return (f"the queens at {a[0]}:{a[1]} and {b[0]}:{b[1]} attack each other along "
                    f"{'an' if line[0] in 'aeiou' else 'a'} {line}")
    covered = {square for queen in squares for square in variant.covers(n, queen)}
    for r in range(n):
        for c in range(n):
            if (r, c) not in covered:
                return f"no queen occupies or attacks the square {r}:{c}"
    return "the question's validator refuses it"
