"""The GPU count's host side (issue 32): listing the work items of a whole
count, every sub-board split five rows deep and packed for the device, in
C (kernel.expand, what counting/gpu.py's work_items uses) beside the Python
listing it replaced (classes.fix_rows), alternately in this process; items
per second and the ratio; then the time to order them biggest first.
Everything up to the launch: no GPU is needed.

    python benchmarks/work_items.py [N ...] [--repeat R]     (default: 20 22)
"""

from __future__ import annotations

import argparse
import statistics
import time
from array import array

from nqueens_cp import kernel
from nqueens_cp.counting import classes, gpu


def in_python(n: int, boards: list[classes.SubBoard]) -> gpu.Items:
    """The listing before the C one: a generator per sub-board."""
    masks, ties, classify = array("Q"), array("Q"), array("B")
    for board in boards:
        for allowed in classes.fix_rows(n, board.allowed, gpu.depth(n)):
            if all(allowed):
                masks.extend(allowed)
                ties.append(board.tie)
                classify.append(board.classify)
    return gpu.Items(n, masks, ties, classify)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[20, 22])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not kernel.compiled():
        raise SystemExit("the compiled module is not built here: nothing to compare")
    print("work items of a whole count, listed and packed up to the launch; medians of", args.repeat)
    for n in args.sizes:
        boards = classes.sub_boards(n)
        times: dict[str, list[float]] = {"C": [], "Python": []}
        items = {}
        for _ in range(args.repeat):
            for name, listing in (("C", gpu.work_items), ("Python", in_python)):
                start = time.perf_counter()
                items[name] = listing(n, boards)
                times[name].append(time.perf_counter() - start)
        c, py = items["C"], items["Python"]
        assert (c.masks, c.ties, c.classify) == (py.masks, py.ties, py.classify), "the two listings differ"
        count = len(c)
        for name in ("C", "Python"):
            median = statistics.median(times[name])
            print(f"  N={n}: {name:<6} {median:6.3f} s  {count / median / 1e6:5.2f} million items/s  "
                  f"({count:,} items of {len(boards):,} sub-boards; min {min(times[name]):.3f}, "
                  f"max {max(times[name]):.3f})")
        print(f"  N={n}: C takes {statistics.median(times['C']) / statistics.median(times['Python']):.2f}x "
              "the time of the Python listing")
        ordering = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            gpu.biggest_first(c, gpu.depth(n))
            ordering.append(time.perf_counter() - start)
        print(f"  N={n}: their order, biggest first (gpu.biggest_first, numpy): {statistics.median(ordering):.3f} s")


if __name__ == "__main__":
    main()
