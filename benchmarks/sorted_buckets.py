"""Not a timing: what the dense loops would do with each bucket sorted by one
more telling bit (issue 80; docs/counting.md, "two tries at 23's largest
parts").

join.c puts both lists of a join in buckets by the `k` most telling bits
(as many as leave the longer list about BUCKET keys a bucket), and a key of
the shorter list runs over every batch of 512 lanes of each dense bucket of
the longer list that it meets.  The next telling bit, e, stays among the
bits the loops test.  Were each bucket's keys without e first, a key with e
would need only the batches that hold keys without e: the others all meet
it.  This lists windows of row sets as dense_lanes.py does, puts each
join's lists in buckets as join.c does, and counts, over the dense leaves,
a key's work against a bucket as its batches (a whole one 1, a last half
batch of 256 keys or fewer 0.71, the loops' measured cost), then prints:

- the work with the sort over the work without it (the loops' share);
- the pairs a key with e needs, over all the leaves' pairs;
- how full the lanes are without it.

    python benchmarks/sorted_buckets.py [N] [--bucket 1024] [--parts 6] [--window 100] [--every 10] [--seed 11]

On 2026-11-30, N = 23 (59 joins, seed 11): 0.838 of the work at 1,024
keys a bucket, 0.741 of the pairs needed.  The loops measured 0.90 to
0.93x, and the sort, made in the placing, cost more than that saved.
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from common import dense_joins, odd_width, window_arguments

HALF_COST = 0.71  # a half batch's key over a whole one's (docs/counting.md, the dense loops' loads)
DENSE_MIN = 64  # (dense.h: a bucket of fewer keys is tested pair by pair)


def batches_cost(n: np.ndarray) -> np.ndarray:
    """A key's work against buckets of n keys: whole batches 1 each, a last one of 256 keys or fewer 0.71."""
    tail = n % 512
    return n // 512 + np.where(tail == 0, 0.0, np.where(tail <= 256, HALF_COST, 1.0))


def prefix_cost(n: np.ndarray, first: np.ndarray) -> np.ndarray:
    """A key's work against buckets of n keys where it needs only their first `first`: the batches that hold them."""
    whole, tail = n // 512, n % 512
    need = (first + 511) // 512
    last = np.where(tail <= 256, HALF_COST, 1.0)
    return np.minimum(need, whole) + np.where((tail > 0) & (need > whole), last, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    window_arguments(parser, parts=6, window=100, seed=11, every=10)
    parser.add_argument("--bucket", type=int, default=1024, help="the longer list's keys a bucket (join.h's JOIN_BUCKET)")
    args = parser.parse_args()
    n, width = args.n, odd_width(parser, args.n)
    before = after = pairs = needed = 0.0
    joins = 0
    for p_bits, q_bits, order in dense_joins(n, width, args.parts, args.window, args.every, random.Random(args.seed)):
        k = 0
        while (len(q_bits) >> k) > args.bucket:
            k += 1
        told, e = order[:k], order[k]
        weights = np.array([1 << i for i in range(k)], dtype=np.int64)
        p_id, q_id = p_bits[:, told] @ weights, q_bits[:, told] @ weights
        every = np.arange(1 << k)
        apart = ((every[:, None] & every[None, :]) == 0).astype(np.int64)
        in_q = np.bincount(q_id, minlength=1 << k)
        without = np.bincount(q_id[q_bits[:, e] == 0], minlength=1 << k)  # each q bucket's keys without e
        met_without = np.bincount(p_id[p_bits[:, e] == 0], minlength=1 << k) @ apart
        met_with = np.bincount(p_id[p_bits[:, e] == 1], minlength=1 << k) @ apart
        dense = in_q >= DENSE_MIN
        before += ((met_without + met_with) * batches_cost(in_q))[dense].sum()
        after += (met_without * batches_cost(in_q) + met_with * prefix_cost(in_q, without))[dense].sum()
        pairs += ((met_without + met_with) * in_q)[dense].sum()
        needed += (met_without * in_q + met_with * without)[dense].sum()
        joins += 1
    if not joins:
        raise SystemExit("sorted_buckets.py: no join with dense buckets in these windows")
    lanes = pairs / (512 * before)
    print(f"count {n}: {joins} joins of {args.parts} parts, {args.bucket:,} keys a bucket")
    print(f"  the loops' work with each bucket sorted by the next telling bit: {after / before:.3f} of it without")
    print(f"  pairs needed with the sort: {needed / pairs:.3f} of the leaves' pairs; lanes filled without it: {lanes:.3f}")


if __name__ == "__main__":
    main()
