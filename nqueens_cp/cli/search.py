"""The command line, enumerate and count: the solutions of N-queens, listed or counted."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .options import (PROG, RESULT_FORMATS, SOLUTION_FORMATS, add_format, add_search_options, engine_options,
                      fixed_placements, json_text, lrat_needs_certificate, question_keywords, stats_line)
from ..errors import InvalidInputError
from .terminal import (EXIT_OK, EXIT_UNKNOWN, CtrlC, Progress, check_board, emit, resuming, say, solution_text,
                       solutions_word, summarize)


def add_enumerate(sub: Any) -> None:
    p = sub.add_parser(
        "enumerate", help="print every solution of N-queens",
        description="Print every solution of N-queens (or the first K), then a summary.",
        epilog="formats: board = numbered boards, Q for a queen, . for an empty square, summary "
        "last on stdout; line = one solution per line, the 0-based column of each row; "
        'json = JSON Lines, {"n": 8, "index": 1, "solution": [0, 4, 7, 5, 2, 6, 1, 3]}. '
        "For line and json the summary goes to stderr.  Example: nqueens-cp enumerate 8 --format line | head -3",
    )
    add_search_options(p, limit=True)
    add_format(p, SOLUTION_FORMATS)
    p.set_defaults(handler=_cmd_enumerate)


def add_count(sub: Any) -> None:
    p = sub.add_parser(
        "count", help="print the number of solutions",
        description="Count the solutions of N-queens.  With --format text the last line of stdout is the "
        "count, a bare integer; with --format json one JSON object with the statistics.",
    )
    add_search_options(p, limit=False)
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_count)


def _search_keywords(args: argparse.Namespace) -> dict[str, Any]:
    return dict(fixed=fixed_placements(args), time_limit=args.time_limit, jobs=args.jobs, unique=args.unique,
                executor=args.executor, notify=lambda note: say(f"{PROG}: note: {note}"), **question_keywords(args),
                **engine_options(args))


def _certified(args: argparse.Namespace, on_board: Any = None) -> Any:
    """count / enumerate --certificate: the certificate's library call, after the
    options it cannot honour are refused in one line."""
    from ..certificates import SOLVER, certify
    from ..engines import DEFAULT_ENGINE

    if args.engine not in (DEFAULT_ENGINE, "sat"):
        raise InvalidInputError(f"--certificate: a certificate is the CNF's count and its DRAT proof (engine sat), "
                                f"not engine {args.engine}'s: drop --engine")
    refused = [flag for flag, given in (("--unique", args.unique), ("--limit", getattr(args, "limit", None)),
                                        ("--checkpoint", getattr(args, "checkpoint", None)),
                                        ("--method", getattr(args, "method", "auto") != "auto"),
                                        ("--memory", getattr(args, "memory", None)),
                                        ("--symmetry-breaking", getattr(args, "symmetry_breaking", None)))
               if given]
    if refused:
        raise InvalidInputError(f"--certificate does not combine with {refused[0]} (one certificate of the whole "
                                "question; its classes come from 'verify')")
    if getattr(args, "solver", None) not in (None, SOLVER):
        raise InvalidInputError(f"--certificate: the proof is logged by {SOLVER}, not {args.solver}")
    return certify(args.n, args.certificate, fixed=fixed_placements(args), time_limit=args.time_limit,
                   encoding=getattr(args, "encoding", None) or "pairwise", jobs=args.jobs, lrat=args.lrat,
                   executor=args.executor, on_board=on_board, notify=lambda note: say(f"{PROG}: note: {note}"),
                   **question_keywords(args))


def _cmd_enumerate(args: argparse.Namespace) -> int:
    from ..execution.run import solutions

    check_board(args.format, args.n)
    lrat_needs_certificate(args)
    if args.certificate is not None:
        start, shown = time.perf_counter(), [0]

        def show(board: tuple[int, ...]) -> None:
            shown[0] += 1
            CtrlC.write(sys.stdout, solution_text(args.format, args.n, shown[0], board))

        done = _certified(args, show)
        summarize(args.format, f"{solutions_word(done.count, False)} for N={args.n} (engine sat, "
                  f"{time.perf_counter() - start:.2f} s), certificate in {done.directory}")
        return EXIT_OK
    start = time.perf_counter()
    with solutions(args.n, args.engine, limit=args.limit, **_search_keywords(args)) as search:
        count = emit(search, args.format, args.n)
    seconds = time.perf_counter() - start
    stopped = f", stopped at --limit {args.limit}" if args.limit is not None and count >= args.limit else ""
    stopped += f", stopped at --time-limit {args.time_limit:g} s" if search.timed_out else ""
    what = f"{solutions_word(count, args.unique)} for N={args.n}"
    summarize(args.format, f"{what} (engine {args.engine}, {seconds:.2f} s{stopped})")
    if args.stats:
        say(stats_line(search.stats))
    # The time limit came before what was asked (every solution, or the first K): the list is
    # what was found, the answer unknown (the README's exit 3), as for count and solve.
    return EXIT_UNKNOWN if search.timed_out else EXIT_OK



def _cmd_count(args: argparse.Namespace) -> int:
    from ..execution.run import counted

    lrat_needs_certificate(args)
    if args.certificate is not None:
        done = _certified(args)
        CtrlC.write(sys.stdout, (json_text(done) if args.format == "json" else str(done.count)) + "\n")
        say(f"certificate in {done.directory} ('{PROG} verify {done.directory}' checks it)")
        return EXIT_OK

    progress = Progress.make(f"count {args.n}")
    report = progress if args.checkpoint is None else resuming(args.checkpoint, progress, PROG)
    try:
        result = counted(args.n, args.engine, progress=report, checkpoint=args.checkpoint, method=args.method,
                         memory=args.memory, **_search_keywords(args))
    finally:
        if progress:
            progress.clear()
    CtrlC.write(sys.stdout, (json_text(result) if args.format == "json" else str(result.count)) + "\n")
    if args.stats:
        say(f"strategy: {result.strategy}")
        say(stats_line(result.stats))
    return EXIT_OK




def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_enumerate(sub)
    add_count(sub)
