"""Before and after: `count N` of this tree against another checkout of the
project (an older commit), side by side in one run, for each N.

    git worktree add /tmp/before <commit>
    python benchmarks/versions.py /tmp/before [N ...] [--repeat R]   (default N: 12 .. 18)

Each side runs from its source tree (PYTHONPATH; Python 3.11's -P) in this
interpreter, so this interpreter needs that version's dependencies too
(before the C kernel: llvmlite).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from common import PYTHON, ROOT, Side, alternate, last_line_is, report

from nqueens_cp.known import TOTAL


class At(Side):
    """A side that runs the package of another checkout."""

    where = ROOT

    def run(self) -> None:
        before = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = str(self.where)
        try:
            super().run()
        finally:
            if before is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("sizes", type=int, nargs="*", default=list(range(12, 19)))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for n in args.sizes:
        check = last_line_is(TOTAL[n])
        command = [PYTHON, "-P", "-m", "nqueens_cp", "count", str(n)]  # -P: not the working directory's package
        old, new = At(f"count {n}, {args.before}", command, check), At(f"count {n}, this tree", command, check)
        old.where = args.before.resolve()
        alternate([old, new], args.repeat)
        report(f"count {n} on every core: before and after", [old, new], old)


if __name__ == "__main__":
    main()
