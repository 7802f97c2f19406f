"""Target 5: start-up.  `enumerate 8 --engine bitmask` and `enumerate 8` (the
default engine), whole process wall time, median of many runs; and `count 12
--jobs 1`, whose compiled loop is compiled (NQUEENS_CP_CACHE=0) or read from
a warm cache.

    python benchmarks/startup.py [--repeat R]
"""

from __future__ import annotations

import argparse
import os
import tempfile

from common import PYTHON, Side, alternate, last_line_is, nqueens, report


class WithCache(Side):
    """A side run with NQUEENS_CP_CACHE set to ``cache``."""

    cache = "0"

    def run(self) -> None:
        before = os.environ.get("NQUEENS_CP_CACHE")
        os.environ["NQUEENS_CP_CACHE"] = self.cache
        try:
            super().run()
        finally:
            if before is None:
                del os.environ["NQUEENS_CP_CACHE"]
            else:
                os.environ["NQUEENS_CP_CACHE"] = before


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
    compiling = WithCache("count 12 --jobs 1, compiling", nqueens("count", "12", "--jobs", "1"), last_line_is(14200))
    cached = WithCache("count 12 --jobs 1, cache warm", nqueens("count", "12", "--jobs", "1"), last_line_is(14200))
    cached.cache = tempfile.mkdtemp(prefix="nqueens_cp-cache-")
    cached.run()  # warms it
    cached.times.clear()
    sides = [bare, bitmask, default, cpsat, compiling, cached]
    alternate(sides, args.repeat)
    report("start-up: targets 0.2 s (bitmask) and 0.5 s (default engine)", sides, bare)


if __name__ == "__main__":
    main()
