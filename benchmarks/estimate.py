"""What a count by quarters would take, from a sample of its parts (issue 80).

A whole `count 23` takes hours, so a change to the join cannot be timed on it
twice a day.  This samples it instead: parts drawn at random (each as likely,
as the pool runs them all), and in each a window of WINDOW row sets at a
random place in its range, counted on one core through kernel.join_count.
A part's time is its fixed cost (an odd N's filtered tables, `lister_open`:
about 1.1 s a part at N = 23, timed on one row set of the same part just
before the window) plus the window's cost a row set times the part's row
sets; the count's is the mean over the sample times the parts, plus each
process's quarters' table, over the cores (the pool keeps both busy to the
last part: docs/counting.md, 99.9 %).  The interval is the sample mean's
+-2 standard errors.  With BEFORE (a checkout of another commit, its kernel
built) both trees count the same windows, alternately, in one run: the
ratio is the figure a change is judged by.

    python benchmarks/estimate.py N [--samples 12] [--window 1000] [--cores 2] [--before DIR [--repeat 3]] [--seed 1]

Its check: in one hour of 2026-11-28, `count 21` took 679.1 s on two cores
and this script, with 16 parts of 1,500 row sets, said 702 +- 208 s
(docs/counting.md, "Count 23: where it stands").
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
import json, random, sys, time
from nqueens_cp import kernel
from nqueens_cp.counting import join
n, samples, window, seed = map(int, sys.argv[1:5])
assert kernel.compiled(), "the C kernel is not built in this tree"
parts = join.parts(n)
rng = random.Random(seed)
first = parts[0]
began = time.perf_counter()
kernel.join_count(n, first.x, first.y, first.first, first.first + 1, join.CAP)
table = time.perf_counter() - began
rows = []
for _ in range(samples):
    part = rng.choice(parts)
    size = part.last - part.first
    width = min(window, size - 1) if size > 1 else 1
    at = part.first + 1 + rng.randrange(size - width) if size > 1 else part.first
    began = time.perf_counter()
    kernel.join_count(n, part.x, part.y, part.first, part.first + 1, join.CAP)
    fixed = time.perf_counter() - began
    began = time.perf_counter()
    j = kernel.join_count(n, part.x, part.y, at, at + width, join.CAP)
    spent = time.perf_counter() - began
    rows.append({"size": size, "width": width, "fixed": fixed, "spent": spent, "tests": j.tests})
print(json.dumps({"parts": len(parts), "table": table, "rows": rows}))
"""


def sample(tree: Path, n: int, samples: int, window: int, seed: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([PYTHON, "-P", "-c", PROGRAM, str(n), str(samples), str(window), str(seed)],
                         capture_output=True, text=True, env=env, check=True)
    return json.loads(out.stdout)


def estimate(found: dict, cores: int) -> tuple[float, float]:
    """The count's seconds on ``cores`` and the standard error of that figure."""
    # A part's time: its fixed cost, then its row sets at the window's cost a row set (the fixed
    # cost timed apart: the window's own call pays it again, so it is taken out of the window's time).
    per_part = [r["fixed"] + max(r["spent"] - r["fixed"], 0.0) * r["size"] / r["width"] for r in found["rows"]]
    parts = found["parts"]
    core_seconds = statistics.fmean(per_part) * parts + cores * found["table"]
    error = statistics.stdev(per_part) / len(per_part) ** 0.5 * parts if len(per_part) > 1 else float("nan")
    return core_seconds / cores, error / cores


def hours(seconds: float) -> str:
    return f"{seconds:,.1f} s" if seconds < 600 else f"{seconds:,.0f} s ({seconds / 3600:.2f} h)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int)
    parser.add_argument("--samples", type=int, default=12, help="parts drawn (default 12)")
    parser.add_argument("--window", type=int, default=1000, help="row sets counted in each (default 1000)")
    parser.add_argument("--cores", type=int, default=2, help="the cores the count would run on (default 2)")
    parser.add_argument("--before", type=Path, help="another checkout, its kernel built: timed on the same windows")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each tree, alternately (default 1)")
    args = parser.parse_args()
    trees = [ROOT] + ([args.before.resolve()] if args.before else [])
    runs: dict[Path, list[dict]] = {tree: [] for tree in trees}
    for turn in range(args.repeat):  # alternately, the other tree first (a machine's warm-up falls on it)
        for tree in trees[::-1] if turn % 2 == 0 else trees:
            runs[tree].append(sample(tree, args.n, args.samples, args.window, args.seed))
    # each tree's run whose windows took the median time (the windows are the same in every run)
    found = {tree: sorted(runs[tree], key=work)[len(runs[tree]) // 2] for tree in trees}
    for tree in trees:
        seconds, error = estimate(found[tree], args.cores)
        tests = sum(r["tests"] for r in found[tree]["rows"])
        print(f"{tree}: count {args.n} on {args.cores} cores, about {hours(seconds)} +- {2 * error:,.{0 if seconds >= 600 else 1}f} s "
              f"({len(found[tree]['rows'])} parts of {found[tree]['parts']}, {args.window} row sets each; "
              f"the table {found[tree]['table']:.1f} s; {tests:,} pair tests in the windows)")
    if args.before:
        now, before = (work(found[tree]) for tree in trees)
        print(f"the same windows' row sets (the parts' fixed costs apart), medians of {args.repeat}: "
              f"{now:.2f} s against {before:.2f} s before, {now / before:.2f}x")


def work(found: dict) -> float:
    """The windows' seconds less each part's fixed cost."""
    return sum(max(r["spent"] - r["fixed"], 0.0) for r in found["rows"])


if __name__ == "__main__":
    main()
