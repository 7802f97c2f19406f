"""The command line, export: one question of the family written as a model for another system
(MiniZinc, clingo, SMT-LIB, OPB, XCSP3; DIMACS is ``dimacs``'s, in cnf.py)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import InvalidInputError
from .options import add_n_or_file, add_place, problem
from .terminal import EXIT_OK, CtrlC, say


def add_export(sub: Any) -> None:
    from ..model.formats import FORMATS
    from ..model.variants import VARIANTS

    p = sub.add_parser(
        "export", aliases=["model"],
        help="write the N-queens model for MiniZinc, clingo, SMT, pseudo-Boolean or XCSP3 solvers",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write one N-queens question (N, pre-placed queens, blocked squares) as a model file that\n"
        "another system reads, streamed: memory stays small for any N.  Rows and columns are 0-based\n"
        "everywhere; the same arguments always give the same bytes.  (Up to 0.2 this command was\n"
        "called model, a name it still answers to.)  Formats:\n\n"
        + "".join(f"  {name:<5} {suffix:<6} {what}\n" for name, (suffix, what) in FORMATS.items()),
        epilog="examples:\n"
        "  nqueens-cp export 8 -o q8.mzn && nqueens-cp export 8 -o q8.dzn && minizinc --solver gecode -a q8.mzn q8.dzn\n"
        "  nqueens-cp export 8 -f lp | clingo 0 -          (92 answer sets)\n"
        "  nqueens-cp export 8 -o q8.smt2 && z3 q8.smt2\n"
        "  nqueens-cp export 8 -o q8.opb && clasp -n 0 q8.opb\n"
        "  nqueens-cp export 10 --place 0:1 --block 2:2 -o q.xml     (pre-placed queens, blocked squares)\n"
        "  nqueens-cp export 7 --variant toroidal -f lp | clingo 0 -   (28 answer sets)\n"
        "  nqueens-cp export 8 --variant domination -o d8.opb   (minimise: 5 queens; -f cnf writes WCNF)",
    )
    add_n_or_file(p)
    p.add_argument("--variant", "-V", default="queens", choices=tuple(VARIANTS), metavar="NAME",
                   help=f"the question: one of {', '.join(VARIANTS)} (default: queens; see enumerate --help and "
                   "optimum --help)")
    add_place(p)
    p.add_argument("--format", "-f", choices=tuple(FORMATS), metavar="FORMAT",
                   help=f"one of {', '.join(FORMATS)} (default: the one -o's suffix names)")
    p.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="write here, atomically (a temporary file, then a rename; through a symlink, where it "
                   "points); '-' or absent: stdout, which needs --format")
    p.set_defaults(handler=_cmd_export)


def _cmd_export(args: argparse.Namespace) -> int:
    from ..files import check_not_input, check_writable
    from ..model.formats import save, write

    from ..model.variants import get

    source = args.n if isinstance(args.n, str) else None  # (an instance file: problem() reads N from it)
    _, placed, _ = problem(args)
    variant = get(args.variant)
    if args.output == "-":
        if args.format is None:
            raise InvalidInputError("writing to stdout needs --format (or give -o FILE with a known suffix)")
        for piece in write(args.format, args.n, placed, variant):
            CtrlC.write(sys.stdout, piece)
        return EXIT_OK
    check_writable(args.output)
    check_not_input(args.output, source)
    written = save(args.output, args.format, args.n, placed, variant)
    say(f"wrote {args.output}: N={args.n}, {written}")
    return EXIT_OK


def add(sub: Any) -> None:
    """The command of this module, onto the main parser's subcommands."""
    add_export(sub)
