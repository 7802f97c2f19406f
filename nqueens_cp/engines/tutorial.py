"""The classic backtracking tutorials, each as an engine honest to its algorithm.

Each variant keeps its tutorial's data structures and checks, so that its
cost is the lesson, and counts what explains that cost:

    nodes     queens placed (the same search tree for every variant: equal
              to backtrack's and bitmask's nodes)
    checks    is-safe checks made
    scanned   rows (scan, generator) or squares (copy, undo) looked at by them
    copies    whole boards copied (copy)

``scan``       recursion; q[r] is the column of row r; is_safe(k, j) loops
               over the rows above: q[i] == j or |i - k| == |q[i] - j|
``copy``       a 2-D board of characters; is-safe scans up, up-left and
               up-right; the board is copied before each placement
``undo``       the same board and scan; place, recurse, clear on the way back
``iterative``  no recursion: a row index and a column counter per row,
               forward, and back when a row runs out of columns
``generator``  queens(num, state=()) yields tuples, conflict(state, x)
``nested``     one loop per row, written out: the loop nest is generated for
               the N asked (Python allows 20 nested blocks: N <= 20)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from ..model.board import Solution
from ..model.position import Position
from ..errors import TimeLimitReached
from .base import Engine

_CHECK_EVERY = 63  # is-safe checks between looks at the clock (each scans up to N rows)
# Recursion one level a row: Python's default recursion limit (1000 frames) less what calls the search
RECURSION_MAX_N = 500


class _Tutorial(Engine):
    """What the tutorial engines share: statistics, rates, the clock."""

    group = "classic"
    statistics: ClassVar[tuple[str, ...]] = ("nodes", "checks", "scanned")
    additive = frozenset(statistics)
    effort = "nodes"
    first_solution_max_n = 28
    enumeration_rate = count_rate = 3e3  # solutions per second at N=10, measured with compare

    max_n: ClassVar[int | None] = RECURSION_MAX_N
    max_n_why: ClassVar[str] = "one level of Python recursion a row; iterative takes any N"

    @staticmethod
    def _clock(deadline: float | None, count: dict[str, int]) -> None:
        """TimeLimitReached past the deadline, looked at every few is-safe checks: a node can cost N
        of them, and N rows each, so counting nodes would look at the clock too rarely for large N."""
        if deadline is not None and not count["checks"] & _CHECK_EVERY and time.monotonic() > deadline:
            raise TimeLimitReached


def _is_safe(q: list[int], k: int, j: int, count: dict[str, int]) -> bool:
    """The tutorial's check: no queen in the rows above shares column j or a diagonal with (k, j)."""
    count["checks"] += 1
    for i in range(k):
        count["scanned"] += 1
        if q[i] == j or abs(i - k) == abs(q[i] - j):
            return False
    return True


class ScanEngine(_Tutorial):
    name = "scan"
    summary = "tutorial: recursion, q[r] per row, is_safe scans every row above"

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        q = [0] * n
        count = {"nodes": 0, "checks": 0, "scanned": 0}

        def place(k: int) -> Iterator[Solution]:
            if k == n:
                yield tuple(q)
                return
            for j in fixed.columns(k, n):
                self._clock(deadline, count)
                if _is_safe(q, k, j, count):
                    q[k] = j
                    count["nodes"] += 1
                    yield from place(k + 1)

        try:
            yield from place(0)
        finally:
            stats.update(count)


def _board_safe(board: list[list[str]], row: int, col: int, count: dict[str, int]) -> bool:
    """Scan up, up-left and up-right from (row, col) for a queen."""
    n = len(board)
    count["checks"] += 1
    for step in range(1, row + 1):
        for c in (col, col - step, col + step):
            if 0 <= c < n:
                count["scanned"] += 1
                if board[row - step][c] == "Q":
                    return False
    return True


def _read(board: list[list[str]]) -> Solution:
    return tuple(row.index("Q") for row in board)


class CopyEngine(_Tutorial):
    name = "copy"
    max_n = 200  # every level holds its own copy of the board: N^3 references, 64 MB at N = 200
    max_n_why = "every level of the search holds a copy of the board: N^3 memory; undo takes N <= 500"
    summary = "tutorial: 2-D board of characters, copied before every placement"
    statistics = ("nodes", "checks", "scanned", "copies")
    additive = frozenset(statistics)
    enumeration_rate = count_rate = 1.5e3

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        count = {"nodes": 0, "checks": 0, "scanned": 0, "copies": 0}

        def place(board: list[list[str]], row: int) -> Iterator[Solution]:
            if row == n:
                yield _read(board)
                return
            for col in fixed.columns(row, n):
                self._clock(deadline, count)
                if _board_safe(board, row, col, count):
                    child = [line[:] for line in board]  # no branch can pollute another
                    count["copies"] += 1
                    child[row][col] = "Q"
                    count["nodes"] += 1
                    yield from place(child, row + 1)

        try:
            yield from place([["."] * n for _ in range(n)], 0)
        finally:
            stats.update(count)


class UndoEngine(_Tutorial):
    name = "undo"
    summary = "tutorial: 2-D board of characters, place, recurse, clear on the way back"
    enumeration_rate = count_rate = 1.5e3

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        count = {"nodes": 0, "checks": 0, "scanned": 0}
        board = [["."] * n for _ in range(n)]

        def place(row: int) -> Iterator[Solution]:
            if row == n:
                yield _read(board)
                return
            for col in fixed.columns(row, n):
                self._clock(deadline, count)
                if _board_safe(board, row, col, count):
                    board[row][col] = "Q"
                    count["nodes"] += 1
                    yield from place(row + 1)
                    board[row][col] = "."

        try:
            yield from place(0)
        finally:
            stats.update(count)


class IterativeEngine(_Tutorial):
    name = "iterative"
    max_n = None  # no recursion: any N (a board is N numbers)
    summary = "tutorial: no recursion, a row index and a column counter per row"

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        q = [-1] * n  # q[r]: the column tried last in row r (-1: none yet)
        count = {"nodes": 0, "checks": 0, "scanned": 0}

        row = 0
        try:
            while row >= 0:
                col = q[row] + 1
                last = n
                if row in fixed:  # a pre-placed row has one column to try
                    col, last = (fixed[row], fixed[row] + 1) if q[row] < fixed[row] else (n, n)
                while col < last and ((row, col) in fixed.blocked or not _is_safe(q, row, col, count)):
                    col += 1
                    self._clock(deadline, count)
                if col < last:  # forward
                    q[row] = col
                    count["nodes"] += 1
                    if row == n - 1:
                        yield tuple(q)
                    else:
                        row += 1
                else:  # the row ran out of columns: back
                    q[row] = -1
                    row -= 1
        finally:
            stats.update(count)


class GeneratorEngine(_Tutorial):
    name = "generator"
    summary = "tutorial: a recursive generator queens(num, state=()) with conflict(state, x)"

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        count = {"nodes": 0, "checks": 0, "scanned": 0}

        def conflict(state: tuple[int, ...], next_x: int) -> bool:
            count["checks"] += 1
            next_y = len(state)
            for i in range(next_y):
                count["scanned"] += 1
                if abs(state[i] - next_x) in (0, next_y - i):
                    return True
            return False

        def queens(num: int, state: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
            row = len(state)
            for pos in fixed.columns(row, num):
                self._clock(deadline, count)
                if not conflict(state, pos):
                    count["nodes"] += 1
                    if len(state) == num - 1:
                        yield (pos,)
                    else:
                        for result in queens(num, state + (pos,)):
                            yield (pos,) + result

        try:
            yield from queens(n)
        finally:
            stats.update(count)


NESTED_MAX_N = 20  # CPython refuses more than 20 statically nested blocks


class NestedEngine(_Tutorial):
    name = "nested"
    summary = f"tutorial: one for-loop per row, the nest generated for N (N <= {NESTED_MAX_N})"
    max_n = NESTED_MAX_N
    max_n_why = "CPython refuses more than 20 statically nested blocks"

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        count = {"nodes": 0, "checks": 0, "scanned": 0}
        nest = _loop_nest(n)

        def ok(q: list[int], k: int) -> bool:
            count["checks"] += 1
            self._clock(deadline, count)
            j = q[k]
            for i in range(k):
                count["scanned"] += 1
                if q[i] == j or k - i == abs(q[i] - j):
                    return False
            count["nodes"] += 1
            return True

        columns = [fixed.columns(r, n) for r in range(n)]
        try:
            yield from nest(columns, ok)
        finally:
            stats.update(count)


def _loop_nest(n: int) -> Callable[..., Iterator[Solution]]:
    """The tutorial's nested loops, written out for this n: for q0 ..., for q1 ..., ..."""
    lines = ["def nest(columns, ok):", f"    q = [0] * {n}"]
    for r in range(n):
        pad = "    " * (r + 1)
        lines += [f"{pad}for q[{r}] in columns[{r}]:", f"{pad}    if not ok(q, {r}):", f"{pad}        continue"]
    lines.append("    " * (n + 1) + "yield tuple(q)")
    source = "\n".join(lines) + "\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<nested loops for N={n}>", "exec"), namespace)  # noqa: S102 - our own text
    return namespace["nest"]
