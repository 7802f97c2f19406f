"""Certified counts: what a certificate costs beside the plain count, step by step.

For plain N = 8 .. 13 and two variants at sizes with thousands of boards
(toroidal N = 13: 4,524; semi-queens N = 11: 37,851), one run each on one
core: ``count N -e sat -j 1`` (the plain count, the reference, one
process), then ``certify`` (the enumeration writing its boards with DRAT
logging on and the proof-breaking inprocessing off) and ``verify`` (the
files and the CNF, the boards through the validator and the model check,
then drat-trim),
with the proof's size and the ratio of certify + verify to the plain count.
Targets: N = 12 within 3x the plain count, N = 14 end to end within 15
minutes (``--sizes 8-14``).  Then certified optima (``--optima 8-12``):
γ(Q_n) and i(Q_n), the witness by bitmask's branch and bound, the proof
that one queen fewer cannot (CaDiCaL), drat-trim; target: γ(Q_12) within 5
minutes.  docs/certificates.md holds one run's tables.

    python benchmarks/certificates.py [--sizes 8-13] [--variants toroidal:13,semiqueens:11] [--optima 8-12]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import nqueens_cp as nq

from paradigms import table


def row(n: int, variant: str, scratch: Path) -> list[str]:
    start = time.perf_counter()
    plain = nq.count(n, "sat", variant=variant, jobs=1)
    plain_s = time.perf_counter() - start
    where = scratch / f"{variant}-{n}"
    made = nq.certify(n, where, variant=variant, jobs=1)  # (split on row 0 from N = 11, as count -j 1 is)
    found = nq.verify(where)
    assert found.certified and found.count == made.count == plain, found.reason
    total = made.seconds + found.seconds
    shutil.rmtree(where)
    return [str(n), variant, f"{plain:,}", f"{plain_s:.2f}", f"{made.seconds:.2f}",
            f"{found.details['boards_s']:.2f}", f"{found.details['drat_trim_s']:.2f}", f"{found.seconds:.2f}",
            f"{made.proof_bytes / 2**20:.1f}", f"{total / plain_s:.1f}x"]


def optimum_row(n: int, variant: str, scratch: Path) -> list[str]:
    where = scratch / f"{variant}-{n}"
    made = nq.certify_optimum(n, where, variant)
    found = nq.verify(where)
    assert found.certified and found.optimum == made.optimum.size, found.reason
    shutil.rmtree(where)
    return [str(n), variant, str(found.optimum), f"{made.optimum.seconds:.2f}",
            f"{made.seconds - made.optimum.seconds:.2f}", f"{found.seconds:.2f}", f"{made.proof_bytes / 2**20:.1f}",
            f"{made.seconds + found.seconds:.1f}"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8-13", help="plain N, a range (default: 8-13)")
    parser.add_argument("--variants", default="toroidal:13,semiqueens:11", help="variant:N pairs")
    parser.add_argument("--optima", default="8-12", help="N of the certified optima, a range ('' for none)")
    args = parser.parse_args()
    low, _, high = args.sizes.partition("-")
    cases = [(n, "queens") for n in range(int(low), int(high or low) + 1)]
    cases += [(int(n), name) for name, n in (pair.split(":") for pair in args.variants.split(",") if pair)]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for n, variant in cases:
            rows.append(row(n, variant, Path(scratch)))
            print(f"  {variant} N={n}: {rows[-1][-1]}", flush=True)
    print()
    print(table(["N", "question", "boards", "count -e sat -j 1 s", "certify s (enumeration with proof logging)",
                 "verify: boards s", "verify: drat-trim s", "verify s", "proof MiB", "certify + verify / count"],
                rows))
    if args.optima:
        low, _, high = args.optima.partition("-")
        optima = []
        with tempfile.TemporaryDirectory() as scratch:
            for n in range(int(low), int(high or low) + 1):
                for variant in ("domination", "independent"):
                    optima.append(optimum_row(n, variant, Path(scratch)))
                    print(f"  {variant} N={n}: {optima[-1][-1]} s", flush=True)
        print()
        print(table(["N", "question", "optimum", "witness s (bitmask)", "proof s (CaDiCaL, one fewer)",
                     "verify s (drat-trim)", "proof MiB", "end to end s"], optima))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
