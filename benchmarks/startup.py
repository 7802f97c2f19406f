"""Target 5: start-up.  `enumerate 8 --engine bitmask` and `enumerate 8` (the
default engine), whole process wall time, median of many runs.

    python benchmarks/startup.py [--repeat R]
"""

from __future__ import annotations

import argparse

from common import PYTHON, Side, alternate, nqueens, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()

    def ninety_two(out: str) -> bool:
        return out.splitlines()[-1].startswith("92 solutions for N=8")

    bare = Side("python -c pass (interpreter alone)", [PYTHON, "-c", "pass"], lambda out: True)
    bitmask = Side("enumerate 8 --engine bitmask", nqueens("enumerate", "8", "--engine", "bitmask"), ninety_two)
    default = Side("enumerate 8 (default engine)", nqueens("enumerate", "8"), ninety_two)
    cpsat = Side("enumerate 8 --engine cpsat", nqueens("enumerate", "8", "--engine", "cpsat"), ninety_two)
    sides = [bare, bitmask, default, cpsat]
    alternate(sides, args.repeat)
    report("start-up: targets 0.2 s (bitmask) and 0.5 s (default engine)", sides, bare)


if __name__ == "__main__":
    main()
