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

from math import gcd
from typing import Any

from ..model.board import Position, Solution
from ..model.variants import Variant
from .base import Engine, Status


def construct(n: int) -> Solution | None:
    """An explicit solution for every n except 2 and 3, in O(n) (the classic rule by n mod 6).

    Write the even numbers 2, 4, ..., then the odd ones 1, 3, ... (1-based).
    If n mod 6 is 2, swap 1 and 3 and move 5 to the end of the odd list; if
    n mod 6 is 3, move 2 to the end of the even list and 1, 3 to the end of
    the odd list.  The k-th number is the row of the queen in column k.
    """
    if n in (2, 3):
        return None
    if n == 1:
        return (0,)
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *odds[3:], 5] if n >= 8 else [3, 1]
    elif n % 6 == 3:
        evens = [*evens[1:], 2]
        odds = [*odds[2:], 1, 3]
    rows = evens + odds  # rows[k] is the 1-based row of the queen in column k
    solution = [0] * n
    for col, row in enumerate(rows):
        solution[row - 1] = col
    return tuple(solution)


def modular(n: int, variant: Variant) -> tuple[int, Solution] | None:
    """(k, the board q(r) = k·r mod n) for the least k that makes every family's
    keys a permutation, or None where no k does (a member with translations)."""
    for k in range(n):
        if all(gcd(k + lines.slope, n) == 1 for lines in variant.families):
            return k, tuple(k * r % n for r in range(n))
    return None


class ConstructEngine(Engine):
    name = "construct"
    paradigm = "construction"
    summary = ("an O(N) formula by N mod 6: one solution of plain N, a million queens in about a second; "
               "q(r) = k*r mod N for the torus-like members")
    enumerates = False
    takes_fixed = False
    proves_none = True  # only N = 2 and 3 have no solution, a known fact
    statistics = ("formula",)
    expresses = frozenset({"lines", "wrapping"})

    @classmethod
    def cannot_express(cls, variant: Variant) -> str | None:
        """The mod-6 rule is plain N's; the modular rule needs the torus's translations."""
        if not variant.is_plain and variant.question == "place" and not variant.translations and not variant.offsets:
            return "line families that do not wrap (beyond plain N's), for which it has no formula"
        return super().cannot_express(variant)

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        if not self.variant.is_plain:
            found = modular(n, self.variant)
            if found is None:
                if self.variant.exists(n) is False:
                    return Status.NONE, None, f"N={n} has no solution of {self.variant.title} (a theorem: " \
                        f"{self.variant.source})"
                return Status.UNKNOWN, None, f"no k makes q(r) = k*r mod {n} a board of {self.variant.title}"
            stats["formula"] = f"q(r) = {found[0]}*r mod {n}"
            return Status.SOLVED, found[1], ""
        solution = construct(n)
        if solution is None:
            return Status.NONE, None, f"N={n} has no solution (the only such N are 2 and 3)"
        stats["formula"] = f"n mod 6 = {n % 6}"
        return Status.SOLVED, solution, ""
