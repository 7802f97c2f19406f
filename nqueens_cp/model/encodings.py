"""At-most-one encodings for the CNF model.

Each encoding is a function ``amo(lits, fresh) -> clauses`` giving the clauses
that allow at most one of the k >= 2 literals ``lits`` to be true, calling
``fresh()`` for each auxiliary variable it needs.  "Exactly one" (rows and
columns) is always one at-least-one clause plus the at-most-one group.

Every docstring states the encoding's cost for a group of k literals, and
:data:`COSTS` holds the same formulas as code; the tests check them against
the clauses actually generated.  Auxiliary variables never reach a blocking
clause (the sat engine blocks cell variables only), so encodings whose
auxiliaries are not determined by the cells still enumerate each board once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations
from math import ceil, comb, isqrt

Clause = list[int]
Fresh = Callable[[], int]

COMMANDER_GROUP = 3  # Klieber & Kwon found groups of 3 best for at-most-one
PRODUCT_BASE = 4  # below this size the 2-product recursion ends in pairwise


def amo_pairwise(lits: list[int], fresh: Fresh) -> PairwiseClauses:
    """Binomial: one clause (-a | -b) per pair.

    0 auxiliary variables, k(k-1)/2 binary clauses (made one at a time: a
    line of 10,000 cells has 50 million).
    """
    return PairwiseClauses(lits)


class PairwiseClauses:
    """The pairwise clauses of one line: iterated, one clause at a time (a
    pair of cells, in ``combinations`` order); written, as DIMACS text a
    cell's clauses at once (:meth:`dimacs`), joined at C speed.  Made one by
    one and formatted in Python, N = 300's 45 million clauses took 18 s to
    write here, and 80 to 110 s on a busy machine."""

    def __init__(self, lits: list[int]) -> None:
        self.lits = lits

    def __iter__(self) -> Iterator[Clause]:
        return ([-a, -b] for a, b in combinations(self.lits, 2))

    def __len__(self) -> int:
        return len(self.lits) * (len(self.lits) - 1) // 2

    def dimacs(self) -> Iterator[str]:
        """The clauses as DIMACS lines, byte for byte as a clause at a time writes
        them ("-a -b 0"), a text for each cell's pairs with the cells after it."""
        negated = [f"-{lit}" for lit in self.lits]
        for i, head in enumerate(negated[:-1]):
            yield head + " " + f" 0\n{head} ".join(negated[i + 1:]) + " 0\n"


def amo_seqcounter(lits: list[int], fresh: Fresh) -> list[Clause]:
    """Sinz's sequential counter (2005): s_i means "one of x_1..x_i is true".

    k-1 auxiliary variables, 3k-4 binary clauses:
    (-x_1 | s_1); for 1 < i < k: (-x_i | s_i), (-s_{i-1} | s_i), (-x_i | -s_{i-1});
    (-x_k | -s_{k-1}).  The s_i are not determined by the cells (s_i may be
    true above an all-false prefix), which is why blocking whole models
    over-counts.
    """
    k = len(lits)
    s = [fresh() for _ in range(k - 1)]
    clauses = [[-lits[0], s[0]]]
    for i in range(1, k - 1):
        clauses += [[-lits[i], s[i]], [-s[i - 1], s[i]], [-lits[i], -s[i - 1]]]
    clauses.append([-lits[k - 1], -s[k - 2]])
    return clauses


def amo_ladder(lits: list[int], fresh: Fresh) -> list[Clause]:
    """Gent & Nightingale's ladder (2004), the regular encoding of the position.

    y_i means "the queen, if any, is at position <= i" (i = 1..k-1).  The
    ladder clauses (-y_i | y_{i+1}) keep the y monotone, and the channelling
    x_1 <-> y_1, x_i <-> (y_i & -y_{i-1}) for 1 < i < k, x_k -> -y_{k-1}
    ties every cell to one rung, so the y are determined by the cells.

    k-1 auxiliary variables, 4k-5 clauses: k-2 ladder, 2 + 3(k-2) + 1 channelling.
    """
    k = len(lits)
    y = [fresh() for _ in range(k - 1)]
    clauses = [[-y[i], y[i + 1]] for i in range(k - 2)]
    clauses += [[-lits[0], y[0]], [-y[0], lits[0]]]
    for i in range(1, k - 1):
        clauses += [[-lits[i], y[i]], [-lits[i], -y[i - 1]], [lits[i], -y[i], y[i - 1]]]
    clauses.append([-lits[k - 1], -y[k - 2]])
    return clauses


def amo_commander(lits: list[int], fresh: Fresh) -> list[Clause]:
    """Klieber & Kwon's commander encoding (2007), groups of g = COMMANDER_GROUP = 3.

    For k <= g: pairwise.  Otherwise split the literals into m = ceil(k/g)
    consecutive groups G_j, each with a commander c_j <-> OR(G_j): pairwise
    at-most-one inside G_j, (-x | c_j) for x in G_j, (-c_j | OR G_j); then
    at most one commander, recursively.  The commanders are determined by
    the cells.

    Variables V(k) = 0 for k <= g, else m + V(m).
    Clauses  C(k) = k(k-1)/2 for k <= g, else sum_j (|G_j|(|G_j|-1)/2 + |G_j| + 1) + C(m);
    for k = g*m that is m(g(g-1)/2 + g + 1) + C(m), 7m + C(m) with g = 3.
    """
    g = COMMANDER_GROUP
    if len(lits) <= g:
        return list(amo_pairwise(lits, fresh))
    clauses: list[Clause] = []
    commanders = []
    for start in range(0, len(lits), g):
        group = lits[start : start + g]
        c = fresh()
        commanders.append(c)
        clauses += amo_pairwise(group, fresh)
        clauses += [[-x, c] for x in group]
        clauses.append([-c, *group])
    return clauses + amo_commander(commanders, fresh)


def amo_product(lits: list[int], fresh: Fresh) -> list[Clause]:
    """Chen's 2-product encoding (2010).

    Lay the k literals out on a p x q grid, p = ceil(sqrt k), q = ceil(k/p);
    literal i sits at (i // q, i % q) and implies its row variable u and its
    column variable v.  Then at most one u and at most one v, recursively by
    the product encoding, ending in pairwise below PRODUCT_BASE = 4 literals.

    Variables V(k) = 0 for k < 4, else p + q + V(p) + V(q).
    Clauses  C(k) = k(k-1)/2 for k < 4, else 2k + C(p) + C(q).
    """
    k = len(lits)
    if k < PRODUCT_BASE:
        return list(amo_pairwise(lits, fresh))
    p, q = _product_shape(k)
    u = [fresh() for _ in range(p)]
    v = [fresh() for _ in range(q)]
    clauses: list[Clause] = []
    for i, x in enumerate(lits):
        clauses += [[-x, u[i // q]], [-x, v[i % q]]]
    return clauses + amo_product(u, fresh) + amo_product(v, fresh)


def _product_shape(k: int) -> tuple[int, int]:
    p = isqrt(k - 1) + 1  # ceil(sqrt(k)) for k >= 1
    return p, ceil(k / p)


def amo_binary(lits: list[int], fresh: Fresh) -> list[Clause]:
    """The binary (bitwise) encoding of Frisch et al. (2005).

    m = ceil(log2 k) bit variables; literal i forces the bits to spell i:
    (-x_i | b_j) where bit j of i is 1, (-x_i | -b_j) where it is 0.
    Two true literals would need two different bit patterns.

    m auxiliary variables, k*m binary clauses.
    """
    m = (len(lits) - 1).bit_length()
    bits = [fresh() for _ in range(m)]
    return [[-x, b if i >> j & 1 else -b] for i, x in enumerate(lits) for j, b in enumerate(bits)]


ENCODINGS: dict[str, Callable[[list[int], Fresh], Iterable[Clause]]] = {
    "pairwise": amo_pairwise,
    "seqcounter": amo_seqcounter,
    "ladder": amo_ladder,
    "commander": amo_commander,
    "product": amo_product,
    "binary": amo_binary,
}
DEFAULT_ENCODING = "pairwise"


# --- The docstrings' cost formulas, as code: k -> (aux variables, clauses). ---

@functools.cache
def _commander_cost(k: int) -> tuple[int, int]:
    g = COMMANDER_GROUP
    if k <= g:
        return 0, comb(k, 2)
    full, rest = divmod(k, g)  # groups of g, and one of the rest
    m = full + (rest > 0)
    sub_vars, sub_clauses = _commander_cost(m)
    group = comb(g, 2) + g + 1
    return m + sub_vars, full * group + (comb(rest, 2) + rest + 1 if rest else 0) + sub_clauses


@functools.cache
def _product_cost(k: int) -> tuple[int, int]:
    if k < PRODUCT_BASE:
        return 0, comb(k, 2)
    p, q = _product_shape(k)
    (vp, cp), (vq, cq) = _product_cost(p), _product_cost(q)
    return p + q + vp + vq, 2 * k + cp + cq


COSTS: dict[str, Callable[[int], tuple[int, int]]] = {
    "pairwise": lambda k: (0, comb(k, 2)),
    "seqcounter": lambda k: (k - 1, 3 * k - 4),
    "ladder": lambda k: (k - 1, 4 * k - 5),
    "commander": _commander_cost,
    "product": _product_cost,
    "binary": lambda k: ((k - 1).bit_length(), k * (k - 1).bit_length()),
}
