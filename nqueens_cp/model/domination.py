"""Queen domination as a model: the fewest queens that occupy or attack every
square (and, ``independent``, attack no other queen), in each format.

Over the N*N cells (cell (r, c) is variable r*N + c + 1, as in every model
over cells here): every square is covered by a queen on one of the squares
that cover it (:meth:`~nqueens_cp.model.variants.Variant.covers`: a queen
covers the squares it could move to, by symmetry the squares it could be
attacked from); independent, at most one queen on any row, column or
diagonal; minimise the queens.  Not a permutation problem, so the writers
here share nothing with the N-queens ones but the cells.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .variants import PLAIN, Variant

Square = tuple[int, int]


def coverers(n: int, variant: Variant) -> Iterator[tuple[Square, list[Square]]]:
    """Each square and the squares whose queen would cover it."""
    for r in range(n):
        for c in range(n):
            yield (r, c), variant.covers(n, (r, c))


def lines(n: int) -> Iterator[list[Square]]:
    """The rows, columns and diagonals of two squares or more: an independent set has at most one queen on each."""
    return PLAIN.lines(n)


def write(name: str, n: int, position: Any, variant: Variant) -> Iterator[str]:
    """The text of format ``name`` (mzn, dzn, lp, smt2, opb, xml, cnf: WCNF) for
    the domination question ``variant`` on an n x n board."""
    from ..errors import InvalidInputError

    if position:
        raise InvalidInputError(f"{variant.title} takes no pre-placed queens or blocked squares")
    yield from _WRITERS[name](n, variant)


def _x(n: int, square: Square) -> int:
    return square[0] * n + square[1] + 1


def _mzn(n: int, variant: Variant) -> Iterator[str]:
    # [cost domination minizinc]
    yield f"""\
% {variant.title}: x[r,c] is a queen on square (r, c), 0-based; n is in the .dzn.
int: n;
array[0..n-1, 0..n-1] of var bool: x;
% Every square is occupied or attacked: a queen on its row, column or a diagonal.
constraint forall(r, c in 0..n-1)(exists(i, j in 0..n-1 where i = r \\/ j = c \\/ i - j = r - c \\/ i + j = r + c)(x[i,j]));
"""
    # [end cost]
    # [cost independent minizinc]
    if variant.independent:
        yield """\
% Independent: no two queens on one row, column or diagonal.
constraint forall(r in 0..n-1)(sum(c in 0..n-1)(x[r,c]) <= 1);
constraint forall(c in 0..n-1)(sum(r in 0..n-1)(x[r,c]) <= 1);
constraint forall(d in 1-n..n-1)(sum(r, c in 0..n-1 where r - c = d)(x[r,c]) <= 1);
constraint forall(s in 0..2*n-2)(sum(r, c in 0..n-1 where r + c = s)(x[r,c]) <= 1);
"""
    # [end cost]
    # [cost domination minizinc]
    yield """\
solve minimize sum(r, c in 0..n-1)(bool2int(x[r,c]));
output [show([r * n + c + 1 | r, c in 0..n-1 where fix(x[r,c])])];
"""
    # [end cost]


def _dzn(n: int, variant: Variant) -> Iterator[str]:
    yield f"% data for the {variant} model (nqueens-cp export N --variant {variant} --format mzn)\n"
    yield f"n = {n};\n"


def _lp(n: int, variant: Variant) -> Iterator[str]:
    # [cost domination asp]
    yield f"% {variant.title} (clingo): queen(R,C) on square (R, C), 0-based.\n#const n = {n}.\n"
    yield """\
square(R,C) :- R = 0..n-1, C = 0..n-1.
{ queen(R,C) : square(R,C) }.
covered(R,C) :- square(R,C), queen(I,J), I = R.
covered(R,C) :- square(R,C), queen(I,J), J = C.
covered(R,C) :- square(R,C), queen(I,J), I - J = R - C.
covered(R,C) :- square(R,C), queen(I,J), I + J = R + C.
:- square(R,C), not covered(R,C).
#minimize { 1,R,C : queen(R,C) }.
#show queen/2.
"""
    # [end cost]
    # [cost independent asp]
    if variant.independent:
        yield """\
:- { queen(R,C) : square(R,C) } >= 2, R = 0..n-1.
:- { queen(R,C) : square(R,C) } >= 2, C = 0..n-1.
:- { queen(R,C) : square(R,C), R - C = D } >= 2, D = 1-n..n-1.
:- { queen(R,C) : square(R,C), R + C = S } >= 2, S = 0..2*n-2.
"""
    # [end cost]


def _smt2(n: int, variant: Variant) -> Iterator[str]:
    yield f"; {variant.title}: x<var> is a queen on square (r, c), var = r*{n} + c + 1; Z3's minimize.\n"
    yield "(set-option :produce-models true)\n"
    for v in range(1, n * n + 1):
        yield f"(declare-const x{v} Bool)\n"
    for _, cover in coverers(n, variant):
        yield f"(assert (or {' '.join(f'x{_x(n, s)}' for s in cover)}))\n"
    if variant.independent:
        for line in lines(n):
            yield f"(assert ((_ at-most 1) {' '.join(f'x{_x(n, s)}' for s in line)}))\n"
    yield f"(minimize (+ {' '.join(f'(ite x{v} 1 0)' for v in range(1, n * n + 1))}))\n(check-sat)\n(get-model)\n"


def _opb(n: int, variant: Variant) -> Iterator[str]:
    independent = list(lines(n)) if variant.independent else []
    yield f"* #variable= {n * n} #constraint= {n * n + len(independent)}\n"
    yield f"* {variant.title}: x<r*{n} + c + 1> is a queen on square (r, c).\n"
    yield "min: " + " ".join(f"+1 x{v}" for v in range(1, n * n + 1)) + " ;\n"
    for _, cover in coverers(n, variant):
        yield " ".join(f"+1 x{_x(n, s)}" for s in cover) + " >= 1 ;\n"
    for line in independent:
        yield " ".join(f"-1 x{_x(n, s)}" for s in line) + " >= -1 ;\n"


def _xml(n: int, variant: Variant) -> Iterator[str]:
    yield f"<!-- {variant.title}: x[r][c] = 1 for a queen on square (r, c). -->\n"
    yield f'<instance format="XCSP3" type="COP">\n  <variables>\n    <array id="x" size="[{n}][{n}]"> 0 1 </array>\n'
    yield "  </variables>\n  <constraints>\n"
    for _, cover in coverers(n, variant):
        yield f"    <sum> <list> {' '.join(f'x[{r}][{c}]' for r, c in cover)} </list> <condition> (ge,1) </condition> </sum>\n"
    for line in lines(n) if variant.independent else ():
        yield f"    <sum> <list> {' '.join(f'x[{r}][{c}]' for r, c in line)} </list> <condition> (le,1) </condition> </sum>\n"
    yield "  </constraints>\n  <objectives>\n    <minimize type=\"sum\"> x[][] </minimize>\n  </objectives>\n</instance>\n"


def hard_clauses(n: int, variant: Variant) -> Iterator[list[int]]:
    """MaxSAT's hard clauses over the cells, one at a time: every square covered,
    and, independent, pairwise (-x | -y) within each line."""
    # [cost domination sat]
    for _, cover in coverers(n, variant):
        yield [_x(n, s) for s in cover]
    # [end cost]
    # [cost independent sat]
    if variant.independent:
        for line in lines(n):
            cells = [_x(n, s) for s in line]
            yield from ([-a, -b] for i, a in enumerate(cells) for b in cells[i + 1:])
    # [end cost]


def hard_count(n: int, variant: Variant) -> int:
    """How many clauses :func:`hard_clauses` gives, counted without making them
    (the WCNF header comes before the clauses it counts)."""
    pairs = sum(len(line) * (len(line) - 1) // 2 for line in lines(n)) if variant.independent else 0
    return n * n + pairs


def wcnf(n: int, variant: Variant) -> tuple[list[list[int]], list[list[int]]]:
    """(hard clauses, soft clauses of weight 1) over the cells: MaxSAT's view, in memory."""
    return list(hard_clauses(n, variant)), [[-v] for v in range(1, n * n + 1)]


def fewer(n: int, variant: Variant, bound: int) -> tuple[int, list[list[int]]]:
    """(variables, clauses): the CNF of "at most ``bound`` queens answer the
    domination question": :func:`hard_clauses` and the cardinality
    constraint over the cells by Sinz's sequential counter (python-sat's
    CardEnc, its auxiliary variables after the cells).  Unsatisfiable for
    ``bound`` = the optimum - 1: what a certificate of an optimum refutes."""
    from pysat.card import CardEnc, EncType

    hard = list(hard_clauses(n, variant))
    cells = n * n
    if bound <= 0:  # (no queen at all: every cell false)
        return cells, hard + [[-v] for v in range(1, cells + 1)]
    card = CardEnc.atmost(list(range(1, cells + 1)), bound=bound, top_id=cells, encoding=EncType.seqcounter)
    return max(cells, card.nv), hard + [list(clause) for clause in card.clauses]


def _cnf(n: int, variant: Variant) -> Iterator[str]:
    """Streamed: the header's counts come first, each clause as it is made."""
    cells = n * n
    top = cells + 1
    yield f"c nqueens n={n} variant={variant}: weighted MaxSAT (WCNF), cell (r, c) is r*{n} + c + 1\n"
    yield f"p wcnf {cells} {hard_count(n, variant) + cells} {top}\n"
    for clause in hard_clauses(n, variant):
        yield f"{top} {' '.join(map(str, clause))} 0\n"
    for v in range(1, cells + 1):
        yield f"1 -{v} 0\n"


_WRITERS = {"mzn": _mzn, "dzn": _dzn, "lp": _lp, "smt2": _smt2, "opb": _opb, "xml": _xml, "cnf": _cnf}
