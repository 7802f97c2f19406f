"""The join of quarters on a GPU (issue 66, item 2), in one run on a machine with an NVIDIA GPU:

1. `count N --engine gpu --method quarters` in this process (jobs 1) for
   each N of --exact, against A000170 and A002562 (every count checks them
   against its S180 and S90 searches too);
2. at --n N, --parts parts evenly apart over the count's: their halves
   listed once on the host (timed), then joined on the device in each shape
   of shapes() (threads a block, blocks an SM, id bits, keys a bucket; the
   shapes that list on the device list there too, in their time), each
   checked against the CPU's boards of the same parts, and by the CPU's
   join_count on one core of this machine: the device's join time against
   the core's, side by side, with the pair tests each did;
3. end to end, process start to the number, for each N of --sizes: the join
   on the device (`--method quarters`) beside the walk on the device (the
   default), alternately: where the join beats the walk.  With --budget, a
   size whose time, foreseen from the size before, would end past the
   budget is left out, saying so.

    python benchmarks/gpu_join.py [--exact 4-16] [--n 20] [--parts 8] [--sizes 19-21] [--repeat R]
                                  [--budget SECONDS]

Without CuPy and a GPU it stops in one line.  benchmarks/gpu_machine.sh runs
it on a lent machine.  Not yet run on one: the figures go in
docs/counting.md when it has.
"""

from __future__ import annotations

import argparse
import sys
import time

from common import Side, alternate, report
from gpu import Runs, counting, device_name, sizes

from nqueens_cp.known import FUNDAMENTAL, TOTAL


def shapes() -> list:
    """The default, then smaller and larger blocks, more blocks an SM, ids of
    fewer and more bits, buckets of fewer and more keys, a warp a bucket
    (join.cu's JOIN_WARP_BUCKETS) in two shapes, and the listing on the
    device with the default join and a warp a bucket.  (The default's ids
    and buckets are a model's, not yet a device's: benchmarks/gpu_join_model.py's
    warp steps over samples of parts, within 16 % of the fewest at N = 20,
    21 and 22, where each other shape tried was 20 % or more past it at
    one N at least.)"""
    from nqueens_cp.counting.gpu_join import SHAPE, Shape

    return [SHAPE, Shape(threads=128), Shape(threads=512, blocks_per_sm=4), Shape(blocks_per_sm=4),
            Shape(id_bits=12, bucket_keys=8), Shape(id_bits=11, bucket_keys=16), Shape(id_bits=9, bucket_keys=64),
            Shape(id_bits=8, bucket_keys=32, warp_buckets=True), Shape(id_bits=9, bucket_keys=16, warp_buckets=True),
            Shape(listing="device"), Shape(id_bits=8, bucket_keys=32, warp_buckets=True, listing="device")]


def per(a: float, b: float) -> float:
    """a / b, or NaN where b is 0 (a sample with nothing to test, a time below the clock's tick)."""
    return a / b if b else float("nan")


def exact(ns: list[int]) -> bool:
    import nqueens_cp as nq

    right = True
    for n in ns:
        start = time.perf_counter()
        found = nq.execution.run.counted(n, engine="gpu", method="quarters", jobs=1)
        ok = found.count == TOTAL[n] and found.stats["fundamental"] == FUNDAMENTAL[n]
        right &= ok
        print(f"  N={n}: {found.count:,} and {found.stats['fundamental']:,} in {time.perf_counter() - start:.2f} s"
              f"  {'ok' if ok else 'WRONG'}", flush=True)
    return right


def parts_side_by_side(n: int, count: int) -> bool:
    """The sampled parts listed once, joined on the device in each shape and by one CPU core."""
    import numpy

    from nqueens_cp import kernel
    from nqueens_cp.counting import gpu_join, join

    every = join.parts(n)
    sample = [every[i * len(every) // count] for i in range(count)]
    batches = []  # (keys, jobs, part weight)
    start = time.perf_counter()
    for part in sample:
        first = part.first
        while first < part.last:
            keys = numpy.empty(gpu_join.ROOM, dtype=numpy.uint64)
            jobs = numpy.empty(gpu_join.JOBS * kernel.JOB_WORDS, dtype=numpy.uint64)
            listed = kernel.join_list(n, part.x, part.y, first, part.last, keys, jobs)
            batches.append((keys[:listed.keys].copy(), jobs[:listed.jobs * kernel.JOB_WORDS].reshape(-1, 5).copy(),
                            part.weight))
            first = listed.next
    listing = time.perf_counter() - start
    start = time.perf_counter()
    cpu = [join.count_part(n, part) for part in sample]
    cpu_seconds = time.perf_counter() - start
    want, cpu_tests = sum(v[0] for v in cpu), sum(v[3] for v in cpu)
    print(f"  {count} parts of {len(every)} at N={n}: {len(batches)} batches, listed in {listing:.2f} s on one core; "
          f"joined by one CPU core in {cpu_seconds:.2f} s ({per(cpu_tests, cpu_seconds) / 1e9:.1f} pair tests a ns, "
          f"listing included)", flush=True)
    right = True
    for shape in shapes():
        gpu_join.join_batch(*batches[0][:2], shape)()  # (compiled, and the device warm)
        start = time.perf_counter()
        boards = tests = 0
        if shape.listing == "device":  # listed there too: the whole part, the host making the tasks
            for part in sample:
                found = gpu_join.count_part(n, part, shape)
                boards, tests = boards + found[0], tests + found[3]
        else:  # the join alone, of the halves listed above
            for keys, jobs, weight in batches:
                found, tested = gpu_join.join_batch(keys, jobs, shape)()
                boards, tests = boards + found * weight, tests + tested
        seconds = time.perf_counter() - start
        right &= boards == want
        print(f"  {shape}: {seconds:.3f} s, {per(seconds, cpu_seconds):.3f}x one core's, {per(tests, seconds) / 1e9:.0f} "
              f"pair tests a ns ({per(tests, cpu_tests):.2f}x the CPU's tests)  {'ok' if boards == want else 'WRONG'}",
              flush=True)
    return right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exact", default="4-16")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--parts", type=int, default=8)
    parser.add_argument("--sizes", default="19-21")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, help="seconds for the end-to-end runs")
    args = parser.parse_args()
    try:
        print("device:", device_name(), flush=True)
    except Exception as error:  # noqa: BLE001 (no CuPy, no driver, no device: one line)
        raise SystemExit(f"no GPU to measure here: {type(error).__name__}: {error}") from None
    print("1. counts by quarters on the device, exact:", flush=True)
    right = exact(sizes(args.exact))
    print("2. the join alone, the device's shapes against one CPU core:", flush=True)
    right &= parts_side_by_side(args.n, args.parts)
    print("3. end to end: the join on the device beside the walk on the device", flush=True)
    began, last = time.perf_counter(), None
    for n in sizes(args.sizes):
        left = None if args.budget is None else args.budget - (time.perf_counter() - began)
        if left is not None and last is not None and last * 8 * 2 * args.repeat > left:
            print(f"  N={n} left out: about {last * 8 * 2 * args.repeat:.0f} s foreseen, {left:.0f} s left")
            break
        joined = Runs(n)
        walked = Runs(n)
        sides = [Side(f"count {n} -e gpu --method quarters", counting(n, "--engine", "gpu", "--method", "quarters"),
                      joined.check),
                 Side(f"count {n} -e gpu (the walk)", counting(n, "--engine", "gpu"), walked.check)]
        start = time.perf_counter()
        alternate(sides, args.repeat)
        last = (time.perf_counter() - start) / 2 / args.repeat
        report(f"N={n}: the join against the walk, on the device", sides, sides[1])
    sys.exit(0 if right else 1)


if __name__ == "__main__":
    main()
