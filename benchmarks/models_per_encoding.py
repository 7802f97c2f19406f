"""How many models each encoding's CNF has, against the boards it stands for.

An external enumerator (`clasp -n 0`, `picosat --all`) lists models, not
boards: where an encoding's auxiliary variables are not fixed by the cells,
one board has many models.  pyganak counts both, exactly: all models, and
models projected on the cell variables (the `c p show` line), which is the
number of boards.

    python benchmarks/models_per_encoding.py [N ...]     (default: 6 8)
"""

from __future__ import annotations

import argparse

from nqueens_cp.model.cnf import encode
from nqueens_cp.model.encodings import ENCODINGS
from nqueens_cp.known import TOTAL


def count(n: int, encoding: str, projected: bool) -> int:
    import pyganak

    cnf = encode(n, encoding)
    counter = pyganak.Counter()
    counter.new_vars(cnf.nvars)
    counter.add_clauses(cnf.clauses)
    if projected:
        counter.set_sampling_set(list(range(1, n * n + 1)))
    return int(counter.count())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", type=int, nargs="*", default=[6, 8])
    args = parser.parse_args()
    print(f"{'N':>3} {'encoding':<11} {'boards':>8} {'models':>14} {'models per board':>17}")
    for n in args.sizes:
        for encoding in ENCODINGS:
            boards, models = count(n, encoding, True), count(n, encoding, False)
            assert boards == TOTAL[n], (n, encoding, boards)
            print(f"{n:>3} {encoding:<11} {boards:>8} {models:>14} {models / boards:>17.1f}")


if __name__ == "__main__":
    main()
