"""The face of the bitmask search over sub-boards (``search.c``, its twin
:mod:`.twin`): whole counts, plain or by symmetry classes, the work items of
a GPU count, the half-turn count, and the walk that can stop and go on."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, NamedTuple

from . import loader, twin

HALF_TURN_MAX_N = 32  # the half-turn search keeps 2n - 1 diagonals in a word


class Tallies(NamedTuple):
    """What a search adds up: solutions (or, classifying, the least board of
    each class by its size: 8, 4, 2), nodes (queens placed), and the solutions
    whose last queen stands on the tie square."""

    eight: int
    four: int
    two: int
    nodes: int
    tied: int

    @property
    def found(self) -> int:
        return self.eight + self.four + self.two


def count(n: int, allowed: Sequence[int], classify: bool = False, tie: int = 0, compiled: bool = True) -> Tallies:
    """Search a whole sub-board: its solutions (or, with ``classify``, the
    classes of its boards that no turn makes less), nodes, and the solutions
    with the last row's queen on the square ``tie``.  (``compiled=False``,
    here and below: run the twin.)"""
    return count_boards(n, [(allowed, tie, classify)], compiled)


def count_boards(n: int, boards: Iterable[tuple[Sequence[int], int, bool]], compiled: bool = True) -> Tallies:
    """Many sub-boards, each (allowed masks, tie square or 0, classify), in one
    call: the sum of their :func:`count` tallies."""
    full = (1 << n) - 1
    words: list[int] = []
    for allowed, tie, classify in boards:
        loader.check(n, allowed)
        extra = [0] * twin.BOARD_EXTRA
        extra[twin.BOARD_TIE], extra[twin.BOARD_CLASSIFY] = tie & full, int(classify)
        words += [*(mask & full for mask in allowed), *extra]
    search = loader.chosen(n, compiled)
    if search is None:
        sums = [0] * 5
        for at in range(0, len(words), n + twin.BOARD_EXTRA):
            board = words[at:at + n + twin.BOARD_EXTRA]
            for i, value in enumerate(twin.count(n, board[:n], bool(board[n + twin.BOARD_CLASSIFY]),
                                                 board[n + twin.BOARD_TIE])):
                sums[i] += value
        return Tallies(*sums)
    return Tallies(*search.count_boards(n, loader.words(words)))


def expand(n: int, boards: Sequence[Sequence[int]], depth: int, compiled: bool = True) -> tuple[array, list[int]]:
    """Each board's work items, rows 0 .. depth-1 fixed every non-attacking
    way (a GPU's items: counting/gpu.py), packed n words an item, with how
    many each board gave: in C, as listing them in Python took more than
    half of a GPU count's target at N = 20 (benchmarks/work_items.py)."""
    for allowed in boards:
        loader.check(n, allowed)
    search = loader.chosen(n, compiled)
    if search is None:
        items, counts = array("Q"), []
        for allowed in boards:
            found = twin.expand(n, allowed, depth)
            counts.append(len(found))
            for item in found:
                items.extend(item)
        return items, counts
    packed = array("Q")
    for allowed in boards:
        packed.extend(allowed)
    data, sizes = search.expand(n, packed, depth)
    words, per_board = array("Q"), array("Q")
    words.frombytes(data)
    per_board.frombytes(sizes)
    return words, per_board.tolist()


def count_half_turn(n: int, allowed: Sequence[int], compiled: bool = True, deadline: float | None = None) -> int:
    """The solutions a half turn leaves unchanged (q[n-1-r] = n-1-q[r]) with
    row r's queen in allowed[r]; compiled up to 32 rows.  The compiled search
    cannot stop at a ``deadline``: with one, the twin runs, reading the clock."""
    loader.check(n, allowed)
    full, last, m = (1 << n) - 1, n - 1, n // 2
    if n == 1:
        return allowed[0] & 1
    cols = diag = anti = 0
    if n % 2:  # the centre square holds the middle row's queen, its own image
        if not allowed[m] >> m & 1:
            return 0
        cols, diag, anti = 1 << m, 1 << last, 1 << last
    masks = []
    for r in range(m):  # row r's square allowed, its image's too, and not on a long diagonal
        image = allowed[last - r]  # (there a queen and its image attack each other)
        mirrored = sum(1 << (last - c) for c in range(n) if image >> c & 1)
        masks.append(allowed[r] & mirrored & full & ~(1 << r | 1 << (last - r)))
    search = loader.chosen(n, compiled and deadline is None, HALF_TURN_MAX_N)
    if search is None:
        return twin.count_half_turn(n, masks, cols, diag, anti, deadline)
    return search.count_half_turn(n, loader.words(masks), cols, diag, anti)


class Walk:
    """One search of a sub-board that can stop and go on: after every
    :meth:`advance` the tallies, nodes and (after a stop at a solution) the
    board are here to read."""

    def __init__(self, n: int, allowed: Sequence[int], classify: bool = False, compiled: bool = True) -> None:
        self.classify = classify
        self._start(n, allowed, compiled, twin.ROW_WORDS * (n + 1))

    def _start(self, n: int, allowed: Sequence[int], compiled: bool, stack_words: int) -> None:
        """The buffers of a new search: its allowed masks, a stack of ``stack_words``, a board, its out words."""
        loader.check(n, allowed)
        self.n = n
        self._search = loader.chosen(n, compiled)
        full = (1 << n) - 1
        self._allowed: Sequence[int] = [mask & full for mask in allowed]
        self._stack: MutableSequence[int] = [0] * stack_words
        self._board: MutableSequence[int] = [0] * n
        self._out: MutableSequence[int] = [0] * twin.OUT_WORDS
        self._out[twin.ROW] = twin.NEW
        if self._search is not None:  # the C code takes buffers of 64-bit words
            self._allowed, self._stack, self._board, self._out = map(
                loader.words, (self._allowed, self._stack, self._board, self._out))

    @property
    def compiled(self) -> bool:
        """Whether this walk runs the C search (else the Python twin)."""
        return self._search is not None

    @property
    def finished(self) -> bool:
        return self._out[twin.ROW] == -1

    @property
    def tallies(self) -> tuple[int, int, int]:
        """Solutions in classes of 8, 4 and 2 (with classify), or (solutions, 0, 0)."""
        return self._out[twin.EIGHT], self._out[twin.FOUR], self._out[twin.TWO]

    @property
    def found(self) -> int:
        return sum(self.tallies)

    @property
    def nodes(self) -> int:
        return self._out[twin.NODES]

    def solution(self) -> tuple[int, ...]:
        """The board of the last solution found (0-based columns by row)."""
        return tuple((bit & -bit).bit_length() - 1 for bit in self._board)

    def advance(self, limit: int = 0, nodes: int = 0) -> bool:
        """Search on until ``limit`` more solutions (0: all) or ``nodes`` more
        nodes (0: no bound; one more when the last row is placed with the
        row above it); True once the whole sub-board is searched."""
        if self.finished:
            return True
        stop_at = self.nodes + nodes if nodes else 0
        until = self.found + limit if limit else 0
        search = self._search or twin
        search.walk(self.n, self._allowed, self._stack, self._board, self._out, int(self.classify), 0, until,
                    stop_at)
        return self.finished


def line_mode(lines: Any) -> int:
    """How a family of lines attacks, in the kernel's words (queens.h's LINE_*)."""
    return twin.LINE_NONE if lines is None else twin.LINE_WRAP if lines.wraps else twin.LINE_EDGE


# [cost family kernel]
OFFSET_ROWS = 2  # the family walk carries offsets' attacks one and two rows down (queens.h) ...
OFFSET_COLUMNS = 8  # ... and as many columns across as FAM_CENTER


def family_words(n: int, variant: Any) -> list[int]:
    """The family walk's descriptor (queens.h's FAM_* words) of a question of
    the family (:class:`~nqueens_cp.model.variants.Variant`), read from its
    data: how each diagonal direction attacks, and the offsets one and two
    rows down as patterns centred on column FAM_CENTER.  Offsets beyond
    OFFSET_ROWS rows or OFFSET_COLUMNS columns cannot be stated (the engine
    refuses such a question before any search)."""
    words = [0] * twin.FAM_WORDS
    for slope, at in ((-1, twin.FAM_LEFT), (1, twin.FAM_RIGHT)):
        lines = variant.family_of(slope)
        words[at] = line_mode(lines)
    for dr, dc in variant.offsets:
        if dr > OFFSET_ROWS or abs(dc) > OFFSET_COLUMNS:
            raise ValueError(f"the family walk carries offsets {OFFSET_ROWS} rows down and {OFFSET_COLUMNS} "
                             f"across at most, got ({dr}, {dc})")
        words[twin.FAM_ONE if dr == 1 else twin.FAM_TWO] |= 1 << (twin.FAM_CENTER + dc)
    return words
# [end cost]


class FamilyWalk(Walk):
    """The walk of one board for any question of the family (plain queens too):
    queens.h's one walk, over the question's descriptor (:func:`family_words`),
    stoppable as :class:`Walk`; every solution counted, none classified."""

    def __init__(self, n: int, variant: Any, allowed: Sequence[int], compiled: bool = True) -> None:
        self.family: Sequence[int] = family_words(n, variant)
        width = twin.ROW_WORDS_OFFSETS if self.family[twin.FAM_ONE] | self.family[twin.FAM_TWO] else twin.ROW_WORDS
        self._start(n, allowed, compiled, width * (n + 1))  # its stack's rows; the out words are Walk's
        if self._search is not None:
            self.family = loader.words(self.family)

    @property
    def found(self) -> int:
        return self._out[twin.EIGHT]

    def advance(self, limit: int = 0, nodes: int = 0) -> bool:
        """Search on until ``limit`` more solutions (0: all) or ``nodes`` more
        queens placed (0: no bound); True once the whole board is searched."""
        if self.finished:
            return True
        stop_at = self.nodes + nodes if nodes else 0
        until = self.found + limit if limit else 0
        (self._search or twin).family_walk(self.family, self.n, self._allowed, self._stack, self._board,
                                           self._out, until, stop_at)
        return self.finished
