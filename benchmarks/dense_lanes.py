"""Not a timing: how many of the dense loops' lanes are pairs, and how many
are padding (issue 80).

A dense bucket of the longer list is cut into batches of 512 keys (dense.c's
`dense_bucket`), and every key of a p bucket that meets it runs over all 512
lanes of each batch: a bucket of 700 keys costs 1,024 lanes a key.  This
lists windows of row sets of random parts (`kernel.join_list`), puts both
lists of each row set in buckets as join.c does (the telling bits with the
largest product of the two lists' counts, as many as leave the longer list
about BUCKET keys a bucket; dense from 64 keys) and counts, over the pairs of
buckets whose ids share no bit (the leaves), three things for each bucket
size and each batch size asked:

- pairs: the pairs of keys the leaves hold (what the join must test);
- lanes: what the dense loops run over (each bucket's keys rounded up to
  whole batches), the work of the loops;
- sums: the batches made, counted in 512-lane batches (a batch's words and
  sums cost about the same whatever the keys).

Each over the lanes (or the sums) of join.c's own sizes (1,024 keys a
bucket, batches of 512).  An odd N only, as telling_bits.py (an even N's ids
have its long diagonals on top).

    python benchmarks/dense_lanes.py [N] [--parts 6] [--window 100] [--every 10] [--seed 11]
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from common import dense_joins, odd_width, window_arguments

SIZES = [(1024, 512), (1024, 256), (1024, 128), (512, 512), (512, 256), (512, 128), (256, 128), (256, 64)]
DENSE_MIN = 64  # (dense.h: a bucket of fewer keys is tested pair by pair, not in the dense loops)


def tallies(p_bits: np.ndarray, q_bits: np.ndarray, order: list[int], bucket: int, batch: int) -> tuple[float, ...]:
    """(pairs, lanes, sums in 512-lane batches) of the dense leaves of p x q, q the longer list."""
    k = 0
    while (len(q_bits) >> k) > bucket:
        k += 1
    told = order[:k]
    weights = np.array([1 << i for i in range(k)], dtype=np.int64)
    in_p = np.bincount(p_bits[:, told] @ weights, minlength=1 << k)
    in_q = np.bincount(q_bits[:, told] @ weights, minlength=1 << k)
    every = np.arange(1 << k)
    apart = (every[:, None] & every[None, :]) == 0
    dense = in_q >= DENSE_MIN
    lanes = np.ceil(in_q / batch) * batch
    met = in_p @ apart  # for each q bucket, the p keys of the buckets that meet it
    return (float((met * in_q)[dense].sum()), float((met * lanes)[dense].sum()), float(lanes[dense].sum() / 512))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    window_arguments(parser, parts=6, window=100, seed=11, every=10)
    args = parser.parse_args()
    n, width = args.n, odd_width(parser, args.n)
    total = {size: np.zeros(3) for size in SIZES}
    joins = 0
    for p_bits, q_bits, order in dense_joins(n, width, args.parts, args.window, args.every, random.Random(args.seed)):
        joins += 1
        for size in SIZES:
            total[size] += tallies(p_bits, q_bits, order, *size)
    base = total[SIZES[0]]
    print(f"count {n}: {joins} joins of {args.parts} parts; each over the lanes (sums) of 1,024 keys a bucket, "
          "batches of 512")
    print(f"{'keys a bucket':>13}  {'batch':>5}  {'pairs':>6}  {'lanes':>6}  {'sums':>6}")
    for size in SIZES:
        pairs, lanes, sums = total[size]
        print(f"{size[0]:>13,}  {size[1]:>5}  {pairs / base[1]:>6.3f}  {lanes / base[1]:>6.3f}  {sums / base[2]:>6.3f}")


if __name__ == "__main__":
    main()
