"""The Python twin of the C searches: the specification, and the fallback.

Each function here is its C namesake (``queens.h``, ``search.c``) line for
line, with Python's unbounded integers for the 64-bit words.  Tests compare
the two on random sub-boards for tallies *and* nodes.  Where the compiled
module was not built (no C compiler at install) or a board has more than 62
rows, the package runs these instead: the same answers, tens of times
slower.

Where it is not line for line, and why:

- :func:`count` walks the sub-board with the explicit stack of
  :func:`walk`, where ``count_tree`` (search.c) recurses through
  ``rows_plain``/``rows_classes`` (recursion with the row's words in
  registers is C's fastest form; Python's recursion limit and speed rule it
  out here).  Both visit the same nodes in the same order: the tests compare
  tallies *and* nodes.
- The vector lanes (search.c's ``count_lanes``/``count_boards``: many
  sub-boards at once in SIMD words) have no twin: they are a speed-up of
  the same count, and tests/test_kernel.py holds every lane's tallies to one
  count of its board each.
"""

from __future__ import annotations

import time
from collections.abc import MutableSequence, Sequence

from ..errors import TimeLimitReached

# The layouts the C searches share with Python (queens.h's OUT_*, ROW_*,
# BOARD_*): tests/test_kernel.py checks the compiled module has the same.
LAYOUT = {
    "OUT_EIGHT": 0, "OUT_FOUR": 1, "OUT_TWO": 2, "OUT_NODES": 3, "OUT_TIED": 4, "OUT_ROW": 5, "OUT_WORDS": 6,
    "ROW_NEW": -2, "ROW_COLS": 0, "ROW_LEFT": 1, "ROW_RIGHT": 2, "ROW_TODO": 3, "ROW_WORDS": 4,
    "BOARD_TIE": 0, "BOARD_CLASSIFY": 1, "BOARD_EXTRA": 2,
    "LINE_NONE": 0, "LINE_EDGE": 1, "LINE_WRAP": 2, "FAM_LEFT": 0, "FAM_RIGHT": 1, "FAM_ONE": 2, "FAM_TWO": 3,
    "FAM_WORDS": 4, "FAM_CENTER": 8, "ROW_NEAR": 4, "ROW_FAR": 5, "ROW_WORDS_OFFSETS": 6,
}
# A walk's out words: its tallies, then the row to resume from (NEW before
# the first step; -1 once the sub-board is searched).
EIGHT, FOUR, TWO, NODES, TIED, ROW = (LAYOUT[f"OUT_{name}"] for name in ("EIGHT", "FOUR", "TWO", "NODES", "TIED", "ROW"))
OUT_WORDS, NEW = LAYOUT["OUT_WORDS"], LAYOUT["ROW_NEW"]
# A row on a walk's stack: stack[ROW_WORDS * row + TODO]; for a member with
# offsets two words more (NEAR, FAR), ROW_WORDS_OFFSETS words a row.
COLS, LEFT, RIGHT, TODO, NEAR, FAR = (LAYOUT[f"ROW_{name}"] for name in ("COLS", "LEFT", "RIGHT", "TODO", "NEAR", "FAR"))
ROW_WORDS, ROW_WORDS_OFFSETS = LAYOUT["ROW_WORDS"], LAYOUT["ROW_WORDS_OFFSETS"]
# A board of a batch (count_boards): n masks, then the tie square and classify.
BOARD_TIE, BOARD_CLASSIFY, BOARD_EXTRA = LAYOUT["BOARD_TIE"], LAYOUT["BOARD_CLASSIFY"], LAYOUT["BOARD_EXTRA"]
# The walk's descriptor of a member (queens.h): how each diagonal word moves,
# the offsets one and two rows down as patterns centred on FAM_CENTER.
LINE_NONE, LINE_EDGE, LINE_WRAP = LAYOUT["LINE_NONE"], LAYOUT["LINE_EDGE"], LAYOUT["LINE_WRAP"]
FAM_LEFT, FAM_RIGHT, FAM_ONE, FAM_TWO = (LAYOUT[f"FAM_{name}"] for name in ("LEFT", "RIGHT", "ONE", "TWO"))
FAM_WORDS, FAM_CENTER = LAYOUT["FAM_WORDS"], LAYOUT["FAM_CENTER"]
PLAIN = (LINE_EDGE, LINE_EDGE, 0, 0)  # queens.h's FAMILY_PLAIN: plain queens' descriptor

MASK64 = (1 << 64) - 1  # a C word
Attacks = tuple[int, int, int]  # cols, left, right: what the queens above attack in a row


# --- The rules (queens.h's QUEENS_* macros), one function each ----------------

def step(a: Attacks, bit: int, full: int) -> Attacks:
    """A queen on ``bit``: the attacks on the row below (QUEENS_STEP).  The
    column joins cols; the diagonals move one column on.  ``full`` keeps
    Python's unbounded words to the board; the C words carry bits beyond it,
    which no allowed mask has."""
    cols, left, right = a
    return cols | bit, (left | bit) << 1 & full, (right | bit) >> 1


def open_cells(a: Attacks, allowed: int) -> int:
    """The cells of a row that are allowed and not attacked (QUEENS_OPEN)."""
    cols, left, right = a
    return ~(cols | left | right) & allowed


def restrict(free: int, missing: int) -> int:
    """A row's free cells once the columns no later row allows and no queen
    has yet (``missing``) are known (QUEENS_RESTRICT): none, no change; one,
    the row must take it; two, no way on."""
    if missing == 0:
        return free
    if missing & (missing - 1):
        return 0
    return free & missing


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
    """Plain queens' walk (``walk`` in queens.h): :func:`walk_of` with the
    descriptor PLAIN."""
    walk_of(PLAIN, n, allowed, stack, board, out, classify, tie, limit, stop_at)


def count(n: int, allowed: Sequence[int], classify: bool, tie: int) -> tuple[int, int, int, int, int]:
    """count_tree (search.c): a whole sub-board, (eight, four, two, nodes, tied).
    The C code searches by recursion; the walk visits the same nodes."""
    out = [0] * (OUT_WORDS - 1) + [NEW]
    walk(n, allowed, [0] * (ROW_WORDS * (n + 1)), [0] * n, out, classify, tie, 0, 0)
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


def expand(n: int, allowed: Sequence[int], depth: int) -> list[list[int]]:
    """search.c's expand: the board's work items, rows 0 .. depth-1 fixed
    every non-attacking way (lowest column first, depth first), the other
    rows as they are; none if a row beyond the fixed ones is empty."""
    depth = min(depth, n)
    if not all(allowed[depth:]):
        return []
    full = (1 << n) - 1
    items: list[list[int]] = []
    item = list(allowed)

    def place(row: int, a: Attacks) -> None:
        if row == depth:
            items.append(item[:])
            return
        free = open_cells(a, allowed[row])
        while free:
            bit = free & -free
            free ^= bit
            item[row] = bit
            place(row + 1, step(a, bit, full))

    place(0, (0, 0, 0))
    return items


def family_line(mode: int, n: int, word: int, left: bool) -> int:
    """queens.h's family_left and family_right: a line family's word one row on
    (none attacks nothing; a wrapping one brings back what leaves an edge)."""
    if mode == LINE_NONE:
        return 0
    wrap = mode == LINE_WRAP
    if left:
        return ((word << 1) | ((word >> (n - 1)) if wrap else 0)) & ((1 << n) - 1)
    return (word >> 1) | (((word & 1) << (n - 1)) if wrap else 0)


def family_offsets(col: int, pattern: int) -> int:
    """queens.h's family_offsets: a row's offsets pattern moved from column FAM_CENTER to ``col``."""
    return (pattern << (col - FAM_CENTER) if col >= FAM_CENTER else pattern >> (FAM_CENTER - col)) & MASK64


def family_step(family: Sequence[int], n: int, a: tuple[int, ...], bit: int) -> tuple[int, ...]:
    """queens.h's family_step: (cols, left, right, near, far) on the row below a queen on ``bit``."""
    cols, left, right, near, far = a
    col = bit.bit_length() - 1
    offsets = family[FAM_ONE] | family[FAM_TWO]
    return (cols | bit, family_line(family[FAM_LEFT], n, left | bit, True),
            family_line(family[FAM_RIGHT], n, right | bit, False),
            far | family_offsets(col, family[FAM_ONE]) if offsets else 0,
            family_offsets(col, family[FAM_TWO]) if offsets else 0)


def family_ahead(family: Sequence[int], n: int, below: tuple[int, ...], beyond: int) -> bool:
    """queens.h's family_ahead (QUEENS_AHEAD for the family): whether the row two
    below a queen has a cell open whatever the row between takes."""
    cols, left, right, _, far = below
    return ~(cols | family_line(family[FAM_LEFT], n, left, True) | family_line(family[FAM_RIGHT], n, right, False)
             | far) & beyond != 0


def walk_of(family: Sequence[int], n: int, allowed: Sequence[int], stack: MutableSequence[int],
            board: MutableSequence[int], out: MutableSequence[int], classify: bool, tie: int, limit: int,
            stop_at: int) -> None:
    """The walk (``walk_of`` in queens.h), for the member whose descriptor is
    ``family`` (PLAIN: plain queens): the search of one sub-board that can stop
    and go on, after ``limit`` solutions in all (0: no limit; ``board`` then
    holds the last one) or once the nodes reach ``stop_at`` (0: never).  out:
    the tallies (EIGHT .. TIED) and the row to resume from (ROW: NEW for a new
    search, -1 once searched).  stack: n + 1 rows of ROW_WORDS words
    (ROW_WORDS_OFFSETS for a member with offsets)."""
    full = (1 << n) - 1
    masks = [(a & full, need) for a, need in zip(allowed, needed_masks(n, allowed))]
    offsets = bool(family[FAM_ONE] | family[FAM_TWO])
    w = ROW_WORDS_OFFSETS if offsets else ROW_WORDS
    inverse = [0] * n
    last, row = n - 1, out[ROW]

    def attacks(row: int) -> tuple[int, ...]:
        at = w * row
        return (stack[at + COLS], stack[at + LEFT], stack[at + RIGHT], *((stack[at + NEAR], stack[at + FAR])
                                                                          if offsets else (0, 0)))

    def set_attacks(row: int, a: tuple[int, ...]) -> None:
        at = w * row
        stack[at + COLS], stack[at + LEFT], stack[at + RIGHT] = a[:3]
        if offsets:
            stack[at + NEAR], stack[at + FAR] = a[3:]

    def free_cells(a: tuple[int, ...], mask: tuple[int, int]) -> int:  # queens.h's family_free
        cols, left, right, near, _ = a
        allowed_cells, needed = mask
        return restrict(~(cols | left | right | near) & allowed_cells, needed & ~cols)

    if row == NEW:
        none = (0, 0, 0, 0, 0)
        set_attacks(0, none)
        stack[TODO] = free_cells(none, masks[0])
        row = 0
    while row >= 0 and (stop_at == 0 or out[NODES] < stop_at):
        here = w * row
        free = stack[here + TODO]
        if free == 0:
            row -= 1
            continue
        bit = free & -free  # the lowest free cell
        stack[here + TODO] = free ^ bit
        out[NODES] += 1
        leaf = bit
        if row != last:  # (row 0 is the last only when n == 1)
            below = family_step(family, n, attacks(row), bit)
            set_attacks(row + 1, below)
            leaf = free_cells(below, masks[row + 1])
            if row + 1 != last:
                row += 1
                stack[w * row + TODO] = leaf if family_ahead(family, n, below, masks[row + 1][0]) else 0
                continue
            if leaf == 0:
                continue
            out[NODES] += 1
        board[last] = leaf
        if classify or limit:  # the board, read off the stack's columns
            for r in range(last):
                board[r] = stack[w * (r + 1) + COLS] & ~stack[w * r + COLS]
        tally(out, n, board, inverse, classify, tie)
        if limit and out[EIGHT] + out[FOUR] + out[TWO] >= limit:
            break
    out[ROW] = row


def family_walk(family: Sequence[int], n: int, allowed: Sequence[int], stack: MutableSequence[int],
                board: MutableSequence[int], out: MutableSequence[int], limit: int, stop_at: int) -> None:
    """queens.h's family_walk: any member's walk (:func:`walk_of`), every solution in out[EIGHT]."""
    walk_of(family, n, allowed, stack, board, out, False, 0, limit, stop_at)
