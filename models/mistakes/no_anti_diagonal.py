"""A student's CP-SAT model that forgot the anti-diagonals.

    nqueens-cp check models/mistakes/no_anti_diagonal.py:model 1-8

One integer per row (the column of its queen), AllDifferent on the columns
and on q[r] - r, the diagonals; the third AllDifferent, on q[r] + r, is
missing, so two queens may share an anti-diagonal.
"""

from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    m.add_all_different(q).with_name("columns")
    m.add_all_different([q[r] - r for r in range(n)]).with_name("diagonals")
    return m, q


def fixed(n):
    """The model with the missing line: it passes the check."""
    m, q = model(n)
    m.add_all_different([q[r] + r for r in range(n)]).with_name("anti-diagonals")
    return m, q
