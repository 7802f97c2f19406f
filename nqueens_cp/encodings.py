"""At-most-one encodings for the CNF model.

Each encoding is a function ``amo(lits, fresh) -> clauses``: the clauses that
allow at most one of ``lits`` to be true, using ``fresh()`` for any auxiliary
variable it needs.  Docstrings give the cost for a group of k literals.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

Clause = list[int]
Fresh = Callable[[], int]


def amo_pairwise(lits: list[int], fresh: Fresh) -> list[Clause]:
    """Binomial: one clause (-a | -b) per pair.  0 variables, k(k-1)/2 binary clauses."""
    return [[-a, -b] for a, b in combinations(lits, 2)]


ENCODINGS: dict[str, Callable[[list[int], Fresh], list[Clause]]] = {
    "pairwise": amo_pairwise,
}
DEFAULT_ENCODING = "pairwise"
