"""Symmetry of the square applied to a question: which of the eight maps
keep it (:func:`kept`, computed from the question's data at the N asked,
never sampled), fundamental solutions under those maps, symmetry breaking,
and the orbit expansion that undoes it.

**Which maps keep a question.**  Two squares attack each other, for every
member of the family, through their *displacement* d = b - a alone: the same
row (dr = 0), the same line of a family (dc + slope * dr = 0, or = +-N where
the family wraps around the torus), or an offset (d = +-o).  A map g of the
square acts on a displacement by its linear part L (a signed permutation of
(dr, dc)); every displacement of the window |dr|, |dc| <= N - 1 joins some
pair of squares of the board.  So g keeps the attack relation on the N x N
board exactly when attack(d) = attack(L d) for every d of the window: a
finite, exact test, done on the whole window (4 N^2 displacements) where
the algebra below does not apply.

Beyond that the data's algebra answers for every N at once.  The attacking
displacements are the union of at most 8 lines (the rows, and each family's
line, with its two shifted copies where it wraps) and the offsets off those
lines.  L maps lines to lines.  If it maps one of them onto a line that is
not among them, that image holds at least N - 1 displacements of the window,
of which the other lines cover at most one each and the offsets one each:
for N - 1 > 8 + (offsets, each with its negative: :data:`ALGEBRA_FROM`),
one is not attacked, and g breaks the relation.
Otherwise L permutes the lines, and g keeps the relation exactly when it
permutes the offsets off the lines.  (Tested against the window for every
drawn member: tests/test_members.py.)

A question keeps g when g keeps the relation, the blocked squares and the
pre-placed queens (:func:`kept` with them).  Every use of symmetry asks
this one function: mirror-halving a split search, one board per class
(``unique``), symmetry breaking, the count by classes and by quarters (plain
N, which keeps all eight at every N), the certificate's classes.

Symmetry breaking here means the first-row lex-leader constraints for the
whole group D4: for every symmetry g, ``s[0] <= g(s)[0]``.  The lex-least
member of each class satisfies them (it is <= every image, so its first
entry is too), so the constraints keep at least one solution per class, and
usually exactly one.  :func:`expand` turns the survivors back into the full
set, each solution exactly once, without remembering what it has produced.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator

from .board import SQUARE_MAPS, SYMMETRIES, Solution, canonical, orbit
from .lines import Lines, Offset, Square

ALL = tuple(SYMMETRIES)  # the eight, by name, identity first

def linear(name: str) -> Callable[[int, int], tuple[int, int]]:
    """The map's action on a displacement (dr, dc): its linear part (the board's size cancels out)."""
    image = SQUARE_MAPS[name]

    def apply(dr: int, dc: int) -> tuple[int, int]:
        (r1, c1), (r0, c0) = image(0, dr, dc), image(0, 0, 0)
        return r1 - r0, c1 - c0

    return apply


def kept(n: int, families: tuple[Lines, ...], offsets: tuple[Offset, ...],
         placed: Collection[Square] = (), blocked: Collection[Square] = ()) -> tuple[str, ...]:
    """The names of the square's symmetries that keep the question on the
    n x n board: its attack relation (``families`` and ``offsets``), its
    pre-placed queens and its blocked squares.  Exact at this n (the module's
    docstring says how); identity first."""
    names = _kept_relation(n, tuple(families), tuple(sorted(set(offsets))))
    if placed or blocked:
        placed, blocked = set(placed), set(blocked)
        names = tuple(name for name in names
                      if {SQUARE_MAPS[name](n, r, c) for r, c in placed} == placed
                      and {SQUARE_MAPS[name](n, r, c) for r, c in blocked} == blocked)
    return names


@functools.lru_cache(maxsize=1024)
def _kept_relation(n: int, families: tuple[Lines, ...], offsets: tuple[Offset, ...]) -> tuple[str, ...]:
    reach = [(dr, dc) for dr, dc in offsets if dr <= n - 1 and abs(dc) <= n - 1]  # the rest join no two squares
    if n - 1 <= ALGEBRA_FROM + 2 * len(reach):
        return _kept_on_window(n, families, reach)
    return _kept_by_algebra(n, families, reach)


ALGEBRA_FROM = 8  # the algebra answers for N - 1 > 8 + (offsets, each counted with its negative); the window below


def _attacked(n: int, families: tuple[Lines, ...], offsets: set[Offset], dr: int, dc: int) -> bool:
    """Whether the displacement (dr, dc) joins two attacking squares."""
    return dr == 0 or (dr, dc) in offsets or any(line.joins(n, dr, dc) for line in families)


def _kept_on_window(n: int, families: tuple[Lines, ...], offsets: list[Offset]) -> tuple[str, ...]:
    """Every displacement of the window compared with its image (at most 4 N^2 of them)."""
    both = {d for dr, dc in offsets for d in ((dr, dc), (-dr, -dc))}
    window = [(dr, dc) for dr in range(-(n - 1), n) for dc in range(-(n - 1), n) if dr or dc]
    attacked = {d for d in window if _attacked(n, families, both, *d)}
    found = []
    for name in ALL:
        apply = linear(name)
        if all((apply(*d) in attacked) == (d in attacked) for d in window):
            found.append(name)
    return tuple(found)


Line = tuple[int, int, int]  # (a, b, k): the displacements with a * dr + b * dc = k * n


def _lines(families: tuple[Lines, ...]) -> set[Line]:
    found = {_normal((1, 0, 0))}  # the rows: dr = 0
    for line in families:
        shifts = (-1, 0, 1) if line.wraps and line.slope else (0,)
        found |= {_normal((line.slope, 1, k)) for k in shifts}
    return found


def _normal(line: Line) -> Line:
    a, b, k = line
    return (-a, -b, -k) if (a, b) < (0, 0) else line


def _kept_by_algebra(n: int, families: tuple[Lines, ...], offsets: list[Offset]) -> tuple[str, ...]:
    lines = _lines(families)
    off_lines = {d for dr, dc in offsets for d in ((dr, dc), (-dr, -dc))
                 if not any(a * d[0] + b * d[1] == k * n for a, b, k in lines)}
    found = []
    for name in ALL:
        apply = linear(name)
        # A line's coefficients (a, b) map as the displacements do (L is orthogonal).
        images = {_normal((*apply(a, b), k)) for a, b, k in lines}
        if images == lines and {apply(*d) for d in off_lines} == off_lines:
            found.append(name)
    return tuple(found)


def least_image(s: Solution, names: Iterable[str] = ALL) -> Solution:
    """The lexicographically least image of ``s`` under the maps named: one representative per class."""
    names = tuple(names)
    if len(names) == len(ALL):
        return canonical(s)
    return min(SYMMETRIES[name](s) for name in names)


def expand(survivors: Iterable[Solution]) -> Iterator[Solution]:
    """The full solution set from the survivors of symmetry breaking.

    A class may have several survivors; only its least survivor expands it,
    so every solution comes out once.  That is the class's lex-least member:
    the images of any member are the whole class, so a member survives
    exactly when its first entry is the least first entry in the class, and
    the lex-least member has that entry.
    """
    for s in survivors:
        members = orbit(s)
        if s == min(members):
            yield from sorted(members)


def is_canonical(s: Solution, names: Iterable[str] = ALL) -> bool:
    """True when ``s`` is the lexicographically least member of its class
    (under the maps ``names``: by default all eight).

    A canonical solution must survive the first-row test (its first entry is
    at most every image's first entry), which reads only the two border rows
    and the rows of the border columns; only the few that pass it pay for
    all eight images.
    """
    names = tuple(names)
    if len(names) != len(ALL):
        return s == least_image(s, names)
    last = len(s) - 1
    first = s[0]
    top, bottom = s.index(0), s.index(last)  # rows of the queens in columns 0 and n-1
    if first > min(last - first, s[last], last - s[last], top, last - top, bottom, last - bottom):
        return False
    return s == canonical(s)


def fundamental(solutions: Iterable[Solution], names: Iterable[str] = ALL) -> Iterator[Solution]:
    """One solution per class under the maps ``names`` (by default all eight:
    A002562's count), in canonical (lex-least) form.  ``names`` must be the
    question's own symmetries (:func:`kept`): a class is closed only under maps
    that keep the question."""
    names = tuple(names)
    for s in solutions:
        if is_canonical(s, names):
            yield s


def breaking_terms(n: int, families: tuple[Lines, ...] | None = None,
                   offsets: tuple[Offset, ...] = ()) -> list[tuple[str, int, bool]]:
    """g(s)[0] for the seven non-identity symmetries, as terms the models can state.

    Sound only for a question that all eight keep at this n: with
    ``families`` (a member's data; None is plain N) it is refused in one
    line where they do not (:func:`kept`).

    A term ``(kind, index, reflected)`` is the column of row ``index``'s queen
    (kind "col") or the row of column ``index``'s queen (kind "row"), taken as
    n-1 minus that when ``reflected``.  The models add ``s[0] <= term`` for each.
    """
    if families is not None:
        names = kept(n, families, offsets)
        if len(names) != len(ALL):
            from ..errors import InvalidInputError

            raise InvalidInputError(f"symmetry breaking states the 8 symmetries of the square, and this question "
                                    f"keeps only {', '.join(names)} at N={n}")
    last = n - 1
    return [
        ("col", 0, True),  # mirror: n-1 - s[0]
        ("col", last, False),  # flip: s[n-1]
        ("col", last, True),  # rotate180: n-1 - s[n-1]
        ("row", 0, False),  # transpose: the row of the queen in column 0
        ("row", 0, True),  # rotate90: n-1 - that row
        ("row", last, False),  # rotate270: the row of the queen in column n-1
        ("row", last, True),  # antitranspose: n-1 - that row
    ]
