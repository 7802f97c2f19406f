"""Our sat engine enumerating N-queens against `clasp -n 0` on our own pairwise DIMACS.

clasp enumerates natively (no blocking clauses); we add one blocking clause
per model through python-sat.  Both count every solution and are checked.

    python benchmarks/sat_vs_clasp.py [N] [--repeat R] [--jobs J]
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from pathlib import Path

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.cnf import encode
from nqueens_cp.dimacs import dimacs_text
from nqueens_cp.known import TOTAL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, nargs="?", default=13)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engine-args", default="", help="extra arguments for our count command")
    args = parser.parse_args()
    if shutil.which("clasp") is None:
        raise SystemExit("clasp is not installed (apt-get install clasp)")
    cnf = Path(tempfile.mkdtemp()) / f"nqueens-{args.n}-pairwise.cnf"
    cnf.write_text(dimacs_text(encode(args.n, "pairwise")))
    total = TOTAL[args.n]
    clasp = Side("clasp -n 0 (pairwise CNF)", ["clasp", "-q", "-n", "0", str(cnf)],
                 lambda out: re.search(rf"Models\s*:\s*{total}\b", out) is not None)
    ours = Side(f"nqueens-cp count {args.n} --engine sat {args.engine_args}".strip(),
                nqueens("count", str(args.n), "--engine", "sat", *args.engine_args.split()), last_line_is(total))
    alternate([clasp, ours], args.repeat)
    report(f"N={args.n}: every solution counted, {total} each", [clasp, ours], clasp)


if __name__ == "__main__":
    main()
