"""`count N` against the published quarter-joining counter, side by side.

The counter is Evgeny Kluev's N-Queens-Count-Sol (C++20, GCC 11 or later):
it splits the board into four quarters and joins their partial solutions,
the method our `count` takes from N = 16 (docs/counting.md).  Its README
gives 2 min 53 s for N = 20 and 3 h 51 min for 22 on a four-core CPU of
2013.  Its code is not ours to ship, so the reader gives a checkout of it:

    (a clone of EvgenyKluev/N-Queens-Count-Sol, GitHub, in /tmp/kluev)
    python benchmarks/quarter_counter.py /tmp/kluev [N ...] [--repeat R] [--threads T]
        (default N: 18 19; T: this machine's cores)

The counter takes its board size and tuning from constants in its sources,
so for each N this script copies the checkout into a temporary folder
(removed at the end) and there, as the counter's README says to:

- sets `size` in solcounter.h, and the `cfg` that solcounter.h's own table
  gives for that size (sieveCuts, matchMinSize, bmiIntrin, prefetch);
- turns on BMI2 (bmintrin.h) and the prefetch instruction (prefetch.h)
  where that table does and this machine has them;
- builds it with `g++ -std=c++20 -O3 -march=native main.cpp`.

Then it runs the counter (`nqueens T`, T threads) and `count N` (every
core, its default method) alternately, R rounds, and prints the medians and
the ratio of ours to the counter's.  Each run's total must be A000170's.
The build's time is not counted; the counter's run includes its start, as
ours does.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from common import Side, alternate, last_line_is, nqueens, report

from nqueens_cp.known import TOTAL

# solcounter.h's table, by board size: (sieveCuts, matchMinSize, bmiIntrin, prefetch).  Its
# prefetch at 20 is "*" (either); on at 20 here.  Sizes outside the table take the nearest.
TUNING = {16: (0, 40, False, True), 17: (0, 40, False, True), 18: (0, 40, False, True),
          19: (0, 40, True, True), 20: (3, 60, True, True), 21: (3, 60, True, False),
          22: (6, 80, True, True)}


def cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return set()
    found = re.search(r"^flags\s*:\s*(.*)$", text, re.MULTILINE)
    return set(found.group(1).split()) if found else set()


def replace_once(path: Path, pattern: str, new: str) -> None:
    """Rewrite the one line of ``path`` that ``pattern`` matches; fail loudly where the
    checkout is not the one this script knows (none, or several)."""
    text = path.read_text()
    changed, count = re.subn(pattern, new, text, flags=re.MULTILINE)
    if count != 1:
        raise SystemExit(f"{path.name}: expected one line matching {pattern!r}, found {count}: "
                         "is this a checkout of N-Queens-Count-Sol?")
    path.write_text(changed)


def configure(tree: Path, n: int, flags: set[str]) -> None:
    """Set the counter's board size and its own tuning for ``n`` in the copy at ``tree``."""
    sieve, min_size, bmi, prefetch = TUNING[min(TUNING, key=lambda size: abs(size - n))]
    bmi = bmi and "bmi2" in flags
    prefetch = prefetch and platform.machine() in ("x86_64", "AMD64")  # (prefetchx86.h: x86's intrinsics)
    header = tree / "solcounter.h"
    replace_once(header, r"^inline constexpr int size = \d+;", f"inline constexpr int size = {n};")
    replace_once(header, r"^(\s*\.sieveCuts = )\d+,", rf"\g<1>{sieve},")
    replace_once(header, r"^(\s*\.matchMinSize = )\d+,", rf"\g<1>{min_size},")
    replace_once(header, r"^(\s*\.bmiIntrin = )(true|false),", rf"\g<1>{str(bmi).lower()},")
    replace_once(header, r"^(\s*\.prefetch = )(true|false),", rf"\g<1>{str(prefetch).lower()},")
    if bmi:
        replace_once(tree / "bmintrin.h", r'^//\s*(#include "bmi2.h")', r"\g<1>")
    if prefetch:
        replace_once(tree / "prefetch.h", r'^//\s*(#include "prefetchx86.h")', r"\g<1>")


def build(checkout: Path, n: int, flags: set[str], scratch: Path) -> Path:
    compiler = shutil.which("g++")
    if compiler is None:
        raise SystemExit("g++ is not installed (the counter needs GCC 11 or later)")
    tree = scratch / f"counter-{n}"
    shutil.copytree(checkout, tree, ignore=shutil.ignore_patterns(".git", "build"))
    configure(tree, n, flags)
    binary = tree / "nqueens"
    built = subprocess.run([compiler, "-std=c++20", "-O3", "-march=native", "-o", str(binary), "main.cpp"],
                           cwd=tree, capture_output=True, text=True)
    if built.returncode != 0:
        raise SystemExit(f"the counter did not build for N = {n}:\n{built.stderr[-2000:]}")
    return binary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkout", type=Path, help="a checkout of N-Queens-Count-Sol")
    parser.add_argument("sizes", type=int, nargs="*", default=[18, 19])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="the counter's threads (default: this machine's cores, as `count` uses)")
    args = parser.parse_args()
    if not (args.checkout / "solcounter.h").is_file():
        raise SystemExit(f"{args.checkout}: no solcounter.h: give a checkout of N-Queens-Count-Sol")
    flags = cpu_flags()
    unknown = [n for n in args.sizes if n not in TOTAL]
    if unknown:
        raise SystemExit(f"N = {unknown[0]}: no published total to check the runs against")
    with tempfile.TemporaryDirectory(prefix="quarter-counter-") as scratch:  # (the builds, removed at the end)
        for n in args.sizes:
            binary = build(args.checkout, n, flags, Path(scratch))
            counter = Side(f"quarter counter, {args.threads} threads", [str(binary), str(args.threads)],
                           lambda out, n=n: f"Result: {TOTAL[n]}" in out.splitlines())
            ours = Side("count (all cores)", nqueens("count", str(n)), last_line_is(TOTAL[n]))
            alternate([counter, ours], args.repeat)
            report(f"count {n}: {TOTAL[n]} solutions", [counter, ours], counter)


if __name__ == "__main__":
    main()
