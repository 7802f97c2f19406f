"""Counting: `count N --method walk` (bitmask, by symmetry classes) against two one-core C counters.

  nqueens.c          gcc -O2, mirror halving of the first row
  nqueens_classes.c  gcc -O2, counts once per class of the 8 symmetries
                     (the corner / inner method of the 2003 "takaken" program)

Ours runs with --jobs 1 (one core) and with the default --jobs (every core),
walking by symmetry classes (from N = 16 `count` joins quarters by default:
benchmarks/quarters.py measures that against the walk).
`count N --unique` is checked too: it must give A002562 in about the time of
the total, since the same run yields both.

    python benchmarks/count_vs_c.py [N ...] [--repeat R]     (default: 15 16)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import FUNDAMENTAL, TOTAL

HERE = Path(__file__).resolve().parent


def compile_c(source: str) -> Path:
    if shutil.which("gcc") is None:
        raise SystemExit("gcc is not installed")
    binary = Path(tempfile.mkdtemp()) / Path(source).stem
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(HERE / source)], check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    mirror_c, classes_c = compile_c("nqueens.c"), compile_c("nqueens_classes.c")
    for n in args.sizes:
        check = last_line_is(TOTAL[n])
        mirror = Side("C mirror-halved, 1 core", [str(mirror_c), str(n)], check)
        classes = Side("C by classes, 1 core", [str(classes_c), str(n)],
                       lambda out, n=n: out.split() == [str(TOTAL[n]), str(FUNDAMENTAL[n])])
        one = Side("count --jobs 1", nqueens("count", str(n), "--method", "walk", "--jobs", "1"), check)
        all_ = Side("count (all cores)", nqueens("count", str(n), "--method", "walk"), check)
        unique = Side("count --unique (all cores)", nqueens("count", str(n), "--method", "walk", "--unique"), last_line_is(FUNDAMENTAL[n]))
        sides = [classes, mirror, one, all_, unique]
        alternate(sides, args.repeat)
        report(f"count {n}: {TOTAL[n]} solutions, {FUNDAMENTAL[n]} fundamental", sides, classes)


if __name__ == "__main__":
    main()
