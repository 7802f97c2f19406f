"""Symmetry of the square applied to solving: fundamental solutions, symmetry
breaking, and the orbit expansion that undoes it.

Symmetry breaking here means the first-row lex-leader constraints for the
whole group D4: for every symmetry g, ``s[0] <= g(s)[0]``.  The lex-least
member of each class satisfies them (it is <= every image, so its first
entry is too), so the constraints keep at least one solution per class, and
usually exactly one.  :func:`expand` turns the survivors back into the full
set, each solution exactly once, without remembering what it has produced.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .board import SYMMETRIES, Solution, canonical, orbit


def survives(s: Solution) -> bool:
    """True when ``s`` satisfies the symmetry-breaking constraints that the
    cpsat and sat models add (this predicate is their specification)."""
    return all(s[0] <= g(s)[0] for g in SYMMETRIES.values())


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


def is_canonical(s: Solution) -> bool:
    """True when ``s`` is the lexicographically least member of its class.

    A canonical solution must survive the first-row test (its first entry is
    at most every image's first entry), which reads only the two border rows
    and the rows of the border columns; only the few that pass it pay for
    all eight images.
    """
    last = len(s) - 1
    first = s[0]
    top, bottom = s.index(0), s.index(last)  # rows of the queens in columns 0 and n-1
    if first > min(last - first, s[last], last - s[last], top, last - top, bottom, last - bottom):
        return False
    return s == canonical(s)


def fundamental(solutions: Iterable[Solution]) -> Iterator[Solution]:
    """One solution per class, in canonical (lex-least) form: A002562's count."""
    for s in solutions:
        if is_canonical(s):
            yield s


def breaking_terms(n: int) -> list[tuple[str, int, bool]]:
    """g(s)[0] for the seven non-identity symmetries, as terms the models can state.

    A term ``(kind, index, reflected)`` is the column of row ``index``'s queen
    (kind "col") or the row of column ``index``'s queen (kind "row"), taken as
    n-1 minus that when ``reflected``.  The models add ``s[0] <= term`` for each.
    """
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
