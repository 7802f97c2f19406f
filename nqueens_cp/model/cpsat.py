"""The CP-SAT model of N-queens: an all-different constraint over the
queens' columns per line family (three for the queens), built as a pure function (the engine in engines/cpsat.py
solves it; artifacts.py exports it to models/)."""

from __future__ import annotations

from typing import Any

from .variants import PLAIN, Variant


def build_model(n: int, fixed: dict[int, int] | None = None, symmetry_breaking: bool = False,
                variant: Variant = PLAIN):
    """The CP-SAT model, a pure function of its arguments: (CpModel, row variables).
    ``fixed`` pins queens (row -> column); a :class:`~nqueens_cp.model.position.Position`
    also removes its blocked squares from their rows' domains.

    It carries its search strategy: the first unbound row, smallest column.

    ``variant`` asks another question of the family, read from its data
    (:meth:`~nqueens_cp.model.variants.Variant.integer_terms`, as every integer
    model reads it): an AllDifferent over ``q[i] + k*i`` for each line family
    of slope k (taken modulo n where it wraps), and ``q[i + dr] - q[i] != dc``
    for each offset.

    ``symmetry_breaking`` adds the inverse permutation p (p[c] is the row of
    column c's queen) and the first-row lex-leader constraints of
    :mod:`nqueens_cp.model.symmetry`: q[0] <= g(q)[0] for every symmetry g.
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    # [cost family cpsat]
    def wrapped(term: Any) -> Any:  # term mod n, as a variable of its own (CP-SAT's modulo is a constraint)
        key = model.new_int_var(0, n - 1, f"w{len(model.proto.variables)}")
        model.add_modulo_equality(key, term + n, n)
        return key

    groups, differ = variant.integer_terms(n, q, wrapped)  # (the family's model, from its data)
    for terms in groups:
        model.add_all_different(terms)
    for difference, dc in differ:  # no two queens an offset apart
        model.add(difference != dc)
    # [end cost]
    if symmetry_breaking:
        from .symmetry import breaking_terms

        p = [model.new_int_var(0, n - 1, f"p{i}") for i in range(n)]
        model.add_inverse(q, p)
        for kind, index, reflected in breaking_terms(n, variant.families, variant.offsets):
            term = q[index] if kind == "col" else p[index]
            model.add(q[0] <= (n - 1 - term if reflected else term))
    for row, col in sorted((fixed or {}).items()):
        model.add(q[row] == col)
    for row, col in sorted(getattr(fixed, "blocked", ())):  # a Position's blocked squares
        model.add(q[row] != col)
    # Search rows in order, smallest column first: enumeration is then a
    # propagating backtracker, about twice as fast here as CP-SAT's default.
    model.add_decision_strategy(q, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return model, q
