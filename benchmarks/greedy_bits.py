"""Not a timing: how many fewer pairs a better choice of telling bits would
leave the dense loops (issue 80).

join.c's `telling_bits` takes the K bits with the largest product of the two
lists' counts of each bit, each bit alone.  The best choice of K bits is the
one that leaves the fewest pairs of keys in pairs of buckets whose ids share
no bit; a greedy search for it (each next bit the one that leaves the
fewest, given those taken, over the whole lists) is an upper bound on what
a better rule could save.  For row sets of random parts of count 23 (lists
of a million pairs or more), the pairs left by each, as a share of all
pairs, and their ratio:

    python benchmarks/greedy_bits.py [SEED]

2026-11-29 (seed 3, four parts): greedy/telling 0.933 to 0.987 (docs/counting.md).
"""

from __future__ import annotations

import random
import sys

import numpy as np
from common import listed_windows
from telling_bits import bit_counts, pairs_left, telling


def greedy(p: np.ndarray, q: np.ndarray, width: int, k: int) -> list[int]:
    """K bits, each the one that leaves the fewest pairs with those before it."""
    chosen: list[int] = []
    for _ in range(k):
        best, best_left = -1, float("inf")
        for b in range(width):
            if b in chosen:
                continue
            left = pairs_left(p, q, chosen + [b])
            if left < best_left:
                best, best_left = b, left
        chosen.append(best)
    return chosen


def main() -> None:
    n, h = 23, 11
    width = 2 * (2 * h - 1)
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
    for part, lists in listed_windows(n, 4, 40, rng):
        own = mine_g = total = 0.0
        rows = 0
        for p, q in lists[:12]:
            if len(p) * len(q) < 1e6:
                continue
            k = 6
            t = telling(bit_counts(p, width), bit_counts(q, width), k)
            own += pairs_left(p, q, t)
            mine_g += pairs_left(p, q, greedy(p, q, width, k))
            total += len(p) * len(q)
            rows += 1
        if rows:
            print(f"part ({part.x}, {part.y}): {rows} row sets, left of all pairs: telling {own / total:.3f}, "
                  f"greedy {mine_g / total:.3f}, greedy/telling {mine_g / own:.3f}", flush=True)


if __name__ == "__main__":
    main()
