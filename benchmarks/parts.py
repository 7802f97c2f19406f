"""Two builds of the C kernel on whole parts of a count by quarters, side by
side: each part is counted by both trees at once, one process each (one a
core on this machine's two), so that the machine's drift and the memory
traffic of the other core fall on both alike; then the next part, the
trees' places in the command swapped.  Their boards, row sets, halves and
pair tests must agree.  It prints each part's two times and the ratio of
their sums (the second tree's over the first's).

    git worktree add /tmp/before <commit>      # and build its kernel there, as benchmarks/kernels.py says
    python benchmarks/parts.py /tmp/before . 23 --parts 74,267,90,48,35,36

Where windows of row sets mislead (a change whose cost depends on the part
as a whole, or on the lists' shapes, which a window cuts), whole parts do
not: a part is what a count runs.  A tree measured against itself gave
0.999x over six parts of 23 (parts' own ratios 0.975x to 1.030x), so a
part's ratio alone means little; their sum does.  Each part starts a
process of its own, which builds the quarters' table first, on one row
set of the part (3 s at 23, not timed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from common import PART_PROGRAM, PYTHON, part_indices

PROGRAM = PART_PROGRAM + ("import time\nstart = time.perf_counter()\nvalues = join.count_part(n, part)\n"
                          "print(time.perf_counter() - start, *values)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="a tree with its kernel built (nqueens_cp/kernel/_search*.so)")
    parser.add_argument("second", type=Path, help="another such tree ('.': this one)")
    parser.add_argument("n", type=int)
    part_indices(parser)
    args = parser.parse_args()
    trees = [args.first.resolve(), args.second.resolve()]
    for tree in trees:
        if not list((tree / "nqueens_cp" / "kernel").glob("_search*.so")):
            sys.exit(f"parts.py: {tree} has no built kernel (nqueens_cp/kernel/_search*.so): build it first")
    totals = [0.0, 0.0]
    for turn, index in enumerate(int(p) for p in args.parts.split(",")):
        order = trees if turn % 2 == 0 else trees[::-1]
        runs = {tree: subprocess.Popen([PYTHON, "-c", PROGRAM, str(args.n), str(index)], cwd=tree, text=True,
                                       stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(tree)})
                for tree in order}
        said = {}
        for tree, run in runs.items():
            out, _ = run.communicate()
            if run.returncode:
                sys.exit(f"parts.py: part {index} failed in {tree} (exit {run.returncode})")
            said[tree] = out.split()
        first, second = (said[tree] for tree in trees)
        if first[1:5] != second[1:5]:
            sys.exit(f"parts.py: part {index}: the trees' boards, row sets, halves or pair tests differ: "
                     f"{first[1:5]} against {second[1:5]}")
        seconds = float(first[0]), float(second[0])
        totals = [totals[0] + seconds[0], totals[1] + seconds[1]]
        print(f"part {index}: {seconds[0]:.2f} s, {seconds[1]:.2f} s: {seconds[1] / seconds[0]:.3f}x "
              f"({first[1]} boards)", flush=True)
    print(f"sum: {totals[0]:.1f} s, {totals[1]:.1f} s: the second over the first {totals[1] / totals[0]:.3f}x")


if __name__ == "__main__":
    main()
