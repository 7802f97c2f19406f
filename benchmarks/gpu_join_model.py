"""What the device's join of quarters (nqueens_cp/kernel/join.cu) would do,
reckoned on the CPU, for choosing its ids and buckets before a device
measures them (issue 66): over a sample of a count's parts, listed as the
device gets them (kernel.join_list), each job's telling bits chosen as
join.cu chooses them (greedy, from the first `sample` keys of each range),
and with NumPy, exactly, the pair tests the kernel makes (each key of the
longer range against the buckets of the shorter whose ids are subsets of
its complement) and the buckets it visits; beside every pair, and the pair
tests of the CPU's join_count of the same parts.  And the steps of a warp,
each a pair test or a quarter of a bucket visit for 32 lanes at once:

- a thread a key (the default): a warp's 32 lanes hold 32 consecutive keys
  in id order; lanes of one id run their loops together, lanes of
  different ids one after another (pessimistic: two ids' loops may share
  a bucket now and then);
- a warp a bucket (JOIN_WARP_BUCKETS, shapes marked w): exactly, each
  bucket of the longer range 32 keys at a time, whatever its lanes hold.

    python benchmarks/gpu_join_model.py [--n 21] [--parts 3] [--shapes 10:32,12:16,12:8,13:4,8:32w,10:32w,10:16w]

Each shape is id bits:keys a bucket (w: a warp a bucket, its keys those of
the longer range).  The model's cost is the pair tests plus four for each
bucket visited (a visit reads two counters and runs a loop; a guess, which
the device will replace).
"""

from __future__ import annotations

import argparse

import numpy

from nqueens_cp import kernel
from nqueens_cp.counting import gpu_join, join

VISIT = 4  # a bucket visited, in pair tests (a guess)


def chosen_bits(longer: numpy.ndarray, shorter: numpy.ndarray, shape: gpu_join.Shape) -> list[int]:
    """join.cu's telling_bits: as many as leave about bucket_keys keys of the
    shorter range (warp_buckets: the longer) a bucket, each the bit most
    sampled pairs have both set."""
    shifts = numpy.arange(64, dtype=numpy.uint64)
    counts = [((side[:shape.sample, None] >> shifts) & numpy.uint64(1)).sum(axis=0).astype(float)
              for side in (longer, shorter)]
    wanted, told = 0, len(longer) if shape.warp_buckets else len(shorter)
    while wanted < shape.id_bits and (told >> wanted) > shape.bucket_keys:
        wanted += 1
    both = counts[0] * counts[1]
    return [int(b) for b in numpy.argsort(-both, kind="stable")[:wanted] if both[b] > 0]


def ids(keys: numpy.ndarray, bits: list[int]) -> numpy.ndarray:
    found = numpy.zeros(len(keys), dtype=numpy.int64)
    for place, bit in enumerate(bits):
        found |= ((keys >> numpy.uint64(bit)) & numpy.uint64(1)).astype(numpy.int64) << place
    return found


def job_costs(longer: numpy.ndarray, shorter: numpy.ndarray, shape: gpu_join.Shape) -> tuple[int, int, float]:
    """(pair tests, buckets visited, a warp's steps) of one job."""
    bits = chosen_bits(longer, shorter, shape)
    k = len(bits)
    along_ids = numpy.sort(ids(longer, bits))
    along = numpy.bincount(along_ids, minlength=1 << k)
    within = numpy.bincount(ids(shorter, bits), minlength=1 << k).astype(numpy.int64)
    every = numpy.arange(1 << k)
    for i in range(k):  # within[x]: the shorter range's keys whose ids are subsets of x
        has = (every >> i & 1) == 1
        within[has] += within[every[has] ^ (1 << i)]
    free = ((1 << k) - 1) ^ every  # each id's complement
    visits = 2 ** numpy.array([bin(int(f)).count("1") for f in free])
    cost = within[free] + VISIT * visits  # one key of each id, in steps
    if shape.warp_buckets:
        steps = float((-(-along // 32) * cost).sum())
    else:  # each warp's distinct ids, one after another
        warp = numpy.arange(len(along_ids)) // 32
        distinct = numpy.unique(warp.astype(numpy.int64) << k | along_ids) & ((1 << k) - 1)
        steps = float(cost[distinct].sum())
    return int((along * within[free]).sum()), int((along * visits).sum()), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=21)
    parser.add_argument("--parts", type=int, default=3)
    parser.add_argument("--shapes", default="10:32,12:16,12:8,13:4,8:32w,10:32w,10:16w")
    args = parser.parse_args()
    shapes = [gpu_join.Shape(id_bits=int(a), bucket_keys=int(b.rstrip("w")), warp_buckets=b.endswith("w"))
              for a, b in (text.split(":") for text in args.shapes.split(","))]
    every = join.parts(args.n)
    sample = [every[i * len(every) // args.parts] for i in range(args.parts)]
    tests = [0] * len(shapes)
    visits = [0] * len(shapes)
    steps = [0.0] * len(shapes)
    pairs = cpu = 0
    for part in sample:
        first = part.first
        while first < part.last:
            keys = numpy.empty(gpu_join.ROOM, dtype=numpy.uint64)
            jobs = numpy.empty(gpu_join.JOBS * kernel.JOB_WORDS, dtype=numpy.uint64)
            listed = kernel.join_list(args.n, part.x, part.y, first, part.last, keys, jobs)
            for start, length, other, other_length, _ in jobs[:listed.jobs * kernel.JOB_WORDS].reshape(-1, 5):
                east, west = keys[start:start + length], keys[other:other + other_length]
                longer, shorter = (east, west) if len(east) >= len(west) else (west, east)
                pairs += len(east) * len(west)
                for i, shape in enumerate(shapes):
                    t, v, s = job_costs(longer, shorter, shape)
                    tests[i], visits[i], steps[i] = tests[i] + t, visits[i] + v, steps[i] + s
            first = listed.next
        cpu += join.count_part(args.n, part)[3]
    print(f"N={args.n}, {args.parts} parts of {len(every)}: {pairs:.3e} pairs; the CPU's join_count tested {cpu:.3e}")
    for shape, t, v, s in zip(shapes, tests, visits, steps):
        way = "a warp a bucket" if shape.warp_buckets else "a thread a key"
        print(f"  {way}, ids of {shape.id_bits} bits, {shape.bucket_keys} keys a bucket: {t:.3e} pair tests "
              f"({t / cpu:.2f}x the CPU's), {v:.3e} buckets visited, cost {t + VISIT * v:.3e}, {s:.3e} warp steps "
              f"(the cost over 32: {(t + VISIT * v) / 32:.3e})")


if __name__ == "__main__":
    main()
