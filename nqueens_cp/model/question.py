"""The question, as one value: the board's size, the member of the family,
the pre-placed queens and the blocked squares.

A :class:`Question` is made and checked once, where it is asked
(:func:`question`), and then carried whole: the plan holds it, and it says
which engines can answer it.  For an optimum (the domination questions) the
member says what is optimised.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from ..errors import InvalidInputError
from . import variants
from .position import Position, check_placements
from .variants import Square, Variant


class Question(NamedTuple):
    """One question: immutable, checked where it is made (:func:`question`)."""

    n: int
    variant: Variant
    placed: tuple[Square, ...] = ()  # the pre-placed queens, (row, column), by row
    blocked: tuple[Square, ...] = ()  # the squares that hold no queen, sorted

    def position(self) -> Position:
        """The placements as the engines take them (a fresh Position: row -> column, and the blocked squares),
        not checked again: :func:`question` checked them."""
        return Position(dict(self.placed), self.blocked, self.n)

    @property
    def symmetries(self) -> tuple[str, ...]:
        """The square's symmetries that keep this question at its N: its attack
        relation, its pre-placed queens and its blocked squares, computed
        exactly (:func:`nqueens_cp.model.symmetry.kept`).  Every use of symmetry
        asks this."""
        from .symmetry import kept

        return kept(self.n, self.variant.families, self.variant.offsets, self.placed, self.blocked)

    def is_solution(self, board: Any) -> bool:
        """The independent validator of this question: ``board`` places N pieces of
        the member, none attacking another, every pre-placed queen kept and no
        piece on a blocked square."""
        if not self.variant.is_solution(board, self.n):
            return False
        return all(board[r] == c for r, c in self.placed) and not any(board[r] == c for r, c in self.blocked)

    def valid_rows(self, boards: Any) -> Any:
        """:meth:`is_solution` of each row of ``boards`` (a NumPy integer array,
        one board a row, N columns), at once: a boolean array.  The same
        definition, written for arrays (a property test holds the two
        together: tests/test_members.py): columns in range and distinct, each
        family's keys distinct, no offset between two pieces, the placements
        kept.  An optimum question has no boards of N pieces: asked of one,
        it refuses (it once answered all-false, quietly)."""
        import numpy as np

        if not self.variant.places:
            raise InvalidInputError(f"{self.variant.name} asks for the fewest queens, not boards of N pieces: its "
                                    "boards are validated by Variant.is_dominating")
        n = self.n
        ok = ((boards >= 0) & (boards < n)).all(axis=1)
        boards = np.where(ok[:, None], boards, 0)  # (a row out of range is already wrong: its keys stay small)
        ok &= _distinct(boards, n)
        rows = np.arange(n)
        for line in self.variant.families:
            if line.slope:
                keys = boards + line.slope * rows
                ok &= _distinct(keys % n, n) if line.wraps else _distinct(keys + (n - 1), 2 * n - 1)
        for dr, dc in self.variant.offsets:
            if dr < n:
                ok &= (boards[:, dr:] - boards[:, :n - dr] != dc).all(axis=1)
        for r, c in self.placed:
            ok &= boards[:, r] == c
        for r, c in self.blocked:
            ok &= boards[:, r] != c
        return ok

    @property
    def optimum(self) -> bool:
        """Whether it asks for the fewest queens (domination), not for boards of N pieces."""
        return self.variant.optimizes

    def __str__(self) -> str:
        said = [f"N={self.n}"] + ([f"variant={self.variant}"] if self.variant != variants.PLAIN else [])
        said += [f"fixed={dict(self.placed)}"] if self.placed else []
        said += [f"blocked={len(self.blocked)} squares"] if self.blocked else []
        return " ".join(said)


def _distinct(keys: Any, span: int) -> Any:
    """For each row of ``keys`` (values from 0 to ``span`` - 1), whether its values
    are all different: the number of bits set in the OR of 1 << value is the
    row's length where a word holds them (``span`` <= 64), else by sorting."""
    import numpy as np

    if span <= 64 and hasattr(np, "bitwise_count"):  # (NumPy 2)
        bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), keys.astype(np.uint64)), axis=1)
        return np.bitwise_count(bits) == keys.shape[1]
    ordered = np.sort(keys, axis=1)
    return (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)


def board_size(n: Any) -> int:
    """N as an int: any integer type (NumPy's too, as notebooks pass), checked positive."""
    if isinstance(n, bool):
        raise InvalidInputError(f"N must be a positive integer, got {n!r}")
    try:
        size = operator.index(n)
    except TypeError:
        raise InvalidInputError(f"N must be a positive integer, got {n!r}") from None
    if size < 1:
        raise InvalidInputError(f"N must be a positive integer, got {n!r}")
    return size


def question(n: Any, fixed: Mapping[int, int] | None = None, blocked: Iterable[Square] | None = None,
             variant: str | Variant = "queens") -> Question:
    """The question asked, checked once: N, the member (a name in
    :data:`~nqueens_cp.model.variants.VARIANTS` or a :class:`Variant`), the
    pre-placed queens (row -> column; a Position brings its blocked squares)
    and the blocked squares."""
    size = board_size(n)
    member = variants.get(variant)
    if blocked is not None and (isinstance(blocked, (str, bytes)) or not isinstance(blocked, Iterable)):
        raise InvalidInputError(f"blocked takes (row, column) squares, got {blocked!r}")
    squares = None if blocked is None else [tuple(square) if isinstance(square, list) else square
                                            for square in blocked]
    placed = check_placements(size, fixed, squares)
    return Question(size, member, tuple(sorted(placed.items())), tuple(sorted(placed.blocked)))
