"""The decision search's tail: one board of plain N for random (N, seed) pairs.

``solve N -e bitmask --seed S`` for random N from 50 to 10,000 and random
seeds, one core, in this process (search seconds and nodes): the median,
the 90th percentile and the worst time, and the worst over the median.
Target: the worst within 10x the median (issue 44: with a doubling restart
cutoff, N = 2662 and seed 7622960 found no board in 90 s; the restarts
follow the Luby sequence now, docs/decision.md).

    python benchmarks/decision_tail.py [--pairs 1000] [--seed 1] [--cap 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import nqueens_cp as nq


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1000, help="(N, seed) pairs (default: 1000)")
    parser.add_argument("--seed", type=int, default=1, help="draws the pairs (default: 1)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a pair at most (default: 60)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for _ in range(args.pairs):
        n, seed = rng.randint(50, 10_000), rng.randrange(2**31)
        start = time.perf_counter()
        outcome = nq.solve(n, "bitmask", seed=seed, time_limit=args.cap)
        rows.append((time.perf_counter() - start, n, seed, outcome.status.value, outcome.stats.get("nodes", 0),
                     outcome.stats.get("restarts", 0)))
    times = sorted(row[0] for row in rows)
    median, p90 = statistics.median(times), times[int(0.9 * (len(times) - 1))]
    worst = max(rows)
    unanswered = [row for row in rows if row[3] != "solved"]
    print(f"{len(rows)} pairs, N from 50 to 10,000: median {median:.3f} s, 90th percentile {p90:.3f} s, "
          f"worst {worst[0]:.2f} s (N = {worst[1]}, seed {worst[2]}, {worst[4]:,} nodes, {worst[5]} restarts): "
          f"worst / median {worst[0] / median:.0f}x (target: 10x); {len(unanswered)} not answered in {args.cap:g} s")
    for row in sorted(rows, reverse=True)[:5]:
        print(f"  {row[0]:.2f} s  N = {row[1]}, seed {row[2]}: {row[3]}, {row[4]:,} nodes, {row[5]} restarts")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
