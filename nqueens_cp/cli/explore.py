"""The command line, trace and sample: the search step by step, and uniformly random solutions."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import Any

from ..model.board import Solution

from .options import (PROG, RESULT_FORMATS, SOLUTION_FORMATS, add_format, add_n, add_place, fixed_placements, positive_int,
                      json_text, whole)
from .terminal import EXIT_OK, CtrlC, Progress, check_board, emit, say, solutions_word, summarize


def add_trace(sub: Any) -> None:
    p = sub.add_parser(
        "trace", help="tell the textbook search step by step, or draw its tree",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Tell the textbook backtracking search of N-queens as the tutorials tell it: place row r at\n"
        "column c; column c attacked by the queen in row i (column, diagonal or anti-diagonal); row r has\n"
        "no free column, back to row r-1; solution k.  The 'place' steps are the search tree's nodes, the\n"
        "engines' nodes statistic.  --plot draws the tree (N <= 8) as SVG: solutions green, dead ends red.",
        epilog="examples:\n  nqueens-cp trace 4\n  nqueens-cp trace 8 --limit 40 --format json\n"
        "  nqueens-cp trace 5 --plot tree.svg",
    )
    add_n(p)
    add_place(p, blocks=False)  # (the textbook search has no blocked squares)
    p.add_argument("--limit", "-k", type=positive_int, metavar="STEPS", help="stop after STEPS events")
    add_format(p, RESULT_FORMATS)
    p.add_argument("--plot", metavar="FILE.svg", help="draw the search tree as SVG instead (N <= 8)")
    p.set_defaults(handler=_cmd_trace)


def add_sample(sub: Any) -> None:
    p = sub.add_parser(
        "sample", help="draw solutions uniformly at random, without listing them all",
        description="Draw K solutions, each independently and exactly uniformly among all solutions (that "
        "keep the pre-placed queens): row by row, a column is taken with probability proportional to the "
        "number of solutions below it, counted by the compiled loop.  N <= 16.",
        epilog="Example: nqueens-cp sample 12 -k 3 --seed 7 --format line",
    )
    add_n(p)
    p.add_argument("-k", type=positive_int, default=1, metavar="K", help="how many solutions (default: 1)")
    p.add_argument("--seed", type=whole, metavar="S", help="random seed, for reproducible draws")
    add_place(p)
    add_format(p, SOLUTION_FORMATS)
    p.set_defaults(handler=_cmd_sample)


def _cmd_trace(args: argparse.Namespace) -> int:
    from ..studies.trace import trace, tree, tree_svg

    fixed = fixed_placements(args)
    if args.plot:
        from ..files import atomic_write_text
        from ..studies.reporting import check_outputs

        check_outputs(svg=args.plot)
        atomic_write_text(args.plot, tree_svg(tree(args.n, fixed), args.n))
        say(f"wrote {args.plot}")
        return EXIT_OK
    places = 0
    for event in trace(args.n, fixed, args.limit):
        places += event.kind == "place"
        CtrlC.write(sys.stdout, (json_text(event) if args.format == "json" else event.text()) + "\n")
    sys.stdout.flush()
    say(f"{places} placements (nodes) in {'the first ' + str(args.limit) + ' steps' if args.limit else 'the whole search'}")
    return EXIT_OK


def _cmd_sample(args: argparse.Namespace) -> int:
    from ..counting.sample import advice, sample

    drawn = sample(args.n, args.k, args.seed, fixed_placements(args))  # (its own refusals first)
    check_board(args.format, args.n)
    notes = advice(args.n, args.k)
    for note in notes:
        say(f"{PROG}: note: {note}")
    progress = Progress.make("sample") if notes else None  # (long work: what is being drawn, on a terminal)
    count = emit(_shown(drawn, args.k, progress) if progress else drawn, args.format, args.n)
    summarize(args.format, f"{solutions_word(count)} for N={args.n}, drawn uniformly"
              + (f" (seed {args.seed})" if args.seed is not None else ""))
    return EXIT_OK


def _shown(drawn: Iterator[Solution], k: int, progress: Progress) -> Iterator[Solution]:
    """The draws, with "drawing i of k" on the terminal while each is counted."""
    start = time.monotonic()
    for i in range(1, k + 1):
        progress.text(f"sample: drawing board {i} of {k}, {time.monotonic() - start:.0f} s")
        board = next(drawn, None)
        progress.clear()
        if board is None:
            return
        yield board


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_trace(sub)
    add_sample(sub)
