"""Checking a model someone wrote against the reference: ``nqueens-cp check`` and :func:`check`.

The toolkit's own cross-check turned outward: the user's model is read by
its own tool (:mod:`.forms`: CP-SAT, CPMpy, PySAT, MiniZinc, clingo, DIMACS),
its answers mapped to boards, and compared with the reference's exact set
through the same validator every engine goes through (:mod:`.run`); the
first N that differs comes with the smallest extra and missing boards and
the reason, in the model's own terms (:mod:`.report` draws them).
"""

from __future__ import annotations

from .forms import Determined, ModelError, Reason
from .grading import grade, grade_model
from .records import CheckReport, GradeReport, Graded, NCheck
from .run import check

__all__ = ["CheckReport", "Determined", "GradeReport", "Graded", "ModelError", "NCheck", "Reason", "check", "grade",
           "grade_model"]
