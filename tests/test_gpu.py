"""The GPU count: everything but the launch on the CPU; the launch where a GPU is.

The work items, their packing and weights, and a whole count through the
plan (checks by S180 and S90 included) run here with the launch replaced by
the CPU kernel, which runs the same queens.h.  The CUDA source is compiled
with nvcc where nvcc is installed.  The tests that launch the kernel skip
without CuPy and an NVIDIA GPU, saying so.
"""

from __future__ import annotations

import ctypes
import functools
import operator
import os
import re
import shutil
import subprocess
import sys
from array import array
from pathlib import Path
from typing import Any

import cupy_standin
import pytest

import nqueens_cp as nq
from nqueens_cp import FUNDAMENTAL, TOTAL
from nqueens_cp.counting import classes, gpu
from nqueens_cp.engines.gpu import GpuEngine
from nqueens_cp.kernel.twin import ROW_WORDS


def count_sub_boards_on_cpu(n: int, chunk: list[classes.SubBoard]) -> classes.Values:
    """:func:`count_sub_boards` with the launch replaced by the CPU kernel: a
    task function of the same contract, so that a whole GPU count (items,
    packing, order, bookkeeping, checks) runs on a machine without a GPU."""
    items = gpu.work_items(n, chunk)
    return gpu.count_items_on_cpu(items, gpu.biggest_first(items, gpu.depth(n)))


@pytest.mark.parametrize("n", range(1, 13))
def test_work_items_add_up_to_the_sub_boards_they_split(n: int) -> None:
    boards = classes.sub_boards(n)
    items = gpu.work_items(n, boards)
    assert len(items) >= len(boards) and len(items.masks) == n * len(items)
    eight, four, two, _, tied = gpu.count_items_on_cpu(items)
    want = classes.count_sub_boards(n, boards)
    assert (eight, four, two, tied) == (want[0], want[1], want[2], want[4])
    tally = classes.tally(n, eight, four, two, tied, classes.symmetric_on_ties(n))
    assert tally.total == TOTAL[n] and tally.fundamental == FUNDAMENTAL[n]


@pytest.mark.parametrize("n", [4, 8, 13, 15])
def test_the_threads_take_every_item_once_biggest_first(n: int) -> None:
    """biggest_first is a permutation, and on the whole the items it puts
    first search more nodes than those it puts last."""
    import numpy

    items = gpu.work_items(n, classes.sub_boards(n))
    order = gpu.biggest_first(items, gpu.depth(n))
    assert order.dtype == numpy.int32 and sorted(order.tolist()) == list(range(len(items)))
    assert gpu.count_items_on_cpu(items, order) == gpu.count_items_on_cpu(items)
    searched = gpu.item_nodes(items)
    nodes = [searched[i] for i in order]
    if len(nodes) >= 100:
        tenth = len(nodes) // 10
        assert sum(nodes[:tenth]) > 3 * sum(nodes[-tenth:])


def test_an_item_with_a_row_left_no_cell_goes_last() -> None:
    n, full = 8, (1 << 8) - 1
    live = (1, 1 << 2, 1 << 4) + (full,) * 5  # queens on (0,0), (1,2), (2,4): every row after has a cell
    dead = (1, 1 << 2, 1 << 4, full, full, full, 1 << 6, full)  # row 6 may take only (6,6), on (0,0)'s diagonal
    items = gpu.Items(n, array("Q", dead + live), array("Q", [0, 0]), array("B", [0, 0]))
    assert gpu.biggest_first(items, 3).tolist() == [1, 0]


def test_items_keep_their_sub_board_class_test_and_tie_square() -> None:
    n = 10
    for board in classes.sub_boards(n):
        items = gpu.work_items(n, [board], rows=5)
        assert set(items.ties) <= {board.tie} and set(items.classify) <= {int(board.classify)}
        for item in gpu.unpack(items):
            assert all(mask & ~allowed == 0 for mask, allowed in zip(item.allowed, board.allowed))
            assert all(bin(mask).count("1") == 1 for mask in item.allowed[:5])


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13, 20, 62])
def test_work_items_in_c_are_the_twins_and_fix_rows_in_order(n: int) -> None:
    """kernel.expand (search.c) against its twin and against classes.fix_rows,
    on random boards, every depth from 0 to past n: the same items in the same order."""
    import random

    from nqueens_cp import kernel

    if not kernel.compiled(n):
        pytest.skip("the compiled module is not built here")
    rng = random.Random(n)
    full = (1 << n) - 1
    boards = [tuple(rng.getrandbits(n) | rng.getrandbits(n) for _ in range(n)) for _ in range(12)]
    boards += [(full,) * n, (0,) * n, tuple(full if r else 0 for r in range(n))]
    # (depths whose items the Python oracles list in a blink: n^depth of them at most)
    for depth in [d for d in (0, 1, 2, 3, 5, n + 1) if n ** min(d, n) <= 20_000]:
        c_items, c_counts = kernel.expand(n, boards, depth)
        t_items, t_counts = kernel.expand(n, boards, depth, compiled=False)
        assert (c_items, c_counts) == (t_items, t_counts)
        reference = [item for board in boards for item in classes.fix_rows(n, board, depth) if all(item)]
        assert [tuple(c_items[i * n:(i + 1) * n]) for i in range(len(c_items) // n)] == reference
        assert sum(c_counts) == len(reference)


@pytest.mark.parametrize("n", [6, 13, 20, 22, 23])
def test_up_to_n_22_a_gpu_count_is_one_launch(n: int) -> None:
    """A launch lasts as long as its slowest thread (benchmarks/gpu_schedule.py):
    the targets' sizes are one task; beyond, tasks of 1,024 sub-boards."""
    tasks = classes.chunks(n, GpuEngine().task_size(n) or 0)
    assert len(tasks) == 1 if n <= 22 else len(tasks) == -(-len(classes.sub_boards(n)) // 1024) > 1


def test_enough_items_for_a_large_gpu() -> None:
    items = gpu.work_items(17, classes.sub_boards(17))
    assert len(items) > 50_000


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 9, 12, 13])
def test_a_whole_gpu_count_with_the_launch_on_the_cpu(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan, tasks, checks and tallies of engine gpu, the kernel's work done by the CPU kernel."""
    monkeypatch.setattr(GpuEngine, "unavailable_reason", classmethod(lambda cls: None))
    monkeypatch.setattr(GpuEngine, "count_sub_boards", lambda self, n, chunk: count_sub_boards_on_cpu(n, chunk))
    found = nq.execution.run.counted(n, engine="gpu")
    assert found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]
    assert nq.count(n, engine="gpu", unique=True) == FUNDAMENTAL[n]


def test_without_a_gpu_the_engine_says_why_in_one_line(cli) -> None:
    reason = GpuEngine.unavailable_reason()
    if reason is None:
        pytest.skip("this machine has CuPy and an NVIDIA GPU")
    code, out, err = cli("count", "12", "--engine", "gpu")
    assert code == 2 and out == "" and err.count("\n") == 1 and "engine 'gpu' is unavailable" in err
    assert "nqueens-cp[gpu]" in err or "no NVIDIA GPU" in err


def test_an_engine_marked_experimental_says_so(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """Until a run on a GPU gives every published count with the count-only
    loop (issue 66; issue 54's did for the walk), engine gpu is marked
    experimental: `engines`, the plan and `count` say so, on stderr and
    before the work.  The mark is data on the engine (the count here is the
    CPU stand-in's)."""
    assert GpuEngine.experimental.startswith("engine gpu is experimental: its count-only loop and its join of "
                                             "quarters (issue 66)")
    why = "engine gpu is experimental: a test marks it so"
    monkeypatch.setattr(GpuEngine, "experimental", why)
    monkeypatch.setattr(GpuEngine, "unavailable_reason", classmethod(lambda cls: None))
    monkeypatch.setattr(GpuEngine, "count_sub_boards", lambda self, n, chunk: count_sub_boards_on_cpu(n, chunk))
    assert GpuEngine.capabilities()["experimental"] == why
    assert why in nq.execution.plan.plan(8, "gpu").notes
    code, out, err = cli("count", "8", "--engine", "gpu")
    assert code == 0 and out.split()[0] == "92" and why in err
    code, out, err = cli("engines")
    assert "gpu: EXPERIMENTAL, a test marks it so" in out


def test_the_gpu_engine_counts_plain_n_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GpuEngine, "unavailable_reason", classmethod(lambda cls: None))
    with pytest.raises(nq.InvalidInputError, match="plain N only"):
        nq.count(10, engine="gpu", fixed={0: 1})
    with pytest.raises(nq.InvalidInputError, match="without listing them"):
        nq.solutions(10, engine="gpu")
    assert (GpuEngine.classes_from, GpuEngine.max_n) == (1, classes.MAX_N)  # issue 32 asks for N = 4.. on a GPU


@pytest.fixture(scope="module")
def standin_builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("g++") is None and shutil.which("clang++") is None:
        pytest.skip("no C++ compiler here (g++ or clang++) to build gpu.cu for the CPU")
    # one folder for the suite's processes (pytest-xdist's workers: their base folders share a parent),
    # so that each library is built once (cupy_standin.library)
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "cupy-standin"
    shared.mkdir(exist_ok=True)
    return shared


@pytest.fixture
def standin(standin_builds: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """CuPy replaced by tests/cupy_standin.py: gpu.cu built by g++ from the
    source and options counting/gpu.py gives CuPy, its kernels run on CPU
    threads; gpu.py compiles afresh (its cache of modules emptied), and
    engine gpu is available."""
    monkeypatch.setattr(cupy_standin, "build_dir", standin_builds)
    monkeypatch.setitem(sys.modules, "cupy", cupy_standin)
    monkeypatch.setattr(gpu, "_compiled", {})
    monkeypatch.setattr(GpuEngine, "unavailable_reason", classmethod(lambda cls: None))
    return cupy_standin


def launches_recorded(patch: pytest.MonkeyPatch) -> list[str]:
    """The names of the kernels the stand-in launches from now on, in order."""
    launched: list[str] = []
    launch = cupy_standin.Function.__call__

    def recorded(self: cupy_standin.Function, *args: Any, **keywords: Any) -> None:
        launched.append(self.name)
        launch(self, *args, **keywords)

    patch.setattr(cupy_standin.Function, "__call__", recorded)
    return launched


def shared_words(threads: int, hot_rows: int) -> int:
    """The words a block's hot rows take, as gpu.Shape reckons them (a shape
    past 48 KiB is refused there: the stand-in's array is larger)."""
    return threads * hot_rows * ROW_WORDS


def published(n: int, found: classes.Values) -> bool:
    eight, four, two, _, tied = found
    tally = classes.tally(n, eight, four, two, tied, classes.symmetric_on_ties(n))
    return (tally.total, tally.fundamental) == (TOTAL[n], FUNDAMENTAL[n])


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize(("n", "hot_rows", "threads"), [(6, 12, 128), (9, 3, 64), (12, 12, 128), (13, 1, 96),
                                                        (13, 16, 32), (14, 12, 128)])
def test_count_items_on_cpu_threads_counts_what_the_cpu_kernel_counts(standin: Any, n: int, hot_rows: int,
                                                                      threads: int, bits: int) -> None:
    """gpu.cu's count_items through gpu.launcher, every thread of a block at
    once over one shared array, each with its deepest rows there (all of
    them, some, one), taking every item biggest first: the five totals of
    the CPU kernel, nodes included, and so the published counts."""
    items = gpu.work_items(n, classes.sub_boards(n))
    order = gpu.biggest_first(items, gpu.depth(n))
    found = gpu.totals(gpu.launcher(items, gpu.Shape(threads, hot_rows, word_bytes=bits // 8))(order))
    assert found == gpu.count_items_on_cpu(items) and published(n, found)


def nodes_without_look_ahead(n: int, allowed: tuple[int, ...]) -> int:
    """The cells a walk without the look two rows ahead tries in a sub-board:
    every way of placing rows 0 .. r that the masks and the needed columns
    leave open, for every r (written here from the rules, not from gpu.cu)."""
    full = (1 << n) - 1
    needed = [full & ~functools.reduce(operator.or_, allowed[r + 1:], 0) for r in range(n - 1)] + [0]

    def tried(r: int, cols: int, left: int, right: int) -> int:
        free = allowed[r] & full & ~(cols | left | right)
        missing = needed[r] & ~cols
        if missing:  # a column no later row allows: this row must take it, if it is the only one
            free &= missing if missing & (missing - 1) == 0 else 0
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += 1
            if r < n - 1:
                total += tried(r + 1, cols | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
        return total

    return tried(0, 0, 0, 0)


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize(("n", "threads", "fixed"), [(1, 32, None), (5, 64, None), (6, 128, None), (9, 96, None),
                                                     (9, 64, 1), (11, 128, 2), (11, 32, None)])
def test_count_plain_counts_the_plain_items_and_their_nodes(standin: Any, n: int, threads: int, fixed: int | None,
                                                            bits: int) -> None:
    """gpu.cu's count_plain through gpu.plain_launcher on the items that need
    no classing (split as deep as the engine's, or at ``fixed`` rows, for
    deeper stacks): their solutions and those on the tie square are the CPU
    kernel's; with the look-ahead its nodes are the CPU kernel's too (which
    looks ahead), without it every cell the rules leave open (counted here).
    The CPU kernel's tallies are the twin's."""
    import numpy

    from nqueens_cp import kernel

    items = gpu.work_items(n, classes.sub_boards(n), fixed) if n > 1 else \
        gpu.Items(1, array("Q", [1]), array("Q", [1]), array("B", [0]))  # (N = 1 has no sub-board: one made here)
    order = gpu.biggest_first(items, gpu.depth(n))
    plain = order[numpy.frombuffer(items.classify, dtype=numpy.uint8)[order] == 0]
    want = gpu.count_items_on_cpu(items, plain)
    boards = gpu.unpack(items)
    twin = kernel.count_boards(n, [(boards[i].allowed, boards[i].tie, False) for i in plain], compiled=False)
    assert want == gpu.totals((twin.eight, twin.four, twin.two, twin.nodes, twin.tied))  # (so the twin's too)
    for ahead in (True, False):
        found = gpu.totals(gpu.plain_launcher(items, gpu.Plain(threads, ahead=ahead), bits // 8)(plain))
        assert found[:3] + found[4:] == want[:3] + want[4:]
        assert found[3] == (want[3] if ahead else sum(nodes_without_look_ahead(n, boards[i].allowed) for i in plain))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 9, 12, 13, 14])
def test_a_whole_gpu_count_through_the_cupy_standin(standin: Any, n: int) -> None:
    """The engine's whole path (plan, tasks, items, both kernels each in
    launches of its own, totals, checks) with only CuPy standing in: the
    published counts, and the same nodes as the CPU kernel where the plain
    kernel looks ahead as the CPU's does."""
    found = nq.execution.run.counted(n, engine="gpu")
    assert found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]
    items = gpu.work_items(n, classes.sub_boards(n))
    with pytest.MonkeyPatch.context() as patch:
        launched = launches_recorded(patch)
        looked_ahead = gpu.count_sub_boards(n, classes.sub_boards(n), plain=gpu.Plain(ahead=True))
    assert looked_ahead == gpu.count_items_on_cpu(items)
    assert set(launched) == {"count_items" if to_class else "count_plain" for to_class in items.classify}


def test_count_plain_takes_the_threads_that_fit_48_kib_and_where_not_one_warp_fits_count_items_takes_all(
        standin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A block of count_plain has as many whole warps as fit 48 KiB (up to
    its shape's); past N = 36 in 64-bit words not one does, and then every
    item goes to count_items (made to happen at N = 10 here by a smaller
    block)."""
    assert gpu.Plain().block(36, 36 - 7, 8) == 32 and gpu.Plain().block(37, 37 - 7, 8) == 0
    assert gpu.Plain().block(21, 14, 4) == 96 and gpu.Plain().block(22, 15, 4) == 96
    assert gpu.Plain().block(20, 13, 4) == 128 and gpu.Plain(64).block(20, 13, 4) == 64
    assert gpu.plain_words(21, 14) == 98
    launched = launches_recorded(monkeypatch)
    boards = classes.sub_boards(10)
    items = gpu.work_items(10, boards)
    monkeypatch.setattr(gpu, "SHARED_BYTES", 31 * gpu.plain_words(10, gpu.levels(items)) * 4)  # (31 threads' worth)
    assert gpu.count_sub_boards(10, boards) == gpu.count_items_on_cpu(items)  # (nodes too: count_items's alone)
    assert launched == ["count_items"]
    for wrong in [dict(threads=100), dict(threads=0), dict(blocks_per_sm=0)]:
        with pytest.raises(ValueError, match="whole warps"):
            gpu.Plain(**wrong)


def test_the_stack_is_as_deep_as_the_rows_with_a_choice_above_the_last_two() -> None:
    n, full = 8, (1 << 8) - 1
    one = (1, 1 << 2, 1 << 4, full, full, 1 << 6, full, full)  # rows 3 and 4 of 0 .. 5 have a choice
    two = (full,) * 8  # all six
    assert gpu.levels(gpu.Items(n, array("Q", one), array("Q", [0]), array("B", [0]))) == 2
    assert gpu.levels(gpu.Items(n, array("Q", one + two), array("Q", [0, 0]), array("B", [0, 0]))) == 6
    assert gpu.levels(gpu.Items(n, array("Q"), array("Q"), array("B"))) == 1


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize("n", [6, 13, 22, 62])
@pytest.mark.parametrize("hot_rows", [1, gpu.SHAPE.hot_rows, 62])
def test_each_thread_keeps_its_hot_rows_in_shared_memory_in_its_own_banks(standin: Any, n: int, hot_rows: int,
                                                                          bits: int) -> None:
    """Every thread writes each word of its stack: all read back their own,
    exactly the hot rows are in the shared memory a launch asks for
    (gpu.shared_words), nothing past it, and each thread's words there are in
    its lane's banks, whatever row it is at."""
    if bits == 32 and n > gpu.WORD32_MAX_N:
        pytest.skip("past N = 32 the kernel's words are 64-bit")
    source = (gpu.KERNEL_DIR / "gpu.cu").read_text(encoding="utf-8")
    library = cupy_standin.library(source, (f"-I{gpu.KERNEL_DIR}", "--std=c++17", *gpu.defines(bits)))
    library.layout.restype = ctypes.c_char_p
    threads = gpu.SHAPE.threads
    words = shared_words(threads, hot_rows)
    assert library.layout(n, hot_rows, threads, ctypes.c_longlong(words)) is None
    if n >= hot_rows:  # the last thread's last hot word is the block's last (else a row or more is spare)
        assert library.layout(n, hot_rows, threads, ctypes.c_longlong(words - 1)) == \
            b"a thread wrote past the block's shared memory"


def test_a_launch_that_writes_past_its_shared_memory_fails(standin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in holds each launch to the shared memory it asked for: a
    reckoning one row short is caught."""
    items = gpu.work_items(10, classes.sub_boards(10))
    monkeypatch.setattr(gpu, "plain_words", lambda n, levels: 4 * levels + 2 * n - 2)
    with pytest.raises(RuntimeError, match="count_plain: a thread wrote past the block's shared memory"):
        gpu.plain_launcher(items)(gpu.biggest_first(items, gpu.depth(10)))


def test_up_to_n_32_the_kernel_works_in_32_bit_words() -> None:
    """A GPU's integer units are 32 bits wide (issue 54's figures: the count
    ran 4.6x slower than ygch/n_queens, which works in 32 bits)."""
    assert [gpu.word_bits(n) for n in (1, 21, 32, 33, 62)] == [32, 32, 32, 64, 64]
    assert gpu.defines(32) == ("-DQUEENS_WORD32",) and gpu.defines(64) == ()
    items = gpu.work_items(33, [])
    with pytest.raises(ValueError, match="does not fit the 32-bit words"):
        gpu.launcher(items, gpu.SHAPES[32])


def test_a_launch_asks_for_the_shared_memory_any_gpu_gives_without_opting_in() -> None:
    for bits, shape in gpu.SHAPES.items():
        assert shape.word_bytes * 8 == bits and shape.shared_words() * shape.word_bytes <= 48 * 1024
    assert gpu.Shape(96, 5).shared_words() == shared_words(96, 5)
    assert gpu.Shape(256, 12, word_bytes=4).shared_words() == 256 * 12 * 4  # (48 KiB in 32-bit words)
    for wrong in [dict(threads=100), dict(threads=0), dict(hot_rows=0), dict(blocks_per_sm=0),
                  dict(threads=256, hot_rows=12), dict(word_bytes=2)]:
        with pytest.raises(ValueError, match="shape|shared memory"):
            gpu.Shape(**wrong)


@pytest.mark.parametrize("bits", [64, 32])
def test_the_cuda_source_compiles_with_the_shared_header(tmp_path: Path, bits: int) -> None:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed (CUDA toolkit); CuPy compiles the kernel with NVRTC at run time")
    source = gpu.KERNEL_DIR / "gpu.cu"
    assert '#include "queens.h"' in source.read_text()
    result = subprocess.run([nvcc, "-ptx", f"-I{gpu.KERNEL_DIR}", *gpu.defines(bits), str(source),
                             "-o", str(tmp_path / "gpu.ptx")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    ptx = (tmp_path / "gpu.ptx").read_text()
    assert ".entry count_items" in ptx and ".entry count_plain" in ptx
    # count_plain's stack entry is one vector access of shared memory (issue 66)
    assert ("ld.shared.v4.u32" if bits == 32 else "ld.shared.v2.u64") in ptx
    # the hot rows of the stack are read and written as shared memory, in the
    # kernel's words, not through generic addresses (which would not know they are)
    assert f"ld.shared.u{bits}" in ptx and f"st.shared.u{bits}" in ptx
    assert not re.search(r"\b(ld|st)\.u(32|64)\b", ptx)


def test_the_cuda_source_is_valid_cuda_cpp_with_the_shared_header() -> None:
    """Without nvcc: g++ compiles gpu.cu (and so queens.h) as C++, with
    tests/c/cuda_shim.h standing in for CUDA's qualifiers and built-ins."""
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no C++ compiler here (g++ or clang++)")
    shim = Path(__file__).parent / "c" / "cuda_shim.h"
    result = subprocess.run([compiler, "-std=c++17", "-Wall", "-Werror", "-fsyntax-only", "-include", str(shim),
                             "-x", "c++", str(gpu.KERNEL_DIR / "gpu.cu")], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("n", range(1, 17))
def test_on_a_gpu_every_count_is_exact(n: int) -> None:
    reason = GpuEngine.unavailable_reason()
    if reason:
        pytest.skip(f"engine gpu {reason}")
    found = nq.execution.run.counted(n, engine="gpu")
    assert found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]


def test_a_clean_pool_forks_no_worker_from_this_process() -> None:
    """Issue 54: on an H200, count 16 --engine gpu failed in a worker forked
    from a process that had counted 15 on the GPU ("initialization error":
    CUDA cannot be used in a child forked from a process that has used it).
    A clean pool's workers are children of the fork server, not of this process."""
    import os
    import threading

    from nqueens_cp.execution import pools

    for clean in (True, False):
        forks = not clean and threading.active_count() == 1  # (else the fork server too)
        pool = pools.make_executor(1, processes=True, clean=clean)
        try:
            parent = pool.submit(os.getppid).result()
        finally:
            pool.shutdown()
        assert (parent == os.getpid()) == forks


def test_the_workers_of_a_gpu_count_start_clean(monkeypatch: pytest.MonkeyPatch) -> None:
    from nqueens_cp.execution import pools

    asked: list[bool] = []

    def executor(jobs: int, processes: bool = False, clean: bool = False) -> pools.InlineExecutor:
        asked.append(clean)
        return pools.InlineExecutor()

    def forked(calls, workers, deadline=None):  # (a pool of workers forked from this process)
        asked.append(False)
        return pools.as_finished(pools.InlineExecutor(), calls, 1, deadline)

    monkeypatch.setattr(pools, "make_executor", executor)
    monkeypatch.setattr(pools, "forked_as_finished", forked)
    monkeypatch.setattr(pools, "_forks", lambda clean: not clean)  # (one thread or more in this process)
    monkeypatch.setattr(GpuEngine, "unavailable_reason", classmethod(lambda cls: None))
    monkeypatch.setattr(GpuEngine, "count_sub_boards", lambda self, n, chunk: count_sub_boards_on_cpu(n, chunk))
    assert not GpuEngine.forks_workers and GpuEngine.capabilities()["forks_workers"] is False
    assert nq.execution.run.counted(16, engine="gpu").count == TOTAL[16]
    assert nq.execution.run.counted(16, engine="bitmask", method="walk").count == TOTAL[16]
    assert asked == [True, False]


def test_on_a_gpu_a_count_on_a_worker_after_one_in_this_process() -> None:
    """The order that failed on the H200 (issue 54): this process uses CUDA first."""
    reason = GpuEngine.unavailable_reason()
    if reason:
        pytest.skip(f"engine gpu {reason}")
    for n in (12, 17):
        found = nq.execution.run.counted(n, engine="gpu")
        assert found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]


def test_the_gpu_engine_refuses_a_listing_and_a_count_that_is_not_by_classes_in_one_line():
    """(Its class loads without CuPy: what it refuses is said before any device is asked for.)"""
    from nqueens_cp.model.position import Position

    engine = nq.engine_class("gpu")("queens")
    with pytest.raises(nq.InvalidInputError, match="^engine gpu counts solutions without listing them: use count$"):
        engine.stream(8, Position(), None, {}, None)
    with pytest.raises(nq.InvalidInputError, match="^engine gpu counts by symmetry classes or by quarters only"):
        engine.own_count(8, Position(), {}, None)

