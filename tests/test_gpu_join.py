"""The count by quarters with its join on a GPU (issue 66): the host's listing
(join.c's join_list) held to the CPU's count and to NumPy's pair by pair
join; the device's join (join.cu's join_pairs) run on CPU threads through
the CuPy stand-in, held to NumPy's count job by job and, through the
engine's whole path, to the published totals; its shared memory reckoned
to the word.  On a GPU, every count by quarters up to 16 (skipped, saying
why, without one)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy
import pytest
from test_gpu import launches_recorded, standin, standin_builds  # noqa: F401 (fixtures)

import nqueens_cp as nq
from nqueens_cp import FUNDAMENTAL, TOTAL, kernel
from nqueens_cp.counting import gpu, gpu_join, join
from nqueens_cp.engines.gpu import GpuEngine

needs_c = pytest.mark.skipif(not kernel.compiled(), reason="the compiled kernel was not built here")
# Small buckets and whole warps, so that small N goes through ids of every width, and the stand-in's
# CPU threads (one a GPU thread) stay few.
SMALL = gpu_join.Shape(threads=32, blocks_per_sm=2, id_bits=3, bucket_keys=2, sample=16)


def joined_by_numpy(keys: numpy.ndarray, jobs: numpy.ndarray) -> int:
    """The boards of listed jobs, pair by pair: each job's pairs of keys with no bit in common, times its weight."""
    total = 0
    for start, length, other, other_length, weight in (tuple(int(v) for v in job) for job in jobs):
        east, west = keys[start:start + length], keys[other:other + other_length]
        total += weight * int(((east[:, None] & west[None, :]) == 0).sum())
    return total


def listed(n: int, part: join.Part, room: int, jobs_room: int) -> tuple[int, int, int, int]:
    """A part listed in batches of ``room`` keys and ``jobs_room`` jobs, each joined by NumPy:
    (boards, row sets, halves, batches)."""
    boards = row_sets = halves = batches = 0
    first = part.first
    while first < part.last:
        keys, jobs = numpy.zeros(room, dtype=numpy.uint64), numpy.zeros(jobs_room * kernel.JOB_WORDS, dtype=numpy.uint64)
        found = kernel.join_list(n, part.x, part.y, first, part.last, keys, jobs)
        assert first < found.next <= part.last  # every batch goes on
        rows = jobs[:found.jobs * kernel.JOB_WORDS].reshape(-1, kernel.JOB_WORDS)
        assert (rows[:, 0] + rows[:, 1] <= found.keys).all() and (rows[:, 2] + rows[:, 3] <= found.keys).all()
        assert (rows[:, 1] > 0).all() and (rows[:, 3] > 0).all()  # (no empty range is a job)
        boards += joined_by_numpy(keys, rows)
        row_sets, halves, batches = row_sets + found.row_sets, halves + found.halves, batches + 1
        first = found.next
    return boards * part.weight, row_sets, halves, batches


@needs_c
@pytest.mark.parametrize("n", range(2, 14))
def test_the_halves_listed_for_another_joiner_give_the_cpus_count_part_by_part(n: int) -> None:
    """Every part of the count, listed in batches small enough that most row sets
    start a batch of their own, joined by NumPy: the CPU join's boards and row
    sets part by part, the halves it lists when it lists each once, and the
    published total (an even N's long-diagonal groups and weights included)."""
    total = batches = 0
    for part in join.parts(n, 7):
        boards, row_sets, halves, made = listed(n, part, room=1 << 10, jobs_room=8)
        compiled = kernel.join_count(n, part.x, part.y, part.first, part.last, 1 << 20)
        assert (boards, row_sets, halves) == (compiled.boards * part.weight, compiled.row_sets, compiled.halves), part
        total, batches = total + boards, batches + made
    assert total == TOTAL[n]
    if n >= 10:
        assert batches > len(join.parts(n, 7))  # (the batches were cut where the room ran out)


@needs_c
def test_a_row_set_whose_halves_do_not_fit_the_room_is_refused_and_too_little_room_for_jobs_too() -> None:
    """Row sets that fit go out batch by batch; the first that does not fit an
    empty room is refused (its halves are never cut between batches)."""
    part, first, batches = join.parts(12, 1)[0], 0, 0
    with pytest.raises(BufferError, match="a row set's halves need more than the 16 keys given"):
        while first < part.last:
            found = kernel.join_list(12, part.x, part.y, first, part.last, numpy.zeros(16, dtype=numpy.uint64),
                                     numpy.zeros(40, dtype=numpy.uint64))
            first, batches = found.next, batches + 1
    assert first < part.last
    with pytest.raises(ValueError, match="too little room"):
        kernel.join_list(12, part.x, part.y, part.first, part.last, numpy.zeros(1 << 16, dtype=numpy.uint64),
                         numpy.zeros(19, dtype=numpy.uint64))
    with pytest.raises(ValueError, match="64-bit words"):
        kernel.join_list(12, part.x, part.y, part.first, part.last, bytearray(64), numpy.zeros(40, dtype=numpy.uint64))


@pytest.fixture
def joiner(standin: Any, monkeypatch: pytest.MonkeyPatch) -> Any:  # noqa: F811 (the fixture, imported)
    """The CuPy stand-in, join.cu compiled afresh for it."""
    monkeypatch.setattr(gpu_join, "_compiled", {})
    return standin


def random_jobs(seed: int, lengths: list[tuple[int, int]], density: float) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Keys of 42 bits, each set with probability ``density``, and jobs over them of these lengths, weights 1 to 4."""
    rng = numpy.random.default_rng(seed)
    count = sum(a + b for a, b in lengths)
    bits = rng.random((count, 42)) < density
    keys = (bits.astype(numpy.uint64) << numpy.arange(42, dtype=numpy.uint64)).sum(axis=1, dtype=numpy.uint64)
    jobs, at = [], 0
    for a, b in lengths:
        jobs.append((at, a, at + a, b, int(rng.integers(1, 5))))
        at += a + b
    return keys, numpy.array(jobs, dtype=numpy.uint64).reshape(-1, kernel.JOB_WORDS)


WARPS = gpu_join.Shape(threads=64, blocks_per_sm=2, id_bits=4, bucket_keys=4, sample=16, warp_buckets=True)


@pytest.mark.parametrize("shape", [SMALL, gpu_join.Shape(threads=64, blocks_per_sm=1, id_bits=0),
                                   gpu_join.Shape(threads=32, blocks_per_sm=4), WARPS,
                                   gpu_join.Shape(threads=64, blocks_per_sm=4, bucket_keys=32, warp_buckets=True)],
                         ids=["small", "no-id", "default-ids", "warps", "warps-default-ids"])
def test_join_pairs_counts_each_jobs_pairs_apart_as_numpy_does(joiner: Any, shape: gpu_join.Shape) -> None:
    """Jobs of every kind (one key a side, the longer range east or west, a range
    shorter than a bucket, long ranges that fill every id bit), on keys dense
    and sparse: the weighted count is NumPy's; with no id bits every pair is
    tested, with them fewer."""
    lengths = [(1, 1), (1, 300), (300, 1), (5, 7), (700, 650), (90, 2000), (2000, 90), (1, 1), (64, 64)]
    for seed, density in ((1, 0.12), (2, 0.3), (3, 0.0)):
        keys, jobs = random_jobs(seed, lengths, density)
        boards, tests = gpu_join.join_batch(keys, jobs, shape)()
        assert boards == joined_by_numpy(keys, jobs), (seed, density)
        every = sum(a * b for a, b in lengths)
        assert tests == every if shape.id_bits == 0 or density == 0 else tests < every


@pytest.mark.parametrize("warp_buckets", [False, True])
def test_a_launch_asks_for_exactly_the_shared_memory_its_ids_need(joiner: Any, monkeypatch: pytest.MonkeyPatch,
                                                                  warp_buckets: bool) -> None:
    """A job long enough to fill every bit of the id writes the last bucket
    counter: the layout the host reckons is enough, and a word less is not."""
    shape = gpu_join.Shape(threads=32, blocks_per_sm=1, id_bits=2, bucket_keys=1, warp_buckets=warp_buckets)
    keys, jobs = random_jobs(4, [(40, 40)], 0.3)
    assert gpu_join.join_batch(keys, jobs, shape)()[0] == joined_by_numpy(keys, jobs)
    reckoned = gpu_join.Shape.shared_bytes
    monkeypatch.setattr(gpu_join.Shape, "shared_bytes", lambda self: reckoned(self) - 8)  # (the stand-in's words: 8 bytes)
    with pytest.raises(RuntimeError, match="join_pairs: a thread wrote past the block's shared memory"):
        gpu_join.join_batch(keys, jobs, shape)()


@pytest.mark.parametrize("n", [4, 6, 7, 9, 10])
def test_a_part_on_the_device_gives_the_cpus_numbers(joiner: Any, n: int) -> None:
    """count_part on the device, in batches of a few row sets, its room grown
    where one row set's halves need more (from N = 9, the largest hold 12 and
    50 keys, past the 8 of a room of 16): the CPU's boards and row sets."""
    for part in join.parts(n, 5):
        want = join.count_part(n, part)[:2]
        assert gpu_join.count_part(n, part, SMALL, room=16, jobs_room=4)[:2] == want, part
        assert gpu_join.count_part(n, part, WARPS, room=256, jobs_room=16)[:2] == want, part


DEVICE = gpu_join.Shape(threads=32, blocks_per_sm=2, id_bits=3, bucket_keys=2, sample=16, listing="device")


@pytest.mark.parametrize("n", [2, 3, 4, 7, 8, 9, 10])
def test_the_halves_listed_on_the_device_give_the_cpus_numbers(joiner: Any, n: int) -> None:
    """The listing on the device (join.c's tasks, list_halves counting then
    writing each task's keys, the lists laid out by the host from the
    counts), in batches of a few row sets and a task room grown where one
    row set needs more: the CPU's boards and row sets part by part, and the
    halves the host lists where it lists both of a row set's (it lists no
    west half where the east has none)."""
    for part in join.parts(n, 5):
        found = gpu_join.count_part(n, part, DEVICE, tasks_room=2 if n < 9 else 64)
        want = join.count_part(n, part)
        assert found[:2] == want[:2], part
        assert found[2] >= want[2]


def test_the_blocks_threads_share_their_memory_with_no_data_race() -> None:
    """join_pairs, both ways of sharing the work, and list_halves, built under
    ThreadSanitizer and run by their tests above in a process of their own:
    two GPU threads of a block that touch one word with neither a
    __syncthreads nor an atomic between them fail it, every time, where a
    device would show it now and then.  Each of join_pairs' __syncthreads
    taken out in turn fails it; the one before the telling bits are chosen
    failed no other test (bits chosen from half-counted samples still count
    right, but differ from run to run)."""
    import os
    import resource
    import sys

    compiler = shutil.which("g++") or shutil.which("clang++")
    if compiler is None:
        pytest.skip("no C++ compiler here to build the kernels under ThreadSanitizer")
    runtime = subprocess.run([compiler, "-print-file-name=libtsan.so"], capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(runtime):
        pytest.skip(f"{Path(compiler).name} has no ThreadSanitizer runtime here (libtsan)")
    if resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY:  # (its shadow memory is reserved at start)
        pytest.skip("an address-space limit is set (ulimit -v), and ThreadSanitizer cannot start under one")
    here = Path(__file__).resolve()
    tests = [f"{here}::test_join_pairs_counts_each_jobs_pairs_apart_as_numpy_does[{shape}]"
             for shape in ("default-ids", "warps-default-ids")]
    tests.append(f"{here}::test_the_halves_listed_on_the_device_give_the_cpus_numbers[7]")
    # (one process, with or without pytest-xdist: a lent GPU machine runs this file with bare pytest)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=", "-p", "no:cacheprovider", *tests],
                         cwd=here.parent.parent, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NQUEENS_STANDIN_SANITIZE": "thread", "LD_PRELOAD": runtime,
                              # (every race reported, then exit 66 at the end: halting at the first
                              # skipped the inner run's clean-up and left its temporary folder)
                              "TSAN_OPTIONS": "exitcode=66"})
    said = run.stdout + run.stderr
    if "FATAL: ThreadSanitizer" in said and "memory" in said:  # (a kernel whose address space layout it cannot take)
        pytest.skip(f"ThreadSanitizer cannot start on this machine: {said.strip().splitlines()[0][:200]}")
    assert run.returncode == 0 and "ThreadSanitizer" not in said, said[-3000:]
    assert f"{len(tests)} passed" in run.stdout


def test_the_lists_laid_out_from_the_counts_hold_each_tasks_keys_of_each_group_in_order() -> None:
    """Two row sets (lists 0 to 3), tasks of lists 0, 0, 1, 3: each list's groups
    one after another, the lists too, each task's keys after its list's tasks before."""
    tasks = numpy.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 3]], dtype=numpy.uint32)
    counts = numpy.array([[2, 1, 0], [3, 0, 1], [4, 0, 0], [1, 1, 1]], dtype=numpy.uint64)
    at, starts, sizes = gpu_join.layout(tasks, counts, 4)
    assert sizes.tolist() == [[5, 1, 1], [4, 0, 0], [0, 0, 0], [1, 1, 1]]
    assert starts.tolist() == [[0, 5, 6], [7, 11, 11], [11, 11, 11], [11, 12, 13]]
    assert at.tolist() == [[0, 5, 6], [2, 6, 6], [7, 11, 11], [11, 12, 13]]
    jobs = gpu_join.jobs_of(starts, sizes, numpy.array([1, 2], dtype=numpy.uint64), even=True)
    # row set 0 (weight 1): east none (0, 5) x west none and one (7, 4); east one (5, 1) x west none (7, 4);
    # east two (6, 1) x west none, counted twice; row set 1: its east is empty
    assert sorted(map(tuple, jobs.tolist())) == [(0, 5, 7, 4, 1), (5, 1, 7, 4, 1), (6, 1, 7, 4, 2)]


@pytest.mark.parametrize("n", [2, 5, 8, 10, 11])
def test_a_whole_count_by_quarters_on_the_gpu_through_the_cupy_standin(joiner: Any, n: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's whole path (plan, parts, listing, launches of join_pairs,
    checks by S180 and S90) with only CuPy standing in: the published counts,
    each part's join a launch of its own."""
    monkeypatch.setattr(gpu_join, "SHAPE", SMALL)
    launched = launches_recorded(monkeypatch)
    found = nq.execution.run.counted(n, engine="gpu", method="quarters", jobs=1)
    assert (found.count, found.stats["fundamental"], found.stats["method"]) == (TOTAL[n], FUNDAMENTAL[n], "quarters")
    assert "halves_cap" not in found.stats and found.stats["memory_bytes"] > 0  # (the CPU join's cap)
    assert set(launched) == ({"join_pairs"} if TOTAL[n] else set())  # (N = 2: no pair of halves to join)
    if n in (5, 10):  # the listing on the device, the same way
        monkeypatch.setattr(gpu_join, "SHAPE", DEVICE)
        launched.clear()
        found = nq.execution.run.counted(n, engine="gpu", method="quarters", jobs=1)
        assert (found.count, found.stats["fundamental"]) == (TOTAL[n], FUNDAMENTAL[n])
        assert set(launched) == {"list_halves", "join_pairs"}


def test_the_gpu_engine_counts_by_quarters_only_when_asked(joiner: Any, cli) -> None:
    """Until a device says where its join beats its walk, the default stays the walk."""
    assert GpuEngine.counts_quarters and GpuEngine.quarters_from is None
    assert nq.engine_class("bitmask").quarters_from == join.FROM_N
    plan = nq.execution.plan.plan(18, engine="gpu", counting=True)
    assert plan.strategy.kind == "classes"
    assert nq.execution.plan.plan(18, engine="gpu", counting=True, method="quarters").strategy.kind == "quarters"
    code, out, err = cli("count", "18", "--engine", "gpu", "--memory", "4G")
    assert (code, out) == (2, "")
    assert err.strip().splitlines()[-1] == ("nqueens-cp count: error: --memory bounds a count by joining quarters, and "
                                            "here engine gpu counts by quarters only when asked (--method quarters)")


def test_join_cu_is_valid_cuda_cpp_and_compiles_where_nvcc_is(tmp_path: Path) -> None:
    """g++ compiles join.cu with the CUDA shim always; nvcc, where installed, to PTX with the kernel in it."""
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("no g++ here")
    shim = Path(__file__).resolve().parent / "c" / "cuda_shim.h"
    source = gpu.KERNEL_DIR / "join.cu"
    result = subprocess.run([compiler, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror", "-include", str(shim),
                             "-x", "c++", str(source)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed (CUDA toolkit); CuPy compiles join.cu with NVRTC at run time")
    result = subprocess.run([nvcc, "-ptx", str(source), "-o", str(tmp_path / "join.ptx")], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    ptx = (tmp_path / "join.ptx").read_text()
    assert ".entry join_pairs" in ptx and ".entry list_halves" in ptx


@pytest.mark.parametrize("n", range(4, 17))
def test_on_a_gpu_every_count_by_quarters_is_exact(n: int) -> None:
    reason = GpuEngine.unavailable_reason()
    if reason:
        pytest.skip(f"engine gpu {reason}")
    found = nq.execution.run.counted(n, engine="gpu", method="quarters", jobs=2)  # (two workers: each starts CUDA)
    assert found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]


def test_a_count_by_quarters_on_the_gpu_budgets_the_hosts_side_of_the_device_join(joiner: Any) -> None:
    """--memory holds the processes to what they hold: for the device's join,
    its listing room and jobs (134 MB a process), not the CPU join's lists."""
    engine = nq.engine_class("gpu")("queens")
    assert engine.quarters_working_bytes(20, join.CAP) == gpu_join.host_bytes() > 8 * gpu_join.ROOM
    plan = nq.execution.plan.plan(20, engine="gpu", counting=True, method="quarters", jobs=2)
    assert plan.budget.working == gpu_join.host_bytes() and plan.budget.processes == 2
    assert not plan.budget.capped  # so its --stats show no halves_cap, which the device never reads
    assert nq.execution.plan.plan(20, engine="bitmask", counting=True, method="quarters", jobs=2).budget.capped
    table = join.table_bytes(20)
    with pytest.raises(nq.InvalidInputError, match="more than the .* of --memory"):
        nq.execution.plan.plan(20, engine="gpu", counting=True, method="quarters", jobs=2,
                               memory=2 * (table + gpu_join.host_bytes()) - 1)
    assert nq.execution.plan.plan(20, engine="bitmask", counting=True, method="quarters", jobs=2,
                                  memory=2 * (table + gpu_join.host_bytes()) - 1).budget is not None


def test_the_device_benchmark_runs_its_checks_and_timings_through_the_standin(joiner: Any, monkeypatch: pytest.MonkeyPatch,
                                                                              capsys: pytest.CaptureFixture) -> None:
    """benchmarks/gpu_join.py is what a lent device's few minutes run: its counts
    and its side-by-side timings go through the stand-in here first, both
    listings (its end-to-end runs are processes of their own, which the
    stand-in does not reach)."""
    import importlib.util

    benchmarks = Path(__file__).resolve().parent.parent / "benchmarks"
    monkeypatch.syspath_prepend(str(benchmarks))
    spec = importlib.util.spec_from_file_location("bench_gpu_join", benchmarks / "gpu_join.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert len(bench.shapes()) >= 9 and {shape.listing for shape in bench.shapes()} == {"host", "device"}
    monkeypatch.setattr(bench, "shapes", lambda: [SMALL, WARPS, DEVICE])
    monkeypatch.setattr(gpu_join, "SHAPE", SMALL)
    assert bench.exact([4, 7])
    assert bench.parts_side_by_side(10, 2)
    out = capsys.readouterr().out
    assert out.count("  ok") == 5 and "WRONG" not in out
