"""The GPU count: everything but the launch on the CPU; the launch where a GPU is.

The work items, their packing and weights, and a whole count through the
plan (checks by S180 and S90 included) run here with the launch replaced by
the CPU kernel, which runs the same queens.h.  The CUDA source is compiled
with nvcc where nvcc is installed.  The tests that launch the kernel skip
without CuPy and an NVIDIA GPU, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from array import array
from pathlib import Path

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
    """Until issue 54's run on an H200 gave every published count, engine gpu
    was marked experimental: `engines`, the plan and `count` said so, on
    stderr and before the work.  The mark is data on the engine; marked again
    here (the count is the CPU stand-in's)."""
    assert GpuEngine.experimental is None and "EXPERIMENTAL" not in GpuEngine.summary
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


@pytest.fixture(scope="module", params=[64, 32], ids=["64-bit", "32-bit"])
def gpu_on_cpu(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/c/gpu_on_cpu.cpp built: gpu.cu's kernel on CPU threads, with the
    words a GPU count uses beyond N = 32 and up to it (QUEENS_WORD32)."""
    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no C++ compiler here (g++ or clang++)")
    here = Path(__file__).parent / "c"
    program = tmp_path_factory.mktemp("gpu_on_cpu") / "gpu_on_cpu"
    result = subprocess.run([compiler, "-std=c++17", "-O2", "-Wall", "-Werror", "-pthread", "-include",
                             str(here / "cuda_shim.h"), f"-I{gpu.KERNEL_DIR}", *gpu.defines(request.param),
                             str(here / "gpu_on_cpu.cpp"), "-o", str(program)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return program


def shared_words(threads: int, hot_rows: int) -> int:
    """The words a block's hot rows take, as gpu.Shape reckons them (a shape
    past 48 KiB is refused there: gpu_on_cpu's stand-in array is larger)."""
    return threads * hot_rows * ROW_WORDS


def _run(program: Path, *args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(program), *map(str, args)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("n", "hot_rows", "threads"), [(6, 12, 128), (9, 3, 64), (12, 12, 128), (13, 1, 96),
                                                        (13, 64, 32), (14, 12, 128)])
def test_the_kernel_on_cpu_threads_counts_what_the_cpu_kernel_counts(gpu_on_cpu: Path, tmp_path: Path, n: int,
                                                                     hot_rows: int, threads: int) -> None:
    """gpu.cu itself, every thread of a block at once over one shared array,
    each with its deepest rows there (all of them, some, one), taking the
    items biggest first: the five totals of the CPU kernel, nodes included,
    and so the published counts."""
    items = gpu.work_items(n, classes.sub_boards(n))
    packed = tmp_path / "items"
    order = gpu.biggest_first(items, gpu.depth(n))
    packed.write_bytes(items.masks.tobytes() + items.ties.tobytes() + items.classify.tobytes() + order.tobytes())
    result = _run(gpu_on_cpu, "run", n, len(items), hot_rows, threads, shared_words(threads, hot_rows), packed)
    assert result.returncode == 0, result.stdout + result.stderr
    found = gpu.totals([int(word) for word in result.stdout.split()])
    assert found == gpu.count_items_on_cpu(items)
    eight, four, two, _, tied = found
    tally = classes.tally(n, eight, four, two, tied, classes.symmetric_on_ties(n))
    assert tally.total == TOTAL[n] and tally.fundamental == FUNDAMENTAL[n]


@pytest.mark.parametrize("n", [6, 13, 22, 62])
@pytest.mark.parametrize("hot_rows", [1, gpu.SHAPE.hot_rows, 62])
def test_each_thread_keeps_its_hot_rows_in_shared_memory_in_its_own_banks(gpu_on_cpu: Path, n: int,
                                                                          hot_rows: int) -> None:
    """Every thread writes each word of its stack: all read back their own,
    exactly the hot rows are in the shared memory a launch asks for
    (gpu.shared_words), nothing past it, and each thread's words there are in
    its lane's banks, whatever row it is at."""
    threads = gpu.SHAPE.threads
    words = shared_words(threads, hot_rows)
    result = _run(gpu_on_cpu, "layout", n, hot_rows, threads, words)
    assert (result.returncode, result.stdout) == (0, "ok\n")
    if n >= hot_rows:  # the last thread's last hot word is the block's last (else a row or more is spare)
        fewer = _run(gpu_on_cpu, "layout", n, hot_rows, threads, words - 1)
        assert fewer.returncode == 1 and "past the block's shared memory" in fewer.stdout


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
    assert ".entry count_items" in ptx
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

    monkeypatch.setattr(pools, "make_executor", executor)
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
    with pytest.raises(nq.InvalidInputError, match="^engine gpu counts by symmetry classes only"):
        engine.own_count(8, Position(), {}, None)

