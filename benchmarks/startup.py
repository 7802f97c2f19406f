"""Start-up: `enumerate 8` with the bitmask and the default engine, and
`count 12`, whole process wall time, medians of many runs, beside the bare
interpreter.  (The compiled search is built at install: nothing is compiled
or cached at run time.)

    python benchmarks/startup.py [--repeat R]
"""

from __future__ import annotations

import argparse

from common import PYTHON, Side, alternate, last_line_is, nqueens, report


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
    count = Side("count 12", nqueens("count", "12"), last_line_is(14200))
    sides = [bare, bitmask, default, cpsat, count]
    alternate(sides, args.repeat)
    report("start-up: enumerate 8 under 0.1 s, count 12 under 0.3 s", sides, bare)


if __name__ == "__main__":
    main()
