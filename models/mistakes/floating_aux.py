"""A new CNF encoding whose auxiliary variables float.

    nqueens-cp check models/mistakes/floating_aux.py:model 4-8

The cells are variables 1..N^2 (row r, column c is r*N + c + 1); every row
and column holds exactly one queen, and every diagonal at most one, stated
with PySAT's sequential counter.  The boards are right, but the counter's
auxiliary variables are not fixed by the cells: PySAT's enum_models, or any
count of models over every variable, counts each board several times (for
N = 6: 4 boards, many more models).  The check compares boards (its blocking
clauses are over the cells) and says the auxiliaries are not determined.
"""

from pysat.card import CardEnc, EncType
from pysat.formula import CNF


def model(n):
    cell = [[r * n + c + 1 for c in range(n)] for r in range(n)]
    cnf = CNF()
    top = n * n
    exactly = [row for row in cell] + [[cell[r][c] for r in range(n)] for c in range(n)]
    diagonals = [[cell[r][k - r] for r in range(n) if 0 <= k - r < n] for k in range(2 * n - 1)]
    diagonals += [[cell[r][r - k] for r in range(n) if 0 <= r - k < n] for k in range(1 - n, n)]
    for line in exactly + diagonals:
        if line in exactly:
            cnf.append(line)  # at least one
        if len(line) > 1:
            amo = CardEnc.atmost(line, 1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, amo.nv)
            cnf.extend(amo.clauses)
    cnf.nv = top
    return cnf, cell
