"""Counting plain N by joining quarters of the board: the compiled count's tasks, memory and answer.

:mod:`.quarters` is the lesson (short, in Python: read it first);
``nqueens_cp/kernel/join.c`` the compiled count, held to its twin
(:mod:`nqueens_cp.kernel.twin_join`) part by part.  This module cuts a count
into parts, says how much memory they need before any work starts, and
puts the answer together:

* **Parts.**  An odd N's middle queens (one in the centre, or one on the
  middle row and one on the middle column) are taken once per class of the
  square's eight symmetries (:func:`middles`), counted for the class's
  size.  For each, the row sets (which rows have their queen east of the
  middle) are ranked; a part is a range of ranks (:func:`parts`), so that
  a count splits into as many tasks as the processes or the cluster need.
  Within a part the compiled code counts each row set once per orbit of
  the flips that keep the middle (top-bottom, left-right).
* **Memory.**  Every process holds the quarters' table (all placements on
  an h x h square, h = N // 2: 7.5 million at N = 20 and 21, 60 MB) and two
  lists of halves, ``cap`` keys each.  :func:`budget` computes both before
  the work and picks ``cap`` so that ``jobs`` processes fit ``memory``; a
  half with more keys is listed in pieces (each piece of east halves joined
  with every piece of west halves).  Where even the table does not fit, the
  count is refused in one line.
* **The answer.**  The parts' boards add up to the total (OEIS A000170).
  One board per class of the eight symmetries (A002562) does not come out
  of the join: by Burnside's lemma it is (total + S180 + 2 S90) / 8, with
  S180 and S90 the boards a half turn and a quarter turn leave unchanged,
  counted by their own small searches beside the parts (no reflection
  leaves an N-queens board of N > 1 unchanged: the queens on its axis would
  attack each other).  The same two numbers check the total: total - S180
  = 8a and S180 - S90 = 4b for the classes a, b of 8 and 4 boards, so a
  total that is not S180 plus a multiple of 8 is a counting error.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from .. import machine
from ..errors import InvalidInputError
from ..estimates import log_total
from ..model.board import SQUARE_MAPS
from .classes import Side, Work, symmetric_counts

METHOD = "quarter-join-3"  # the decomposition, as checkpoints record it: a new one when a part's numbers change
# (2: the longest diagonals, 2026-11-27; a part's boards are no longer its row sets' boards, only their sum is;
# 3: an odd N's middle queens counted through another image of their class, 2026-11-30: middles)
MIN_N = 2  # (N = 1 has no quarters: its one board is counted by the walk)
MAX_N = 25  # the compiled count's tables: 12 x 12 squares at most (kernel.JOIN_MAX_N)
FROM_N = 16  # counted by quarters from here by default: the crossover with the walk (benchmarks/quarters.py --crossover)
# Seconds a whole count of N by quarters took on this machine's two cores (advice.advice's estimate
# before a count), by the tree of 2026-11-28 evening (docs/counting.md): count 20 measured after the
# table by rows, count 22 by the tree just before it (1,588.6 s again on 2026-11-30 with the half
# batches, in a faster hour); count 21 on 2026-11-30, its middle queens counted through the image
# that lists fewer halves (middles).
# Count 23 from the two legs of its count with the middle queens turned (2026-11-30, fast hours, exact,
# alone on the cores: docs/counting.md, "the middle queens turned"): 4,910 s to a kill, then 2,683 s
# resumed, four recorded parts counted again among them: 7,593 s, about 2.1 hours.  (quarter-join-2's
# five legs had said 2.8; a sample of its parts 2.4; by 21's boards a second it would be 8.2.)  Other N
# follow the growth between the two of their parity.  (A day's speed drifts up to 2x and more: the
# note says "about".)
COUNT_SECONDS = {20: 16.4, 21: 198.8, 22: 1547.3, 23: 7_593.0}
COUNT_CORES = 2
# Those were the loops written by hand for AVX-512 (a Zen 4).  Where the CPU has no AVX-512 the join
# takes others (kernel.join_loops), and a count takes longer by about this much: on a Zen 3 (AVX2) two
# whole parts of 23 took 2.4 to 2.7 times their time in benchmarks/runs/count23-4.jsonl with AVX2's
# loops, by the hour (benchmarks/parts_record.py), and 2.12 and 2.18 times once AVX2's dense words were
# made half a batch at a time (dense_bucket_avx2), and 1.82 times on 2026-12-01 once the dense loops
# counted carry-save and the bucketing placed its keys by rank; with the compiler's, 23's windows took
# 1 / 0.286 times AVX2's as they were on 2026-11-30 (benchmarks/kernels.py, 2026-11-30, late:
# docs/counting.md).
LOOPS_TIME = {"avx512": 1.0, "avx2": 1.82, "portable": 2.5 / 0.286}


def count_seconds(n: int, loops: str | None = None) -> float:
    """Seconds a count of N by quarters takes on COUNT_CORES cores here,
    about, with these loops (kernel.join_loops's name; None: this CPU's)."""
    from .. import kernel

    if n in COUNT_SECONDS:
        seconds = COUNT_SECONDS[n]
    else:
        low, high = sorted(k for k in COUNT_SECONDS if k % 2 == n % 2)[-2:]  # (the two largest of N's parity)
        growth = COUNT_SECONDS[high] / COUNT_SECONDS[low]  # a step of two
        seconds = COUNT_SECONDS[high] * growth ** ((n - high) / 2)
    return seconds * LOOPS_TIME[kernel.join_loops() if loops is None else loops]


def count_rate(n: int, loops: str | None = None) -> float:
    """Boards a second on one core that a count of N by quarters goes at, about."""
    return 10 ** log_total(n) / (COUNT_CORES * count_seconds(n, loops))


PARTS = 256  # tasks a count is cut into, about: enough for two dozen processes to end together
# An odd N's part first makes each quarter's table clear of its middle queens (four copies of
# TABLES[h]'s placements, filtered: join.c's table_filtered), however few row sets it lists.  Below
# N = 21 that is a large share of a part: with 256 parts, 8 % of count 19's processor time and 28 %
# of 17's (perf, one core); those counts are cut into fewer (side by side with 256: count 17 in
# 0.72x the time, 19 in 0.91x, benchmarks/versions.py --method quarters).  48, not 64, since the
# middle queens are counted through the image that lists fewer halves (middles): count 17's 89 parts
# made more placements than half the halves it listed; 60 parts, 0.94x its time (19's the same).
SMALL_ODD_PARTS = 48
SMALL_ODD_BELOW = 21
COST_SAMPLES = 64  # row sets of a part whose halves are bounded to weigh it (part_costs)
COST_A_HALF = float(1 << 20)  # what a half listed weighs against a pair of halves there (part_costs)
CAP = 1 << 18  # keys in a list of halves, at most (a larger half is listed in pieces)
MIN_CAP = 1 << 12
VALUES = 7  # the numbers a part gives (kernel.Joined), as checkpoints record them
Values = tuple[int, int, int, int, int, int, int]

# (placements, largest bucket) of the quarters' table of each h: kernel.join_table_size(h),
# kept because h = 12 takes 12 s to count (tests hold the small ones to the kernel).
TABLES = {1: (2, 1), 2: (5, 1), 3: (18, 2), 4: (87, 2), 5: (462, 10), 6: (2635, 10), 7: (16870, 40),
          8: (118969, 92), 9: (915442, 352), 10: (7535369, 946), 11: (66807234, 3571), 12: (633443407, 15003)}


class Part(NamedTuple):
    """One task of a count by quarters: the row sets of ranks first .. last-1
    of one placement of the middle queens, counted ``weight`` times."""

    x: int  # the middle row's queen's column (-1: an even N, no middle)
    y: int  # the middle column's queen's row
    weight: int  # the placements of the middle queens this one stands for
    first: int
    last: int


def middles(n: int) -> list[tuple[int, int, int]]:
    """(x, y, weight) of one placement of each class of an odd n's middle
    queens on (n/2, x) and (y, n/2) under the eight symmetries, weight the
    class's size; (-1, -1, 1) for an even n.

    Each class is counted through the image whose middle row's queen is
    nearest the middle column: the transpose of the least (x, y), which has
    x <= y <= n/2, so (y, x).  Every image has the class's boards, but not
    the same work: the join cuts the board into east and west, and the
    transpose lists fewer halves for them (count 21: 0.78x the halves and
    0.83x the time over all classes, each class counted whole both ways, the
    same boards; docs/counting.md, "the middle queens turned")."""
    from .. import kernel

    if n % 2 == 0:
        return [(-1, -1, 1)]
    m = n // 2
    found = []
    for x in range(n):
        for y in range(n):
            if (x == m) != (y == m) or not kernel.join_row_sets(n, x, y):
                continue
            images = set()
            for image in SQUARE_MAPS.values():
                a, b = image(n, m, x), image(n, y, m)
                row_queen, column_queen = (a, b) if a[0] == m else (b, a)
                images.add((row_queen[1], column_queen[0]))
            if (x, y) == min(images):
                found.append((y, x, len(images)))  # (the transpose of (x, y) is (y, x), one of its images)
    return found


def part_count(n: int) -> int:
    """About how many parts a count of n is cut into (:data:`PARTS`, fewer for a small odd n)."""
    return SMALL_ODD_PARTS if n % 2 and n < SMALL_ODD_BELOW else PARTS


def parts(n: int, count: int | None = None) -> list[Part]:
    """The tasks of a count of n by quarters: each placement of the middle
    queens' ranks of row sets cut into ranges, about ``count`` in all
    (default :func:`part_count`), at least one for each placement."""
    from .. import kernel

    count = part_count(n) if count is None else count

    placed = [(x, y, weight, kernel.join_row_sets(n, x, y)) for x, y, weight in middles(n)]
    size = max(1, math.ceil(sum(ranks for *_, ranks in placed) / count))
    return [Part(x, y, weight, first, min(first + size, ranks))
            for x, y, weight, ranks in placed for first in range(0, ranks, size)]


def part_costs(n: int, tasks: list[Part]) -> list[float]:
    """Each part's cost, about (kernel.join_costs over COST_SAMPLES of its row
    sets): to start the longest first.  Of what join.c's join_cost weighs, the
    bound on the halves a part lists predicts its time best (the time and
    the bound of one part in twelve, in one run: their logarithms correlate
    0.95 at N = 20, where parts' times differ twentyfold, 0.63 and 0.47 at
    19 and 21, where they differ fourfold; the bound on their pairs 0.97,
    0.41 and 0.03), so a half weighs COST_A_HALF pairs: the halves decide,
    the pairs break ties."""
    from .. import kernel

    return kernel.join_costs(n, [(p.x, p.y, p.first, p.last) for p in tasks], COST_SAMPLES, COST_A_HALF)


def count_part(n: int, part: Part, cap: int = CAP) -> Values:
    """A part's :class:`nqueens_cp.kernel.Joined` values, its boards counted ``part.weight`` times."""
    from .. import kernel

    found = kernel.join_count(n, part.x, part.y, part.first, part.last, cap)
    return (found.boards * part.weight, *found[1:])


def valid_values(values: tuple[int, ...]) -> bool:
    """Whether these could be a part's :func:`count_part` numbers (a checkpoint
    believes no other): seven counts, none negative."""
    return len(values) == VALUES and all(type(v) is int and v >= 0 for v in values)


# --- memory --------------------------------------------------------------------------

def table_bytes(n: int) -> int:
    """What the quarters' table of n takes in a process: its placements (8
    bytes each), the buckets' offsets and the build's counters (4^h each),
    the column sets of each row set; for an odd n, four more tables at most
    (each quarter's placements clear of the middle queens, made for each part
    in arrays the process keeps from one part to the next)."""
    h = n // 2
    entries, _ = TABLES[h]
    filtered = entries * 8 + (4 ** h + 1) * 4 * 2 + (2 ** h + 1) * 4  # (at most: a copy of every placement)
    return entries * 8 + (4 ** h + 1) * 4 * 3 + (2 ** h + 1) * 4 + (4 * filtered if n % 2 else 0)


def dense_words(n: int, cap: int) -> int:
    """The 64-bit words of room the longer list of ``cap`` keys keeps for its
    buckets kept bit-transposed (dense.c's join_dense_words, held to it by a
    test): 512 keys a batch, one and a half times the batches the list fills,
    each batch 64 sums of 6 bits of the keys' 2 (2h - 1) bits, 8 words each."""
    width = 2 * (2 * (n // 2) - 1)
    chunks = -(-width // 6)
    return chunks * 64 * 8 * (cap // 512 + cap // 1024 + 1)


def working_bytes(n: int, cap: int) -> int:
    """What a process's count takes besides the table: two lists of halves
    and their buckets (44 bytes a key of room; the buckets' starts, ids of up
    to 16 bits, and where each dense bucket's words begin; the bucketing's
    places to write, for each of its four stretches of a list, one room for
    both lists; the dense leaves put off, 12 bytes each), the longer list's
    dense words (:func:`dense_words`), the south's placements."""
    _, largest = TABLES[n // 2]
    places, leaves = 4 * (1 << 16) * 4, 16384 * 12
    return (cap * 44 + 8 * dense_words(n, cap) + 6 * (largest + 1) * 8 + 2 * ((1 << 16) + 1) * 4 + (1 << 16) * 8
            + places + leaves)


def machine_memory() -> int:
    """The default of ``memory``: half of this machine's memory."""
    physical = machine.physical_memory()
    return 8 << 30 if physical is None else physical // 2


def parse_memory(text: str) -> int:
    """'4G', '512M', '100k' or a number of bytes, as bytes."""
    units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    value = text.strip().lower().removesuffix("b").removesuffix("i")
    unit = value[-1:] if value[-1:] in units and value[-1:] else ""
    try:
        number = float(value[:-1] if unit else value)
    except ValueError:
        raise InvalidInputError(f"memory takes a size such as 4G, 512M or a number of bytes, got {text!r}") from None
    if not math.isfinite(number) or number <= 0:
        raise InvalidInputError(f"memory must be positive, got {text!r}")
    return int(number * units[unit])


def size_text(size: float) -> str:
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError


class Budget(NamedTuple):
    """What a count by quarters will hold, said before it starts."""

    cap: int  # keys in a list of halves
    processes: int
    table: int  # bytes, in each process
    working: int  # bytes, in each process
    limit: int  # the memory allowed, in bytes
    capped: bool = True  # the engine's join reads ``cap`` (the device's lists do not)

    @property
    def total(self) -> int:
        return self.processes * (self.table + self.working)


def budget(n: int, processes: int, memory: int | None = None,
           working: Callable[[int, int], int] = working_bytes) -> Budget:
    """The memory a count of n by quarters on ``processes`` processes needs,
    with the largest lists of halves that fit ``memory`` (default: half of
    this machine's); InvalidInputError where even the smallest do not.
    ``working(n, cap)``: what a process holds besides the table (default
    :func:`working_bytes`, the CPU's join; an engine's own, its
    ``quarters_working_bytes``)."""
    limit = machine_memory() if memory is None else memory
    physical = machine.physical_memory()
    if memory is not None and physical is not None and memory > physical:
        raise InvalidInputError(f"--memory {size_text(memory)} is more than this machine's {size_text(physical)}")
    # Each process may be held to less than that (ulimit -v, prlimit --as): a worker past it failed
    # with a MemoryError; it is said here, before the work.
    each = machine.address_space_left()
    table = table_bytes(n)
    cap = CAP
    while cap > MIN_CAP and (processes * (table + working(n, cap)) > limit
                             or each is not None and table + working(n, cap) > each):
        cap //= 2
    found = Budget(cap, processes, table, working(n, cap), limit, capped=working(n, CAP) != working(n, MIN_CAP))
    if each is not None and found.table + found.working > each:
        raise InvalidInputError(
            f"counting N={n} by quarters needs {size_text(found.table + found.working)} in each process (the "
            f"quarters' table of {size_text(table)} and {size_text(found.working)} of halves), more than the "
            f"{size_text(each)} its address-space limit leaves (ulimit -v); --method walk needs almost none")
    if found.total > limit:
        fewer = f"; {limit // (table + working(n, MIN_CAP))} processes would fit" \
            if table + working(n, MIN_CAP) <= limit else ""
        raise InvalidInputError(
            f"counting N={n} by quarters needs {size_text(found.total)} ({processes} processes, each holding the "
            f"quarters' table of {size_text(table)} and {size_text(found.working)} of halves), more than the "
            f"{size_text(limit)} of --memory{fewer}; give --memory more, --jobs fewer, or --method walk")
    return found


# --- the count -----------------------------------------------------------------------

class Result(NamedTuple):
    """A count by quarters, put together."""

    n: int
    total: int  # OEIS A000170
    half_turn: int  # S180, searched on its own
    quarter_turn: int  # S90, searched on its own
    values: Values  # the parts' values, summed

    @property
    def fundamental(self) -> int:
        """OEIS A002562, by Burnside's lemma: (total + S180 + 2 S90) / 8."""
        return 1 if self.n == 1 else (self.total + self.half_turn + 2 * self.quarter_turn) // 8

    def stats(self, budget: Budget) -> dict[str, Any]:
        """What ``--stats`` shows: ``halves_cap`` only where the join read it."""
        _, row_sets, halves, tests, ns_table, ns_halves, ns_join = self.values
        return {"method": "quarters", "total": self.total, "fundamental": self.fundamental,
                "half_turn_symmetric": self.half_turn, "quarter_turn_symmetric": self.quarter_turn,
                "row_sets": row_sets, "halves": halves, "pair_tests": tests,
                "table_seconds": round(ns_table / 1e9, 3), "listing_seconds": round(ns_halves / 1e9, 3),
                "joining_seconds": round(ns_join / 1e9, 3), "table_bytes": budget.table,
                **({"halves_cap": budget.cap} if budget.capped else {}), "memory_bytes": budget.total}


Runner = Callable[[Work], tuple[tuple[int, ...], Side]]


def count_by_quarters(n: int, cap: int, run: Runner, deadline: float | None = None,
                      part: Callable[[int, Part], Values] | None = None) -> tuple[Result, Work]:
    """The count of plain N by quarters, behind one call: the parts, run by
    ``run`` (which sums their values and runs ``Work.side``, the searches for
    S180 and S90), checked and put together.  A part is counted by ``part``
    (default :func:`count_part` on this CPU, ``cap`` keys a list; it travels
    to workers: picklable)."""
    if not MIN_N <= n <= MAX_N:
        raise InvalidInputError(f"a count by quarters takes N from {MIN_N} to {MAX_N}, got {n}")

    def side() -> Side:
        return symmetric_counts(n, deadline), 0

    tasks = parts(n)
    work = Work(n, tasks, {"n": n, "method": METHOD, "tasks": len(tasks)}, valid_values, side,
                part=part or partial(count_part, cap=cap), width=VALUES,
                exact=(0, 1),  # the boards and the row sets (the halves' pieces and the times depend on cap)
                cost=partial(part_costs, n, tasks))
    from .. import kernel

    try:
        values, ((half, quarter), _) = run(work)
    finally:
        # Parts counted in this process (one job) leave the join's arrays kept for a next call that a
        # count's end does not have: freed (a pool's workers keep theirs until they exit).
        kernel.join_release()
    result = Result(n, values[0], half, quarter, values)  # type: ignore[arg-type]
    if (result.total - half) % 8 or (half - quarter) % 4 or half > result.total:
        from ..errors import NQueensError

        raise NQueensError(f"N={n}: the count by quarters, {result.total}, does not fit the symmetric boards "
                           f"searched on their own (S180 {half}, S90 {quarter}): a counting error")
    return result, work

