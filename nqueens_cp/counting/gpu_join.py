"""The count by quarters with its join on a GPU (issue 66): the host lists, the device joins.

The count is :mod:`nqueens_cp.counting.join`'s: the same parts, and a part's
numbers are :func:`join.count_part <nqueens_cp.counting.join.count_part>`'s,
so checkpoints, pools and Dask take a GPU's parts as they take a CPU's.
Only where the pairs of halves are counted changes:

1. **The host lists** a part's row sets in batches (``join.c``'s
   ``join_list``, :func:`nqueens_cp.kernel.join_list`): each row set's east
   and west halves as keys, and the pairs of ranges of them to join, each
   with the boards a pair apart stands for (the orbit's weight; for an even
   N the long diagonals' 1 or 2, join.c's 2b.).  At N = 22 the listing took
   242.6 core-seconds of the CPU count's 3,932 (docs/counting.md).
2. **The device joins** a batch in one launch of ``join_pairs``
   (``nqueens_cp/kernel/join.cu``): a block a pair of ranges, longest first;
   its telling bits chosen from a sample, both ranges sorted into buckets
   by them, each key of the longer range tested against the buckets of the
   shorter that can hold a key apart from it.
3. The launch runs while the host lists the next batch.

Or (``Shape(listing="device")``) the device lists too: the host gives only
the tasks (``join.c``'s ``join_tasks``: for each half of each row set, each
choice of its north quarter's columns), ``list_halves`` counts each task's
keys, the host lays the lists out from the counts (:func:`layout`,
:func:`jobs_of`), ``list_halves`` writes them, and ``join_pairs`` joins them
where they are; the quarters' table is sent once a process.

:class:`Shape` holds what a measurement on a device must settle (the
threads of a block, the bits of a bucket's id, the keys a bucket, a thread
a key or a warp a bucket, where the halves are listed);
``benchmarks/gpu.py --join`` times them.  Everything but the device runs
here, and the tests run the launches through the CuPy stand-in on CPU
threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .join import Part, Values

ROOM = 1 << 24  # keys a batch lists, to begin with (128 MB on the host; on the device, with their sorted copies, 4x)
MAX_ROOM = 1 << 28  # ... grown to hold a row set's halves, up to this
JOBS = 1 << 16  # pairs of ranges a batch lists, at most
TASKS = 1 << 18  # with the listing on the device: its tasks a batch (a half's choices of north columns), at most


@dataclass(frozen=True)
class Shape:
    """How ``join_pairs`` is compiled and launched: ``threads`` a block,
    ``blocks_per_sm`` blocks an SM, buckets of up to ``id_bits`` bits of id
    holding about ``bucket_keys`` keys of the shorter range (with
    ``warp_buckets``, of the longer range, whose buckets a warp takes
    whole: join.cu's JOIN_WARP_BUCKETS), the telling bits chosen from
    ``sample`` keys of each range; the halves listed on the host or, with
    ``listing="device"``, on the device."""

    threads: int = 256
    blocks_per_sm: int = 8
    id_bits: int = 10
    bucket_keys: int = 32
    sample: int = 1024
    warp_buckets: bool = False
    listing: str = "host"  # or "device": list_halves (join.cu) lists on the device from the tasks join.c gives

    def __post_init__(self) -> None:
        if self.threads <= 0 or self.threads % 32 or self.blocks_per_sm < 1 or not 0 <= self.id_bits <= 16 or \
                self.bucket_keys < 1 or self.sample < 1 or self.listing not in ("host", "device"):
            raise ValueError(f"join_pairs needs whole warps, a block an SM, ids of 0 to 16 bits, keys a bucket and "
                             f"a sample: {self}")
        if self.shared_bytes() > 48 * 1024:
            raise ValueError(f"{self} asks for {self.shared_bytes()} bytes of shared memory a block, past the 48 KiB "
                             "any GPU gives without opting in")

    def defines(self) -> tuple[str, ...]:
        return (f"-DJOIN_ID_BITS_MAX={self.id_bits}", f"-DJOIN_BUCKET_KEYS={self.bucket_keys}",
                f"-DJOIN_SAMPLE={self.sample}") + ("-DJOIN_WARP_BUCKETS",) * self.warp_buckets

    def shared_bytes(self) -> int:
        """join.cu's SHARED_* layout: two 64-bit sums, 2 x 64 bit counts, the
        chosen bits, their number, the job taken, and the bucket counters
        (2^id_bits + 1; with ``warp_buckets`` both ranges'), in 32-bit words."""
        return 4 * (4 + 128 + self.id_bits + 2 + (1 + self.warp_buckets) * ((1 << self.id_bits) + 1))


SHAPE = Shape()


def host_bytes(room: int = ROOM, jobs_room: int = JOBS) -> int:
    """What :func:`count_part` holds on the host besides the quarters' table:
    the keys listed, the jobs, the jobs reordered for a launch and their
    counts back (a room grown for a row set's halves, up to MAX_ROOM keys,
    is not foreseen here, nor, for the listing on the device, the copy of
    the quarters' table made once a process on its way there)."""
    from ..kernel import JOB_WORDS

    return 8 * room + 2 * 8 * JOB_WORDS * jobs_room + 3 * 8 * jobs_room


_compiled: dict[tuple[str, ...], Any] = {}  # join.cu of each shape's defines, compiled once a process


def _function(shape: Shape, name: str = "join_pairs") -> Any:
    key = shape.defines()
    if key not in _compiled:
        import cupy

        from .gpu import KERNEL_DIR

        source = (KERNEL_DIR / "join.cu").read_text(encoding="utf-8")
        _compiled[key] = cupy.RawModule(code=source, options=("--std=c++17", *key))
    return _compiled[key].get_function(name)


Launched = Callable[[], tuple[int, int]]  # waits for a launch: (boards, pair tests)


def join_batch(keys: Any, jobs: Any, shape: Shape = SHAPE) -> Launched:
    """One launch of ``join_pairs`` over ``keys`` (NumPy uint64) and ``jobs``
    (uint64 rows of JOB_WORDS: east start, length, west start, length,
    weight), sent now; the call it returns waits for the launch and gives
    (the boards: each job's pairs apart times its weight, the pairs tested)."""
    import cupy
    import numpy

    if not len(jobs):
        return lambda: (0, 0)
    lengths = jobs[:, 1] + jobs[:, 3]
    order = numpy.argsort(-(jobs[:, 1] * jobs[:, 3]).astype(numpy.float64), kind="stable")  # the longest first
    jobs = numpy.ascontiguousarray(jobs[order])
    at = numpy.zeros(len(jobs), dtype=numpy.uint64)
    numpy.cumsum(lengths[order][:-1], out=at[1:])  # where each job's sorted copies go
    sorted_keys = cupy.zeros(int(lengths.sum()), dtype=numpy.uint64)
    found = cupy.zeros(len(jobs), dtype=numpy.uint64)
    tests = cupy.zeros(1, dtype=numpy.uint64)
    taken = cupy.zeros(1, dtype=numpy.int32)
    blocks = min(len(jobs), cupy.cuda.Device().attributes["MultiProcessorCount"] * shape.blocks_per_sm)
    _function(shape)((blocks,), (shape.threads,),
                     (numpy.int32(len(jobs)), cupy.asarray(jobs), cupy.asarray(at), cupy.asarray(keys), sorted_keys,
                      found, tests, taken), shared_mem=shape.shared_bytes())
    weights = jobs[:, 4]

    def wait() -> tuple[int, int]:
        apart = found.get()
        return int((apart * weights).sum(dtype=numpy.uint64)), int(tests.get()[0])

    return wait


def count_part(n: int, part: Part, shape: Shape | None = None, room: int = ROOM, jobs_room: int = JOBS,
               tasks_room: int = TASKS) -> Values:
    """:func:`join.count_part <nqueens_cp.counting.join.count_part>` with the
    join on this process's GPU: the same seven numbers (the boards, counted
    ``part.weight`` times; the row sets; the halves, each listed once; the
    pairs tested; nanoseconds building the quarters' table, listing, and
    waiting for the device), in ``shape`` (default :data:`SHAPE`)."""
    import numpy

    from .. import kernel
    from ..errors import NQueensError

    shape = shape or SHAPE
    if shape.listing == "device":
        return listed_on_device(n, part, shape, tasks_room)
    keys = numpy.empty(room, dtype=numpy.uint64)
    jobs = numpy.empty(jobs_room * kernel.JOB_WORDS, dtype=numpy.uint64)
    boards = row_sets = halves = tests = ns_table = ns_halves = ns_join = 0
    waiting: Launched | None = None
    first = part.first
    while first < part.last:
        try:
            listed = kernel.join_list(n, part.x, part.y, first, part.last, keys, jobs)
        except BufferError:  # the first row set's halves alone do not fit
            if len(keys) >= MAX_ROOM:
                raise NQueensError(f"N={n}: a row set's halves need more than {MAX_ROOM:,} keys") from None
            keys = numpy.empty(4 * len(keys), dtype=numpy.uint64)
            continue
        row_sets += listed.row_sets
        halves += listed.halves
        ns_table += listed.ns_table
        ns_halves += listed.ns_halves
        first = listed.next
        start = time.perf_counter_ns()
        if waiting is not None:  # the launch before, which ran while this batch was listed
            found, tested = waiting()
            boards, tests = boards + found, tests + tested
        waiting = join_batch(keys[:listed.keys], jobs[:listed.jobs * kernel.JOB_WORDS].reshape(-1, kernel.JOB_WORDS),
                             shape)
        ns_join += time.perf_counter_ns() - start
    if waiting is not None:
        start = time.perf_counter_ns()
        found, tested = waiting()
        boards, tests = boards + found, tests + tested
        ns_join += time.perf_counter_ns() - start
    return boards * part.weight, row_sets, halves, tests, ns_table, ns_halves, ns_join


# --- the listing on the device ---------------------------------------------------------

_tables: dict[int, Any] = {}  # the quarters' table of each h on the device, sent once a process


def _table_on_device(h: int) -> tuple[Any, int]:
    """The quarters' table's placements on the device, and the nanoseconds building it took here."""
    built = 0
    if h not in _tables:
        import cupy
        import numpy

        from .. import kernel
        from .join import TABLES

        entries = numpy.empty(TABLES[h][0], dtype=numpy.uint64)
        built = kernel.join_table_entries(h, entries)
        _tables[h] = cupy.asarray(entries)
    return _tables[h], built


def geometry(n: int, x: int, y: int) -> tuple[list[int], list[int]]:
    """join.cu's list_halves's geometry and masks for n and the middle queens
    on (n/2, x) and (y, n/2): the window (low, span); the east half's north
    and south quarters' shifts (diagonal, anti-diagonal), then the west's;
    the middle queens' diagonals and anti-diagonals; an even n's long
    diagonals as key bits."""
    from ..kernel import twin_join

    g = twin_join.geometry(n)
    middle = twin_join.middle(n, x, y)
    assert middle is not None, (n, x, y)
    diag = g.longest & -g.longest  # (the lower of the two long diagonals' bits: the diagonal's)
    return [g.low, g.span, *g.ne, *g.se, *g.nw, *g.sw], [middle.diag, middle.anti, diag, g.longest ^ diag]


def layout(tasks: Any, counts: Any, lists: int) -> tuple[Any, Any, Any]:
    """From each task's keys of each group (counts, tasks x 3), the lists laid
    out one after another, each in its groups: (where each task's keys of
    each group go, tasks x 3; where each list's groups start, lists x 3;
    their sizes, lists x 3)."""
    import numpy

    owner = tasks[:, 4].astype(numpy.int64)
    sizes = numpy.stack([numpy.bincount(owner, weights=counts[:, g], minlength=lists) for g in range(3)],
                        axis=1).astype(numpy.uint64)
    ends = numpy.cumsum(sizes.reshape(-1))  # list by list, group by group
    starts = (ends - sizes.reshape(-1)).reshape(-1, 3)
    before = numpy.cumsum(counts, axis=0) - counts  # each group's keys of the tasks before, all lists
    first = numpy.searchsorted(owner, owner, side="left")  # each task's list's first task (tasks in list order)
    return starts[owner] + before - before[first], starts, sizes


def jobs_of(starts: Any, sizes: Any, weights: Any, even: bool) -> Any:
    """The pairs of ranges to join, as join.c's join_list makes them: row set
    r's east list 2 r against its west list 2 r + 1, whole for an odd N; for
    an even N in the long diagonals' groups, the pairs 2b. joins and counts
    twice."""
    import numpy

    e_start, w_start, e_size, w_size = starts[0::2], starts[1::2], sizes[0::2], sizes[1::2]
    if not even:
        kinds = [(e_start[:, 0], e_size.sum(axis=1), w_start[:, 0], w_size.sum(axis=1), weights)]
    else:
        kinds = [(e_start[:, 0], e_size[:, 0], w_start[:, 0], w_size[:, 0] + w_size[:, 1], weights),
                 (e_start[:, 1], e_size[:, 1], w_start[:, 0], w_size[:, 0], weights),
                 (e_start[:, 0], e_size[:, 0], w_start[:, 2], w_size[:, 2], 2 * weights),
                 (e_start[:, 2], e_size[:, 2], w_start[:, 0], w_size[:, 0], 2 * weights)]
    jobs = numpy.concatenate([numpy.stack(kind, axis=1).astype(numpy.uint64) for kind in kinds])
    return jobs[(jobs[:, 1] > 0) & (jobs[:, 3] > 0)]


def listed_on_device(n: int, part: Part, shape: Shape, tasks_room: int = TASKS) -> Values:
    """:func:`count_part` with the halves listed on the device too: join.c
    gives the tasks (join_tasks), list_halves counts each task's keys, the
    host lays the lists out from the counts, list_halves writes them, and
    join_pairs joins them where they are."""
    import cupy
    import numpy

    from .. import kernel

    table, ns_table = _table_on_device(n // 2)
    shifts, masks = geometry(n, part.x, part.y)
    d_shifts, d_masks = cupy.asarray(numpy.array(shifts, dtype=numpy.int32)), \
        cupy.asarray(numpy.array(masks, dtype=numpy.uint64))
    function = _function(shape, "list_halves")
    blocks = cupy.cuda.Device().attributes["MultiProcessorCount"] * shape.blocks_per_sm
    tasks = numpy.empty(tasks_room * kernel.TASK_WORDS, dtype=numpy.uint32)
    weights = numpy.empty(tasks_room, dtype=numpy.uint64)
    nothing = cupy.zeros(1, dtype=numpy.uint64)
    boards = row_sets = halves = tests = ns_halves = ns_join = 0
    first = part.first
    while first < part.last:
        start = time.perf_counter_ns()
        try:
            made = kernel.join_tasks(n, part.x, part.y, first, part.last, tasks, weights)
        except BufferError:  # a row set's tasks alone do not fit (two halves' choices of north columns)
            tasks = numpy.empty(4 * len(tasks), dtype=numpy.uint32)
            continue
        ns_table += made.ns_table
        row_sets, first = row_sets + made.row_sets, made.next
        if not made.tasks:
            continue
        rows = tasks[:made.tasks * kernel.TASK_WORDS].reshape(-1, kernel.TASK_WORDS)
        starts = numpy.zeros(made.tasks + 1, dtype=numpy.uint64)
        numpy.cumsum(rows[:, 1], out=starts[1:])
        d_tasks, d_starts = cupy.asarray(rows), cupy.asarray(starts)
        counts = cupy.zeros(3 * made.tasks, dtype=numpy.uint32)
        function((blocks,), (shape.threads,), (numpy.int32(made.tasks), numpy.int32(0), d_tasks, d_starts, table,
                                               d_shifts, d_masks, counts, nothing, nothing))
        at, list_starts, sizes = layout(rows, counts.get().reshape(-1, 3).astype(numpy.uint64), 2 * made.row_sets)
        keys = cupy.zeros(max(1, int(sizes.sum())), dtype=numpy.uint64)
        function((blocks,), (shape.threads,), (numpy.int32(made.tasks), numpy.int32(1), d_tasks, d_starts, table,
                                               d_shifts, d_masks, counts, cupy.asarray(at), keys))
        halves += int(sizes.sum())
        jobs = jobs_of(list_starts, sizes, weights[:made.row_sets], n % 2 == 0)
        listed = time.perf_counter_ns()
        found, tested = join_batch(keys, jobs, shape)()
        boards, tests = boards + found, tests + tested
        ns_halves, ns_join = ns_halves + listed - start, ns_join + time.perf_counter_ns() - listed
    return boards * part.weight, row_sets, halves, tests, ns_table, ns_halves, ns_join
