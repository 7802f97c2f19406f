"""How many sub-boards to a task: `count N` on all cores for several task sizes.

Too small, and the process pool's per-task overhead dominates; too large, and
the last tasks leave a core idle.  tasks.SUB_BOARDS_PER_TASK holds the choice.

    python benchmarks/task_size.py [N ...]     (default: 16 17)
"""

from __future__ import annotations

import argparse
import statistics
import time

import nqueens_cp as nq
from nqueens_cp.execution import tasks
from nqueens_cp.counting import classes
from nqueens_cp.known import TOTAL

SIZES = (1, 2, 8, 16, 32, 128)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[16, 17])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    chosen = tasks.SUB_BOARDS_PER_TASK
    print(f"{'N':>3} {'sub-boards/task':>16} {'tasks':>6} {'median s':>9}")
    for n in args.sizes:
        times: dict[int, list[float]] = {size: [] for size in SIZES}
        for _ in range(args.repeat):  # sizes alternate within each round: drift hits them alike
            for size in SIZES:
                tasks.SUB_BOARDS_PER_TASK = size
                start = time.perf_counter()
                assert nq.count(n) == TOTAL[n]
                times[size].append(time.perf_counter() - start)
        for size in SIZES:
            mark = "  (chosen)" if size == chosen else ""
            print(f"{n:>3} {size:>16} {len(classes.chunks(n, size)):>6} {statistics.median(times[size]):>9.2f}{mark}")


if __name__ == "__main__":
    main()
