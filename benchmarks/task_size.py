"""How many border frames to a task: `count N` on all cores for several task sizes.

Too small, and the process pool's per-task overhead dominates; too large, and
the last tasks leave a core idle.  run.FRAMES_PER_TASK holds the choice.

    python benchmarks/task_size.py [N ...]     (default: 16 17)
"""

from __future__ import annotations

import argparse
import statistics
import time

import nqueens_cp as nq
from nqueens_cp import frames, run
from nqueens_cp.known import TOTAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[16, 17])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    chosen = run.FRAMES_PER_TASK
    print(f"{'N':>3} {'frames/task':>12} {'tasks':>6} {'median s':>9}")
    for n in args.sizes:
        for size in (1, 4, 16, 64, 256):
            run.FRAMES_PER_TASK = size
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                assert nq.count(n) == TOTAL[n]
                times.append(time.perf_counter() - start)
            mark = "  (chosen)" if size == chosen else ""
            print(f"{n:>3} {size:>12} {len(frames.chunks(n, size)):>6} {statistics.median(times):>9.2f}{mark}", flush=True)


if __name__ == "__main__":
    main()
