"""`enumerate N --engine cpsat` against the canonical OR-Tools model.

Both sides print every solution; the benchmark checks that both print the
identical set (14,200 boards for N = 12) before it reports any time.

    python benchmarks/cpsat_vs_canonical.py [N] [--repeat R]
"""

from __future__ import annotations

import argparse

from common import PYTHON, ROOT, Side, alternate, nqueens, prints_full_set, report

from nqueens_cp.known import TOTAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=12)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n = args.n
    same_set = prints_full_set(n)

    canonical = Side("canonical OR-Tools sample", [PYTHON, str(ROOT / "benchmarks" / "canonical_cpsat.py"), str(n)], same_set)
    ours = Side("enumerate --engine cpsat", nqueens("enumerate", str(n), "--engine", "cpsat", "--format", "line"), same_set)
    ours_sb = Side("... --symmetry-breaking", nqueens("enumerate", str(n), "--engine", "cpsat", "--format", "line",
                                                      "--symmetry-breaking"), same_set)
    sides = [canonical, ours, ours_sb]
    alternate(sides, args.repeat)
    report(f"enumerate {n} (CP-SAT, identical sets of {TOTAL[n]}); ratio > 1 means slower than the canonical model", sides, canonical)
    for side in sides[1:]:
        print(f"  speed-up of {side.name}: {sorted(canonical.times)[len(canonical.times) // 2] / sorted(side.times)[len(side.times) // 2]:.1f}x")


if __name__ == "__main__":
    main()
