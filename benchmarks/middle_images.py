"""Each class of an odd N's middle queens counted whole through two of its
images: the one `count` counts (join.middles) and its transpose (issue 80).

    python benchmarks/middle_images.py N [--jobs 2] [--classes X,Y ...]

Every image of a class has the class's boards (the square's symmetries map
one to the other), but the join cuts the board into east and west halves,
and a transpose swaps the middle row's queen with the middle column's: the
halves listed, the pairs tested and the time differ.  For each class (all,
or those given as the x,y that join.middles gives), both images are counted
whole by the compiled join, one right after the other in one process, and
their boards must agree; the classes are shared among ``--jobs`` processes.
Prints one line a class, then the sums over the classes (each class once,
as a count runs it): the transpose's time, halves and pair tests over the
counted image's.  Not a timing of a count: each process builds the
quarters' table once, before its first class, out of the time; each
image makes its own filtered tables, as a count's part does; the
processes run side by side.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from common import PYTHON, ROOT

PROGRAM = """
import json, sys, time
from nqueens_cp import kernel
from nqueens_cp.counting import join
n, classes = int(sys.argv[1]), json.loads(sys.argv[2])
if classes:  # (the quarters' table built here, not in the first class's time)
    kernel.join_count(n, *classes[0], 0, 1, join.CAP)
for x, y in classes:
    line = {"x": x, "y": y}
    for name, (a, b) in (("counted", (x, y)), ("transposed", (y, x))):
        start = time.perf_counter()
        found = kernel.join_count(n, a, b, 0, kernel.join_row_sets(n, a, b), join.CAP)
        line[name] = {"seconds": time.perf_counter() - start, "boards": found.boards, "halves": found.halves,
                      "tests": found.tests}
    print(json.dumps(line), flush=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="an odd N from 5 to 25")
    parser.add_argument("--jobs", type=int, default=2, help="processes, the classes dealt among them (default 2)")
    parser.add_argument("--classes", nargs="*", default=None, metavar="X,Y",
                        help="only these classes, as join.middles gives them (default: every one but the centre)")
    args = parser.parse_args()
    if args.n % 2 == 0 or not 5 <= args.n <= 25:
        parser.error(f"N must be odd, from 5 to 25: an even N has no middle queens (got {args.n})")
    sys.path.insert(0, str(ROOT))
    from nqueens_cp.counting import join

    every = [(x, y) for x, y, _ in join.middles(args.n) if x != y]  # (a class on the diagonal is its transpose)
    if args.classes is not None:
        wanted = []
        for given in args.classes:
            try:
                x, y = (int(v) for v in given.split(","))
            except ValueError:
                parser.error(f"a class is X,Y, two whole numbers: got {given!r}")
            wanted.append((x, y))
        unknown = [c for c in wanted if c not in every]
        if unknown:
            parser.error(f"not a class of join.middles({args.n}) off the diagonal: {unknown}")
        every = wanted
    jobs = [subprocess.Popen([PYTHON, "-c", PROGRAM, str(args.n), json.dumps(every[k::args.jobs])],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True) for k in range(args.jobs)]
    sums = {name: {"seconds": 0.0, "halves": 0, "tests": 0} for name in ("counted", "transposed")}
    for job in jobs:
        assert job.stdout is not None
        for raw in job.stdout:
            line = json.loads(raw)
            counted, transposed = line["counted"], line["transposed"]
            if counted["boards"] != transposed["boards"]:
                sys.exit(f"class ({line['x']}, {line['y']}): {counted['boards']} boards counted, "
                         f"{transposed['boards']} transposed: a counting error")
            for name in sums:
                for key in sums[name]:
                    sums[name][key] += line[name][key]
            print(f"({line['x']}, {line['y']}): {counted['boards']} boards; transposed over counted: time "
                  f"{transposed['seconds'] / counted['seconds']:.3f}x, halves "
                  f"{transposed['halves'] / counted['halves']:.3f}x, pair tests "
                  f"{transposed['tests'] / counted['tests']:.3f}x ({counted['seconds']:.1f} s counted)", flush=True)
        if job.wait():
            sys.exit(f"a process ended with exit {job.returncode}")
    counted, transposed = sums["counted"], sums["transposed"]
    print(f"N = {args.n}, {len(every)} classes: transposed over counted: time "
          f"{transposed['seconds'] / counted['seconds']:.3f}x ({transposed['seconds']:.1f} s against "
          f"{counted['seconds']:.1f} s), halves {transposed['halves'] / counted['halves']:.3f}x, pair tests "
          f"{transposed['tests'] / counted['tests']:.3f}x")


if __name__ == "__main__":
    main()
