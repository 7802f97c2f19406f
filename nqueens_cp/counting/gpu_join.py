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

:class:`Shape` holds what a measurement on a device must settle (the
threads of a block, the bits of a bucket's id, the keys a bucket);
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


@dataclass(frozen=True)
class Shape:
    """How ``join_pairs`` is compiled and launched: ``threads`` a block,
    ``blocks_per_sm`` blocks an SM, buckets of up to ``id_bits`` bits of id
    holding about ``bucket_keys`` keys of the shorter range (with
    ``warp_buckets``, of the longer range, whose buckets a warp takes
    whole: join.cu's JOIN_WARP_BUCKETS), the telling bits chosen from
    ``sample`` keys of each range."""

    threads: int = 256
    blocks_per_sm: int = 8
    id_bits: int = 10
    bucket_keys: int = 32
    sample: int = 1024
    warp_buckets: bool = False

    def __post_init__(self) -> None:
        if self.threads <= 0 or self.threads % 32 or self.blocks_per_sm < 1 or not 0 <= self.id_bits <= 16 or \
                self.bucket_keys < 1 or self.sample < 1:
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
    is not foreseen here)."""
    from ..kernel import JOB_WORDS

    return 8 * room + 2 * 8 * JOB_WORDS * jobs_room + 3 * 8 * jobs_room
_compiled: dict[Shape, Any] = {}  # join.cu of each shape, compiled once a process


def _function(shape: Shape) -> Any:
    if shape not in _compiled:
        import cupy

        from .gpu import KERNEL_DIR

        source = (KERNEL_DIR / "join.cu").read_text(encoding="utf-8")
        _compiled[shape] = cupy.RawModule(code=source, options=("--std=c++17", *shape.defines()))
    return _compiled[shape].get_function("join_pairs")


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


def count_part(n: int, part: Part, shape: Shape | None = None, room: int = ROOM, jobs_room: int = JOBS) -> Values:
    """:func:`join.count_part <nqueens_cp.counting.join.count_part>` with the
    join on this process's GPU: the same seven numbers (the boards, counted
    ``part.weight`` times; the row sets; the halves, each listed once; the
    pairs tested; nanoseconds building the quarters' table, listing, and
    waiting for the device), in ``shape`` (default :data:`SHAPE`)."""
    import numpy

    from .. import kernel
    from ..errors import NQueensError

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
                             shape or SHAPE)
        ns_join += time.perf_counter_ns() - start
    if waiting is not None:
        start = time.perf_counter_ns()
        found, tested = waiting()
        boards, tests = boards + found, tests + tested
        ns_join += time.perf_counter_ns() - start
    return boards * part.weight, row_sets, halves, tests, ns_table, ns_halves, ns_join
