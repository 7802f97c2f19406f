"""The GPU count on a machine with an NVIDIA GPU (issue 32), all in one run:

1. the first `count 8 --engine gpu` of the run, NVRTC's compile included
   (CuPy caches the binary on disk: later processes skip it);
2. `count N --engine gpu --format json` for each N of --exact: the total and
   the fundamental count of the same run against A000170 and A002562 (every
   count checks them against its S180 and S90 searches too);
3. end to end, process start to the number, for each N of --sizes: the GPU
   beside `count N` on this machine's CPU cores (up to --cpu-max), run
   alternately, with nodes per second from the GPU runs' statistics;
4. the targets of issue 22 on one H100, and the published H800 times of
   ygch/n_queens they were set from.

    python benchmarks/gpu.py [--exact 4-21] [--sizes 18-22] [--cpu-max 20] [--repeat R]

Run `pytest tests/test_gpu.py` on the same machine first: its launch tests
skip where there is no GPU.  Without one this script stops in one line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable

from common import Side, alternate, nqueens, report

from nqueens_cp.known import FUNDAMENTAL, TOTAL

TARGET = {20: 2.0, 21: 12.0, 22: 100.0}  # seconds on one H100 (issue 22)
YGCH_H800 = {20: 4.14, 21: 29.2, 22: 249.9}  # ygch/n_queens's README, seconds


def sizes(text: str) -> list[int]:
    """'4-21' or '18,20,22'."""
    if "-" in text:
        first, last = (int(part) for part in text.split("-"))
        return list(range(first, last + 1))
    return [int(part) for part in text.split(",")]


class Runs:
    """The JSON answers of one side's runs, checked as they come."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.answers: list[dict] = []

    def check(self, out: str) -> bool:
        try:
            answer = json.loads(out)
        except ValueError:
            return False
        self.answers.append(answer)
        stats = answer.get("stats", {})
        return answer.get("count") == TOTAL[self.n] and stats.get("fundamental", FUNDAMENTAL[self.n]) == \
            FUNDAMENTAL[self.n]

    def nodes_per_second(self) -> float:
        return statistics.median(a["stats"]["nodes"] / a["seconds"] for a in self.answers)


def counting(n: int, *options: str) -> list[str]:
    return nqueens("count", str(n), "--format", "json", *options)


def once(name: str, command: list[str], check: Callable[[str], bool]) -> float:
    side = Side(name, command, check)
    side.run()
    return side.times[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exact", type=sizes, default=sizes("4-21"), help="N to check against OEIS (default 4-21)")
    parser.add_argument("--sizes", type=sizes, default=sizes("18-22"), help="N to time (default 18-22)")
    parser.add_argument("--cpu-max", type=int, default=20, help="the largest N the CPU side runs (default 20)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from nqueens_cp.engines.gpu import GpuEngine

    reason = GpuEngine.unavailable_reason()
    if reason:
        raise SystemExit(f"benchmarks/gpu.py: engine gpu {reason}")

    first = Runs(8)
    print(f"first count 8 --engine gpu, the kernel's compile included: "
          f"{once('gpu 8', counting(8, '--engine', 'gpu'), first.check):.3f} s")

    print("\ncount N --engine gpu against A000170 and A002562 (one run each)")
    wrong = []
    for n in args.exact:
        runs = Runs(n)
        seconds = once(f"gpu {n}", counting(n, "--engine", "gpu"), lambda out, runs=runs: runs.check(out) or True)
        answer = runs.answers[-1] if runs.answers else {}
        total, fundamental = answer.get("count"), answer.get("stats", {}).get("fundamental")
        right = (total, fundamental) == (TOTAL[n], FUNDAMENTAL[n])
        if not right:
            wrong.append(n)
        print(f"  N={n:<3} total {total!s:>16}  fundamental {fundamental!s:>15}  {seconds:8.3f} s  "
              f"{'ok' if right else f'WRONG: published {TOTAL[n]} and {FUNDAMENTAL[n]}'}")

    medians: dict[int, float] = {}
    for n in args.sizes:
        gpu_runs, cpu_runs = Runs(n), Runs(n)
        gpu = Side(f"count {n} --engine gpu", counting(n, "--engine", "gpu"), gpu_runs.check)
        sides = [gpu]
        if n <= args.cpu_max:
            sides.append(Side(f"count {n}, CPU cores", counting(n), cpu_runs.check))
        alternate(sides, args.repeat)
        report(f"count {n}, end to end", sides, gpu)
        medians[n] = statistics.median(gpu.times)
        print(f"  GPU: {gpu_runs.nodes_per_second() / 1e6:,.0f} million nodes/s"
              + (f"; CPU: {cpu_runs.nodes_per_second() / 1e6:,.0f} million nodes/s" if cpu_runs.answers else ""))

    print("\nthe targets (issue 22): one H100, end to end")
    for n in sorted(set(medians) & set(TARGET)):
        met = "met" if medians[n] <= TARGET[n] else "NOT met"
        print(f"  N={n}: {medians[n]:8.3f} s  target {TARGET[n]:6.1f} s  {met}; "
              f"{medians[n] / YGCH_H800[n]:.2f}x ygch/n_queens's published H800 time ({YGCH_H800[n]} s)")
    if wrong:
        print(f"\nWRONG counts for N = {', '.join(map(str, wrong))}", file=sys.stderr)
        raise SystemExit(1)


if __name__ == "__main__":
    main()
