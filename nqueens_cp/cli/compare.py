"""The command line, compare: engines timed side by side, each in a fresh process."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..engines import presets_help
from .options import (PROG, add_outputs, add_variant, name_list, plot_look, positive_float, positive_int, sizes,
                      table_to_stdout, write_files)
from .terminal import EXIT_FAILURE, EXIT_OK, CtrlC, Progress, say


def add_compare(sub: Any) -> None:
    from ..studies.compare import SB, labels

    p = sub.add_parser(
        "compare", help="time every engine side by side, each in a fresh process",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="For every N and engine, enumerate every solution (or, with --first, find one) in a\n"
        "fresh Python process, R times, and print the medians in an aligned table.  With\n"
        "--variant, the same for another question of the family; for domination and\n"
        "independent, the time to prove the optimum (count is the optimum).\n\n"
        "  count, agrees   the count, checked against the other engines and OEIS A000170\n"
        "                  (or the variant's own sequence)\n"
        "  wall            the whole process\n"
        "  startup         the interpreter and nqueens_cp itself\n"
        "  import          the engine's solver package (OR-Tools, python-sat)\n"
        "  search          building the model and searching\n"
        "  sol/s           solutions per second of search\n"
        "  then each chosen engine's measure of its work ('nqueens-cp engines -f json': its effort):\n"
        "  nodes           the backtrackers: queens placed (each counts its own way)\n"
        "  conflicts       cpsat, sat, asp, smt: from the solver's own statistics\n"
        "  steps           minconflicts: moves made\n"
        "  --csv and --json hold every statistic each engine reports (branches, decisions,\n"
        "  propagations, tries, the model's variables and constraints, ...)",
        epilog=f"engines: {', '.join(labels())}; ENGINE{SB} adds symmetry breaking.\n"
        "examples:\n"
        "  nqueens-cp compare 4-12 --repeat 3 --csv compare.csv --plot compare.png\n"
        "  nqueens-cp compare 8-11 --engines cpsat,cpsat+sb,sat,sat+sb\n"
        "  nqueens-cp compare 10 20 50 --first --time-limit 10\n"
        "  nqueens-cp compare 5-11 --variant toroidal\n"
        "  nqueens-cp compare 6-12 --variant domination --time-limit 10",
    )
    p.add_argument("specs", nargs="+", type=sizes, metavar="SPEC", help="N, a range 4-12, or a stepped range 4-12/2")
    p.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help=f"engines to time, in order, or presets among them: {presets_help()}; default: every available core engine that can answer")
    p.add_argument("--symmetry-breaking", action="store_true",
                   help=f"also time ENGINE{SB} beside every engine that has symmetry breaking")
    p.add_argument("--repeat", "-r", type=positive_int, default=1, metavar="R",
                   help="fresh processes per measurement; the table shows medians (default: 1)")
    p.add_argument("--first", action="store_true", help="time the first solution instead of all of them")
    add_variant(p, both=True)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop a measurement SEC seconds after its fresh process starts work (the engine's "
                   "imports and search; not Python's start-up) and report it as a timeout (an optimum: "
                   "as not proved, with the best found)")
    add_outputs(p, times=True)
    p.set_defaults(handler=_cmd_compare)


def _cmd_compare(args: argparse.Namespace) -> int:
    from ..studies.compare import COLUMNS, advice, compare_rows, default_labels, expand, problems, \
        with_symmetry_breaking
    from ..studies.figures import compare_plot
    from ..studies.reporting import check_outputs, compare_stream

    look = plot_look(args)
    check_outputs(args.csv, args.json, args.plot)  # before the long part, not after it
    table = table_to_stdout(args)
    chosen = with_symmetry_breaking(expand(args.engines, args.first, args.variant), args.symmetry_breaking) \
        if args.engines else default_labels(args.first, args.symmetry_breaking, args.variant)
    sizes = sorted({n for spec in args.specs for n in spec})
    progress = Progress.make("compare")
    measured = compare_rows(sizes, chosen, args.repeat, args.first, args.time_limit,
                            progress.text if progress else None, args.variant)  # (checked: nothing measured yet)
    for note in advice(sizes, chosen, args.repeat):
        say(f"{PROG}: note: {note}")
    header, line = compare_stream(chosen)
    rows = []
    for row in measured:  # each row printed as it is measured
        rows.append(row)
        if progress:
            progress.clear()
        if table:
            if len(rows) == 1:
                CtrlC.write(sys.stdout, header + "\n")
            CtrlC.write(sys.stdout, line(row) + "\n")
            sys.stdout.flush()
    if progress:
        progress.clear()
    write_files(args, rows, COLUMNS, lambda path: compare_plot(rows, path, args.first, args.variant, **look))
    for problem in problems(rows):
        say(f"{PROG} compare: {problem}")
    return EXIT_FAILURE if problems(rows) else EXIT_OK


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_compare(sub)
