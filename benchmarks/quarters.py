"""Counting by joining quarters (`count N --method quarters`) against the walk by symmetry classes (`--method walk`).

Both on every core (the default --jobs), side by side in one run, each count
a fresh `python -m nqueens_cp count N --format json --stats` checked against
OEIS A000170.  For each N: the wall times and their ratio, the largest
resident memory of any one process of the count (wait4's ru_maxrss, the
workers included) beside what the count said it would hold before it
started (all processes), and where the join's time goes, summed over its
processes: building the quarters' table, listing halves, joining them.

The walk beyond --walk-max is not run (count 20 takes about 18 minutes
here, 21 about 2.4 hours: docs/counting.md extrapolates them); its column
says so.

    python benchmarks/quarters.py [N ...] [--repeat R] [--walk-max N] [--crossover]
        (default: 16 17 18 19 20 21, R = 1, walk up to 19)
    --crossover: N = 10 .. 16, R = 5, both methods at every N (where the join starts to win)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from common import PYTHON, ROOT

from nqueens_cp.known import TOTAL


def run(n: int, method: str) -> tuple[float, int, dict[str, Any]]:
    """(seconds, peak resident bytes of one process, the JSON result) of one count."""
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        pid = os.posix_spawn(PYTHON, [PYTHON, "-m", "nqueens_cp", "count", str(n), "--method", method,
                                      "--format", "json", "--stats"],
                             {**os.environ, "PYTHONPATH": str(ROOT)}, file_actions=[(os.POSIX_SPAWN_DUP2,
                                                                                    out.fileno(), 1)])
        _, status, usage = os.wait4(pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        text = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"count {n} --method {method}: exit {os.waitstatus_to_exitcode(status)}:\n{text[-500:]}")
    result = json.loads(text)
    if result["count"] != TOTAL[n]:
        raise SystemExit(f"count {n} --method {method}: {result['count']}, not {TOTAL[n]}")
    return seconds, usage.ru_maxrss * 1024, result


def mb(size: float) -> str:
    return f"{size / 2**20:,.0f} MB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*")
    parser.add_argument("--repeat", type=int)
    parser.add_argument("--walk-max", type=int, default=19)
    parser.add_argument("--crossover", action="store_true")
    args = parser.parse_args()
    sizes = args.sizes or (list(range(10, 17)) if args.crossover else list(range(16, 22)))
    repeat = args.repeat or (5 if args.crossover else 1)
    walk_max = 99 if args.crossover else args.walk_max
    rows = []
    for n in sizes:
        times: dict[str, list[float]] = {"quarters": [], "walk": []}
        peak, result = 0, {}
        for round_ in range(repeat):
            methods = ["quarters", "walk"] if n <= walk_max else ["quarters"]
            for method in methods if round_ % 2 == 0 else reversed(methods):
                seconds, rss, found = run(n, method)
                times[method].append(seconds)
                if method == "quarters":
                    peak, result = max(peak, rss), found
                print(f"  count {n} --method {method}: {seconds:.2f} s, peak {mb(rss)}", file=sys.stderr, flush=True)
        stats = result["stats"]
        quarters = statistics.median(times["quarters"])
        walk = statistics.median(times["walk"]) if times["walk"] else None
        rows.append((n, quarters, walk, peak, stats))
    print(f"\n`count N` on {os.cpu_count()} cores, medians of {repeat}; phases in seconds summed over the processes")
    print("\n| N | quarters | walk | walk / quarters | peak memory, one process | said before, all processes | "
          "table | listing | joining | halves | pair tests |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, quarters, walk, peak, stats in rows:
        walked = f"{walk:.2f} s" if walk is not None else "not run"
        ratio = f"**{walk / quarters:.1f}x**" if walk is not None else ""
        print(f"| {n} | {quarters:.2f} s | {walked} | {ratio} | {mb(peak)} | {mb(stats['memory_bytes'])} | "
              f"{stats['table_seconds']:.2f} | {stats['listing_seconds']:.2f} | {stats['joining_seconds']:.2f} | "
              f"{stats['halves']:,} | {stats['pair_tests']:,} |")


if __name__ == "__main__":
    main()
