"""The specification of repair.c, in Python: the same local search, swap for
swap, for the same seed (the tests hold the two together on many boards).

Read this first; repair.c is the same steps with the state in C arrays.  The
board is a permutation ``q`` (row r's queen in column ``q[r]``), so rows and
columns never conflict; for each further family of lines (the lines of
c - r and of c + r, wrapping or not) ``count`` holds the queens on each line.
The **cost** is the number of attacking pairs (and one for each queen on a
blocked square); a board with cost 0 is a solution.

1. **The start** (Sosič and Gu's QS4): row by row, draw the row's column
   from those not yet used (a Fisher-Yates shuffle: one swap a draw) until no
   queen placed so far attacks it, at most ``START_TRIES`` draws.  Almost
   every queen finds a free square; those that did not are *noted*.
2. **The repair**: while the last noted queen is attacked, swap its column
   with a random row's; keep the swap if the cost went down (a swap changes
   four squares: its cost is known in O(1)).  After ``2M + 32`` swaps in
   vain (M: the rows that move), start again from the current permutation.

Every attacking pair has a noted queen, so the board is a solution once the
notes are empty.  It also runs the searches where the C module is not built.

Where it is not line for line, and why: repair.c has a FILL state that
writes the identity into a huge board a step at a time (so that a board of
millions of rows is filled between two looks at the clock); the twin
builds its list at once, as Python does, so it has no FILL.  Nor does it
take a deadline: ``advance(swaps)`` stops after a budget of swaps, and the
caller (kernel.Repair.advance) looks at the clock between slices of them.  The swaps, for
the same seed, are the same (tests/test_repair.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .twin import LINE_NONE, LINE_WRAP
from .twin_decide import MASK64, splitmix64

START, SWAP, FOUND, NOMEM, FILL = range(5)  # repair.h's REPAIR_START, ... (a test checks them; FILL is C's)
MAX_OFFSETS = 8
START_TRIES = 64


class Repair:
    """One search: ``advance`` it until ``state`` is FOUND; ``q`` is the board."""

    def __init__(self, n: int, down: int, up: int, offsets: Sequence[tuple[int, int]] = (),
                 fixed: Iterable[tuple[int, int]] = (), blocked: Iterable[int] = (), seed: int = 0) -> None:
        fixed = sorted(fixed)
        if len(offsets) > MAX_OFFSETS:
            raise ValueError(f"at most {MAX_OFFSETS} offsets, got {len(offsets)}")
        self.n, self.m = n, n - len(fixed)
        self.mode = (down, up)
        self.count = [None if mode == LINE_NONE else [0] * (n if mode == LINE_WRAP else 2 * n - 1)
                      for mode in self.mode]
        self.offsets = list(offsets)
        self.blocked = frozenset(blocked)
        self.rng = seed & MASK64
        self.swaps = self.moves = self.restarts = self.attacked = 0
        self.is_fixed = {r for r, _ in fixed}
        self.q = [0] * n
        if not fixed:
            self.row: list[int] | None = None
            self.q = list(range(n))  # the identity: the start shuffles it
        else:
            # The movable rows, ascending, take the columns no fixed queen holds, ascending.
            self.row = [r for r in range(n) if r not in self.is_fixed]
            used = {c for _, c in fixed}
            for r, c in fixed:
                self.q[r] = c
            for r, c in zip(self.row, (c for c in range(n) if c not in used)):
                self.q[r] = c
        self._begin()

    # -- the board's lines ----------------------------------------------------

    def _uniform(self, size: int) -> int:
        self.rng, word = splitmix64(self.rng)
        return (word >> 32) * size >> 32

    def _row_at(self, k: int) -> int:
        return k if self.row is None else self.row[k]

    def _line(self, f: int, r: int, c: int) -> int:
        n = self.n
        if f == 0:
            return (c - r) % n if self.mode[0] == LINE_WRAP else c - r + n - 1
        return (c + r) % n if self.mode[1] == LINE_WRAP else c + r

    def _placed(self, r: int) -> bool:
        return r < self.frontier or r in self.is_fixed

    def _attacks(self, r: int, c: int) -> int:
        """The cost a queen on (r, c) would add, among the queens on the board."""
        n, q = self.n, self.q
        hits = sum(count[self._line(f, r, c)] for f, count in enumerate(self.count) if count is not None)
        for dr, dc in self.offsets:
            if r + dr < n and 0 <= c + dc < n and self._placed(r + dr) and q[r + dr] == c + dc:
                hits += 1
            if r - dr >= 0 and 0 <= c - dc < n and self._placed(r - dr) and q[r - dr] == c - dc:
                hits += 1
        return hits + (r * n + c in self.blocked)

    def _put(self, r: int, c: int) -> None:
        self.cost += self._attacks(r, c)
        for f, count in enumerate(self.count):
            if count is not None:
                count[self._line(f, r, c)] += 1
        self.q[r] = c

    def _lift(self, r: int) -> None:
        c, self.q[r] = self.q[r], -1
        for f, count in enumerate(self.count):
            if count is not None:
                count[self._line(f, r, c)] -= 1
        self.cost -= self._attacks(r, c)

    def _swap(self, a: int, b: int, ca: int, cb: int) -> None:
        """Rows a and b's queens lifted, then put on columns ca and cb."""
        self._lift(a)
        self._lift(b)
        self._put(a, ca)
        self._put(b, cb)

    def _is_attacked(self, r: int) -> bool:
        c = self.q[r]
        self._lift(r)
        before = self.cost
        self._put(r, c)
        return self.cost != before

    # -- the search -----------------------------------------------------------

    def _begin(self) -> None:
        """A start from the current permutation, the fixed queens on their lines."""
        self.cost, self.next, self.since = 0, 0, 0
        self.todo: list[int] = []
        self.frontier = self.n
        for r in sorted(self.is_fixed):
            c, self.q[r] = self.q[r], -1
            self._put(r, c)
        self.frontier = self._row_at(0) if self.m else self.n
        self.state = START if self.m else SWAP

    def _start_row(self) -> None:
        k, r, q = self.next, self.frontier, self.q
        tries = 1
        while True:
            other = self._row_at(k + self._uniform(self.m - k))
            q[other], q[r] = q[r], q[other]  # Fisher-Yates: one swap a draw
            self.swaps += 1
            if self._attacks(r, q[r]) == 0 or tries == START_TRIES or k + 1 == self.m:
                break
            tries += 1
        self.frontier = self._row_at(k + 1) if k + 1 < self.m else self.n
        before = self.cost
        c, q[r] = q[r], -1
        self._put(r, c)
        self.next = k + 1
        if self.cost != before:
            self.todo.append(r)
        if self.next == self.m:
            self.state, self.attacked = SWAP, len(self.todo)

    def _swap_step(self) -> None:
        a = self.todo[-1]
        if not self._is_attacked(a):
            self.todo.pop()
            return
        b = self._row_at(self._uniform(self.m))
        self.swaps += 1
        self.since += 1
        if b == a:
            return
        before, ca, cb = self.cost, self.q[a], self.q[b]
        self._swap(a, b, cb, ca)
        if self.cost >= before:  # no better: undo
            self._swap(a, b, ca, cb)
            return
        self.moves += 1
        self.since = 0
        if self._is_attacked(b):
            self.todo.append(b)

    def advance(self, swaps: int = 0) -> int:
        """Search on for at most about ``swaps`` more swaps tried (0: to the end)."""
        stop = self.swaps + swaps
        while self.state != FOUND and (swaps == 0 or self.swaps < stop):
            if self.state == START:
                self._start_row()
            elif self.cost == 0 or not self.todo:
                self.state = FOUND
            elif self.since > 2 * self.m + 32:  # stuck on a local minimum: start again
                self.count = [None if count is None else [0] * len(count) for count in self.count]
                self._begin()
                self.restarts += 1
            else:
                self._swap_step()
        return self.state
