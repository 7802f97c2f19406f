"""Counting with the whole symmetry group: one board per class of the eight symmetries.

The corner / inner method of the 2003 "takaken" program, with its bounds
written as sub-boards (one mask of allowed columns per row) so that the
compiled search (:mod:`nqueens_cp.kernel`) does all the searching:

* **corner**: a queen in the corner of row 0.  Row 1's queen stands in
  column ``first`` (2 .. n-2), and column 1 stays empty in the rows above
  ``first``: of a board and its reflection in the main diagonal (the only
  symmetry that keeps the corner queen) exactly one has column 1's queen
  below row 1's.  No such board has any symmetry, so each is one class of 8.
* **inner**: no queen in a corner.  Row 0's queen stands in column ``first``
  < (n-1)/2, and no border queen is nearer a corner than it: the border
  columns are empty in rows 1 .. first-1 and n-first .. n-1, and the last
  row's queen avoids the ``first`` columns next to each border.  A solution
  found is counted only if none of its quarter, half and three-quarter turns
  is less (row by row); then it is one class, of size 2 if a quarter turn
  leaves it unchanged, 4 if a half turn does, else 8.  (The reflections map
  row 0's queen onto a square it attacks or to column n-1-first, so their
  images are never searched.)  Under these bounds a turn can only tie with
  the board in row 0 when row ``first``'s queen stands in column n-1 (three
  quarters), row n-1-first's in column 0 (a quarter) or row n-1's in column
  n-1-first (a half turn).  So each inner family is cut in three parts: a
  queen on the first tie square; none there and one on the second; none on
  either.  In the first two the squares the fixed queen attacks are taken
  off the other rows (so that they prune from the top) and the leaves are
  compared with their turns (``classify``).  The third is counted without
  comparing: a board not on the third tie square is the least of a class of
  8; the boards on it pair up by the half turn (a board and its image are
  both here), so they make (m - h) / 2 classes of 8 and h of 4, with m the
  boards on the square (the loop counts them: ``tie``) and h those the half
  turn leaves unchanged (a small search of its own, :func:`count_half_turn`
  with the part's masks).

The loop prunes with one generic rule that makes takaken's check at row
n-1-first fall out of the masks: a column that no later row allows must be
taken by the time its last allowing row is placed (``kernel.twin.needed_masks``).

Every family is split into sub-boards by fixing the queens of rows 1 and 2
(:data:`DEPTH`): the tasks of a split count, on the local pool or a cluster.

The whole count is one call, :func:`count`: it lists the tasks, hands them
to whoever runs tasks (``execution.execute``: processes, a cluster,
checkpoints) with the small searches to run beside them, and adds up, pairs
and checks what comes back.

Both published numbers come out of one run: total = 8a + 4b + 2c (OEIS
A000170) and fundamental = a + b + c (A002562), a, b, c the classes of size
8, 4 and 2.  They are checked against two small independent searches for the
solutions a half turn and a quarter turn leave unchanged (S180 = 4b + 2c,
S90 = 2c), so a slip in the bookkeeping cannot pass silently.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from ..errors import NQueensError, TimeLimitReached

MIN_N = 6  # below this a plain count is quicker than listing sub-boards
DEPTH = 3  # rows 0 .. DEPTH-1 fixed in every sub-board (up to DEEP_MAX_N)
DEEP_MAX_N = 24  # beyond, fewer rows are fixed: tasks enough for any cluster, and their list stays small
MAX_N = 62  # the compiled search's words: beyond, a count by classes is not offered
METHOD = "symmetry-classes-3"  # the decomposition, as checkpoints record it (3: inner families in three parts)
VALUES = 5  # the numbers a task gives (count_sub_boards), as checkpoints record them
Values = tuple[int, int, int, int, int]  # (classes of 8, 4, 2, nodes, boards on a tie square)


class SubBoard(NamedTuple):
    """One task of a count by classes: rows 0 .. DEPTH-1 fixed, one mask per row."""

    family: str  # "corner" or "inner"
    first: int
    allowed: tuple[int, ...]
    classify: bool = False  # compare each solution with its turns; else each is a class of 8 ...
    tie: int = 0  # ... but those with the last queen on this square, which pair up by the half turn


def families(n: int) -> Iterator[SubBoard]:
    """The corner sub-board of each ``first``, and the three parts of the inner
    family of each ``first`` (nothing fixed below row 1, or row 0 for inner)."""
    full = (1 << n) - 1
    last = n - 1
    for first in range(2, last):
        allowed = [full] * n
        allowed[0], allowed[1] = 1, 1 << first
        for r in range(2, first):
            allowed[r] = full & ~2
        yield SubBoard("corner", first, tuple(allowed))
    side = 1 | 1 << last
    first = 1
    while 2 * first < last:
        allowed = [full] * n
        allowed[0] = 1 << first
        for r in [*range(1, first), *range(n - first, last)]:
            allowed[r] = full & ~side
        near_borders = ((1 << first) - 1) | (((1 << first) - 1) << (n - first))
        allowed[last] = full & ~near_borders
        # The squares where a turn's row 0 can equal the board's (three quarter
        # and quarter turn): part i has a queen on tie i and none on ties before
        # it; the last part none on either, counted with the half turn's tie.
        ties = [(first, 1 << last), (last - first, 1)]
        for part in range(len(ties) + 1):
            masks = list(allowed)
            for row, square in ties[:part]:
                masks[row] &= ~square
            if part < len(ties):
                yield SubBoard("inner", first, tuple(_fixed_on(masks, *ties[part])), classify=True)
            else:
                yield SubBoard("inner", first, tuple(masks), tie=1 << (last - first))
        first += 1


def _fixed_on(masks: list[int], row: int, queen: int) -> list[int]:
    """masks with row's queen on the square ``queen`` and the squares it
    attacks taken off the other rows, so that a queen fixed low on the board
    prunes the search from the top."""
    return [mask & queen if r == row else mask & ~(queen | queen << abs(r - row) | queen >> abs(r - row))
            for r, mask in enumerate(masks)]


def fix_rows(n: int, allowed: tuple[int, ...], depth: int) -> Iterator[tuple[int, ...]]:
    """allowed with rows 0 .. depth-1 fixed in every non-attacking way."""
    def place(row: int, prefix: list[int]) -> Iterator[tuple[int, ...]]:
        if row == min(depth, n):
            yield (*prefix, *allowed[row:])
            return
        free = allowed[row]
        for r, bit in enumerate(prefix):
            free &= ~(bit | bit << (row - r) | bit >> (row - r))
        while free:
            bit = free & -free
            free ^= bit
            yield from place(row + 1, [*prefix, bit])

    return place(0, [])


def depth_for(n: int) -> int:
    """Rows fixed in every sub-board of n: DEPTH up to N = 24 (thousands of
    sub-boards), then 2 up to 40, then 1: about n^(depth-1) sub-boards per
    family, so that the list of tasks stays small at any N."""
    return DEPTH if n <= DEEP_MAX_N else 2 if n <= 40 else 1


def sub_boards(n: int, depth: int | None = None) -> list[SubBoard]:
    """Every task of a count by classes, the biggest (inner, small ``first``) first."""
    fixed_rows = depth_for(n) if depth is None else depth
    tasks = [SubBoard(family.family, family.first, fixed, family.classify, family.tie)
             for family in families(n) for fixed in fix_rows(n, family.allowed, fixed_rows) if all(fixed)]
    return sorted(tasks, key=lambda task: (task.family != "inner", task.first))


def count_sub_boards(n: int, chunk: list[SubBoard]) -> Values:
    """(classes of size 8, 4, 2, nodes, boards on a tie square) of a list of
    sub-boards, in the compiled loop: the boards on tie squares are not in
    the classes yet (see :func:`tally`)."""
    from .. import kernel

    t = kernel.count_boards(n, [(task.allowed, task.tie, task.classify) for task in chunk])
    return t.eight - t.tied, t.four, t.two, t.nodes, t.tied


def valid_values(values: tuple[int, ...]) -> bool:
    """Whether these could be :func:`count_sub_boards`'s numbers for a task
    (a checkpoint believes no other): five counts, none negative, and at
    least a node for every board counted."""
    if len(values) != VALUES or any(type(v) is not int or v < 0 for v in values):
        return False
    eight, four, two, nodes, tied = values
    return nodes >= eight + four + two + tied


def symmetric_on_ties(n: int, deadline: float | None = None) -> int:
    """h: the boards on the tie squares of the inner families' third parts
    that the half turn leaves unchanged (each a class of 4)."""
    return sum(count_half_turn(n, deadline, family.allowed) for family in families(n) if family.tie)


def tally(n: int, eight: int, four: int, two: int, tied: int, symmetric: int) -> Tally:
    """The classes, once the boards on tie squares are paired: of ``tied``
    boards, ``symmetric`` are their own half-turn image (classes of 4), the
    others pair with their image (one class of 8 a pair)."""
    if (tied - symmetric) % 2 or symmetric > tied:
        raise NQueensError(f"N={n}: {tied} boards on tie squares, {symmetric} of them symmetric, do not pair up: "
                           "a counting error")
    return Tally(n, eight + (tied - symmetric) // 2, four + symmetric, two)


def chunks(n: int, size: int) -> list[list[SubBoard]]:
    """The sub-boards in lists of ``size``: the tasks of a split count."""
    found = sub_boards(n)
    return [found[i:i + size] for i in range(0, len(found), size)]


Side = tuple[tuple[int, int], int]  # ((S180, S90) searched on their own, h: symmetric boards on tie squares)


class Work(NamedTuple):
    """A count as work to hand out (what :func:`count` gives its runner; the
    count by quarters, :mod:`.join`, makes one too)."""

    n: int
    tasks: list[Any]  # each the argument of ``part`` (here a list of sub-boards)
    record: dict[str, Any]  # what a checkpoint of this count records, to know it again
    valid: Callable[[tuple[int, ...]], bool]  # whether a task's values, read back, could be right
    side: Callable[[], Side]  # the small searches, to run beside the tasks (or after them)
    part: Callable[[int, Any], tuple[int, ...]] | None = None  # a task's values; None: the engine's count_sub_boards
    width: int = VALUES  # how many values a task gives
    exact: tuple[int, ...] = (0, 1, 2, 4)  # the values a task gives again, counted again (the rest are statistics)
    # Each task's cost, about (any unit), where it is known: the longest are started first, so that the
    # last processes to finish end together; None: the tasks go out in an order of their own, shuffled;
    # a function: what it returns, computed by the runner when it needs the costs (after it has started
    # its workers, where it can).
    cost: list[float] | Callable[[], list[float]] | None = None


Runner = Callable[[Work], tuple[Values, Side]]  # runs every task: (their values summed, the side searches')


def count_by_classes(n: int, per_task: int, run: Runner, deadline: float | None = None) -> tuple[Tally, Work, int]:
    """The count of N by symmetry classes, behind one call: the tasks (sub-boards,
    ``per_task`` to a task), run by ``run`` (which sums each task's
    :func:`count_sub_boards` values and runs ``Work.side``, the small searches
    of the check and of the tie squares), then the boards on tie squares paired
    (:func:`tally`) and the classes checked against S180 and S90.  The tally,
    the work it came from, and the nodes its tasks searched."""

    def side() -> Side:
        return symmetric_counts(n, deadline), symmetric_on_ties(n, deadline)

    tasks = chunks(n, per_task)
    work = Work(n, tasks, {"n": n, "method": METHOD, "tasks": len(tasks), "sub_boards_per_task": per_task},
                valid_values, side)
    (eight, four, two, nodes, tied), (searched, on_ties) = run(work)
    found = tally(n, eight, four, two, tied, on_ties)
    found.check(deadline, searched)
    return found, work, nodes


# --- the symmetric solutions, searched on their own as a check ----------------------

def count_half_turn(n: int, deadline: float | None = None, allowed: Sequence[int] | None = None,
                    compiled: bool = True) -> int:
    """S180: solutions that a half turn leaves unchanged, q[n-1-r] = n-1-q[r]
    (with ``allowed``, only those with row r's queen in allowed[r]):
    :func:`nqueens_cp.kernel.count_half_turn`, compiled where it is quick
    (it cannot stop at a deadline), else (or with ``compiled=False``) in its
    Python twin, which reads the clock."""
    from .. import kernel

    allowed = [(1 << n) - 1] * n if allowed is None else list(allowed)
    if compiled and (deadline is None or n <= 20) and kernel.compiled() and n <= kernel.HALF_TURN_MAX_N:
        return kernel.count_half_turn(n, allowed)
    return kernel.count_half_turn(n, allowed, compiled=False, deadline=deadline)


def _attack(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])


def count_quarter_turn(n: int, deadline: float | None = None) -> int:
    """S90: solutions that a quarter turn leaves unchanged: with (r, c) the
    board holds (c, n-1-r), (n-1-r, n-1-c) and (n-1-c, r)."""
    if n == 1:
        return 1
    if n % 4 not in (0, 1):
        return 0  # the squares fall in 4-cycles (and the centre): n must be 4k or 4k+1
    last = n - 1
    q: dict[int, int] = {n // 2: n // 2} if n % 2 else {}  # row -> column; the centre is its own image

    def place() -> int:
        r = next((i for i in range(n) if i not in q), None)
        if r is None:
            return 1
        total = 0
        for c in range(n):
            cycle = [(r, c), (c, last - r), (last - r, last - c), (last - c, r)]
            if len(set(cycle)) != 4 or any(a in q for a, _ in cycle):
                continue
            queens = [*q.items(), *cycle]
            if any(_attack(x, y) for x in cycle for y in queens if x != y):
                continue
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitReached
            q.update(cycle)
            total += place()
            for a, _ in cycle:
                del q[a]
        return total

    return place()


def symmetric_counts(n: int, deadline: float | None = None) -> tuple[int, int]:
    """(S180, S90), each searched on its own: what :meth:`Tally.check` compares."""
    return count_half_turn(n, deadline), count_quarter_turn(n, deadline)


class Tally(NamedTuple):
    """Both published numbers of one N, from the classes of size 8, 4 and 2."""

    n: int
    eight: int  # a: classes with no symmetry
    four: int  # b: classes a half turn (but no quarter turn) leaves unchanged
    two: int  # c: classes a quarter turn leaves unchanged

    @property
    def total(self) -> int:
        """OEIS A000170."""
        return 1 if self.n == 1 else 8 * self.eight + 4 * self.four + 2 * self.two

    @property
    def fundamental(self) -> int:
        """OEIS A002562: solutions counted once per class of the 8 symmetries."""
        return 1 if self.n == 1 else self.eight + self.four + self.two

    @property
    def half_turn(self) -> int:
        """S180: solutions a half turn leaves unchanged."""
        return 1 if self.n == 1 else 4 * self.four + 2 * self.two

    @property
    def quarter_turn(self) -> int:
        """S90: solutions a quarter turn leaves unchanged."""
        return 1 if self.n == 1 else 2 * self.two

    def check(self, deadline: float | None = None, searched: tuple[int, int] | None = None) -> None:
        """Compare S180 and S90 with their own searches (``searched``: their
        results, from :func:`symmetric_counts`, else they run here); a mismatch
        is a counting error."""
        half, quarter = searched or symmetric_counts(self.n, deadline)
        if (half, quarter) != (self.half_turn, self.quarter_turn):
            raise NQueensError(f"N={self.n}: the symmetry classes do not add up (classes of 8, 4, 2: "
                               f"{self.eight}, {self.four}, {self.two}; searched S180 {half}, S90 {quarter}): "
                               "a counting error")

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "total": self.total, "fundamental": self.fundamental, "classes_8": self.eight,
                "classes_4": self.four, "classes_2": self.two, "half_turn_symmetric": self.half_turn,
                "quarter_turn_symmetric": self.quarter_turn}
