"""The compiled search (nqueens_cp/kernel/search.c) against its plain-Python
twin (kernel/twin.py, what runs where the module was not built), both on one
core: `count N --jobs 1`, the twin forced with NQUEENS_CP_KERNEL=python.

    python benchmarks/kernel_vs_twin.py [N] [--repeat R]     (default: 12)
"""

from __future__ import annotations

import argparse
import os

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import TOTAL


class Twin(Side):
    def run(self) -> None:
        os.environ["NQUEENS_CP_KERNEL"] = "python"
        try:
            super().run()
        finally:
            del os.environ["NQUEENS_CP_KERNEL"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=12)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    check = last_line_is(TOTAL[args.n])
    compiled = Side("compiled search, 1 core", nqueens("count", str(args.n), "--method", "walk", "--jobs", "1"), check)
    twin = Twin("Python twin, 1 core", nqueens("count", str(args.n), "--method", "walk", "--jobs", "1"), check)
    alternate([compiled, twin], args.repeat)
    report(f"count {args.n}, one core", [compiled, twin], compiled)


if __name__ == "__main__":
    main()
