"""The face of the repair search (``repair.c``, its twin :mod:`.twin_repair`):
local search that places millions of queens."""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from typing import Any

from . import loader, twin_decide, twin_repair
from .search import line_mode

REPAIR_MAX_N = (1 << 30) - 1  # repair.c counts up to 2n - 1 lines in ints
TWIN_SLICE = 4096  # swaps of the Python twin between two looks at the clock
LAZY_BOARD_N = 1 << 20  # a larger board is allocated unmapped (NumPy's zeros), for the C search's fill


def repair_bytes(n: int, variant: Any, fixed: int = 0) -> int:
    """The memory a local search of n rows takes, the board's n ints included:
    repair_new's arrays (repair.c), counted here so that a size is refused
    before anything is allocated; a change to those arrays changes this."""
    total = 4 * n + 1024 * 4
    for slope in (-1, 1):
        lines = variant.family_of(slope)
        if lines is not None:
            total += 4 * (n if lines.wraps else 2 * n - 1)
    if fixed:
        total += 4 * (n - fixed) + (n + 63) // 64 * 8
    return total


class Repair:
    """One local search of a board (``repair.c``, or its twin
    :mod:`.twin_repair`): a permutation repaired by swaps until no piece
    attacks another, stoppable every so many swaps.  The question's data
    (``variant``): its two diagonal families (none, edge or wrapping) and its
    offsets; ``fixed`` queens never move, ``blocked`` squares are never taken.
    The same seed gives the same board.  :attr:`board` is the board, n ints
    (4 bytes a queen), written in place as the search goes."""

    def __init__(self, n: int, variant: Any, fixed: Iterable[tuple[int, int]] = (),
                 blocked: Iterable[tuple[int, int]] = (), seed: int = 0, compiled: bool = True) -> None:
        if not 1 <= n <= REPAIR_MAX_N:
            raise ValueError(f"a local search takes 1 <= n <= {REPAIR_MAX_N}, got n={n}")
        down, up = (line_mode(variant.family_of(slope)) for slope in (-1, 1))
        fixed = sorted(fixed)
        squares = sorted(r * n + c for r, c in blocked)
        self.n = n
        self.state, self.swaps, self.moves, self.restarts, self.attacked = twin_repair.START, 0, 0, 0, 0
        self._search = loader.module() if compiled else None
        if self._search is None:
            self._twin: twin_repair.Repair | None = twin_repair.Repair(n, down, up, variant.offsets, fixed, squares,
                                                                       seed)
            return
        self._twin = None
        if n > LAZY_BOARD_N:
            import numpy as np  # (zeros: the pages are mapped by the search's fill, a step at a time)

            self.board: Any = np.zeros(n, dtype=np.int32)
        else:
            self.board = array("i", [0]) * n
        self._capsule = self._search.repair_new(
            n, self.board, down, up, array("i", [x for pair in variant.offsets for x in pair]),
            array("i", [x for pair in fixed for x in pair]), array("Q", squares), seed & twin_decide.MASK64)

    @property
    def compiled(self) -> bool:
        """Whether this search runs in C (else the Python twin)."""
        return self._search is not None

    @property
    def found(self) -> bool:
        return self.state == twin_repair.FOUND

    def advance(self, swaps: int = 0, deadline: float | None = None) -> bool:
        """Search on for about ``swaps`` more swaps tried (0: until a board is
        found, which may be never), or until ``time.monotonic()`` passes
        ``deadline`` (the C search reads the clock itself, every 64 steps);
        True once a board is found."""
        if self._twin is not None:
            twin_ = self._twin
            if deadline is None:
                twin_.advance(swaps)
            else:  # (the twin takes no deadline: the clock is read here, between slices of swaps)
                import time

                stop = twin_.swaps + swaps if swaps else None
                while twin_.state != twin_repair.FOUND and (stop is None or twin_.swaps < stop) \
                        and time.monotonic() <= deadline:
                    twin_.advance(TWIN_SLICE if stop is None else min(TWIN_SLICE, stop - twin_.swaps))
            self.state, self.swaps, self.moves = twin_.state, twin_.swaps, twin_.moves
            self.restarts, self.attacked = twin_.restarts, twin_.attacked
        elif not self.found:
            self.state, self.swaps, self.moves, self.restarts, self.attacked = \
                self._search.repair_advance(  # type: ignore[union-attr]
                    self._capsule, swaps, 0 if deadline is None else max(1, int(deadline * 1e9)))
        return self.found

    def solution(self) -> Any:
        """The board found: n ints (an int32 buffer), row r's column at [r].
        The search's state beside it is freed."""
        if not self.found:
            raise ValueError("no board was found")
        if self._twin is not None:
            return array("i", self._twin.q)
        self._capsule = None  # the lines' counts go; the board stays
        return self.board
