"""Not a timing: what the join would lose if its telling bits were chosen
before the listing (issue 80, item 1).

The join of a row set puts both lists of halves in buckets by an id, K bits
of the keys chosen from those lists (join.c's `telling_bits`: the bits the
most pairs share, by each list's count of each bit), and only pairs of
buckets whose ids share no bit are joined further.  Issue 80's plan was to
choose the bits before the listing, so that the listing could write each
key's id itself and the bucketing's first pass go.  The lists are not there
yet then: the bits would come from the part's first row sets, or from the
row set listed before.  This lists windows of row sets of random parts
(`kernel.join_list`) and counts, for each row set, the pairs of keys left
after the id's split (pairs of buckets with no id bit in common) with its
own bits, with the bits of the part's first LEARN row sets (their counts
summed), and with the previous row set's: the pairs the dense loops would
meet, over those with the row set's own bits.

    python benchmarks/telling_bits.py [N] [--parts 3] [--window 300] [--learn 20] [--bits 6] [--seed 3]
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from common import listed_windows, odd_width, window_arguments


def bit_counts(keys: np.ndarray, width: int) -> np.ndarray:
    """How many of the keys take each of the window's bits."""
    return ((keys[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)).sum(0).astype(np.int64)


def telling(in_p: np.ndarray, in_q: np.ndarray, k: int) -> list[int]:
    """The k bits with the largest product of the two lists' counts (join.c's telling_bits, from whole
    counts where it samples; no forced bits: an odd N)."""
    return [int(b) for b in np.argsort(-(in_p * in_q), kind="stable")[:k]]


def ids(keys: np.ndarray, bits: list[int]) -> np.ndarray:
    found = np.zeros(len(keys), dtype=np.int64)
    for place, bit in enumerate(bits):
        found |= ((keys >> np.uint64(bit)) & np.uint64(1)).astype(np.int64) << place
    return found


def pairs_left(p: np.ndarray, q: np.ndarray, bits: list[int]) -> float:
    """Pairs of p x q in pairs of buckets whose ids share no bit (the rest cannot be boards)."""
    k = len(bits)
    in_p = np.bincount(ids(p, bits), minlength=1 << k).astype(float)
    in_q = np.bincount(ids(q, bits), minlength=1 << k).astype(float)
    every = np.arange(1 << k)
    return float((np.outer(in_p, in_q) * ((every[:, None] & every[None, :]) == 0)).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    window_arguments(parser, parts=3, window=300, seed=3)
    parser.add_argument("--learn", type=int, default=20, help="the part's first row sets its bits come from")
    parser.add_argument("--bits", type=int, default=6, help="K, the id's bits (about what N = 23's long lists take)")
    args = parser.parse_args()
    n, width = args.n, odd_width(parser, args.n)
    print(f"count {n}: pairs left after the id's split of {args.bits} bits, over those with each row set's own bits")
    print(f"{'part (x, y)':>12}  {'row sets':>8}  {'keys a row set':>14}  {'the part first ' + str(args.learn):>18}  "
          f"{'the previous':>12}")
    for part, rows in listed_windows(n, args.parts, args.window, random.Random(args.seed)):
        if len(rows) <= args.learn + 1:
            print(f"({part.x}, {part.y}): {len(rows)} row sets listed, too few to learn from {args.learn}")
            continue
        learned = telling(sum(bit_counts(p, width) for p, _ in rows[:args.learn]),
                          sum(bit_counts(q, width) for _, q in rows[:args.learn]), args.bits)
        own = first = previous = 0.0
        before: list[int] | None = None
        for p, q in rows[args.learn:]:
            mine = telling(bit_counts(p, width), bit_counts(q, width), args.bits)
            own += pairs_left(p, q, mine)
            first += pairs_left(p, q, learned)
            previous += pairs_left(p, q, before if before is not None else mine)
            before = mine
        size = np.mean([len(p) + len(q) for p, q in rows])
        print(f"{f'({part.x}, {part.y})':>12}  {len(rows):>8}  {size:>14,.0f}  {first / own:>17.3f}x  {previous / own:>11.3f}x",
              flush=True)


if __name__ == "__main__":
    main()
