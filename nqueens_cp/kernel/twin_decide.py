"""The decision search's Python twin: the specification of ``decide.c``.

A search for *one* board, written the way a CP solver searches rather than
the way a counter does (docs/decision.md tells the story, each idea measured):

- **Forward checking.**  Every line (a row or a column) keeps the number of
  its cells still free; a placement that leaves an open line none is a dead
  end at once, not rows later.
- **Dynamic ordering** (``ORDER``): branch on the open line, row *or*
  column, with the fewest free cells.  Every board has a queen on every
  line, so trying each free cell of any one line is a complete branching.
  Off: the first open row, top down.
- **Value order** (``VALUES``): try first the cell that takes the fewest
  free cells from the other lines (its crossing line's count plus its two
  diagonals' counts).  Off: left to right (top to bottom on a column).
- **Restarts** (``RESTARTS``): ties in both orders are broken by random
  priorities, drawn afresh for each run from the seed (splitmix64: the same
  seed gives the same board).  A run stops after ``cutoff`` nodes and the
  next starts over; run r's cutoff is (N + FIRST_CUTOFF) times the Luby
  sequence's term r + 1 (1 1 2 1 1 2 4 ...: many short runs, now and then a
  long one).  A run that ends inside its cutoff has searched its whole
  tree, so its "none" is a proof; as the Luby terms grow without bound,
  some run always does.  Off: one run, no cutoff.

A node is a queen placed.  The C search follows this one node for node, and
the tests hold them to it.  Cells are tested one at a time here; the C code
keeps the same state in multi-word bitsets.

Where it is not line for line, and why: it is a class whose methods carry
decide.c's steps under Python's names (``select`` is ``select_line``,
``_tally`` is ``count_cell``, ``advance`` is ``decide_advance``,
``place``/``unplace`` are ``place`` with ``by`` = +1/-1), and a cell's
freedom is a method where C reads bit sets.  The order of every choice is
the same: the C search follows this one node for node (tests/test_decision.py).
"""

from __future__ import annotations

from collections.abc import Sequence

ORDER, VALUES, RESTARTS = 1, 2, 4  # decide.h's DECIDE_* flags
ALL = ORDER | VALUES | RESTARTS
FIRST_CUTOFF = 64  # nodes of the first run beyond one a row (run r's cutoff: that many times luby(r + 1))

# What a search is doing, or how it ended (decide.h's DECIDE_* states).
DESCEND, NEXT, FOUND, NONE = 0, 1, 2, 3

MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """(next state, a random 64-bit word): Vigna's splitmix64, as in decide.c."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def luby(i: int) -> int:
    """Term i >= 1 of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: the
    restart schedule within a log factor of the best for any distribution of
    run lengths (Luby, Sinclair and Zuckerman 1993)."""
    while True:
        k = 1
        while (1 << k) - 1 < i:
            k += 1
        if (1 << k) - 1 == i:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def priorities(n: int, seed: int, run: int) -> list[int]:
    """A run's tie-breaking priority of each line (rows 0..n-1, then columns)."""
    state = (seed ^ (run * 0xD1B54A32D192ED03)) & MASK64
    prio = []
    for _ in range(2 * n):
        state, word = splitmix64(state)
        prio.append(word >> 32)
    return prio


class Decide:
    """One decision search of a board whose row r allows the columns in
    ``allowed[r]`` (None: every cell), stoppable every so many nodes."""

    def __init__(self, n: int, allowed: Sequence[int] | None, seed: int = 0, flags: int = ALL) -> None:
        self.n, self.seed, self.flags = n, seed & MASK64, flags
        self.allowed = allowed
        # queen[line]: the queen's cell index along a line (a row's column, a column's row), or -1.
        self.queen = [-1] * (2 * n)
        self.up = [False] * (2 * n - 1)  # diagonal r + c taken
        self.down = [False] * (2 * n - 1)  # diagonal c - r + n - 1 taken
        self.count = [0] * (2 * n)  # free cells of each line
        self.up_count = [0] * (2 * n - 1)
        self.down_count = [0] * (2 * n - 1)
        for r in range(n):
            for c in range(n):
                if self.allowed_cell(r, c):
                    self._tally(r, c, 1)
        self.stack: list[list[int]] = []  # [line, value tried there or -1]
        self.nodes = self.run_nodes = self.run = 0
        self.cutoff = n + FIRST_CUTOFF
        self.state = DESCEND
        self.prio = priorities(n, self.seed, 0)

    # --- cells and lines ------------------------------------------------------

    def allowed_cell(self, r: int, c: int) -> bool:
        return self.allowed is None or bool(self.allowed[r] >> c & 1)

    def free(self, r: int, c: int) -> bool:
        n = self.n
        return (self.queen[r] < 0 and self.queen[n + c] < 0 and not self.up[r + c]
                and not self.down[c - r + n - 1] and self.allowed_cell(r, c))

    def cell(self, line: int, i: int) -> tuple[int, int]:
        """The i-th cell (row, column) of a line."""
        return (line, i) if line < self.n else (i, line - self.n)

    def _tally(self, r: int, c: int, by: int) -> None:
        n = self.n
        self.count[r] += by
        self.count[n + c] += by
        self.up_count[r + c] += by
        self.down_count[c - r + n - 1] += by

    def _lines_through(self, r: int, c: int, by: int) -> None:
        """Add ``by`` to the counts of every free cell on the row, the column
        and the two diagonals through (r, c), that cell once."""
        n = self.n
        for i in range(n):
            if self.free(r, i):
                self._tally(r, i, by)
            if i != r and self.free(i, c):
                self._tally(i, c, by)
            for j in (c + (i - r), c - (i - r)):  # the diagonals' cells in row i
                if i != r and 0 <= j < n and self.free(i, j):
                    self._tally(i, j, by)

    def place(self, r: int, c: int) -> None:
        self._lines_through(r, c, -1)
        n = self.n
        self.queen[r], self.queen[n + c] = c, r
        self.up[r + c] = self.down[c - r + n - 1] = True

    def unplace(self, r: int, c: int) -> None:
        n = self.n
        self.queen[r] = self.queen[n + c] = -1
        self.up[r + c] = self.down[c - r + n - 1] = False
        self._lines_through(r, c, 1)  # (the same cells, free again)

    # --- the two orders -------------------------------------------------------

    def select(self) -> int:
        """The line to branch on: -1 if an open line has no free cell (a dead
        end), -2 if every line has its queen (a board)."""
        best, best_key, first_row = -2, None, -2
        for line in range(2 * self.n):
            if self.queen[line] >= 0:
                continue
            if self.count[line] == 0:
                return -1
            if first_row == -2 and line < self.n:
                first_row = line
            key = (self.count[line], self.prio[line], line)
            if best_key is None or key < best_key:
                best, best_key = line, key
        return best if self.flags & ORDER else first_row

    def value_key(self, line: int, i: int) -> tuple[int, int, int]:
        """The order of a line's i-th cell: fewest free cells taken from the
        lines crossing it (with VALUES), then the run's priority of its
        crossing line; without VALUES, i alone."""
        n = self.n
        crossing = i if line >= n else n + i
        if not self.flags & VALUES:
            return 0, 0, i
        r, c = self.cell(line, i)
        cost = self.count[crossing] + self.up_count[r + c] + self.down_count[c - r + n - 1]
        return cost, self.prio[crossing], i

    def next_value(self, line: int, after: int) -> int:
        """The free cell of a line that comes next after cell ``after`` (-1:
        the first), or -1 if none is left."""
        last = self.value_key(line, after) if after >= 0 else None
        best, best_key = -1, None
        for i in range(self.n):
            if self.free(*self.cell(line, i)):
                key = self.value_key(line, i)
                if (last is None or key > last) and (best_key is None or key < best_key):
                    best, best_key = i, key
        return best

    # --- the search -----------------------------------------------------------

    def restart(self) -> None:
        while self.stack:
            line, value = self.stack.pop()
            if value >= 0:
                self.unplace(*self.cell(line, value))
        self.run += 1
        self.run_nodes = 0
        self.cutoff = (self.n + FIRST_CUTOFF) * luby(self.run + 1)
        self.prio = priorities(self.n, self.seed, self.run)
        self.state = DESCEND

    def advance(self, nodes: int = 0) -> bool:
        """Search on, for at most ``nodes`` more nodes (0: no bound); True once
        the search has ended (a board found, or none proved)."""
        stop_at = self.nodes + nodes if nodes else 0
        while self.state in (DESCEND, NEXT):
            if stop_at and self.nodes >= stop_at:
                return False
            if self.state == DESCEND:
                line = self.select()
                if line == -2:
                    self.state = FOUND
                elif self.flags & RESTARTS and self.run_nodes >= self.cutoff:
                    self.restart()
                elif line >= 0:
                    self.stack.append([line, -1])
                    self.state = NEXT
                else:  # a dead end: try the next cell of the line above
                    self.state = NEXT if self.stack else NONE
                continue
            top = self.stack[-1]
            if top[1] >= 0:
                self.unplace(*self.cell(top[0], top[1]))
            value = self.next_value(top[0], top[1])
            if value < 0:
                self.stack.pop()
                if not self.stack:
                    self.state = NONE
                continue
            top[1] = value
            self.place(*self.cell(top[0], value))
            self.nodes += 1
            self.run_nodes += 1
            self.state = DESCEND
        return True

    @property
    def found(self) -> bool:
        return self.state == FOUND

    def solution(self) -> tuple[int, ...]:
        return tuple(self.queen[:self.n])
