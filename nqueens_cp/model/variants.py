"""The N-queens family as data: what changes when the question changes.

A :class:`Variant` is one question about pieces on an N x N board, stated as
data once here and read by every engine, model writer, command and test.
A piece attacks along **line families** and by **offsets**:

- a line family (:class:`Lines`) is the set of parallel lines on which
  ``c + slope * r`` is constant, modulo N where it ``wraps`` (the board's
  edges glued: a torus).  Slope 0 gives the columns, -1 the diagonals
  (``c - r``), +1 the anti-diagonals (``c + r``);
- an offset ``(dr, dc)`` joins the squares ``(r, c)`` and ``(r + dr, c + dc)``
  (a knight's move is four of them), on the board, never wrapping.

Two pieces attack each other when they share a row, a line of one of the
families, or an offset.  Every "place" question puts N pieces one a row and
one a column (the columns are always a family: a solution is a permutation,
a tuple of columns by row), so the rows need no family of their own.

The members:

- ``queens``: the plain question: columns, diagonals and anti-diagonals.
- ``toroidal``: the same lines wrapping around the torus.  Boards exist
  exactly when gcd(N, 6) = 1 (Pólya, 1918).
- ``superqueens``: queens that also move like knights (amazons).
- ``rooks``: the columns only: every permutation, N! boards.
- ``semiqueens``: toroidal semi-queens: the columns and one diagonal
  direction, wrapping (OEIS A006717; boards exist exactly for odd N).
- ``domination`` and ``independent``: not N pieces but the fewest queens that
  occupy or attack every square, γ(Q_n), and the fewest that do so without
  attacking each other, i(Q_n).  An optimum, not a count.

Everything else is derived from the data: the attack relation, the lines and
pairs that the Boolean models state (:meth:`Variant.lines`,
:meth:`Variant.pairs`), the order in which the integer models declare the
terms ``q[r] + slope * r`` all different (:attr:`Variant.integer_order`), which symmetries of the square keep the
question at each N (:meth:`Variant.symmetries_at`), whether the torus's translations do,
and the parts (:attr:`Variant.parts`) an engine must be able to express to
answer it.  Adding a member is one entry in :data:`VARIANTS` and its
published counts; nothing outside this module compares a variant's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
import operator
from math import factorial
from typing import Any, NamedTuple

from ..errors import InvalidInputError
from . import theorems
from .board import Columns, as_columns, columns_valid
# The vocabulary of lines and offsets (model/lines.py, below this module and model/symmetry.py), here as
# well: every reader of the family finds it where the family is.
from .lines import COLUMNS, KNIGHT, PARTS, QUEEN_LINES, SLOPES, Lines, Offset, Square  # noqa: F401
from .symmetry import kept


PLACE_KIND, OPTIMUM_KIND = "place", "optimum"  # what a member asks (Variant.question): read through its properties


class Variant(NamedTuple):
    """One question of the family, as data (the module's docstring says how it reads)."""

    name: str
    title: str  # in messages: "engine sat does not answer <title>"
    question: str  # "place": N pieces, enumerate / count / solve; "optimum": the fewest queens (optimum)
    oeis: str
    known: dict[int, int]  # N -> the count ("place") or the optimum ("optimum"), published
    families: tuple[Lines, ...] = QUEEN_LINES  # the line families besides the rows
    offsets: tuple[Offset, ...] = ()
    independent: bool = False  # "optimum": the queens must not attack each other
    classes: dict[int, int] = {}  # N -> boards up to the symmetries the question keeps, published
    classes_oeis: str = ""
    exists_rule: Callable[[int], bool] | None = None  # a theorem: whether boards exist for N
    source: str = ""  # where the published numbers come from

    def __str__(self) -> str:
        return self.name

    # -- derived from the data ---------------------------------------------------

    @property
    def places(self) -> bool:
        """The question places N pieces: its boards are enumerated, counted, solved."""
        return self.question == PLACE_KIND

    @property
    def optimizes(self) -> bool:
        """The question asks for the fewest queens (an optimum), not for boards of N pieces."""
        return self.question == OPTIMUM_KIND

    @property
    def is_plain(self) -> bool:
        """The plain question: N queens, the queens' lines, no wrapping, no offsets."""
        return not self.parts

    @property
    def parts(self) -> frozenset[str]:
        """What an engine must express to answer this question (:data:`PARTS`)."""
        found = set()
        if self.optimizes:
            found.add("optimum")
        if {line.slope for line in self.families} != set(SLOPES):
            found.add("lines")
        if any(line.wraps and line.slope for line in self.families):
            found.add("wrapping")
        if self.offsets:
            found.add("offsets")
        return frozenset(found)

    @property
    def diagonal_families(self) -> tuple[Lines, ...]:
        """The families beyond the columns (the diagonal directions), as the models state them."""
        return tuple(line for line in self.families if line.slope)

    def family_of(self, slope: int) -> Lines | None:
        """This question's family of that slope, or None."""
        return next((line for line in self.families if line.slope == slope), None)

    @property
    def integer_order(self) -> list[Lines]:
        """The line families in the order the integer models state them: the
        columns, then the anti-diagonals (q + r), then the diagonals (q - r),
        as the tutorials write their three alldifferent constraints."""
        return sorted(self.families, key=lambda lines: (lines.slope != 0, -lines.slope))

    def integer_terms(self, n: int, q: Sequence[Any], wrap: Callable[[Any], Any] | None = None
                      ) -> tuple[list[list[Any]], list[tuple[Any, int]]]:
        """The question as an integer model over row variables ``q`` (a
        solver's variables: anything with + and -), for any engine that states
        one: (the lists whose terms must all differ: for each line family in
        :attr:`integer_order`, q[i] + k*i, taken modulo n by ``wrap`` where the
        family wraps (default ``(term + n) % n``, never of a negative); the pairs
        that must differ: q[i + dr] - q[i] and dc, for each offset and row)."""
        wrap = wrap if wrap is not None else (lambda term: (term + n) % n)
        groups = []
        for lines in self.integer_order:
            k = lines.slope
            terms = [q[i] + k * i if k else q[i] for i in range(n)]
            groups.append([wrap(term) for term in terms] if lines.wraps and k else terms)
        differ = [(q[i + dr] - q[i], dc) for dr, dc in self.offsets for i in range(n - dr)]
        return groups, differ

    def symmetries_at(self, n: int) -> tuple[str, ...]:
        """The symmetries of the square that keep this question's attack
        relation on the n x n board, so map every board to a board: computed
        from the data at this n, exactly (:func:`nqueens_cp.model.symmetry.kept`;
        a :class:`~nqueens_cp.model.question.Question` adds its placements)."""

        return kept(n, self.families, self.offsets)

    def symmetric_at(self, n: int) -> bool:
        """Whether all 8 symmetries of the square keep the question at this n
        (what symmetry breaking and the class counts rest on)."""
        return len(self.symmetries_at(n)) == 8

    @property
    def translations(self) -> bool:
        """Whether moving every piece one column on (around the torus) gives a
        board again: every line family wraps and there are no offsets.  A
        count then searches row 0's piece in column 0 only, N times."""
        return self.places and not self.offsets and all(line.wraps or not line.slope
                                                                     for line in self.families)

    @property
    def spec(self) -> str:
        """The data as one word, for file headers (:func:`from_spec` reads it back):
        the slopes, 'w' after a wrapping one, then '/' and the offsets as dr:dc.
        Toroidal queens: ``0,-1w,1w``; superqueens: ``0,-1,1/1:-2,1:2,2:-1,2:1``."""
        lines = ",".join(f"{line.slope}{'w' * (line.wraps and line.slope != 0)}" for line in self.families)
        return lines + ("/" + ",".join(f"{dr}:{dc}" for dr, dc in self.offsets) if self.offsets else "")

    @property
    def describe(self) -> str:
        """The data in words: '... columns, wrapped diagonals (c - r); offsets (1, 2) ...'."""
        offsets = f"; offsets {', '.join(f'({dr}, {dc})' for dr, dc in self.offsets)}" if self.offsets else ""
        return f"rows, {', '.join(line.words for line in self.families)}{offsets}"

    # [cost family reference]
    def attacks(self, n: int, a: Square, b: Square) -> bool:
        """Whether pieces on the distinct squares ``a`` and ``b`` attack each other."""
        (r1, c1), (r2, c2) = a, b
        dr, dc = r2 - r1, c2 - c1
        if dr == 0 or any(line.joins(n, dr, dc) for line in self.families):
            return True
        return (dr, dc) in self.offsets or (-dr, -dc) in self.offsets
    # [end cost]

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
        """True when ``solution`` (a column by row) places n pieces none of which
        attacks another: linear time, as :func:`nqueens_cp.model.board.is_solution`
        (a board too large for a tuple, :class:`~nqueens_cp.model.board.Columns`,
        through :func:`~nqueens_cp.model.board.columns_valid`)."""
        if isinstance(solution, Columns):
            return self.places and columns_valid(
                solution, n, ((line.slope, line.wraps) for line in self.families), self.offsets)
        cols = tuple(solution)
        if set(map(type, cols)) != {int}:  # NumPy's integers taken as whole numbers; anything else is no board
            cols = as_columns(cols)  # type: ignore[assignment]
        # (Lines.key written with map over C functions, not a loop in Python: every board a user
        # sees passes here, 2 microseconds for plain N = 14; benchmarks/validation.py)
        if cols is None or not self.places or len(cols) != n or n == 0 \
                or min(cols) < 0 or max(cols) >= n or len(set(cols)) != n:
            return False
        rows = range(n)
        for line in self.families:
            if line.slope == 0:
                continue  # the columns: a permutation, checked above
            keys = map(operator.add if line.slope == 1 else operator.sub, cols, rows)
            if len(set(map(n.__rmod__, keys) if line.wraps else keys)) != n:
                return False
        return not any(dc in map(operator.sub, cols[dr:], cols) for dr, dc in self.offsets)

    def lines(self, n: int) -> Iterator[list[Square]]:
        """The groups of squares that hold at most one piece, cells by row:
        the N rows and N columns first (they hold exactly one), then each
        further family's lines of two squares or more, ordered by
        ``slope * key`` (modulo N where they wrap)."""
        for r in range(n):
            yield [(r, c) for c in range(n)]
        for c in range(n):
            yield [(r, c) for r in range(n)]
        for line in self.diagonal_families:  # |slope| 1: the line of order o holds c = slope * (o - r)
            k = line.slope
            if line.wraps:
                for o in range(n):
                    yield [(r, k * (o - r) % n) for r in range(n)]
                continue
            for o in range(min(0, k * (n - 1)), max(0, k * (n - 1)) + n):
                cells = [(r, k * (o - r)) for r in range(max(0, o - (n - 1) if k > 0 else o), n)
                         if 0 <= k * (o - r) < n]
                if len(cells) > 1:
                    yield cells

    def line_lengths(self, n: int) -> Iterator[int]:
        """The lengths of :meth:`lines`'s groups (one-square lines too), without listing a cell."""
        yield from [n] * n  # the rows
        for line in self.families:
            yield from line.lengths(n)

    def pairs(self, n: int) -> Iterator[tuple[Square, Square]]:
        """Pairs of squares that may not both hold a piece though no line joins
        them: the offsets, each pair once, by its upper square."""
        if not self.offsets:
            return
        for r in range(n):
            for c in range(n):
                for dr, dc in self.offsets:
                    if r + dr < n and 0 <= c + dc < n:
                        yield (r, c), (r + dr, c + dc)

    def pair_count(self, n: int) -> int:
        """How many pairs :meth:`pairs` gives, without listing them."""
        return sum(max(n - dr, 0) * max(n - abs(dc), 0) for dr, dc in self.offsets)

    def covers(self, n: int, square: Square) -> list[Square]:
        """The squares a piece on ``square`` occupies or attacks (domination), by
        row: its row, its line of each family and its offsets, in O(N) (the
        pairwise definition, :meth:`attacks` of every square, took minutes of
        building at N = 150; the tests hold the two together)."""
        r0, c0 = square
        found = {(r0, c) for c in range(n)}
        for line in self.families:
            key = line.key(n, r0, c0)
            for r in range(n):
                c = (key - line.slope * r) % n if line.wraps else key - line.slope * r
                if 0 <= c < n:
                    found.add((r, c))
        for dr, dc in self.offsets:
            for r, c in ((r0 + dr, c0 + dc), (r0 - dr, c0 - dc)):
                if 0 <= r < n and 0 <= c < n:
                    found.add((r, c))
        return sorted(found)

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
        (None where no theorem is kept, and for the optima, which always exist)."""
        return None if self.exists_rule is None else self.exists_rule(n)


def family(name: str, lines: Iterable[Lines], offsets: Iterable[Offset] = (), title: str | None = None,
           known: dict[int, int] | None = None, oeis: str = "") -> Variant:
    """A question of N pieces made from the vocabulary, validated once here: the
    columns and any of the diagonal directions (each wrapping or not), and
    offsets.  The tests draw random ones; a new member of :data:`VARIANTS` is
    one call."""
    chosen = tuple(lines)
    moves = tuple(offsets)
    slopes = [line.slope for line in chosen]
    if not chosen or chosen[0] != COLUMNS:
        raise InvalidInputError("a family's first line family is the columns (one piece a column)")
    if any(type(s) is not int or s not in SLOPES for s in slopes) or len(set(slopes)) != len(slopes):
        raise InvalidInputError(f"line families: slopes {SLOPES}, each once, got {slopes}")
    for dr, dc in moves:
        if type(dr) is not int or type(dc) is not int or dr < 1 or dc == 0:
            raise InvalidInputError(f"an offset goes down 1 row or more and across (off the column): got ({dr}, {dc})")
    if len(set(moves)) != len(moves):
        raise InvalidInputError(f"offsets repeat: {moves}")
    return Variant(name, title or f"the family {name}", "place", oeis, known or {}, chosen, moves)


PLAIN = Variant("queens", "plain N-queens", "place", "A000170", {}, exists_rule=theorems.pauls,
                source="explicit constructions for every other N (Pauls, 1874); counts in nqueens_cp.known")

VARIANTS: dict[str, Variant] = {
    "queens": PLAIN,
    # [cost toroidal data]
    "toroidal": Variant(
        "toroidal", "toroidal (modular) queens", "place", "A051906",
        # N = 1..18 (OEIS A051906; A007705 lists the same for odd N); the zeros are Pólya's theorem.
        {1: 1, 2: 0, 3: 0, 4: 0, 5: 10, 6: 0, 7: 28, 8: 0, 9: 0, 10: 0, 11: 88, 12: 0, 13: 4524,
         14: 0, 15: 0, 16: 0, 17: 140692, 18: 0},
        families=(COLUMNS, Lines(-1, True), Lines(1, True)), exists_rule=theorems.polya,
        source="OEIS A051906 (A007705 lists odd N only); zeros: Pólya (1918), boards exactly when gcd(N, 6) = 1"),
    # [end cost]
    # [cost superqueens data]
    "superqueens": Variant(
        "superqueens", "superqueens (queens that also move like knights)", "place", "A051223",
        {1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0, 10: 4, 11: 44, 12: 156, 13: 1876, 16: 202900},
        offsets=KNIGHT, exists_rule=theorems.bell_stevens,
        source="OEIS A051223; none for 2..9, constructions for every N >= 10 (Bell & Stevens, 2009)"),
    # [end cost]
    # [cost rooks data]
    "rooks": Variant(
        "rooks", "non-attacking rooks (rows and columns only)", "place", "A000142",
        {n: factorial(n) for n in range(1, 13)}, families=(COLUMNS,),
        classes={n + 1: k for n, k in enumerate((1, 1, 2, 7, 23, 115, 694, 5282))}, classes_oeis="A000903",
        exists_rule=theorems.always, source="N! (A000142): every permutation; classes under the square's "
        "symmetries OEIS A000903"),
    # [end cost]
    # [cost semiqueens data]
    "semiqueens": Variant(
        "semiqueens", "toroidal semi-queens (columns and one diagonal direction, wrapping)", "place", "A006717",
        {n + 1: k for n, k in enumerate((1, 0, 3, 0, 15, 0, 133, 0, 2025, 0, 37851, 0, 1030367))},
        families=(COLUMNS, Lines(1, True)), exists_rule=theorems.odd,
        source="OEIS A006717 (N = 1..13); none for even N: the keys c + r of a permutation sum to 0 "
        "modulo N, the N different keys to N/2"),
    # [end cost]
    "domination": Variant(
        "domination", "queen domination (the fewest queens that occupy or attack every square)", "optimum",
        "A075458", {n + 1: g for n, g in enumerate((1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12,
                                                     12, 13, 13))},
        source="OEIS A075458 (N = 1..25)"),
    "independent": Variant(
        "independent", "independent queen domination (the fewest queens that attack every square and not each "
        "other)", "optimum", "A075324",
        {n + 1: i for n, i in enumerate((1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8))}, independent=True,
        source="OEIS A075324 (N = 1..14: the diagonal of A299029, i(Q(n, m)))"),
}


def from_spec(name: str, spec: str) -> Variant:
    """The question a file header names: the member of that name, which must
    have that data, or (a member that is not kept here) one made from the data."""
    try:
        lines, _, offsets = spec.partition("/")
        made = family(name, [Lines(int(word.rstrip("w")), word.endswith("w")) for word in lines.split(",")],
                      [(int(dr), int(dc)) for dr, dc in (word.split(":") for word in offsets.split(",") if offsets)])
    except (ValueError, TypeError) as error:
        raise InvalidInputError(f"the family {name!r}: cannot read its data {spec!r} ({error})") from None
    kept = VARIANTS.get(name)
    if kept is None:
        return made
    if not kept.places or kept.spec != made.spec:
        raise InvalidInputError(f"the family {name!r} is {kept.spec!r} here, not {spec!r}")
    return kept


PLACE = tuple(name for name, v in VARIANTS.items() if v.places)
OPTIMUM = tuple(name for name, v in VARIANTS.items() if v.optimizes)


def get(variant: str | Variant) -> Variant:
    """The variant of that name (a Variant is returned as it is)."""
    if isinstance(variant, Variant):
        return variant
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InvalidInputError(f"unknown variant {variant!r} (choose from {', '.join(VARIANTS)})")
    return VARIANTS[variant]
