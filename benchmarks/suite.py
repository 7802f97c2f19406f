"""The suite's time (issue 79: under 5 minutes on two idle cores), beside the
machine's speed that hour.

This machine's speed swings about twofold over a day (`count 19` on two cores
took 8.8 s on a fast evening and 15 to 23 s in its slow hours), so a suite time
alone says little of the suite.  This runs the README's test command, and
`count 19` just before and just after it as the hour's mark, and prints:

    suite      the wall seconds of `python -m pytest` (the README's command, with
               the project's options: pytest-xdist, three processes to two cores)
    busy       the share of the cores busy meanwhile (/proc/stat), and the
               processor-seconds that makes: where it is near 100 %, the suite's
               time is its processor time over the cores, and only less work
               makes it shorter (more processes do not: 356.7 s with four against
               341.4 s with three, 99 % busy both, 2026-11-29)
    count 19   before and after, and the suite's time over their mean

Run it on an otherwise idle machine; arguments after `--` go to pytest
(`-- tests/test_join.py` times a part).

    python benchmarks/suite.py [--reference N] [--repeat R] [-- PYTEST ARGS]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from common import PYTHON, ROOT, Side, last_line_is, nqueens

from nqueens_cp.known import TOTAL

REFERENCES = (17, 18, 19, 20)  # N whose count takes seconds on two cores, not minutes


def busy_ticks() -> tuple[int, int]:
    """(busy, all) clock ticks of every core so far, from the first line of /proc/stat."""
    with open("/proc/stat", encoding="ascii") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle and waiting for I/O
    return sum(ticks) - idle, sum(ticks)


def reference(n: int) -> float:
    """Seconds of `count n` on every core, its answer checked."""
    count = Side(f"count {n}", nqueens("count", str(n)), last_line_is(TOTAL[n]))
    count.run()
    return count.times[-1]


def suite(pytest_args: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, busy share, processor-seconds, pytest's last line) of one run of the suite."""
    hertz = os.sysconf("SC_CLK_TCK")
    busy0, all0 = busy_ticks()
    start = time.perf_counter()
    run = subprocess.run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args], cwd=ROOT,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    busy1, all1 = busy_ticks()
    said = (run.stdout.strip().splitlines() or [f"exit {run.returncode}"])[-1]
    if run.returncode:
        raise SystemExit(f"the suite failed (exit {run.returncode}): {said}\n{run.stdout[-2000:]}")
    return seconds, (busy1 - busy0) / max(1, all1 - all0), (busy1 - busy0) / hertz, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", type=int, default=19, choices=REFERENCES,
                        help="N of the count timed before and after each run of the suite (default 19)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the suite (default 1)")
    args, rest = parser.parse_known_args()
    if rest and rest[0] == "--":
        rest = rest[1:]
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)} (pytest's go after --)")
    print(f"{'run':>3}  {'suite s':>8}  {'busy':>5}  {'cpu s':>6}  {'count ' + str(args.reference) + ' before, after':>24}  "
          f"{'ratio':>6}  pytest", flush=True)
    ratios = []
    for run in range(1, args.repeat + 1):
        before = reference(args.reference)
        seconds, busy, cpu, said = suite(rest)
        after = reference(args.reference)
        ratios.append(seconds / statistics.mean([before, after]))
        print(f"{run:>3}  {seconds:8.1f}  {busy:5.0%}  {cpu:6.0f}  {before:11.2f} s, {after:7.2f} s  {ratios[-1]:6.1f}  "
              f"{said}", flush=True)
    if args.repeat > 1:
        print(f"median ratio of the suite to count {args.reference}: {statistics.median(ratios):.1f}")


if __name__ == "__main__":
    sys.exit(main())
