"""Target 1: `count N --engine bitmask` against a plain C bitmask backtracker.

The C side (benchmarks/nqueens.c) uses mirror halving of the first row, is
compiled here with gcc -O2 and runs on one core.  Ours runs with --jobs 1
(the compiled loop on one core) and with the default --jobs (every core).

    python benchmarks/count_vs_c.py [N ...] [--repeat R]     (default: 15 16)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import TOTAL

HERE = Path(__file__).resolve().parent


def compile_c() -> Path:
    if shutil.which("gcc") is None:
        raise SystemExit("gcc is not installed")
    binary = Path(tempfile.mkdtemp()) / "nqueens"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(HERE / "nqueens.c")], check=True)
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    binary = compile_c()
    for n in args.sizes:
        check = last_line_is(TOTAL[n])
        c = Side("C, gcc -O2, 1 core", [str(binary), str(n)], check)
        one = Side("bitmask --jobs 1", nqueens("count", str(n), "--engine", "bitmask", "--jobs", "1"), check)
        all_ = Side("bitmask (all cores)", nqueens("count", str(n), "--engine", "bitmask"), check)
        alternate([c, one, all_], args.repeat)
        report(f"count {n}: {TOTAL[n]} solutions", [c, one, all_], c)


if __name__ == "__main__":
    main()
