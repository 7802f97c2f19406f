"""Hand-written bitwise backtracking.

Bit c of a mask stands for column c.  Three masks carry the columns and the
two diagonal directions attacked by the queens above; ``a & -a`` takes the
lowest free column.  Pre-placed queens and blocked squares become one mask
of allowed columns per row (:func:`sub_board`).  Counting a plain N goes by
symmetry classes (:mod:`nqueens_cp.counting.classes`), a constrained one searches its
whole sub-board, and ``solve`` is a decision search in the compiled loop
that stops at the first solution.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..model.board import Position, Solution
from ..errors import TimeLimitReached
from .base import Engine, Status

NODES_PER_CHECK = 1 << 22  # compiled nodes between looks at the clock (about 0.05 s)
SPLIT_ROWS = 2  # open rows fixed per part of a split decision: about N^2 parts ...
SPLIT_ROWS_MAX_N = 64  # ... up to here; beyond, one row (N parts: listing N^2 would take longer than a search)


def decide(n: int, masks: list[int]) -> tuple[Solution | None, int]:
    """The first solution of a sub-board in the compiled loop, or None: (solution, nodes)."""
    from .. import kernel

    walk = kernel.Walk(n, masks)
    walk.advance(limit=1)
    return (walk.solution() if walk.found else None), walk.nodes


def decide_position(n: int, placed: Position) -> tuple[Solution | None, int]:
    """:func:`decide` of a position: its sub-board is built where the part runs,
    so that N parts hold N positions, not N boards of N masks (N^3 bits)."""
    return decide(n, sub_board(n, placed))


def _count(n: int, allowed: list[int]) -> tuple[int, int]:
    """(solutions, nodes) of a sub-board, in the compiled search."""
    from .. import kernel

    tallies = kernel.count(n, allowed)
    return tallies.found, tallies.nodes


def sub_board(n: int, placed: Position) -> list[int]:
    """One mask of allowed columns per row: the pre-placed queen's column, or
    the open squares; minus every square a pre-placed queen attacks (no
    solution can use those), so that the search prunes from the first row."""
    masks = [placed.mask(r, n) for r in range(n)]
    for qr, qc in placed.items():
        for r in range(n):
            if r != qr:
                d = abs(r - qr)
                masks[r] &= ~((1 << qc) | (1 << (qc + d) if qc + d < n else 0) | (1 << (qc - d) if qc - d >= 0 else 0))
    return masks


class BitmaskEngine(Engine):
    name = "bitmask"
    splits_solve = True
    summary = ("bitwise backtracking; counting (one board per symmetry class) and deciding in C "
               "(nqueens_cp/kernel); the fastest enumerator")
    statistics = ("nodes", "kernel", "sub_boards", "total", "fundamental")
    counts_classes = True
    additive = frozenset({"nodes"})
    effort = "nodes"
    enumeration_rate = 1e5  # solutions a second on one core: the compiled walk, a call a solution
    count_rate = 4e6  # the compiled loop over symmetry classes
    first_solution_max_n = 32
    # A search holds a row's words for every row it has placed: n words of n
    # bits, 37 MB at N = 10,000 and 125 GB at N = 1,000,000.  Beyond, no
    # backtracking search finishes anyway ('solve --engine construct' does).
    max_n = 10_000
    max_n_why = ("a search holds N words of N bits (N^2 memory: 125 GB at N = 1,000,000); 'solve N -e construct' "
                 "gives a board of any N")

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        """The solutions in the compiled walk, one call a solution (stopping
        every NODES_PER_CHECK nodes as well to look at the clock)."""
        from .. import kernel

        walk = kernel.Walk(n, sub_board(n, fixed))
        stats["kernel"] = "c" if walk.compiled else "python"
        step = 0 if deadline is None else NODES_PER_CHECK if walk.compiled else NODES_PER_CHECK >> 7
        try:
            while True:
                found = walk.found
                done = walk.advance(limit=1, nodes=step)
                if walk.found > found:
                    yield walk.solution()
                if done:
                    return
                if deadline is not None and time.monotonic() > deadline:
                    raise TimeLimitReached
        finally:
            stats["nodes"] = walk.nodes

    def preload(self) -> None:
        """Load the compiled search (or say, once, that it is missing) before a pool's workers are forked."""
        from .. import kernel

        kernel.compiled()

    def solve_parts(self, n: int, placed: Position) -> list[tuple[Any, ...]]:
        """The decision split into sub-boards, in search order: the first two
        open rows fixed in every way the masks allow (each a call of
        :func:`decide_position`, which a process pool or a cluster can run)."""
        masks = sub_board(n, placed)
        rows = [r for r in range(n) if r not in placed][:SPLIT_ROWS if n <= SPLIT_ROWS_MAX_N else 1]
        parts: list[tuple[Any, ...]] = []

        def fix(i: int, chosen: dict[int, int]) -> None:
            if i == len(rows):
                parts.append((decide_position, n, placed.with_queens(chosen)))
                return
            row = rows[i]
            for col in range(n):
                attacked = any(c == col or abs(c - col) == abs(r - row) for r, c in chosen.items())
                if masks[row] >> col & 1 and not attacked:
                    fix(i + 1, {**chosen, row: col})

        fix(0, {})
        return parts

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> tuple[Status, Solution | None, str]:
        """A decision search in the compiled loop: stop at the first solution,
        looking at the clock every NODES_PER_CHECK nodes."""
        from .. import kernel

        deadline = None if time_limit is None else time.monotonic() + time_limit
        walk = kernel.Walk(n, sub_board(n, placed))
        stats["kernel"] = "c" if walk.compiled else "python"
        # The Python twin (no compiled module, or N > 62) is about 100 times slower: look at the clock as often.
        step = NODES_PER_CHECK if walk.compiled else NODES_PER_CHECK >> 7
        try:
            while not walk.advance(limit=1, nodes=step if deadline is not None else 0):
                if walk.found:
                    return Status.SOLVED, walk.solution(), ""
                if deadline is not None and time.monotonic() > deadline:
                    return Status.UNKNOWN, None, f"no answer within {time_limit:g} s"
            return Status.NONE, None, "the bitmask search tried every placement"
        finally:
            stats["nodes"] = walk.nodes

    def _count(self, n: int, fixed: Position, stats: dict[str, Any]) -> int | None:
        from .. import kernel

        allowed = sub_board(n, fixed)
        stats["kernel"] = "c" if kernel.compiled(n) else "python"
        if fixed or n == 1:
            total, nodes = _count(n, allowed)
        else:
            # Mirror halving: first-row queens left of the centre count twice,
            # the centre column (odd n) once.
            allowed[0] = (1 << (n // 2)) - 1
            total, nodes = _count(n, allowed)
            total *= 2
            if n % 2:
                allowed[0] = 1 << (n // 2)
                middle, more = _count(n, allowed)
                total, nodes = total + middle, nodes + more
        stats["nodes"] = nodes
        return total
