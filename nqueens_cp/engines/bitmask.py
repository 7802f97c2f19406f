"""Hand-written bitwise backtracking.

Bit c of a mask stands for column c.  Three masks carry the columns and the
two diagonal directions attacked by the queens above; ``a & -a`` takes the
lowest free column.  Pre-placed queens and blocked squares become one mask
of allowed columns per row (:func:`sub_board`).  Counting a plain N goes by
symmetry classes (:mod:`nqueens_cp.counting.classes`), a constrained one searches its
whole sub-board.  ``solve`` runs the kernel's decision search (dynamic
ordering, least constraining value, seeded restarts: docs/decision.md) and,
up to 62 rows, the lexicographic walk beside it (:func:`decide`).

Every other question of the family goes through the kernel's family walk
(queens.h's ``family_walk``), over a descriptor read from the question's
data (:func:`nqueens_cp.kernel.family_words`): a wrapping line family
rotates its word within N columns instead of shifting it, a missing one
attacks nothing, and offsets (a superqueen's knight moves) add their
squares from the two rows above.  Their counts search the whole board (the
classes of the square's symmetries are plain N's), a question with
translations only row 0's piece in column 0, N times; ``solve`` takes
their first board.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..counting import join
from ..model.board import AnySolution, Solution
from ..model.position import Position
from ..model.variants import PLAIN, Variant
from ..errors import InvalidInputError, TimeLimitReached
from .base import SEED, Answer, Engine, Option, Status

NODES_PER_CHECK = 1 << 22  # compiled walk nodes between looks at the clock (about 0.05 s)
# A decision interleaves two searches in slices of about 10 ms each (about 2**18 cells looked at, for
# a decision node costs a look at each cell of its lines) ...
DECIDE_CELLS_PER_SLICE = 1 << 18
# ... the walk's slice as long in time: a walk node costs about as much as 4 cells of a decision node.
WALK_NODES_PER_CELL = 4
TWIN_SLOWER = 7  # the Python twins are about 2**7 times slower than the C code
SPLIT_ROWS = 2  # open rows fixed per part of a split decision: about N^2 parts ...
SPLIT_ROWS_MAX_N = 64  # ... up to here; beyond, one row (N parts: listing N^2 would take longer than a search)


def decide(n: int, masks: list[int] | None, seed: int = 0, time_limit: float | None = None,
           max_nodes: int | None = None, stats: dict[str, Any] | None = None) -> Answer:
    """One board of a sub-board (None: the plain board), or a proof that there
    is none: the decision search (kernel.Decision: dynamic ordering, least
    constraining value, seeded restarts) and, up to kernel.MAX_N rows, the
    lexicographic walk beside it, in turns of equal time, until one ends.

    Why two: the decision search places a board of thousands of queens with
    almost no backtracking, where the walk is trapped; on small hard boards
    (Excluded Diagonals at N = 20) the walk's 80 million nodes a second prove
    "none" faster than the decision search's fewer, dearer nodes.  Both are
    complete (docs/decision.md), so either's end is the answer, and the
    turns are counted in nodes, so the same seed gives the same board."""
    from .. import kernel

    deadline = None if time_limit is None else time.monotonic() + time_limit
    search = kernel.Decision(n, masks, seed)
    walk = kernel.Walk(n, masks if masks is not None else [(1 << n) - 1] * n) if n <= kernel.MAX_N else None
    # The twins' turns are TWIN_SLOWER times shorter in nodes, to keep to a time limit (so their board
    # may differ from the C code's: the turns end elsewhere).
    slice_nodes = max(1, (DECIDE_CELLS_PER_SLICE >> (0 if search.compiled else TWIN_SLOWER)) // n)
    walk_nodes = slice_nodes * n * WALK_NODES_PER_CELL
    answer: Answer | None = None

    def within(nodes: int) -> int:  # a slice cut to the node budget left (0: none left)
        spent = search.nodes + (walk.nodes if walk else 0)
        return nodes if max_nodes is None else max(0, min(nodes, max_nodes - spent))

    try:
        while answer is None:
            if within(1) == 0:
                answer = Status.UNKNOWN, None, f"no answer within {max_nodes:,} nodes"
            elif search.advance(within(slice_nodes)):
                answer = (Status.SOLVED, search.solution(), "") if search.found else \
                    (Status.NONE, None, "the decision search tried every placement")
            elif walk is not None and within(1) and (walk.advance(limit=1, nodes=within(walk_nodes)) or walk.found):
                answer = (Status.SOLVED, walk.solution(), "") if walk.found else \
                    (Status.NONE, None, "the lexicographic walk tried every placement")
            elif deadline is not None and time.monotonic() > deadline:
                answer = Status.UNKNOWN, None, f"no answer within {time_limit:g} s"
        return answer
    finally:
        if stats is not None:
            stats.update(nodes=search.nodes + (walk.nodes if walk else 0), decision_nodes=search.nodes,
                         walk_nodes=walk.nodes if walk else 0, restarts=search.runs - 1,
                         kernel="c" if search.compiled else "python")


def decide_position(n: int, placed: Position, seed: int = 0) -> tuple[AnySolution | None, int]:
    """:func:`decide` of a part of a split decision: its sub-board is built
    where the part runs, so that N parts hold N positions, not N boards of N
    masks (N^3 bits).  (solution or None, nodes)."""
    stats: dict[str, Any] = {}
    _, solution, _ = decide(n, sub_board(n, placed), seed, stats=stats)
    return solution, stats["nodes"]


def _count(n: int, allowed: list[int]) -> tuple[int, int]:
    """(solutions, nodes) of a sub-board, in the compiled search."""
    from .. import kernel

    tallies = kernel.count(n, allowed)
    return tallies.found, tallies.nodes


def sub_board(n: int, placed: Position, variant: Variant = PLAIN) -> list[int]:
    """One mask of allowed columns per row: the pre-placed queen's column, or
    the open squares; minus every square a pre-placed queen attacks by
    ``variant``'s relation (no solution can use those), so that the search
    prunes from the first row."""
    masks = [placed.mask(r, n) for r in range(n)]
    if not variant.is_plain:
        for qr, qc in placed.items():
            for r in range(n):
                if r != qr:
                    masks[r] &= ~sum(1 << c for c in range(n) if variant.attacks(n, (qr, qc), (r, c)))
        return masks
    for qr, qc in placed.items():
        for r in range(n):
            if r != qr:
                d = abs(r - qr)
                masks[r] &= ~((1 << qc) | (1 << (qc + d) if qc + d < n else 0) | (1 << (qc - d) if qc - d >= 0 else 0))
    return masks


class BitmaskEngine(Engine):
    name = "bitmask"
    splits_solve = True
    summary = ("bitwise backtracking in C (nqueens_cp/kernel): counts one board per symmetry class, the fastest "
               "enumerator; solve: a decision search with dynamic ordering and restarts, any N up to 10,000")
    options = (
        SEED._replace(solve_only=True),  # the decision search's restarts: the same seed, the same board
        Option("max_nodes", "solve: give up ('unknown') after this many nodes", kind=int, low=1, high=2**62,
               solve_only=True),
    )
    statistics = ("nodes", "kernel", "sub_boards", "total", "fundamental", "decision_nodes", "walk_nodes", "restarts")
    seed: int | None
    max_nodes: int | None
    counts_classes = True
    counts_quarters = True  # plain N: the compiled join of quarters (join.c) ...
    quarters_from = join.FROM_N  # ... by default from its crossover with the walk
    additive = frozenset({"nodes"})
    effort = "nodes"
    enumeration_rate = 1e5  # solutions a second on one core: the compiled walk, a call a solution
    count_rate = 4e6  # the compiled loop over symmetry classes
    reports_optimum = True
    optimum_reach = {"domination": (13, 0.957, 12.9), "independent": (14, 2.87, 14.6)}
    first_solution_max_n = 32
    lexicographic_solve = True  # (its decision search is plain N's; the family walk answers the others)
    # A search holds a row's words for every row it has placed: n words of n
    # bits, 37 MB at N = 10,000 and 125 GB at N = 1,000,000.  Beyond, no
    # backtracking search finishes anyway ('solve --engine construct' does).
    max_n = 10_000
    max_n_why = ("a search holds N words of N bits (N^2 memory: 125 GB at N = 1,000,000); 'solve N -e construct' "
                 "gives a board of any N")
    expresses = frozenset({"lines", "wrapping", "offsets", "optimum"})
    offset_reach = (2, 8)  # the family walk carries offsets two rows down, eight columns across (queens.h)

    def _search(self, n: int, fixed: Position, limit: int | None, stats: dict[str, Any],
                deadline: float | None = None) -> Iterator[Solution]:
        """The solutions in the compiled walk, one call a solution (stopping
        every NODES_PER_CHECK nodes as well to look at the clock)."""
        from .. import kernel

        allowed = sub_board(n, fixed, self.variant)
        walk: Any = kernel.Walk(n, allowed) if self.variant.is_plain else kernel.FamilyWalk(n, self.variant, allowed)
        stats["kernel"] = "c" if walk.compiled else "python"
        step = 0 if deadline is None else NODES_PER_CHECK if walk.compiled else NODES_PER_CHECK >> TWIN_SLOWER
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
        """The decision split into sub-boards, in lexicographic order: the
        first two open rows fixed in every way the masks allow, each a call of
        :func:`decide_position` (which a process pool or a cluster can run).
        The answer is the first part's with a board: the same on any number of
        workers, though not the board one unsplit decision gives."""
        masks = sub_board(n, placed)
        rows = [r for r in range(n) if r not in placed][:SPLIT_ROWS if n <= SPLIT_ROWS_MAX_N else 1]
        parts: list[tuple[Any, ...]] = []

        def fix(i: int, chosen: dict[int, int]) -> None:
            if i == len(rows):
                parts.append((decide_position, n, placed.with_queens(chosen), self.seed or 0))
                return
            row = rows[i]
            for col in range(n):
                attacked = any(c == col or abs(c - col) == abs(r - row) for r, c in chosen.items())
                if masks[row] >> col & 1 and not attacked:
                    fix(i + 1, {**chosen, row: col})

        fix(0, {})
        return parts

    def _solve(self, n: int, placed: Position, time_limit: float | None,
               stats: dict[str, Any]) -> Answer:
        """:func:`decide`, reading the clock between its slices (the family's: the first board of its walk)."""
        if not self.variant.is_plain:
            return Engine._solve(self, n, placed, time_limit, stats)
        return decide(n, sub_board(n, placed) if placed else None, self.seed or 0, time_limit, self.max_nodes, stats)

    def _count(self, n: int, fixed: Position, stats: dict[str, Any]) -> int | None:
        from .. import kernel

        allowed = sub_board(n, fixed, self.variant)
        stats["kernel"] = "c" if kernel.compiled(n) else "python"
        if not self.variant.is_plain:
            return self._count_family(n, allowed, not fixed and self.variant.translations, stats)
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

    def _count_family(self, n: int, allowed: list[int], translate: bool, stats: dict[str, Any]) -> int:
        """The family walk's count; on the whole torus, row 0's queen in column 0 only, N times."""
        from .. import kernel

        if translate:
            allowed[0] = 1
        walk = kernel.FamilyWalk(n, self.variant, allowed)
        walk.advance()
        stats["nodes"] = walk.nodes
        return walk.found * (n if translate else 1)

    def _optimum(self, n: int, time_limit: float | None, stats: dict[str, Any], report: Any) -> Any:
        """The kernel's branch and bound (dominate.c) for k = 1, 2, ...: the
        first k with queens is the optimum, the "no" before it its proof.
        Without the compiled kernel, the reference's search (backtrack)."""
        from .. import kernel
        from .backtrack import BacktrackEngine
        from .optimum import Standing

        if not kernel.compiled():
            stats["kernel"] = "python"
            return BacktrackEngine(self.variant)._optimum(n, time_limit, stats, report)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        stats.update(kernel="c", nodes=0)
        for k in range(1, n * n + 1):
            def tick(now: int, k: int = k, before: int = stats["nodes"]) -> None:
                report(Standing(k, None, before + now))

            found, queens, nodes = kernel.dominate(n, self.variant.independent, k, deadline, tick)
            stats["nodes"] += nodes
            report(Standing(k + (found == 0), k if found == 1 else None, stats["nodes"]))
            if found == 1:
                return queens, True, k, f"no {k - 1} queens do: the branch and bound tried every set" if k > 1 \
                    else "one queen is the fewest"
            if found == -1:
                return None, False, k, f"no answer within {time_limit:g} s (no {k - 1} queens do)"
        raise AssertionError("n*n queens always dominate")

    def check_n(self, n: int) -> None:
        from ..kernel import DOMINATE_MAX_N

        super().check_n(n)
        if self.variant.optimizes and n > DOMINATE_MAX_N:
            raise InvalidInputError(f"engine bitmask answers {self.variant} up to N = {DOMINATE_MAX_N} (the "
                                    "kernel's sets of squares are 1,024 bits); cpsat and sat state them for larger N, --time-limit bounding them")
