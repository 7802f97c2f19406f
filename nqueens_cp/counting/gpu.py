"""The count by symmetry classes on a GPU: work items, their packing, the launch.

The count is the one :mod:`nqueens_cp.counting.classes` describes (the
corner and inner families, their sub-boards, the tie squares, the checks by
S180 and S90); only where a task's sub-boards are searched changes.  A GPU
needs tens of thousands of independent searches, so each sub-board is split
deeper on the host (:func:`work_items`: more rows fixed, every non-attacking
way), and every item keeps its sub-board's class test and tie square: the
items' tallies add up to the sub-board's exactly.

:func:`count_sub_boards` has the contract of
:func:`nqueens_cp.counting.classes.count_sub_boards` (the same five numbers
for a list of sub-boards), so checkpoints, pools and Dask take GPU tasks as
they take CPU ones.  The kernel (``nqueens_cp/kernel/gpu.cu``) includes the
CPU kernel's ``queens.h``; CuPy compiles it with NVRTC at first use and
caches it.  Everything but the launch runs on the CPU too
(:func:`count_items_on_cpu`, which the tests use).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .classes import SubBoard, Values

KERNEL_DIR = Path(__file__).resolve().parent.parent / "kernel"
THREADS_PER_BLOCK = 128
# A thread's deepest rows, where its search spends its time, are on its stack
# in shared memory (queens.h, struct stack): 12 rows of 4 words for each of
# 128 threads are the 48 KiB a launch may ask for without opting in to more;
# the rows above stay in the thread's local memory.
HOT_ROWS = 12
WORD_BYTES = 8
# Blocks an SM of an H100 (228 KiB of shared memory) holds at 48 KiB a block;
# more would only wait for the queue to be empty.
BLOCKS_PER_SM = 4
ITEMS_PER_LAUNCH = 1 << 20  # a launch at a time, so that a deadline and progress are seen between them


def depth(n: int) -> int:
    """Rows fixed in a work item: 5 from N = 13 (about 113,000 items at
    N = 17, 416,000 at N = 20, 844,000 at N = 22: every thread of a large GPU
    gets several, and the atomic queue evens out their lengths).  One row
    more gives eight to nine times as many: 7.7 million at N = 22, which
    kernel.expand lists in 5.4 s here, longer than the launches should take
    (benchmarks/work_items.py measures the listing)."""
    return 4 if n <= 12 else 5


@dataclass
class Items:
    """Work items packed for the device: ``masks`` holds n words per item."""

    n: int
    masks: array  # uint64, items * n
    ties: array  # uint64, one per item
    classify: array  # uint8, one per item

    def __len__(self) -> int:
        return len(self.ties)


def work_items(n: int, sub_boards: Sequence[SubBoard], rows: int | None = None) -> Items:
    """Every sub-board split into items with rows 0 .. rows-1 fixed (a
    sub-board already fixed that deep is one item), packed."""
    from .. import kernel

    fixed = depth(n) if rows is None else rows
    masks, counts = kernel.expand(n, [board.allowed for board in sub_boards], fixed)
    ties, classify = array("Q"), array("B")
    for board, count in zip(sub_boards, counts):
        ties.extend(array("Q", [board.tie]) * count)
        classify.extend(array("B", [board.classify]) * count)
    return Items(n, masks, ties, classify)


def unpack(items: Items) -> list[SubBoard]:
    """The items as sub-boards again (for the CPU's loop; family and first are not kept)."""
    n = items.n
    return [SubBoard("item", 0, tuple(items.masks[i * n:(i + 1) * n]), bool(items.classify[i]), items.ties[i])
            for i in range(len(items))]


def totals(found: Sequence[int]) -> Values:
    """The kernel's five totals (eight, four, two, nodes, tied) as a task's values
    (:func:`classes.count_sub_boards`: the boards on tie squares apart)."""
    eight, four, two, nodes, tied = (int(x) for x in found)
    return eight - tied, four, two, nodes, tied


def count_items_on_cpu(items: Items) -> Values:
    """What the kernel computes for ``items``, by the CPU kernel: the check of
    the decomposition and the packing without a GPU."""
    from .. import kernel

    t = kernel.count_boards(items.n, [(b.allowed, b.tie, b.classify) for b in unpack(items)])
    return totals((t.eight, t.four, t.two, t.nodes, t.tied))


def count_sub_boards_on_cpu(n: int, chunk: list[SubBoard]) -> Values:
    """:func:`count_sub_boards` with the launch replaced by the CPU kernel: a
    task function of the same contract, so that a whole GPU count (items,
    packing, bookkeeping, checks) runs on a machine without a GPU."""
    return count_items_on_cpu(work_items(n, chunk))


def count_sub_boards(n: int, chunk: list[SubBoard],
                     progress: Callable[[int, int], None] | None = None) -> Values:
    """:func:`classes.count_sub_boards` on this process's GPU."""
    items = work_items(n, chunk)
    found = [0] * 5
    launch = _kernel()
    for start in range(0, len(items), ITEMS_PER_LAUNCH):
        part = Items(n, items.masks[start * n:(start + ITEMS_PER_LAUNCH) * n],
                     items.ties[start:start + ITEMS_PER_LAUNCH], items.classify[start:start + ITEMS_PER_LAUNCH])
        found = [a + b for a, b in zip(found, launch(part))]
        if progress:
            progress(min(start + ITEMS_PER_LAUNCH, len(items)), len(items))
    return totals(found)


def shared_words(threads: int = THREADS_PER_BLOCK, hot_rows: int = HOT_ROWS) -> int:
    """The words of shared memory a block of ``threads`` needs for their stacks' hot rows."""
    from ..kernel import twin

    return threads * hot_rows * twin.ROW_WORDS


_compiled: dict[str, Any] = {}


def _kernel() -> Callable[[Items], list[int]]:
    """The launch of ``count_items`` (compiled once a process; CuPy caches the binary on disk)."""
    import cupy
    import numpy

    if "function" not in _compiled:
        source = (KERNEL_DIR / "gpu.cu").read_text(encoding="utf-8")
        module = cupy.RawModule(code=source, options=(f"-I{KERNEL_DIR}", "--std=c++17"))
        _compiled["function"] = module.get_function("count_items")
    function = _compiled["function"]
    device = cupy.cuda.Device()
    blocks = device.attributes["MultiProcessorCount"] * BLOCKS_PER_SM

    def launch(items: Items) -> list[int]:
        if not len(items):
            return [0] * 5
        masks = cupy.asarray(numpy.frombuffer(items.masks, dtype=numpy.uint64))
        ties = cupy.asarray(numpy.frombuffer(items.ties, dtype=numpy.uint64))
        classify = cupy.asarray(numpy.frombuffer(items.classify, dtype=numpy.uint8))
        found = cupy.zeros(5, dtype=numpy.uint64)
        taken = cupy.zeros(1, dtype=numpy.int32)
        function((blocks,), (THREADS_PER_BLOCK,),
                 (numpy.int32(items.n), numpy.int32(len(items)), numpy.int32(HOT_ROWS), masks, ties, classify,
                  found, taken), shared_mem=shared_words() * WORD_BYTES)
        return [int(x) for x in found.get()]

    return launch
