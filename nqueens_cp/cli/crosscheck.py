"""The command line, crosscheck: the engines' exact solution sets compared, N by N."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engines import names
from ..engines import presets_help
from .options import (PROG, RESULT_FORMATS, add_engine_options, add_format, add_jobs, add_variant, engine_options,
                      json_text, name_list, positive_float, question_keywords, sizes)
from .terminal import EXIT_FAILURE, EXIT_OK, CtrlC, Progress, say


def add_crosscheck(sub: Any) -> None:
    p = sub.add_parser(
        "crosscheck", help="compare engines' exact solution sets and the published totals",
        description="For each N, run every engine, validate every solution, and compare the exact "
        "solution sets with each other (the first engine is the reference) and the counts with "
        "the published totals (OEIS A000170).  The 'unique' column counts the reference's fundamental "
        "solutions, checked against OEIS A002562, and their orbits must give back the full set.  "
        "Exit 1 on any disagreement.",
        epilog="Example: nqueens-cp crosscheck 1-10 12",
    )
    p.add_argument("specs", nargs="+", type=sizes, metavar="SPEC", help="N, a range 1-10, or a stepped range 4-12/2")
    p.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help=f"engines to compare, in order, or presets among them: {presets_help()}; default: the core preset")
    add_engine_options(p, names(enumerates=True))
    add_variant(p)
    add_jobs(p)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds in all: exit 3, the N checked by then printed")
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_crosscheck)


def _cmd_crosscheck(args: argparse.Namespace) -> int:
    from ..studies.crosscheck import crosscheck

    from ..studies.reporting import crosscheck_row

    text = args.format == "text"
    progress = Progress.make("crosscheck") if text else None
    first = [True]

    def row_done(row: Any) -> None:  # each N as soon as it is checked
        if progress:
            progress.clear()
        CtrlC.write(sys.stdout, crosscheck_row(row, header=first[0]) + "\n")
        sys.stdout.flush()
        first[0] = False

    report = crosscheck([n for spec in args.specs for n in spec], args.engines, jobs=args.jobs,
                        progress=progress.text if progress else None, rows=row_done if text else None,
                        notify=lambda note: say(f"{PROG}: note: {note}"), time_limit=args.time_limit,
                        **question_keywords(args), **engine_options(args))
    if progress:
        progress.clear()
    for name, reason in report.skipped.items():
        say(f"{PROG} crosscheck: skipped engine {name}: {reason}")
    if not text:
        CtrlC.write(sys.stdout, json_text(report) + "\n")
    for problem in report.problems:
        say(f"{PROG} crosscheck: {problem}")
    if not report.ok:
        return EXIT_FAILURE
    if text:
        checked = ", ".join(str(row.n) for row in report.rows)
        say(f"all {len(report.engines)} engines agree on every N ({checked})")
    return EXIT_OK


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_crosscheck(sub)
