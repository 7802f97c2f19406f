"""A local Dask cluster against the local process pool, on the same machine:
`count N --scheduler local:W` against `count N --jobs W`, for W = 1 and 2
(the cluster's start-up is in its time, as a user pays it).

    python benchmarks/cluster_vs_pool.py [N] [--repeat R]     (default: 16)
"""

from __future__ import annotations

import argparse

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import TOTAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=16)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    check = last_line_is(TOTAL[args.n])
    sides = []
    for workers in (1, 2):
        sides.append(Side(f"pool, {workers} process(es)", nqueens("count", str(args.n), "--jobs", str(workers)), check))
        sides.append(Side(f"Dask local:{workers}", nqueens("count", str(args.n), "--scheduler", f"local:{workers}"), check))
    alternate(sides, args.repeat)
    report(f"count {args.n}: Dask cluster against the process pool", sides, sides[2])


if __name__ == "__main__":
    main()
