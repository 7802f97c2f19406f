"""Two builds of the C kernel in one process: the same windows of a count by
quarters joined by each in turn, for a change to the join too small for
whole counts to show on a machine that drifts (issue 80).

    git worktree add /tmp/before <commit>      # and build its kernel there:
    pip wheel --no-deps -w /tmp/wheel /tmp/before && (cd /tmp/before && unzip -o /tmp/wheel/*.whl 'nqueens_cp/kernel/*.so')
    python benchmarks/kernels.py /tmp/before N [--windows 30] [--width 2000] [--seed 1] [--by-cost]

Build each tree once, in a worktree of its own made for it: pip builds in
the tree and keeps its build/ folder, and a second `pip wheel` there whose
sources look no newer than that folder's module packs the old module again
(a compile-time switch given as CFLAGS=-D... once, then taken back out,
stayed in the "before" build, and a tree measured against itself came out
1.12x at 22: docs/counting.md, 2026-11-30, later).  A define the C reads
with #ifndef (DENSE_CHUNK, JOIN_BUCKET, ...) is given as CFLAGS=-DNAME=VALUE
to that one `pip wheel`.

Each tree's compiled module (``nqueens_cp/kernel/_search*.so``) is loaded
into this process under a name of its own; each window (a part drawn at
random, `width` row sets of it at a random place) is counted by both, one
right after the other, so that the machine's drift falls on both alike,
and their boards and every other tally but the pair tests must agree.  The
module loaded second ran 5 to 9 % faster than the first on the same build
(two copies of one tree, 2026-11-29), so the whole run is made twice, the
modules loaded in both orders, and the ratio given is the geometric mean of
the two runs' (this tree's seconds over the other's): the order's bias
cancels.  Each run is a process of its own (a module cannot be unloaded).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
from pathlib import Path

from common import PYTHON, ROOT

PROGRAM = """
import glob, importlib.machinery, importlib.util, json, random, statistics, sys, time
from nqueens_cp.counting import join
from nqueens_cp.kernel import twin_join

def load(tree, tag):
    path = glob.glob(tree + "/nqueens_cp/kernel/_search*.so")[0]
    loader = importlib.machinery.ExtensionFileLoader(tag + "._search", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_file_location(tag + "._search", path, loader=loader))
    loader.exec_module(module)
    return module

n, windows, width, seed, by_cost = map(int, sys.argv[1:6])
modules = [load(tree, f"tree{i}") for i, tree in enumerate(sys.argv[6:8])]
cut = (twin_join.DIRECT, twin_join.SMALL, twin_join.BUCKET)
parts = join.parts(n)
for module in modules:  # each its quarters' table, before the windows
    module.join_count(n, parts[0].x, parts[0].y, parts[0].first, parts[0].first + 1, join.CAP, *cut)
rng = random.Random(seed)
costs = join.part_costs(n, parts) if by_cost else None
seconds, tests, ratios = [0.0, 0.0], [0, 0], []
for w in range(windows):
    part = rng.choices(parts, weights=costs)[0] if costs else rng.choice(parts)
    size = part.last - part.first
    wide = min(width, size)
    at = part.first + rng.randrange(size - wide + 1)
    found, took = [None, None], [0.0, 0.0]
    for i in (0, 1) if w % 2 == 0 else (1, 0):
        began = time.perf_counter()
        j = modules[i].join_count(n, part.x, part.y, at, at + wide, join.CAP, *cut)
        took[i] = time.perf_counter() - began
        found[i] = (j[0], j[1], j[2])  # boards, row sets, halves (the pair tests may differ)
        tests[i] += j[3]
        seconds[i] += took[i]
    assert found[0] == found[1], ("the two trees differ", part, at, found)
    ratios.append(took[0] / took[1])
print(json.dumps({"seconds": seconds, "tests": tests, "median_window": statistics.median(ratios)}))
"""


def run(first: Path, second: Path, n: int, windows: int, width: int, seed: int, by_cost: bool) -> dict:
    out = subprocess.run([PYTHON, "-c", PROGRAM, str(n), str(windows), str(width), str(seed), str(int(by_cost)),
                          str(first), str(second)], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path, help="another checkout, its kernel built")
    parser.add_argument("n", type=int)
    parser.add_argument("--windows", type=int, default=30, help="windows counted by each tree (default 30)")
    parser.add_argument("--width", type=int, default=2000, help="row sets a window (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--by-cost", action="store_true",
                        help="draw the parts in proportion to their estimated costs (join.part_costs, the count's own "
                             "order), as the count's time falls, not uniformly: a count's longest parts weigh most")
    args = parser.parse_args()
    before = args.before.resolve()
    ours_first = run(ROOT, before, args.n, args.windows, args.width, args.seed, args.by_cost)
    theirs_first = run(before, ROOT, args.n, args.windows, args.width, args.seed, args.by_cost)
    now = [ours_first["seconds"][0], theirs_first["seconds"][1]]
    then = [ours_first["seconds"][1], theirs_first["seconds"][0]]
    ratio = math.sqrt(now[0] / then[0] * now[1] / then[1])
    window = math.sqrt(ours_first["median_window"] / theirs_first["median_window"])
    drawn = ", parts drawn by their estimated costs" if args.by_cost else ""
    print(f"count {args.n}, {args.windows} windows of {args.width} row sets (seed {args.seed}{drawn}), each counted "
          "by both trees in turn, in two runs (loaded in both orders)")
    print(f"  this tree: {now[0]:.2f} s and {now[1]:.2f} s, {ours_first['tests'][0]:,} pair tests")
    print(f"  {before}: {then[0]:.2f} s and {then[1]:.2f} s, {ours_first['tests'][1]:,} pair tests")
    print(f"  this tree's time over the other's: {ratio:.3f}x (the runs' geometric mean; a window's median: "
          f"{window:.3f}x)")


if __name__ == "__main__":
    main()
