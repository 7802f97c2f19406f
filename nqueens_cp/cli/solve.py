"""The command line, solve, complete and batch: one solution under constraints, instances and their benchmarks."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engines import DEFAULT_SOLVE_ENGINE, engine_class, names
from .options import (PROG, SOLUTION_FORMATS, add_engine_options, add_format, add_n, add_n_or_file,
                      add_outputs, add_place, add_variant, engine_options, name_list, plot_look, positive_float,
                      positive_int, problem, question_keywords, sizes, stats_line, json_text, table_to_stdout, whole,
                      write_files)
from .terminal import (EXIT_FAILURE, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, CtrlC, Progress, check_board, say,
                       stream_values, summarize, write_solution)


def add_solve(sub: Any) -> None:
    lines = "\n".join(f"  {name:<13} {engine_class(name).summary}" for name in names(solves=True))
    p = sub.add_parser(
        "solve", help="find one solution, optionally with queens already placed",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Find one solution of N-queens that keeps every pre-placed queen (the N-Queens\n"
        "Completion problem, NP-complete) and leaves every blocked square empty, or prove that none\n"
        "exists.  Every printed solution is validated.  Instead of N, give an instance file of CSPLib\n"
        "problem 079: 'letting n = ...' / 'letting init = [[r, c], ...]' (completion) or 'n = ...' /\n"
        "'diags = [[k, type], ...]' (Excluded Diagonals, with --diagonals D: the first D are used).",
        epilog=f"""\
engines:
{lines}

exit codes:
  {EXIT_OK}  a solution was found (and printed)
  {EXIT_FAILURE}  proven: no solution exists (pre-placed queens that attack each other included);
     or an instance file that is missing, unreadable, malformed or truncated (with its line)
  {EXIT_USAGE}  usage error: a placement off the board, two queens in a row, bad --place text, ...
  {EXIT_UNKNOWN}  unknown: the time limit (or local search's step budget) ran out first

examples:
  nqueens-cp solve 80 --place 0:3,5:17 --format line
  nqueens-cp solve 8 --place 0:0 --place 1:1 --engine backtrack     (none: exit 1)
  nqueens-cp solve 12 --block 0:0,5:5 --block-diagonal r+c=11
  nqueens-cp solve tests/data/prob079/diag-14-4-416.param --diagonals 12 --engine bitmask
  nqueens-cp solve 1000 --engine minconflicts --seed 7 -f json""",
    )
    add_n_or_file(p)
    chosen = names(solves=True)
    p.add_argument("--engine", "-e", choices=chosen, metavar="E",
                   help=f"one of {', '.join(chosen)} (default: by N: {DEFAULT_SOLVE_ENGINE} up to N=100, the fastest on "
                   "completion questions, proves 'none'; beyond, for plain N, bitmask's decision search up to "
                   "N=10,000, then construct, or minconflicts with pre-placed queens; another question of the family: its "
                   "construction or local search; a note says which)")
    add_engine_options(p, names(solves=True), solving=True)
    add_variant(p)
    add_place(p)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC", help="give up after SEC seconds: 'unknown', exit 3")
    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help="engines that split their search (bitmask), from N=12: split it into the sub-boards of "
                   "the first two open rows, run on J worker processes (default: 1, no split); the answer is the "
                   "first sub-board's with a board, the same for any J (not the board of the unsplit search)")
    p.add_argument("--scheduler", metavar="ADDRESS", dest="executor",
                   help="run those sub-boards on a Dask cluster (see count --help)")
    add_format(p, SOLUTION_FORMATS + ("summary",),
               extra="; summary: one line, the answer and its numbers, and no board (a validated board of "
               "millions of queens, without writing it)")
    p.add_argument("--stats", action="store_true", help="print the engine's statistics on stderr")
    p.set_defaults(handler=_cmd_solve)


def add_complete(sub: Any) -> None:
    p = sub.add_parser("complete", help="N-Queens Completion and Excluded Diagonals instances, and the benchmark",
                       description="Generate N-Queens Completion or Excluded Diagonals instances, or run every "
                       "engine on many completion instances.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    g = actions.add_parser(
        "generate", help="write an instance: N and K random non-attacking pre-placed queens",
        description="Write an N-Queens Completion instance as JSON: "
        '{"problem": "n-queens-completion", "n": N, "seed": S, "placed": [[row, col], ...], "place": "r:c,..."}. '
        "The same N, K and seed always give the same instance; it may or may not have a completion.",
    )
    add_n(g)
    g.add_argument("k", type=whole, metavar="K", help="queens to pre-place, 0..N")
    g.add_argument("--seed", type=whole, default=0, metavar="S", help="random seed (default: 0)")
    g.add_argument("-o", "--output", default="-", metavar="FILE", help="write here, atomically; '-' or absent: stdout")
    g.set_defaults(handler=_cmd_complete_generate)
    d = actions.add_parser(
        "diagonals", help="write an Excluded Diagonals instance file (CSPLib prob079), by its authors' rules",
        description="Write an Excluded Diagonals instance in the published file format ('n = ...',\n"
        "'numdiags = ...', 'diags = [[k, type], ...]'), by the rules of the authors' generator\n"
        "(queens-diag-gen.py N MININFILE SEED): the same N, M and seed give the same file as their\n"
        "script.  An instance is the file plus D, the number of its diagonals used: solve FILE -D D.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example: nqueens-cp complete diagonals 20 --seed 17 -o diag-20-4-17.param && "
        "nqueens-cp solve diag-20-4-17.param -D 28 -e bitmask",
    )
    add_n(d)
    d.add_argument("--min-in-file", "-m", type=whole, default=4, metavar="M",
                   help="a diagonal is skipped if it would leave a row or column with M or fewer open squares "
                   "(default: 4, the published sample's)")
    d.add_argument("--seed", type=whole, default=0, metavar="S", help="random seed (default: 0)")
    d.add_argument("-o", "--output", default="-", metavar="FILE", help="write here, atomically; '-' or absent: stdout")
    d.set_defaults(handler=_cmd_complete_diagonals)
    takes_fixed = names(takes_fixed=True, group="core")  # (what bench_engines runs when available)
    b = actions.add_parser(
        "bench", help="run every engine on generated instances",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="For every N, generate M instances (seeds S, S+1, ...) with K pre-placed queens and solve\n"
        "each with every engine under a time limit.  One row per N and engine: solved, proven-none and\n"
        "unknown counts, median and worst time, and the median effort (each engine's own measure of\n"
        "work).  Exit 1 if complete engines disagree on whether an instance has a completion.",
        epilog="example: nqueens-cp complete bench 20-100/20 --placed 0.4 --instances 5 --time-limit 5 --plot c.png",
    )
    b.add_argument("specs", nargs="+", type=sizes, metavar="SPEC", help="N, a range 20-100, or a stepped range 20-100/20")
    b.add_argument("--placed", required=True, metavar="K|FRACTION",
                   help="pre-placed queens: a count in whole digits (30), or a fraction of N from 0 to 1 (0.4, 1.0)")
    b.add_argument("--instances", "-m", type=positive_int, default=5, metavar="M", help="instances per N (default: 5)")
    b.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help=f"default: every available one of {', '.join(takes_fixed)}")
    b.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SEC", help="per engine and instance (default: 10)")
    b.add_argument("--seed", type=whole, default=0, metavar="S", help="seed of the first instance (default: 0)")
    add_outputs(b)
    b.set_defaults(handler=_cmd_complete_bench)


def add_batch(sub: Any) -> None:
    takes_fixed = names(takes_fixed=True, group="core")
    p = sub.add_parser(
        "batch", help="run engines over CSPLib prob079 instance files, checked against each other",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Solve every instance file (completion or Excluded Diagonals, see 'solve --help') with\n"
        "every engine under a time limit, in this process, one after the other.  Prints one line per\n"
        "instance (each engine's answer and time) and a summary per engine (median and worst time).\n"
        "Excluded Diagonals files need D: --diagonals D for all, or --answers TSV, a table of\n"
        "'file<TAB>D<TAB>1|0[<TAB>nodes]' lines (the published answers), which also checks every\n"
        "answer.  Exit 1 if complete engines disagree or an answer contradicts the published one.",
        epilog="examples:\n"
        "  nqueens-cp batch tests/data/prob079 --answers tests/data/prob079/answers.tsv --engines bitmask,cpsat,sat\n"
        "  nqueens-cp batch 'tests/data/prob079/diag-14-*.param' --diagonals 12 --engines bitmask,sat --csv r.csv",
    )
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="instance files, directories (their *.param files) or glob patterns")
    p.add_argument("--diagonals", "-D", type=whole, metavar="D", help="the D of every Excluded Diagonals file")
    p.add_argument("--answers", metavar="TSV", help="each file's D and published answer (checked)")
    p.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help=f"default: every available one of {', '.join(takes_fixed)}")
    p.add_argument("--time-limit", type=positive_float, default=60.0, metavar="SEC",
                   help="per engine and instance (default: 60)")
    p.add_argument("--format", "-f", choices=("table", "csv", "json"), default="table",
                   help="stdout: the table (default), or every row as CSV or JSON")
    add_outputs(p)
    p.set_defaults(handler=_cmd_batch)


def _cmd_solve(args: argparse.Namespace) -> int:
    from ..engines import Status
    from ..execution.run import solve

    n, position, instance = problem(args)
    check_board(args.format, n)
    outcome = solve(n, args.engine, position, time_limit=args.time_limit, jobs=args.jobs, executor=args.executor,
                    notify=lambda note: say(f"{PROG}: note: {note}"), **question_keywords(args),
                    **engine_options(args))
    blocked = f", {len(position.blocked)} blocked squares" if position.blocked else ""
    source = f"{instance.name}: " if instance else ""
    where = f"{source}N={n}, {len(outcome.placed)} pre-placed{blocked}, engine {outcome.engine}, {outcome.seconds:.2f} s"
    if args.format == "summary":
        reason = f": {outcome.reason}" if outcome.reason else ""
        CtrlC.write(sys.stdout, f"{outcome.status} ({where}){reason}\n")
    elif args.format == "json" and outcome.solution is not None:  # the board streamed, last
        stream_values(json_text(outcome.to_dict(solution=False))[:-1] + ', "solution": [', ", ", outcome.solution,
                      "]}\n")
    elif args.format == "json":
        CtrlC.write(sys.stdout, json_text(outcome) + "\n")
    elif outcome.solution is not None:
        write_solution(args.format, args.n, 1, outcome.solution)
    else:
        CtrlC.write(sys.stdout, f"{outcome.status}: {outcome.reason}\n")
    if args.format == "summary":
        pass
    elif outcome.solution is not None:
        summarize(args.format, f"{outcome.status} ({where})")
    else:
        sys.stdout.flush()
        say(f"{outcome.status} ({where})")
    if args.stats:
        say(stats_line(outcome.stats))
    return {Status.SOLVED: EXIT_OK, Status.NONE: EXIT_FAILURE, Status.UNKNOWN: EXIT_UNKNOWN}[outcome.status]


def _cmd_complete_generate(args: argparse.Namespace) -> int:
    from ..files import check_writable
    from ..studies.completion import generate, instance_json

    check_writable(args.output)  # before the work

    return _write_instance(args.output, json.dumps(instance_json(args.n, generate(args.n, args.k, args.seed),
                                                                 args.seed)) + "\n")


def _cmd_complete_diagonals(args: argparse.Namespace) -> int:
    from ..files import check_writable
    from ..model.instances import excluded_diagonals_text, generate_excluded_diagonals

    check_writable(args.output)  # before the work

    pairs = generate_excluded_diagonals(args.n, args.min_in_file, args.seed)
    return _write_instance(args.output, excluded_diagonals_text(args.n, pairs))


def _write_instance(output: str, text: str) -> int:
    """An instance to stdout ('-') or, atomically, to a file."""
    from ..files import atomic_write_text

    if output == "-":
        CtrlC.write(sys.stdout, text)
    else:
        atomic_write_text(output, text)
        say(f"wrote {output}")
    return EXIT_OK


def _cmd_complete_bench(args: argparse.Namespace) -> int:
    from ..studies.completion import COLUMNS, bench
    from ..studies.figures import completion_plot
    from ..studies.reporting import check_outputs, completion_table

    look = plot_look(args)
    check_outputs(args.csv, args.json, args.plot)
    table = table_to_stdout(args)
    progress = Progress.make("complete bench")
    rows, problems = bench(sorted({n for spec in args.specs for n in spec}), args.placed, args.instances,
                           args.engines, args.time_limit, args.seed, progress.text if progress else None)
    if progress:
        progress.clear()
    if table:
        CtrlC.write(sys.stdout, completion_table(rows) + "\n")
    write_files(args, rows, COLUMNS, lambda path: completion_plot(rows, path, args.time_limit, **look))
    for found in problems:
        say(f"{PROG} complete bench: {found}")
    return EXIT_FAILURE if problems else EXIT_OK


def _cmd_batch(args: argparse.Namespace) -> int:
    from ..studies.batch import COLUMNS, run
    from ..studies.figures import batch_plot
    from ..studies.reporting import batch_table, check_outputs, csv_text, to_json

    look = plot_look(args)
    check_outputs(args.csv, args.json, args.plot)
    table = table_to_stdout(args)
    progress = Progress.make("batch")
    rows, problems = run(args.paths, args.engines, args.diagonals, args.answers, args.time_limit,
                         progress.text if progress else None)
    if progress:
        progress.clear()
    if not table:
        pass  # --csv - or --json -: the rows go to stdout that way
    elif args.format == "json":
        CtrlC.write(sys.stdout, to_json(rows) + "\n")
    elif args.format == "csv":
        CtrlC.write(sys.stdout, csv_text(rows, COLUMNS))
    else:
        CtrlC.write(sys.stdout, batch_table(rows) + "\n")
    write_files(args, rows, COLUMNS, lambda path: batch_plot(rows, path, args.time_limit, **look))
    for found in problems:
        say(f"{PROG} batch: {found}")
    return EXIT_FAILURE if problems else EXIT_OK


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_solve(sub)
    add_complete(sub)
    add_batch(sub)
