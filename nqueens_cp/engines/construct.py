"""An explicit solution for every N except 2 and 3, in O(N): the classic rule by N mod 6.

For a member of the family whose every line family wraps and which has no
offsets (toroidal queens, toroidal semi-queens, rooks: the members with the
torus's translations), the modular rule q(r) = k·r mod N, from the data:
row r's key on a family of slope s is (k + s)·r mod N, a permutation of the
N lines exactly when gcd(k + s, N) = 1 (Pólya's construction for the torus
is k = 2).  It finds one solution and nothing else: it cannot enumerate and
cannot take pre-placed queens.
"""

from __future__ import annotations

from array import array
from math import gcd
from typing import Any

from ..model.board import AnySolution, board_of
from ..model.position import Position
from ..model.variants import Variant
from .base import Answer, Engine, Status


def construct(n: int) -> AnySolution | None:
    """An explicit solution for every n except 2 and 3, in O(n) (the classic rule by n mod 6).

    Write the even numbers 2, 4, ..., then the odd ones 1, 3, ... (1-based).
    If n mod 6 is 2, swap 1 and 3 and move 5 to the end of the odd list; if
    n mod 6 is 3, move 2 to the end of the even list and 1, 3 to the end of
    the odd list.  The k-th number is the row of the queen in column k.
    (Each step is one NumPy operation over the lists: a hundred million
    queens in about a second, a tuple up to board.TUPLE_MAX_N, Columns beyond.)
    """
    import numpy as np  # here: listing the engines should not import it (start-up)

    if n in (2, 3):
        return None
    if n == 1:
        return (0,)
    evens = np.arange(2, n + 1, 2, dtype=np.int32)
    odds = np.arange(1, n + 1, 2, dtype=np.int32)
    if n % 6 == 2:
        odds = np.concatenate(([3, 1], odds[3:], [5])).astype(np.int32) if n >= 8 else np.array([3, 1], np.int32)
    elif n % 6 == 3:
        evens = np.concatenate((evens[1:], [2])).astype(np.int32)
        odds = np.concatenate((odds[2:], [1, 3])).astype(np.int32)
    rows = np.concatenate((evens, odds))  # rows[k] is the 1-based row of the queen in column k
    del evens, odds
    rows -= 1
    board = array("i", [0]) * n
    np.frombuffer(board, dtype=np.int32)[rows] = np.arange(n, dtype=np.int32)
    return board_of(board)


def modular_factor(n: int, variant: Variant) -> int | None:
    """The least k that makes q(r) = k·r mod n a board of ``variant``: every
    family's keys a permutation; None where no k does (a member with translations)."""
    return next((k for k in range(n) if all(gcd(k + lines.slope, n) == 1 for lines in variant.families)), None)


def modular(n: int, k: int) -> AnySolution:
    """The board q(r) = k·r mod n, in NumPy (a tuple up to board.TUPLE_MAX_N queens)."""
    import numpy as np

    board = array("i", [0]) * n
    for start in range(0, n, 1 << 20):  # (int64 products, a million rows a step)
        rows = np.arange(start, min(n, start + (1 << 20)), dtype=np.int64)
        np.frombuffer(board, dtype=np.int32)[start:start + len(rows)] = rows * k % n
    return board_of(board)


class ConstructEngine(Engine):
    name = "construct"
    instant = True
    paradigm = "construction"
    summary = ("an O(N) formula by N mod 6: one solution of plain N, a million queens in about a second; "
               "q(r) = k*r mod N for the torus-like members")
    enumerates = False
    takes_fixed = False
    proves_none = True  # only N = 2 and 3 have no solution, a known fact
    statistics = ("formula",)
    expresses = frozenset({"lines", "wrapping"})
    # (nq.solve(10**18, 'construct') ran into NumPy's raw MemoryError; beyond 2^31 the int32 rows wrap too)
    max_n = (1 << 31) - 1
    max_n_why = "rows and columns are 32-bit ints"

    @classmethod
    def cannot_express(cls, variant: Variant) -> str | None:
        """The mod-6 rule is plain N's; the modular rule needs the torus's translations."""
        if not variant.is_plain and variant.places and not variant.translations and not variant.offsets:
            return "line families that do not wrap (beyond plain N's), for which it has no formula"
        return super().cannot_express(variant)

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> Answer:
        if not self.variant.is_plain:
            k = modular_factor(n, self.variant)
            if k is None:
                if self.variant.exists(n) is False:
                    return Status.NONE, None, f"N={n} has no solution of {self.variant.title} (a theorem: " \
                        f"{self.variant.source})"
                return Status.UNKNOWN, None, f"no k makes q(r) = k*r mod {n} a board of {self.variant.title}"
            stats["formula"] = f"q(r) = {k}*r mod {n}"
            return Status.SOLVED, modular(n, k), ""
        solution = construct(n)
        if solution is None:
            return Status.NONE, None, f"N={n} has no solution (the only such N are 2 and 3)"
        stats["formula"] = f"n mod 6 = {n % 6}"
        return Status.SOLVED, solution, ""
