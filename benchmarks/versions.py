"""Before and after: `count N` of this tree against another checkout of the
project (an older commit), side by side in one run, for each N.

    git worktree add /tmp/before <commit>
    python benchmarks/versions.py /tmp/before [N ...] [--repeat R] [--walk] [--method M]
        (default N: 12 .. 18)

--walk times queens.h's `walk` instead (what `enumerate` and the GPU run),
one whole board on one core through kernel.Walk, counting its solutions.
`count N` is the walk by symmetry classes on both sides by default: `--method
walk` where a checkout has it (from N = 16 the default joins quarters);
`--method auto` gives each side's own default, `--method quarters` the join
(both sides must have it).

Each side runs from its source tree (PYTHONPATH; Python 3.11's -P) in this
interpreter, so this interpreter needs that version's dependencies too
(before the C kernel: llvmlite).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from common import PYTHON, ROOT, Side, alternate, bytecode, last_line_is, report

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
    parser.add_argument("--walk", action="store_true", help="time the walk of one board, not `count N`")
    parser.add_argument("--method", choices=("walk", "auto", "quarters"), default="walk",
                        help="how `count N` counts on both sides (default walk)")
    args = parser.parse_args()
    bytecode(args.before)  # (as this tree's: else each of its runs compiled the package, 0.17 s a count here)
    for n in args.sizes:
        check = last_line_is(TOTAL[n])
        # -P: not the working directory's package
        if args.walk:
            what, title = f"walk {n}", f"walk of the {n} x {n} board, one core: before and after"
            command = [PYTHON, "-P", "-c", f"from nqueens_cp import kernel; w = kernel.Walk({n}, [{(1 << n) - 1}] * {n}); "
                       "w.advance(); print(w.found)"]
        else:
            what, title = f"count {n}", f"count {n} on every core: before and after"
            command = [PYTHON, "-P", "-m", "nqueens_cp", "count", str(n)]
        methods = (["--method", args.method] if (tree / "nqueens_cp/counting/join.py").exists() and
                   args.method != "auto" else [] for tree in (args.before, ROOT))
        old, new = (At(f"{what}, {where}", command + (method if not args.walk else []), check)
                    for where, method in zip((args.before, "this tree"), methods))
        old.where = args.before.resolve()
        alternate([old, new], args.repeat)
        report(title, [old, new], old)


if __name__ == "__main__":
    main()
