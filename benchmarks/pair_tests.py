"""The join's pair tests a nanosecond on one core: this tree against another
checkout (an older commit), side by side in one run (issue 53).

Each side counts the row sets of ranks FIRST..LAST of N (even N: no middle
queens; odd N: one queen in the centre, the middle whose row sets are the
most, or with --middle X,Y the queens on (N/2, X) and (Y, N/2), a middle
whose lists are shorter) by joining quarters in one process on one core, through
kernel.join_count, and reports its pair tests over the nanoseconds it spent
joining (the table's build and the halves' listing apart), and the time
the join took.  The counts of both sides must agree where both cut the
count the same way (join.METHOD): since the longest diagonals
(quarter-join-2) a range of row sets counts other boards than before, only
the whole count is the same, and fewer pair tests do the same work, so the
join's time is the figure to compare.  Since the dense buckets (issue 65)
the pair tests are counted as before (a leaf's pairs, whichever way they
are tested), but the leaves are larger: more tests, each cheaper.

    git worktree add /tmp/before <commit>      (and build its C kernel there)
    python benchmarks/pair_tests.py /tmp/before [--n 20] [--ranks 80000:90000] [--middle X,Y] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
from pathlib import Path

from common import PYTHON, ROOT

PROGRAM = """
import json, sys, time
from nqueens_cp import kernel
from nqueens_cp.counting import join
n, first, last, x, y = map(int, sys.argv[1:6])
assert kernel.compiled(), "the C kernel is not built in this tree"
start = time.perf_counter()
j = kernel.join_count(n, x, y, first, last, 262144)
print(json.dumps({"seconds": time.perf_counter() - start, "boards": j.boards, "tests": j.tests,
                  "join": j.ns_join / 1e9, "halves": j.ns_halves / 1e9, "method": join.METHOD}))
"""


def once(tree: Path, n: int, first: int, last: int, middle: tuple[int, int]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([PYTHON, "-P", "-c", PROGRAM, str(n), str(first), str(last), *map(str, middle)],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--ranks", default="80000:90000")
    parser.add_argument("--middle", help="X,Y: an odd N's middle queens on (N/2, X) and (Y, N/2) (default: the centre)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    first, last = (int(x) for x in args.ranks.split(":"))
    if args.n % 2 == 0:
        middle = (-1, -1)
    else:
        x, y = (int(v) for v in args.middle.split(",")) if args.middle else (args.n // 2, args.n // 2)
        middle = (x, y)
    sides = {"before": args.before.resolve(), "this tree": ROOT}
    runs: dict[str, list[dict]] = {name: [] for name in sides}
    for round_ in range(args.repeat):
        for name in (list(sides) if round_ % 2 == 0 else list(reversed(sides))):
            runs[name].append(once(sides[name], args.n, first, last, middle))
    methods = {name: side[0]["method"] for name, side in runs.items()}
    for name, side in runs.items():
        if len({run["boards"] for run in side}) != 1:
            raise SystemExit(f"{name} counts differently from one run to the next")
    boards = {runs[name][0]["boards"] for name in runs}
    if len(set(methods.values())) == 1 and len(boards) != 1:
        raise SystemExit(f"the sides count differently: {sorted(boards)}")
    said = f"{boards.pop():,} boards" if len(boards) == 1 else \
        ", ".join(f"{runs[name][0]['boards']:,} boards ({methods[name]}, {name})" for name in runs)
    where = f", middle queens on ({args.n // 2}, {middle[0]}) and ({middle[1]}, {args.n // 2})" if args.n % 2 else ""
    print(f"N={args.n}{where}, row sets of ranks {first}..{last}: {said}, one core, medians of {args.repeat}")
    rate = {}
    for name, side in runs.items():
        rate[name] = statistics.median(run["tests"] / run["join"] / 1e9 for run in side)
        print(f"  {name:<10} {side[0]['tests']:,} pair tests, joining {statistics.median(r['join'] for r in side):7.2f} s, "
              f"listing {statistics.median(r['halves'] for r in side):6.2f} s, in all "
              f"{statistics.median(r['seconds'] for r in side):7.2f} s: {rate[name]:5.2f} pair tests a nanosecond")
    joining = {name: statistics.median(r["join"] for r in side) for name, side in runs.items()}
    print(f"  this tree / before: {rate['this tree'] / rate['before']:.2f}x the pair tests a nanosecond, "
          f"{runs['this tree'][0]['tests'] / runs['before'][0]['tests']:.2f}x the pair tests, "
          f"{joining['this tree'] / joining['before']:.2f}x the time joining")


if __name__ == "__main__":
    main()
