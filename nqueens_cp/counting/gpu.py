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
they take CPU ones.  The kernels (``nqueens_cp/kernel/gpu.cu``):
``count_items`` runs the CPU kernel's walk (``queens.h``) on the items to
class, ``count_plain`` a count-only loop on the rest, each in launches of
its own; CuPy compiles them with NVRTC at first use and caches them.
Everything but the launch runs on the CPU too (:func:`count_items_on_cpu`),
and the tests run the launches through a stand-in for CuPy that runs
gpu.cu on CPU threads.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .classes import SubBoard, Values

if TYPE_CHECKING:
    import numpy
    import numpy.typing

    Order = numpy.typing.NDArray[numpy.int32]  # item indices, in the order the threads take them

KERNEL_DIR = Path(__file__).resolve().parent.parent / "kernel"
ITEMS_PER_LAUNCH = 1 << 20  # a launch at a time, so that a deadline and progress are seen between them
WORD32_MAX_N = 32  # up to here a row fits a 32-bit word, which a GPU's integer units take in one step


def word_bits(n: int) -> int:
    """The kernel's word for a count of n: 32 bits up to N = 32 (queens.h's
    QUEENS_WORD32: a 64-bit and, shift or compare is two or more instructions
    on a GPU), else 64."""
    return 32 if n <= WORD32_MAX_N else 64


def defines(bits: int, ahead: bool = False) -> tuple[str, ...]:
    """The compiler's options for gpu.cu with words of ``bits``, and with
    count_plain looking two rows ahead where ``ahead``."""
    return ("-DQUEENS_WORD32",) * (bits == 32) + ("-DPLAIN_AHEAD",) * ahead


@dataclass(frozen=True)
class Shape:
    """How a launch lays out its threads.  A thread's deepest rows, where its
    search spends its time, are on its stack in shared memory (queens.h,
    struct stack); the rows above stay in the thread's local memory.  A
    block may ask for 48 KiB of shared memory without opting in to more,
    and an H100's or H200's SM holds 228 KiB: with 64-bit words, 12 rows of
    4 words for each of 128 threads are 48 KiB, 4 blocks an SM; with 32-bit
    words 24 rows are.  More blocks than an SM holds would only wait for the
    queue to be empty."""

    threads: int = 128  # a block's
    hot_rows: int = 12
    blocks_per_sm: int = 4
    word_bytes: int = 8  # 4: the kernel compiled with QUEENS_WORD32

    def __post_init__(self) -> None:
        # whole warps (a warp's lanes interleave their hot rows), and no more
        # shared memory than any GPU gives a block without opting in
        if self.threads <= 0 or self.threads % 32 or self.hot_rows < 1 or self.blocks_per_sm < 1 or \
                self.word_bytes not in (4, 8):
            raise ValueError(f"a launch's shape needs whole warps, a hot row, a block an SM and words of 4 "
                             f"or 8 bytes: {self}")
        if self.shared_words() * self.word_bytes > 48 * 1024:
            raise ValueError(f"{self} asks for {self.shared_words() * self.word_bytes} bytes of shared memory a "
                             "block, past the 48 KiB any GPU gives without opting in")

    def shared_words(self) -> int:
        """The words of shared memory a block needs for its threads' hot rows."""
        from ..kernel import twin

        return self.threads * self.hot_rows * twin.ROW_WORDS


# Each word's default: the fastest of the launches alone at N = 19 on an H200 (issue 54,
# benchmarks/gpu.py --shapes 19): 64-bit, 12 hot rows, 2.02 s; 32-bit, 24 hot rows (all
# of a thread's stack but the first rows, in 48 KiB), 1.15 s against 1.50 s with 12.
SHAPES = {64: Shape(), 32: Shape(hot_rows=24, word_bytes=4)}
SHAPE = SHAPES[64]
SHARED_BYTES = 48 * 1024  # what a block may ask for without opting in to more


@dataclass(frozen=True)
class Plain:
    """How count_plain (gpu.cu: the count-only walk of the items that need
    no classing) is launched.  Each thread keeps its whole stack and its
    item's rows in shared memory (:func:`plain_words`), so a block has as
    many threads as fit 48 KiB, up to ``threads``; ``ahead``: the kernel
    compiled with PLAIN_AHEAD (the look two rows ahead)."""

    threads: int = 128  # a block's, at most
    blocks_per_sm: int = 8
    ahead: bool = False

    def __post_init__(self) -> None:
        if self.threads <= 0 or self.threads % 32 or self.blocks_per_sm < 1:
            raise ValueError(f"a launch's shape needs whole warps and a block an SM: {self}")

    def block(self, n: int, levels: int, word_bytes: int) -> int:
        """The threads of a block for n and ``levels`` (0: not one warp fits)."""
        fit = SHARED_BYTES // (plain_words(n, levels) * word_bytes) // 32 * 32
        return min(self.threads, fit)


PLAIN = Plain()


def plain_words(n: int, levels: int) -> int:
    """The words of shared memory a thread of count_plain takes, as gpu.cu
    lays them out: ``levels`` entries of its stack, four words each, then
    its n rows, two words each (a launch that asks for less fails in the
    tests' stand-in for CuPy)."""
    return 4 * levels + 2 * n


def levels(items: Items) -> int:
    """The entries count_plain's stack needs for ``items``: a row is saved
    only while it has cells left to try, and only above the row before the
    last, so the most rows with two allowed cells or more among 0 .. n-3
    of any item (at least one)."""
    import numpy

    n, count = items.n, len(items)
    if count == 0 or n < 3:
        return 1
    full = numpy.uint64((1 << n) - 1)  # (n <= QUEENS_MAX_N, 62)
    rows = numpy.frombuffer(items.masks, dtype=numpy.uint64).reshape(count, n)[:, :n - 2] & full
    return max(1, int((numpy.bitwise_count(rows) >= 2).sum(axis=1).max()))


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
    # their masks and ties on the device, by word size (sent once for both kernels' launches)
    sent: dict[int, tuple[Any, Any]] = field(default_factory=dict, compare=False, repr=False)

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


def biggest_first(items: Items, fixed: int) -> Order:
    """The items' indices in order of their estimated work, the largest
    first: the order in which the kernel's threads take them.

    The threads take items from one queue, and a launch lasts as long as its
    slowest thread: taken as listed, a long item started late keeps its
    thread busy while the others idle.  Taken biggest first, the long
    searches start at once and the short ones fill the end (the "longest
    processing time first" rule).  The estimate is the logarithm of the
    product, over the rows after the ``fixed`` ones, of the cells the fixed
    queens leave open in each (its rank agrees with that of the nodes the
    CPU kernel counts at about 0.83, Spearman, for N = 16 to 18); an item
    with a row left no cell is dead and goes last.  What it gains, simulated
    from the CPU kernel's nodes per item: benchmarks/gpu_schedule.py."""
    import numpy

    n, count = items.n, len(items)
    rows = numpy.frombuffer(items.masks, dtype=numpy.uint64).reshape(count, n).T.copy()  # row r of every item
    cols, left, right = (numpy.zeros(count, dtype=numpy.uint64) for _ in range(3))
    one = numpy.uint64(1)
    for r in range(min(fixed, n)):  # QUEENS_STEP, row by row
        cols, left, right = cols | rows[r], (left | rows[r]) << one, (right | rows[r]) >> one
    logs = numpy.log(numpy.maximum(numpy.arange(65), 1))  # by the number of open cells
    logs[0] = -numpy.inf
    estimate = numpy.zeros(count)
    for r in range(min(fixed, n), n):
        estimate += logs[numpy.bitwise_count(rows[r] & ~(cols | left | right))]
        left <<= one
        right >>= one
    return numpy.argsort(-estimate, kind="stable").astype(numpy.int32)


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


def count_items_on_cpu(items: Items, order: Iterable[int] | None = None) -> Values:
    """What the kernel computes for ``items`` (those of ``order``, in its
    order, if given), by the CPU kernel: the check of the decomposition, the
    packing and the order without a GPU."""
    from .. import kernel

    boards = unpack(items)
    taken = boards if order is None else [boards[i] for i in order]
    t = kernel.count_boards(items.n, [(b.allowed, b.tie, b.classify) for b in taken])
    return totals((t.eight, t.four, t.two, t.nodes, t.tied))


def item_nodes(items: Items) -> list[int]:
    """Each item's nodes, searched alone by the CPU kernel (the same walk as
    the GPU's): what an item costs a thread (benchmarks/gpu_schedule.py)."""
    from .. import kernel

    return [kernel.count_boards(items.n, [(b.allowed, b.tie, b.classify)]).nodes for b in unpack(items)]


def count_sub_boards(n: int, chunk: list[SubBoard], progress: Callable[[int, int], None] | None = None,
                     shape: Shape | None = None, plain: Plain | None = PLAIN) -> Values:
    """:func:`classes.count_sub_boards` on this process's GPU: the items sent
    once, then launches of ITEMS_PER_LAUNCH of them, biggest first: the
    plain items by count_plain (in ``plain``'s shape; None: by count_items
    too), the items to class by count_items, each in launches of their own."""
    import numpy

    items = work_items(n, chunk)
    order = biggest_first(items, depth(n))
    to_class = numpy.frombuffer(items.classify, dtype=numpy.uint8)[order] != 0
    word_bytes = (shape or SHAPES[word_bits(n)]).word_bytes
    deep = levels(items)
    if plain is None or plain.block(n, deep, word_bytes) == 0:  # (past N = 36 in 64-bit words)
        runs = [(launcher(items, shape), order)]
    else:
        runs = [(plain_launcher(items, plain, word_bytes, deep), order[~to_class]),
                (launcher(items, shape), order[to_class])]
    found, done = [0] * 5, 0
    for launch, taken in runs:
        for start in range(0, len(taken), ITEMS_PER_LAUNCH):
            part = taken[start:start + ITEMS_PER_LAUNCH]
            found = [a + b for a, b in zip(found, launch(part))]
            done += len(part)
            if progress:
                progress(done, len(items))
    return totals(found)


_compiled: dict[tuple[int, bool], Any] = {}  # gpu.cu of each word size and look-ahead, compiled once a process


def _module(bits: int, ahead: bool = False) -> Any:
    """gpu.cu compiled for words of ``bits`` (CuPy caches the binary on disk)."""
    if (bits, ahead) not in _compiled:
        import cupy

        source = (KERNEL_DIR / "gpu.cu").read_text(encoding="utf-8")
        _compiled[bits, ahead] = cupy.RawModule(code=source, options=(f"-I{KERNEL_DIR}", "--std=c++17",
                                                                      *defines(bits, ahead)))
    return _compiled[bits, ahead]


def _on_device(items: Items, bits: int) -> tuple[Any, Any]:
    """The items' masks and ties on the device, in the kernel's words (sent
    at the first call for that word)."""
    if bits not in items.sent:
        import cupy
        import numpy

        word = numpy.uint32 if bits == 32 else numpy.uint64
        items.sent[bits] = (cupy.asarray(numpy.frombuffer(items.masks, dtype=numpy.uint64).astype(word, copy=False)),
                            cupy.asarray(numpy.frombuffer(items.ties, dtype=numpy.uint64).astype(word, copy=False)))
    return items.sent[bits]


def plain_launcher(items: Items, shape: Plain = PLAIN, word_bytes: int | None = None,
                   deep: int | None = None) -> Callable[[Order], list[int]]:
    """Launches of ``count_plain`` on ``items`` (those of the order given,
    none of them to class), sent to the device now, in words of
    ``word_bytes`` (default: those of :func:`word_bits`), each thread's
    stack ``deep`` entries (default :func:`levels` of the items, a pass over them)."""
    bits = 8 * word_bytes if word_bytes else word_bits(items.n)
    if bits == 32 and items.n > WORD32_MAX_N:
        raise ValueError(f"N={items.n} does not fit 32-bit words")
    import cupy
    import numpy

    deep = levels(items) if deep is None else deep
    threads = shape.block(items.n, deep, bits // 8)
    if threads == 0:
        raise ValueError(f"N={items.n}: a thread of count_plain needs more than a 48 KiB block holds for one warp")
    function = _module(bits, shape.ahead).get_function("count_plain")
    blocks = cupy.cuda.Device().attributes["MultiProcessorCount"] * shape.blocks_per_sm
    masks, ties = _on_device(items, bits)

    def launch(order: Order) -> list[int]:
        if not len(order):
            return [0] * 5
        found = cupy.zeros(5, dtype=numpy.uint64)
        taken = cupy.zeros(1, dtype=numpy.int32)
        function((blocks,), (threads,),
                 (numpy.int32(items.n), numpy.int32(len(order)), numpy.int32(deep), cupy.asarray(order), masks, ties,
                  found, taken), shared_mem=threads * plain_words(items.n, deep) * bits // 8)
        return [int(x) for x in found.get()]

    return launch


def launcher(items: Items, shape: Shape | None = None) -> Callable[[Order], list[int]]:
    """Launches of ``count_items`` on ``items``, sent to the device now, each
    taking the items of the order it is given, in ``shape`` (default: the
    one of the word its N takes, :func:`word_bits`; a shape's word is the
    kernel's).  Compiled once a process; CuPy caches the binary on disk."""
    shape = shape or SHAPES[word_bits(items.n)]
    bits = 8 * shape.word_bytes
    if bits == 32 and items.n > WORD32_MAX_N:
        raise ValueError(f"N={items.n} does not fit the 32-bit words of {shape}")
    import cupy
    import numpy

    function = _module(bits).get_function("count_items")
    blocks = cupy.cuda.Device().attributes["MultiProcessorCount"] * shape.blocks_per_sm
    masks, ties = _on_device(items, bits)
    classify = cupy.asarray(numpy.frombuffer(items.classify, dtype=numpy.uint8))

    def launch(order: Order) -> list[int]:
        if not len(order):
            return [0] * 5
        found = cupy.zeros(5, dtype=numpy.uint64)
        taken = cupy.zeros(1, dtype=numpy.int32)
        function((blocks,), (shape.threads,),
                 (numpy.int32(items.n), numpy.int32(len(order)), numpy.int32(shape.hot_rows), cupy.asarray(order),
                  masks, ties, classify, found, taken), shared_mem=shape.shared_words() * shape.word_bytes)
        return [int(x) for x in found.get()]

    return launch
