"""The Python twin of the C searches: the specification, and the fallback.

Each function here is its C namesake (``queens.h``, ``search.c``) line for
line, with Python's unbounded integers for the 64-bit words.  Tests compare
the two on random sub-boards for tallies *and* nodes.  Where the compiled
module was not built (no C compiler at install) or a board has more than 62
rows, the package runs these instead: the same answers, tens of times
slower.
"""

from __future__ import annotations

import time
from collections.abc import MutableSequence, Sequence

from ..errors import TimeLimitReached

# The words of a Walk's out array (module.c's walk uses the same layout).
EIGHT, FOUR, TWO, NODES, TIED, ROW = range(6)
NEW = -2  # ROW before the first step; -1 once the sub-board is searched
COLS, LEFT, RIGHT, TODO = range(4)  # the words of a row on the stack: stack[4 * row + TODO]


def restrict_cells(free: int, needed: int, cols: int) -> int:
    """The free cells of a row once the columns no later row allows (``needed``)
    are known: one of them still empty, the row must take it; two, no way on."""
    missing = needed & ~cols
    if missing == 0:
        return free
    if missing & (missing - 1):
        return 0
    return free & missing


def blocked_beyond(cols: int, left: int, right: int, beyond: int) -> bool:
    """Whether the row two below a queen is already full, whatever the row in
    between takes (cols, left, right: the attacks on the row below; beyond:
    the columns the row after it allows)."""
    return ~(cols | left << 1 | right >> 1) & beyond == 0


def needed_masks(n: int, allowed: Sequence[int]) -> list[int]:
    """needed[r]: the columns that no row after r allows (so rows up to r must
    take them); 0 for the last row, where the rule changes nothing (its one
    open column is the only one it can take), so that the searches skip it."""
    full = (1 << n) - 1
    needed = [0] * n
    later = allowed[-1] & full if n else 0
    for r in range(n - 2, -1, -1):
        needed[r] = full & ~later
        later |= allowed[r]
    return needed


def _ctz(bit: int) -> int:
    return (bit & -bit).bit_length() - 1


def turned(n: int, board: Sequence[int], inverse: Sequence[int], k: int) -> int:
    """Compare the board turned k quarter turns (k = 1, 2, 3) with the board,
    row by row from the top: -1 if the image is less, 0 if equal, 1 if
    greater.  inverse[c] is the row of column c's queen."""
    last = n - 1
    for i in range(n):
        if k == 1:
            image = 1 << (last - inverse[i])
        elif k == 2:
            image = 1 << (last - _ctz(board[last - i]))
        else:
            image = 1 << inverse[last - i]
        if image != board[i]:
            return -1 if image < board[i] else 1
    return 0


def class_size(n: int, board: Sequence[int], inverse: MutableSequence[int]) -> int:
    """0 if a turn of the board is less than the board; else the size of its class:
    2 (a quarter turn leaves it unchanged), 4 (a half turn does) or 8."""
    for r in range(n):
        inverse[_ctz(board[r])] = r
    quarter = turned(n, board, inverse, 1)
    if quarter <= 0:
        return 0 if quarter < 0 else 2
    half = turned(n, board, inverse, 2)
    if half <= 0:
        return 0 if half < 0 else 4
    return 0 if turned(n, board, inverse, 3) < 0 else 8


def tally(out: MutableSequence[int], n: int, board: Sequence[int], inverse: MutableSequence[int], classify: bool,
          tie: int) -> None:
    """A solution found: tally it (classified by its turns when asked)."""
    size = class_size(n, board, inverse) if classify else 8
    out[EIGHT] += size == 8
    out[FOUR] += size == 4
    out[TWO] += size == 2
    out[TIED] += not classify and board[n - 1] & tie != 0


def walk(n: int, allowed: Sequence[int], stack: MutableSequence[int], board: MutableSequence[int],
         out: MutableSequence[int], classify: bool, tie: int, limit: int, stop_at: int) -> None:
    """The search of one sub-board that can stop and go on (``walk`` in
    queens.h): after ``limit`` solutions in all (0: no limit; ``board`` then
    holds the last one) or once the nodes reach ``stop_at`` (0: never).
    out: the tallies (EIGHT .. TIED) and the row to resume from (ROW: NEW
    for a new search, -1 once searched).  stack: 4 words a row, n + 1 rows."""
    full = (1 << n) - 1
    masks = [(a & full, need) for a, need in zip(allowed, needed_masks(n, allowed))]
    inverse = [0] * n
    last, row = n - 1, out[ROW]
    if row == NEW:
        stack[COLS] = stack[LEFT] = stack[RIGHT] = 0
        stack[TODO] = restrict_cells(masks[0][0], masks[0][1], 0)
        row = 0
    while row >= 0 and (stop_at == 0 or out[NODES] < stop_at):
        here = 4 * row
        free = stack[here + TODO]
        if free == 0:
            row -= 1
            continue
        bit = free & -free  # the lowest free cell
        stack[here + TODO] = free ^ bit
        out[NODES] += 1
        leaf = bit
        if row != last:  # (row 0 is the last only when n == 1)
            below = here + 4  # step: the attacks on the row below
            cols = stack[below + COLS] = stack[here + COLS] | bit
            left = stack[below + LEFT] = (stack[here + LEFT] | bit) << 1 & full
            right = stack[below + RIGHT] = (stack[here + RIGHT] | bit) >> 1
            allowed_below, needed_below = masks[row + 1]
            leaf = restrict_cells(~(cols | left | right) & allowed_below, needed_below, cols)
            if row + 1 != last:
                if blocked_beyond(cols, left, right, masks[row + 2][0]):
                    leaf = 0
                row += 1
                stack[below + TODO] = leaf
                continue
            if leaf == 0:
                continue
            out[NODES] += 1
        board[last] = leaf
        if classify or limit:  # the board, read off the stack's columns
            for r in range(last):
                board[r] = stack[4 * r + 4 + COLS] & ~stack[4 * r + COLS]
        tally(out, n, board, inverse, classify, tie)
        if limit and out[EIGHT] + out[FOUR] + out[TWO] >= limit:
            break
    out[ROW] = row


def count(n: int, allowed: Sequence[int], classify: bool, tie: int) -> tuple[int, int, int, int, int]:
    """count_tree (search.c): a whole sub-board, (eight, four, two, nodes, tied).
    The C code searches by recursion; the walk visits the same nodes."""
    out = [0] * 5 + [NEW]
    walk(n, allowed, [0] * (4 * (n + 1)), [0] * n, out, classify, tie, 0, 0)
    return out[EIGHT], out[FOUR], out[TWO], out[NODES], out[TIED]


def count_half_turn(n: int, masks: Sequence[int], cols: int, diag: int, anti: int,
                    deadline: float | None = None) -> int:
    """The boards a half turn leaves unchanged, rows r < n // 2 in masks[r],
    each placed with its image in row n-1-r (count_half_turn in search.c);
    TimeLimitReached once ``time.monotonic()`` passes ``deadline`` (read every
    4096 placements)."""
    last, ends, m = n - 1, 2 * (n - 1), n // 2
    placed = 0

    def rows(r: int, cols: int, diag: int, anti: int) -> int:
        nonlocal placed
        if r == m:
            return 1
        free = masks[r] & ~(cols | diag >> (last - r) | anti >> r)
        found = 0
        while free:
            bit = free & -free
            free ^= bit
            placed += 1
            if deadline is not None and not placed & 4095 and time.monotonic() > deadline:
                raise TimeLimitReached
            c = _ctz(bit)
            d, x = c - r + last, r + c
            found += rows(r + 1, cols | bit | 1 << (last - c), diag | 1 << d | 1 << (ends - d),
                          anti | 1 << x | 1 << (ends - x))
        return found

    return rows(0, cols, diag, anti)
