"""The soaks: what the suite's own run draws from, run whole.

The README's test command leaves out the tests marked ``soak`` (full tables
of every engine against every case, whose rows the suite's run holds
elsewhere or draws) and runs the property tests on a fixed seed.  This runs
both of what it leaves: every test marked ``soak``, then the test files that
read the soak's factor (tests/conftest.py's ``SOAK``) with ``NQUEENS_SOAK=K``:
K times the draws, drawn afresh, and every case of the drawn tables.  Run it
before an issue on the family, symmetry or an engine's answers is resolved.

    python benchmarks/soak.py [--factor K] [--jobs J] [-- PYTEST ARGS]

It prints what it runs, each part's time and its outcome, and exits with
pytest's first non-zero code.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import time

from common import PYTHON, ROOT


def factor_files() -> list[str]:
    """The test files that read the soak's factor (import SOAK from conftest), found in their text."""
    return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests").glob("test_*.py")
                  if re.search(r"^from conftest import [^\n]*\bSOAK\b", path.read_text(), re.M))


def commands(factor: int, jobs: str, extra: list[str]) -> list[tuple[str, list[str]]]:
    pytest = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-n", jobs, *extra]
    return [("the tables marked soak", [*pytest, "-m", "soak"]),
            (f"the draws, {factor} times over", [*pytest, "-m", "not soak", *factor_files()])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factor", type=int, default=10, help="times the property tests' draws (default 10)")
    parser.add_argument("--jobs", default="auto", help="pytest-xdist's processes (default: one a core)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    parser.add_argument("extra", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args()
    if args.factor < 2:
        parser.error("--factor takes 2 or more (1 is the suite's own run)")
    environment = {**os.environ, "NQUEENS_SOAK": str(args.factor)}
    failed = 0
    for what, command in commands(args.factor, args.jobs, args.extra):
        print(f"## {what}: NQUEENS_SOAK={args.factor} python {shlex.join(command[1:])}", flush=True)
        if args.dry_run:
            continue
        start = time.perf_counter()
        code = subprocess.run(command, cwd=ROOT, env=environment).returncode
        print(f"## {what}: exit {code} in {time.perf_counter() - start:.1f} s\n", flush=True)
        failed = failed or code
    return failed


if __name__ == "__main__":
    sys.exit(main())
