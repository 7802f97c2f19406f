"""`enumerate N --engine sat` against `clasp -n 0` on our own pairwise DIMACS.

clasp enumerates natively (no blocking clauses) and counts its models (-q);
we add one blocking clause per model through python-sat and print every
solution, checked to be the full set.

    python benchmarks/sat_vs_clasp.py [N] [--repeat R]
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from pathlib import Path

from common import Side, alternate, nqueens, prints_full_set, report

from nqueens_cp.model.cnf import encode
from nqueens_cp.model.dimacs import dimacs_text
from nqueens_cp.known import TOTAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=13)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("clasp") is None:
        raise SystemExit("clasp is not installed (apt-get install clasp)")
    cnf = Path(tempfile.mkdtemp()) / f"nqueens-{args.n}-pairwise.cnf"
    cnf.write_text(dimacs_text(encode(args.n, "pairwise")))
    total = TOTAL[args.n]
    clasp = Side("clasp -n 0 (pairwise CNF)", ["clasp", "-q", "-n", "0", str(cnf)],
                 lambda out: re.search(rf"Models\s*:\s*{total}\b", out) is not None)
    full_set = prints_full_set(args.n)

    command = nqueens("enumerate", str(args.n), "--engine", "sat", "--format", "line")
    ours = Side("enumerate --engine sat", command, full_set)
    ours_sb = Side("... --symmetry-breaking", [*command, "--symmetry-breaking"], full_set)
    alternate([clasp, ours, ours_sb], args.repeat)
    report(f"N={args.n}: every solution, {total}", [clasp, ours, ours_sb], clasp)


if __name__ == "__main__":
    main()
