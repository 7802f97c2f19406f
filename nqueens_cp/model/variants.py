"""The N-queens family as data: what changes when the question changes.

A :class:`Variant` is one question about queens on an N x N board, defined
once here and read by every engine, model writer, command and test:

- ``queens``: the plain question, N queens none of which attacks another.
- ``toroidal``: the board's edges are glued (a torus), so the diagonals
  wrap around: squares (r, c) and (r', c') share one when r - c = r' - c'
  or r + c = r' + c' modulo N.  Boards exist exactly when gcd(N, 6) = 1
  (Pólya, 1918).  Besides the square's 8 symmetries, the torus has its N^2
  translations: moving every queen one column right gives a board again,
  so the boards with row 0's queen in column j are as many for every j,
  and a count need search only j = 0 (N times less).
- ``superqueens``: a queen that also moves like a knight (some call it an
  amazon), so two queens a knight's move apart attack each other too.
- ``domination`` and ``independent``: not N queens but the fewest queens
  that occupy or attack every square, γ(Q_n), and the fewest that do so
  without attacking each other, i(Q_n).  An optimum, not a count.

The attack relation of each is written here once, plainly, for the
reference backtracker and the validators; the engines and model writers
express the same relation in their own languages, and the tests hold them
to these counts and optima (OEIS), which come from the literature.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from math import gcd
from typing import NamedTuple

from ..errors import InvalidInputError

Square = tuple[int, int]  # (row, column), 0-based


def queen_attacks(n: int, a: Square, b: Square) -> bool:
    """Two distinct squares on one row, column or diagonal of the square board."""
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or r1 - c1 == r2 - c2 or r1 + c1 == r2 + c2


# [cost toroidal reference]
def torus_attacks(n: int, a: Square, b: Square) -> bool:
    """Two distinct squares on one row, column or wrapped diagonal of the torus."""
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or (r1 - c1 - r2 + c2) % n == 0 or (r1 + c1 - r2 - c2) % n == 0
# [end cost]


# [cost superqueens reference]
def superqueen_attacks(n: int, a: Square, b: Square) -> bool:
    """A queen's attack or a knight's move."""
    (r1, c1), (r2, c2) = a, b
    return queen_attacks(n, a, b) or {abs(r1 - r2), abs(c1 - c2)} == {1, 2}
# [end cost]


class Variant(NamedTuple):
    """One question of the family (the module's docstring says which)."""

    name: str
    title: str  # in messages: "engine sat does not answer <title>"
    question: str  # "place": N queens, enumerate / count / solve; "optimum": the fewest queens (optimum)
    oeis: str
    known: dict[int, int]  # N -> the count ("place") or the optimum ("optimum"), published
    symmetries: str  # its symmetry group, in words
    independent: bool = False  # "optimum": the queens must not attack each other
    translations: bool = False  # the torus's column translations map boards to boards

    def attacks(self, n: int, a: Square, b: Square) -> bool:
        """Whether queens on the distinct squares ``a`` and ``b`` attack each other."""
        return _RELATIONS[self.name](n, a, b)

    def attacking_pair(self, n: int, squares: Iterable[Square]) -> tuple[Square, Square] | None:
        """The first two of ``squares`` that attack each other (or share a square), else None."""
        seen: list[Square] = []
        for square in squares:
            for other in seen:
                if other == square or self.attacks(n, other, square):
                    return other, square
            seen.append(square)
        return None

    def is_solution(self, solution: Iterable[int], n: int) -> bool:
        """True when ``solution`` (a column by row) places n queens none of which
        attacks another: linear time, as :func:`nqueens_cp.model.board.is_solution`."""
        cols = tuple(solution)
        if self.question != "place" or len(cols) != n or not all(type(c) is int for c in cols) \
                or set(cols) != set(range(n)):
            return False
        if self.name == "toroidal":
            return len({(c - r) % n for r, c in enumerate(cols)}) == n == len({(c + r) % n for r, c in enumerate(cols)})
        if len({c - r for r, c in enumerate(cols)}) != n or len({c + r for r, c in enumerate(cols)}) != n:
            return False
        if self.name == "superqueens":  # a knight's move joins rows one or two apart
            return all(abs(cols[r] - cols[r + d]) != 3 - d for d in (1, 2) for r in range(n - d))
        return True

    def lines(self, n: int) -> Iterator[list[Square]]:
        """The groups of squares that hold at most one queen, cells by row:
        the N rows and N columns first (they hold exactly one), then the
        diagonals of two squares or more, then the anti-diagonals."""
        for r in range(n):
            yield [(r, c) for c in range(n)]
        for c in range(n):
            yield [(r, c) for r in range(n)]
        # [cost toroidal cnf]
        if self.name == "toroidal":  # N wrapped diagonals each way, N squares each
            for d in range(n):
                yield [(r, (r - d) % n) for r in range(n)]
            for s in range(n):
                yield [(r, (s - r) % n) for r in range(n)]
            return
        # [end cost]
        for d in range(-(n - 2), n - 1):  # r - c = d
            yield [(r, r - d) for r in range(max(d, 0), min(n + d, n))]
        for s in range(1, 2 * n - 2):  # r + c = s
            yield [(r, s - r) for r in range(max(s - n + 1, 0), min(s, n - 1) + 1)]

    def pairs(self, n: int) -> Iterator[tuple[Square, Square]]:
        """Pairs of squares in no common line that still may not both hold a
        queen: the knight's moves of superqueens, each once, by the upper square."""
        # [cost superqueens cnf]
        if self.name != "superqueens":
            return
        for r in range(n):
            for c in range(n):
                for dr, dc in ((1, -2), (1, 2), (2, -1), (2, 1)):
                    if r + dr < n and 0 <= c + dc < n:
                        yield (r, c), (r + dr, c + dc)
        # [end cost]

    def covers(self, n: int, square: Square) -> list[Square]:
        """The squares a queen on ``square`` occupies or attacks (domination)."""
        return [(r, c) for r in range(n) for c in range(n) if (r, c) == square or self.attacks(n, square, (r, c))]

    def is_dominating(self, queens: Iterable[Square], n: int) -> bool:
        """True when ``queens`` (distinct squares) occupy or attack every
        square, and, for ``independent``, attack no other queen."""
        placed = list(queens)
        if not all(isinstance(q, tuple) and len(q) == 2 and all(type(v) is int and 0 <= v < n for v in q)
                   for q in placed) or len(set(placed)) != len(placed):
            return False
        if self.independent and self.attacking_pair(n, placed) is not None:
            return False
        return all(any(q == (r, c) or self.attacks(n, q, (r, c)) for q in placed) for r in range(n) for c in range(n))

    def exists(self, n: int) -> bool | None:
        """Whether boards exist, where a theorem says so without a search
        (None for the domination questions, which always have an answer)."""
        if self.name == "toroidal":  # Pólya
            return gcd(n, 6) == 1
        if self.name == "queens":  # explicit constructions for every other N (Pauls, 1874)
            return n not in (2, 3)
        if self.name == "superqueens":  # none for 2..9; constructions for every N >= 10 (Bell & Stevens, 2009)
            return n == 1 or n >= 10
        return None


_RELATIONS = {"queens": queen_attacks, "toroidal": torus_attacks, "superqueens": superqueen_attacks,
              "domination": queen_attacks, "independent": queen_attacks}

_D4 = "the 8 symmetries of the square (rotations and reflections)"

PLAIN = Variant("queens", "plain N-queens", "place", "A000170", {}, _D4)

VARIANTS: dict[str, Variant] = {
    "queens": PLAIN,
    "toroidal": Variant(
        "toroidal", "toroidal (modular) queens", "place", "A007705",
        # N = 1..13 and 17 (OEIS A007705); the zeros where gcd(N, 6) > 1 are Pólya's theorem.
        {1: 1, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0, 7: 28, 8: 0, 9: 0, 10: 0, 11: 88, 12: 0, 13: 4524,
         14: 0, 15: 0, 16: 0, 17: 140692, 18: 0},
        _D4 + " and the N^2 translations of the torus (and more: the maps (r, c) -> (ar, ac) for a prime to N)",
        translations=True),
    "superqueens": Variant(
        "superqueens", "superqueens (queens that also move like knights)", "place", "A051223",
        {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0, 10: 4, 11: 44, 12: 156, 13: 1876, 16: 202900},
        _D4),
    "domination": Variant(
        "domination", "queen domination (the fewest queens that occupy or attack every square)", "optimum",
        "A075458", {n + 1: g for n, g in enumerate((1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 10))}, _D4),
    "independent": Variant(
        "independent", "independent queen domination (the fewest queens that attack every square and not each "
        "other)", "optimum", "A075324",
        {n + 1: i for n, i in enumerate((1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8, 9))}, _D4, independent=True),
}

PLACE = tuple(name for name, v in VARIANTS.items() if v.question == "place")
OPTIMUM = tuple(name for name, v in VARIANTS.items() if v.question == "optimum")


def get(variant: str | Variant) -> Variant:
    """The variant of that name (a Variant is returned as it is)."""
    if isinstance(variant, Variant):
        return variant
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} (choose from {', '.join(VARIANTS)})")
    return VARIANTS[variant]
