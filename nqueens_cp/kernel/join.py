"""The face of the count by joining quarters (``join.c``, its twin
:mod:`.twin_join`)."""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..errors import NQueensError
from . import loader, twin_join, twin_join_cost

JOIN_MAX_N = 25  # the count by quarters: tables of up to 12 x 12 squares (join.h)


class Joined(NamedTuple):
    """What a count by quarters adds up (join.c's JOIN_* values): the boards
    (each row set counted for its orbit under the flips), the row sets
    joined, the halves listed, the east-west pairs tested one by one, and
    nanoseconds spent building the quarters' table (0: built before, in this
    process), listing halves and joining them (0 for the twin)."""

    boards: int
    row_sets: int
    halves: int
    tests: int
    ns_table: int
    ns_halves: int
    ns_join: int


def join_count(n: int, x: int, y: int, first: int, last: int, cap: int, direct: int | None = None,
               small: int | None = None, bucket: int | None = None, compiled: bool = True) -> Joined:
    """The boards of n with the middle queens of an odd n on (n/2, x) and
    (y, n/2) (x = y = n/2: one in the centre; -1, -1 for an even n) whose
    east rows are the row sets of ranks first .. last-1, by joining quarters
    (join.c; nqueens_cp/counting/join.py has the whole count).  Halves are
    listed ``cap`` at a time; ``direct``, ``small`` and ``bucket`` cut the
    join (join.h's JOIN_DIRECT, JOIN_SMALL and JOIN_BUCKET by default; tests
    pass 0 and small buckets to go every way)."""
    direct = twin_join.DIRECT if direct is None else direct
    small = twin_join.SMALL if small is None else small
    bucket = twin_join.BUCKET if bucket is None else bucket
    search = loader.chosen(n, compiled, JOIN_MAX_N)
    if search is None:
        start = time.perf_counter_ns()
        table = _join_table(n // 2)
        built = time.perf_counter_ns() - start
        return Joined(*twin_join.join_count(table, n, x, y, first, last, cap, direct, small, bucket), built, 0, 0)
    return Joined(*search.join_count(n, x, y, first, last, cap, direct, small, bucket))


@functools.cache
def _join_table(h: int) -> twin_join.Table:
    return twin_join.table(h)


def join_costs(n: int, parts: Sequence[tuple[int, int, int, int]], samples: int, a_half: float,
               compiled: bool = True) -> list[float]:
    """What :func:`join_count` of each part (x, y, first, last) costs, about:
    over about ``samples`` of its row sets (evenly apart), each side's halves
    bounded from the table's bucket sizes, their product plus ``a_half`` a
    half, scaled to the range (join.c's join_cost).  To order a count's
    parts.  The compiled one counts the bucket sizes alone (4^h counters, no
    placement kept: 16 MB at N = 22) and frees them before it returns."""
    search = loader.chosen(n, compiled, JOIN_MAX_N)
    if search is None:
        table = _join_table(n // 2)
        return [twin_join_cost.cost(table, n, x, y, first, last, samples, a_half) for x, y, first, last in parts]
    return search.join_costs(n, list(parts), samples, a_half)


class Listed(NamedTuple):
    """What :func:`join_list` wrote and where it stopped: the keys and the
    pairs of ranges (JOB_WORDS words each) written, the rank to go on from,
    the row sets and halves listed, nanoseconds building the quarters'
    table (0: built before, in this process) and listing."""

    keys: int
    jobs: int
    next: int
    row_sets: int
    halves: int
    ns_table: int
    ns_halves: int


JOB_WORDS = 5  # a pair of ranges to join: east start, east length, west start, west length, boards a pair (join.h)


def join_list(n: int, x: int, y: int, first: int, last: int, keys: Any, jobs: Any) -> Listed:
    """The halves of the row sets of ranks first .. last-1 (:func:`join_count`'s
    arguments) listed into ``keys`` and the pairs of ranges of them to join
    into ``jobs`` (writable buffers of 64-bit words, NumPy's uint64 arrays
    say), as many row sets as fit, for a joiner elsewhere (a GPU's,
    :mod:`nqueens_cp.counting.gpu_join`): the boards are the sum, over the
    pairs of ranges, of their weight times the pairs of keys with no bit in
    common (join.h's join_list).  Compiled only; BufferError where the first
    row set's halves do not fit ``keys`` (a larger buffer lists it),
    ValueError for buffers too small for any row set or not of 64-bit words."""
    search = loader.chosen(n, True, JOIN_MAX_N)
    if search is None:
        raise NQueensError("listing halves for another joiner needs the compiled kernel (pip install -e . builds it)")
    return Listed(*search.join_list(n, x, y, first, last, keys, jobs))


class Tasks(NamedTuple):
    """What :func:`join_tasks` wrote and where it stopped: the tasks
    (TASK_WORDS 32-bit words each), the rank to go on from, the row sets
    (their weights written), nanoseconds building the quarters' table."""

    tasks: int
    next: int
    row_sets: int
    ns_table: int


TASK_WORDS = 5  # a task of listing on a device: north start, north count, south start, south count, list (join.h)


def join_tasks(n: int, x: int, y: int, first: int, last: int, tasks: Any, weights: Any) -> Tasks:
    """The tasks of listing the halves of the row sets of ranks first .. last-1
    on a device (join.h's join_tasks; :mod:`nqueens_cp.counting.gpu_join`):
    into ``tasks`` (32-bit words) a task for each choice of a half's north
    columns, into ``weights`` (64-bit) each row set's orbit weight, as many
    row sets as fit.  Compiled only; BufferError where the first row set's
    tasks do not fit."""
    search = loader.chosen(n, True, JOIN_MAX_N)
    if search is None:
        raise NQueensError("listing halves on a device needs the compiled kernel (pip install -e . builds it)")
    return Tasks(*search.join_tasks(n, x, y, first, last, tasks, weights))


def join_table_entries(h: int, out: Any) -> int:
    """The quarters' table of h x h squares: its placements (diagonals in the
    low 32 bits, anti-diagonals in the high, in the square's coordinates)
    copied into ``out`` (exactly as many 64-bit words); the nanoseconds its
    building took (0: built before, in this process).  Compiled only."""
    search = loader.chosen(2 * h, True, JOIN_MAX_N)
    if search is None:
        raise NQueensError("the quarters' table for a device needs the compiled kernel (pip install -e . builds it)")
    return search.join_table_entries(h, out)


def join_row_sets(n: int, x: int, y: int) -> int:
    """How many row sets :func:`join_count` of these middle queens goes
    through (its ranks' bound); 0 where there are no such middle queens."""
    return twin_join.row_sets(n, x, y)


def join_telling_bits(p: list[int], q: list[int], width: int, forced: list[int], k: int,
                      compiled: bool = True) -> list[int]:
    """The bits of keys ``width`` bits wide (46 at most) that the join of
    the lists p and q splits them on (its id): the ``forced`` ones, then the
    ``k`` that most pairs of p x q have in common, by a sample of each, the
    most telling first (join.h's join_telling_bits; compiled=False: the
    twin's)."""
    search = loader.chosen(1, compiled)  # (no board: any N's window)
    if search is None:
        return twin_join.telling_bits(p, q, width, forced, k)
    return search.join_telling_bits(p, q, width, forced, k)


LOOPS = ("portable", "avx2", "avx512")  # join_loops()'s answers, by dense.c's number for them


def join_loops(compiled: bool = True) -> str:
    """Which loops the compiled join takes on this CPU (dense.c's
    leaf_loops): 'avx512' and 'avx2', written by hand for those vector
    units, or 'portable', the compiler's (also where the twin joins)."""
    search = loader.chosen(1, compiled)
    return LOOPS[search.join_loops()] if search is not None else "portable"


def join_kept() -> int:
    """The bytes the compiled join keeps in this process for its next call:
    its lists, their buckets and an odd N's filtered quarters, made by the
    first :func:`join_count` or :func:`join_list` that needs them and kept,
    as a worker counts part after part (0 without the compiled kernel)."""
    search = loader.chosen(1, True)
    return search.join_kept() if search is not None else 0


def join_release() -> None:
    """Free what :func:`join_kept` counts (a later call makes it again)."""
    search = loader.chosen(1, True)
    if search is not None:
        search.join_release()


def join_table_size(h: int, compiled: bool = True) -> tuple[int, int]:
    """(placements, placements in the largest bucket) of the quarters' table
    of h x h squares, counted (compiled: 4^h counters, nothing kept)."""
    search = loader.chosen(2 * h, compiled, JOIN_MAX_N)
    if search is None:
        table = twin_join.table(h)
        return len(table.entry), table.largest
    return search.join_table_size(h)
