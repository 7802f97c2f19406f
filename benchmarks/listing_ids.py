"""Not a timing: what the join would lose if the longer list's ids came from
its quarters, so that the listing could write its keys to their buckets
itself (issue 80).

At N = 23 the longer list of a join holds about eight times the shorter's
keys, and the work done once a key of it (listing, putting in buckets, the
dense words) outweighs the dense loops (docs/counting.md, "2026-11-30,
afternoon").  A half's key is its north quarter's key ORed with its south
quarter's, listed north placement by north placement (join.c's half_next),
and some bits of the window only one of the two quarters can take
(twin_join's geometry, an odd N: an east half's north quarter alone takes
the anti-diagonals n - h .. n of the window, its south quarter alone the
diagonals n - h .. n; a west half's north quarter alone the diagonals
n - 2 .. n + h - 2, its south quarter alone those anti-diagonals).  An id of north-only
bits is the same for every key of a north placement's run: the listing
could append the run to one bucket, no scatter a key.  With south-only bits
too, the run is cut by the south placements' ids (sorted once a column
choice).  This lists windows of row sets of random parts
(`kernel.join_list`), and counts for each join whose shorter list has 512
keys or more the pairs left after the id's split (pairs of buckets whose ids
share no bit) with the join's own telling bits, with the telling bits among
the longer list's north-only bits, and among its north-only and south-only
bits, as many bits as join.c takes (the longer list about 1,024 keys a
bucket): each over the pairs of the join's own bits.  It also checks the
geometry: a north-only bit of the longer list changes from one key to the
next only where the north placement does (at most 0.2 of the keys).

    python benchmarks/listing_ids.py [N] [--parts 6] [--window 200] [--every 10] [--seed 5]
"""

from __future__ import annotations

import argparse
import random

import numpy as np
from common import listed_windows, odd_width, window_arguments
from telling_bits import bit_counts, pairs_left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    window_arguments(parser, parts=6, window=200, seed=5, every=10)
    args = parser.parse_args()
    n, width = args.n, odd_width(parser, args.n)
    span, h = width // 2, args.n // 2
    # each half's (north-only, south-only) bits: key bit d - (n - h) for a diagonal d, span + a - (n - h)
    # for an anti-diagonal a (join.c's key_of)
    east = (list(range(span, span + h + 1)), list(range(0, h + 1)))
    west = (list(range(span - h - 1, span)), list(range(width - h - 1, width)))
    totals = {"own": 0.0, "north": 0.0, "north and south": 0.0}
    joins, changes = 0, []
    for _, lists in listed_windows(n, args.parts, args.window, random.Random(args.seed)):
        for e, w in lists[::args.every]:
            east_longer = len(e) > len(w)
            p, q = (w, e) if east_longer else (e, w)
            if len(p) < 512:  # (join.h's JOIN_DENSE_LIST)
                continue
            north, south = east if east_longer else west
            bits = ((q[:, None] >> np.arange(width, dtype=np.uint64)) & np.uint64(1)).astype(np.int8)
            changes.append(float((bits[1:] != bits[:-1]).mean(0)[north].max()))
            k = 0
            while len(q) >> k > 1024:  # (join.c: the longer list about JOIN_BUCKET keys a bucket)
                k += 1
            in_p, in_q = bit_counts(p, width), bit_counts(q, width)
            order = [int(b) for b in np.argsort(-(in_p * in_q), kind="stable") if in_p[b] and in_q[b]]
            totals["own"] += pairs_left(p, q, order[:k])
            totals["north"] += pairs_left(p, q, [b for b in order if b in north][:k])
            totals["north and south"] += pairs_left(p, q, [b for b in order if b in north or b in south][:k])
            joins += 1
    if not joins:
        parser.error("no join in these windows has a shorter list of 512 keys or more")
    print(f"count {n}: {joins} joins of {args.parts} parts; pairs left after the id's split, over those of the "
          "join's own telling bits")
    for name, pairs in totals.items():
        print(f"  {'ids from ' + name + ' bits' if name != 'own' else 'its own telling bits':>34}: "
              f"{pairs / totals['own']:.3f}")
    print(f"  a north-only bit's changes from one key to the next: at most {max(changes):.3f} of the keys "
          f"(median of the joins' largest {float(np.median(changes)):.3f})")
    if max(changes) > 0.2:
        raise SystemExit("the north-only bits change within a north placement's run: the geometry above is wrong")


if __name__ == "__main__":
    main()
