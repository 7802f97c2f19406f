"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp``.

Every command is: parse, one library call, render the result, exit code.
One ``_add_<cmd>`` / ``_cmd_<cmd>`` pair per subcommand.  Data goes to
stdout, diagnostics to stderr.  Every user mistake and every failure is one
line on stderr and a named exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Sequence
from typing import Any

from ..engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, ENGINE_NAMES, engine_class
from ..errors import NQueensError
from .grammar import PROG, build_parser, engine_options, fixed_placements, problem
from .terminal import (EXIT_FAILURE, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE, CtrlC, Progress, check_board, emit, finish,
                       run_command, say, silence_stdout, solution_text, solutions_word, summarize)


# --- enumerate and count -----------------------------------------------------------------

def _search_keywords(args: argparse.Namespace) -> dict[str, Any]:
    return dict(fixed=fixed_placements(args), time_limit=args.time_limit, jobs=args.jobs, unique=args.unique,
                executor=args.executor, notify=lambda note: say(f"{PROG}: note: {note}"), **engine_options(args))


def _cmd_enumerate(args: argparse.Namespace) -> int:
    from ..run import solutions

    check_board(args.format, args.n)
    start = time.perf_counter()
    with solutions(args.n, args.engine, limit=args.limit, **_search_keywords(args)) as search:
        count = emit(search, args.format, args.n)
    seconds = time.perf_counter() - start
    stopped = f", stopped at --limit {args.limit}" if args.limit is not None and count >= args.limit else ""
    stopped += f", stopped at --time-limit {args.time_limit:g} s" if search.timed_out else ""
    what = f"{solutions_word(count, args.unique)} for N={args.n}"
    summarize(args.format, f"{what} (engine {args.engine}, {seconds:.2f} s{stopped})")
    if args.stats:
        say(_stats_line(search.stats))
    return EXIT_OK


def _stats_line(stats: dict[str, Any]) -> str:
    from ..studies.reporting import format_stats

    return format_stats(stats)


def _cmd_count(args: argparse.Namespace) -> int:
    from ..run import counted

    progress = Progress.make(f"count {args.n}")
    try:
        result = counted(args.n, args.engine, progress=progress, checkpoint=args.checkpoint, **_search_keywords(args))
    finally:
        if progress:
            progress.clear()
    CtrlC.write(sys.stdout, (_json(result) if args.format == "json" else str(result.count)) + "\n")
    if args.stats:
        say(_stats_line(result.stats))
    return EXIT_OK


def _json(result: Any) -> str:
    from ..studies.reporting import to_json

    return to_json(result)


# --- crosscheck ------------------------------------------------------------------------

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
                        **engine_options(args))
    if progress:
        progress.clear()
    for name, reason in report.skipped.items():
        say(f"{PROG} crosscheck: skipped engine {name}: {reason}")
    if not text:
        CtrlC.write(sys.stdout, _json(report) + "\n")
    for problem in report.problems:
        say(f"{PROG} crosscheck: {problem}")
    if not report.ok:
        return EXIT_FAILURE
    if text:
        checked = ", ".join(str(row.n) for row in report.rows)
        say(f"all {len(report.engines)} engines agree on every N ({checked})")
    return EXIT_OK


# --- compare ----------------------------------------------------------------------------

def _cmd_compare(args: argparse.Namespace) -> int:
    from ..studies.compare import COLUMNS, compare, default_labels, expand, problems, with_variants
    from ..studies.reporting import check_outputs, compare_plot, compare_table

    check_outputs(args.csv, args.json, args.plot)  # before the long part, not after it
    chosen = with_variants(expand(args.engines), args.symmetry_breaking) if args.engines else \
        default_labels(args.first, args.symmetry_breaking)
    progress = Progress.make("compare")
    rows = compare(sorted({n for spec in args.specs for n in spec}), chosen, args.repeat, args.first,
                   args.time_limit, progress.text if progress else None)
    if progress:
        progress.clear()
    CtrlC.write(sys.stdout, compare_table(rows) + "\n")
    _write_files(args, rows, COLUMNS, lambda path: compare_plot(rows, path, args.first))
    for problem in problems(rows):
        say(f"{PROG} compare: {problem}")
    return EXIT_FAILURE if problems(rows) else EXIT_OK


def _write_files(args: argparse.Namespace, rows: list[dict[str, Any]], columns: Sequence[str], plot: Any) -> None:
    from ..studies.reporting import write_csv, write_json

    if args.csv:
        write_csv(rows, args.csv, columns)
        say(f"wrote {args.csv}")
    if args.json:
        write_json(rows, args.json)
        say(f"wrote {args.json}")
    if args.plot:
        plot(args.plot)
        say(f"wrote {args.plot}")


# --- solve ---------------------------------------------------------------------------------

def _cmd_solve(args: argparse.Namespace) -> int:
    from ..engines import Status
    from ..run import solve

    n, position, instance = problem(args)
    check_board(args.format, n)
    outcome = solve(n, args.engine, position, time_limit=args.time_limit, jobs=args.jobs, executor=args.executor,
                    **engine_options(args))
    blocked = f", {len(position.blocked)} blocked squares" if position.blocked else ""
    source = f"{instance.name}: " if instance else ""
    where = f"{source}N={n}, {len(outcome.placed)} pre-placed{blocked}, engine {args.engine}, {outcome.seconds:.2f} s"
    if args.format == "json":
        CtrlC.write(sys.stdout, _json(outcome) + "\n")
    elif outcome.solution is not None:
        CtrlC.write(sys.stdout, solution_text(args.format, args.n, 1, outcome.solution))
    else:
        CtrlC.write(sys.stdout, f"{outcome.status}: {outcome.reason}\n")
    if outcome.solution is not None:
        summarize(args.format, f"{outcome.status} ({where})")
    else:
        sys.stdout.flush()
        say(f"{outcome.status} ({where})")
    if args.stats:
        say(_stats_line(outcome.stats))
    return {Status.SOLVED: EXIT_OK, Status.NONE: EXIT_FAILURE, Status.UNKNOWN: EXIT_UNKNOWN}[outcome.status]


# --- complete ---------------------------------------------------------------------------------

def _cmd_complete_generate(args: argparse.Namespace) -> int:
    from ..studies.completion import generate, instance_json

    return _write_instance(args.output, json.dumps(instance_json(args.n, generate(args.n, args.k, args.seed),
                                                                 args.seed)) + "\n")


def _cmd_complete_diagonals(args: argparse.Namespace) -> int:
    from ..model.instances import excluded_diagonals_text, generate_excluded_diagonals

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
    from ..studies.reporting import check_outputs, completion_plot, completion_table

    check_outputs(args.csv, args.json, args.plot)
    progress = Progress.make("complete bench")
    rows, problems = bench(sorted({n for spec in args.specs for n in spec}), args.placed, args.instances,
                           args.engines, args.time_limit, args.seed, progress.text if progress else None)
    if progress:
        progress.clear()
    CtrlC.write(sys.stdout, completion_table(rows) + "\n")
    _write_files(args, rows, COLUMNS, lambda path: completion_plot(rows, path, args.time_limit))
    for problem in problems:
        say(f"{PROG} complete bench: {problem}")
    return EXIT_FAILURE if problems else EXIT_OK


# --- batch ------------------------------------------------------------------------------------

def _cmd_batch(args: argparse.Namespace) -> int:
    from ..studies.batch import COLUMNS, run
    from ..studies.reporting import batch_plot, batch_table, check_outputs, csv_text, to_json

    check_outputs(args.csv, args.json, args.plot)
    progress = Progress.make("batch")
    rows, problems = run(args.paths, args.engines, args.diagonals, args.answers, args.time_limit,
                         progress.text if progress else None)
    if progress:
        progress.clear()
    if args.format == "json":
        CtrlC.write(sys.stdout, to_json(rows) + "\n")
    elif args.format == "csv":
        CtrlC.write(sys.stdout, csv_text(rows, COLUMNS))
    else:
        CtrlC.write(sys.stdout, batch_table(rows) + "\n")
    _write_files(args, rows, COLUMNS, lambda path: batch_plot(rows, path, args.time_limit))
    for problem in problems:
        say(f"{PROG} batch: {problem}")
    return EXIT_FAILURE if problems else EXIT_OK


# --- dimacs, decode, encodings -------------------------------------------------------------------

def _cmd_dimacs(args: argparse.Namespace) -> int:
    from ..model.cnf import size
    from ..files import check_writable
    from ..model.dimacs import write_dimacs, write_dimacs_file

    _, fixed, _ = problem(args)
    nvars, nclauses = size(args.n, args.encoding, fixed)
    if nclauses > 10**8:
        say(f"{PROG}: note: N={args.n} with {args.encoding} has {nclauses:,} clauses, about "
             f"{nclauses * 12 / 1e9:.0f} GB of DIMACS; --encoding seqcounter is linear in N^2")
    if args.output == "-":
        write_dimacs(sys.stdout, args.n, args.encoding, fixed)
        return EXIT_OK
    check_writable(args.output)
    progress = Progress.make(f"dimacs {args.n}")
    try:
        write_dimacs_file(args.output, args.n, args.encoding, fixed,
                          progress=(lambda done, total: progress.text(f"dimacs: {done:,} of {total:,} clauses"))
                          if progress else None)
    finally:
        if progress:
            progress.clear()
    say(f"wrote {args.output}: N={args.n}, encoding {args.encoding}, {nvars} variables, {nclauses} clauses")
    return EXIT_OK


def _cmd_decode(args: argparse.Namespace) -> int:
    from ..model.dimacs import Decoding, open_text, read_cnf

    cnf = open_text(args.cnf)
    try:
        header = read_cnf(cnf, args.cnf, units=True)  # (the body streamed: only its unit clauses kept)
    finally:
        if cnf is not sys.stdin:  # (stdin stays open: the answer may come from it too)
            cnf.close()
    check_board(args.format, header.n)
    name = "stdin" if args.answer == "-" else args.answer
    answer = open_text(args.answer)
    try:
        decoding = Decoding(header, answer, name)
        count = emit(decoding, args.format, header.n, flush=True)
    finally:
        if answer is not sys.stdin:
            answer.close()
    repeats = f"; {decoding.models} models, {decoding.repeated} of them repeats" if decoding.repeated else ""
    summarize(args.format, f"{solutions_word(count)} decoded for N={header.n} (encoding {header.encoding}), "
               f"all valid{repeats}")
    return EXIT_OK


def _cmd_encodings(args: argparse.Namespace) -> int:
    from ..model.cnf import COUNT_MAX_N
    from ..studies.encodings import compare_encodings
    from ..studies.reporting import table

    count = args.count if args.count is not None else args.n <= COUNT_MAX_N
    if args.count is None and not count:
        say(f"{PROG} encodings: sizes only: enumerating N={args.n} under six encodings would take too long "
             "(--count asks for it)")
    progress = Progress.make("encodings")
    result = compare_encodings(args.n, args.solver, count, progress.text if progress else None)
    if progress:
        progress.clear()
    if args.format == "json":
        CtrlC.write(sys.stdout, _json(result) + "\n")
    else:
        columns = ["encoding", "variables", "clauses", "literals"] + (["solutions", "seconds"] if count else [])
        CtrlC.write(sys.stdout, table(result.rows, columns, left=("encoding",)) + "\n")
    if result.problem:
        raise NQueensError(result.problem)
    return EXIT_OK


# --- engines ------------------------------------------------------------------

def _cmd_engines(args: argparse.Namespace) -> int:
    from ..studies.reporting import engines_table

    found = {"default": DEFAULT_ENGINE, "engines": [engine_class(name).capabilities() for name in ENGINE_NAMES]}
    CtrlC.write(sys.stdout, (_json(found) if args.format == "json" else engines_table(found["engines"], DEFAULT_ENGINE)) + "\n")
    if args.format == "text":
        say(f"* the default engine (solve defaults to {DEFAULT_SOLVE_ENGINE})")
    return EXIT_OK


# --- main ---------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:  # started with stdout closed (>&-)
        print(f"{PROG}: error: stdout is closed", file=sys.stderr)
        return EXIT_FAILURE
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        args = build_parser(HANDLERS, words[0] if words else None).parse_args(words)
    except SystemExit as exit_:  # --help, --version and usage errors
        code = exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
        return finish(code, PROG)
    except OSError as error:  # --help or --version could not be written
        silence_stdout()
        say(f"{PROG}: cannot write output: {error.strerror or error}")
        return EXIT_FAILURE
    with warnings.catch_warnings():  # a warning from the library is one line on stderr, like a note
        warnings.showwarning = _warning_line
        return run_command(args.handler, args, f"{PROG} {args.command}")


def _warning_line(message: Warning | str, category: type[Warning], *_: Any, **__: Any) -> None:
    say(f"{PROG}: warning: {message}")


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
        CtrlC.write(sys.stdout, (_json(event) if args.format == "json" else event.text()) + "\n")
    sys.stdout.flush()
    say(f"{places} placements (nodes) in {'the first ' + str(args.limit) + ' steps' if args.limit else 'the whole search'}")
    return EXIT_OK


def _cmd_sample(args: argparse.Namespace) -> int:
    from ..counting.sample import sample

    check_board(args.format, args.n)
    count = emit(sample(args.n, args.k, args.seed, fixed_placements(args)), args.format, args.n)
    summarize(args.format, f"{solutions_word(count)} for N={args.n}, drawn uniformly"
              + (f" (seed {args.seed})" if args.seed is not None else ""))
    return EXIT_OK


HANDLERS = {"enumerate": _cmd_enumerate, "count": _cmd_count, "crosscheck": _cmd_crosscheck, "compare": _cmd_compare,
            "solve": _cmd_solve, "generate": _cmd_complete_generate, "bench": _cmd_complete_bench, "batch": _cmd_batch,
            "diagonals": _cmd_complete_diagonals,
            "dimacs": _cmd_dimacs, "decode": _cmd_decode, "encodings": _cmd_encodings, "engines": _cmd_engines,
            "trace": _cmd_trace, "sample": _cmd_sample}
