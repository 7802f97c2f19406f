"""The command line, dimacs, decode and encodings: the CNF as an artifact, and the answers read back."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import NQueensError
from .options import (PROG, RESULT_FORMATS, SOLUTION_FORMATS, add_format, add_n, add_n_or_file, add_place, add_variant, problem,
                      json_text)
from .terminal import EXIT_OK, CtrlC, Progress, check_board, emit, say, solutions_word, summarize


def add_dimacs(sub: Any) -> None:
    from ..model.encodings import DEFAULT_ENCODING, ENCODINGS

    p = sub.add_parser(
        "dimacs", help="write N-queens as DIMACS CNF for any SAT solver",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write N-queens as standard DIMACS CNF over N*N cell variables (plus the\n"
        "encoding's auxiliary variables), as a stream: memory stays small for any N.\n"
        "The header maps cells to variables:\n\n"
        "  c nqueens n=<N> encoding=<NAME>\n"
        "  c q <row> <col> <var>          one line per cell, 0-based\n"
        "  c p show <var> ... 0           the cell variables, for projected model counters\n"
        "  p cnf <variables> <clauses>\n\n"
        "Pre-placed queens are unit clauses x, blocked squares unit clauses -x.  The same\n"
        "arguments always give a byte-identical file.",
        epilog="examples:\n"
        "  nqueens-cp dimacs 8 -o q8.cnf && clasp -n 0 q8.cnf > q8.out; nqueens-cp decode q8.cnf q8.out\n"
        "  nqueens-cp dimacs 12 --encoding ladder | picosat\n"
        "  nqueens-cp dimacs tests/data/prob079/diag-10-4-501.param --diagonals 8 -o d.cnf   (blocked: unit clauses)",
    )
    add_n_or_file(p)
    p.add_argument("--encoding", choices=tuple(ENCODINGS), default=DEFAULT_ENCODING, metavar="NAME",
                   help=f"how at-most-one is encoded: one of {', '.join(ENCODINGS)} (default: {DEFAULT_ENCODING})")
    add_variant(p)
    add_place(p)
    p.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="write here, atomically (a temporary file, then a rename; through a symlink, where it "
                   "points); '-' or absent: stdout")
    p.set_defaults(handler=_cmd_dimacs)


def add_decode(sub: Any) -> None:
    p = sub.add_parser(
        "decode", help="turn a SAT solver's answer on our CNF back into boards",
        description="Read the cell map from CNF_FILE's header and print the board of every distinct model "
        "in SOLVER_OUTPUT, each validated, as the answer streams in.  Understands the SAT-competition form "
        "('s SATISFIABLE' and 'v ... 0' lines; several models as 'clasp -n 0' or 'picosat --all' print them) "
        "and MiniSat's result file ('SAT' then a line of literals).  An enumerator that also enumerates the "
        "encoding's auxiliary variables repeats boards: each is printed once and the repeats are counted.  "
        "Exit 1 for an UNSAT answer, a missing or malformed file, an answer over other variables, or a model "
        "that is not a valid placement.",
        epilog="Example: clasp -n 0 q8.cnf | nqueens-cp decode q8.cnf - --format line",
    )
    p.add_argument("cnf", metavar="CNF_FILE", help="a CNF written by 'nqueens-cp dimacs'")
    p.add_argument("answer", metavar="SOLVER_OUTPUT", help="the solver's output; '-' for stdin")
    add_format(p, SOLUTION_FORMATS)
    p.set_defaults(handler=_cmd_decode)


def add_encodings(sub: Any) -> None:
    from ..engines.sat import DEFAULT_SOLVER, SOLVERS
    from ..model.cnf import COUNT_MAX_N

    p = sub.add_parser(
        "encodings", help="compare the at-most-one encodings on one N",
        description="One row per at-most-one encoding of the CNF: variables, clauses, literals, and, up to "
        f"N={COUNT_MAX_N} (or with --count), the time for the sat engine to enumerate every solution of N "
        "(its count is checked against the others and OEIS A000170).",
    )
    add_n(p)
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, metavar="NAME",
                   help=f"python-sat solver (default: {DEFAULT_SOLVER})")
    p.add_argument("--count", action=argparse.BooleanOptionalAction, default=None,
                   help=f"enumerate every solution under each encoding (default: only up to N={COUNT_MAX_N})")
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_encodings)


def _cmd_dimacs(args: argparse.Namespace) -> int:
    from ..model.cnf import size
    from ..files import check_not_input, check_room, check_writable
    from ..model.dimacs import dimacs_bytes, write_dimacs, write_dimacs_file

    from ..model.variants import get

    source = args.n if isinstance(args.n, str) else None  # (an instance file: problem() reads N from it)
    _, fixed, _ = problem(args)
    variant = get(args.variant)
    nvars, nclauses = size(args.n, args.encoding, fixed, variant=variant)
    if args.output != "-":  # (refused before the note: one line, not a note and then a refusal)
        check_writable(args.output)
        check_not_input(args.output, source)
        check_room(args.output, dimacs_bytes(args.n, nvars, nclauses), f"the CNF of N={args.n} ({args.encoding})")
    if nclauses > 10**8:
        say(f"{PROG}: note: N={args.n} with {args.encoding} has {nclauses:,} clauses, about "
             f"{dimacs_bytes(args.n, nvars, nclauses) / 1e9:,.0f} GB of DIMACS; --encoding seqcounter is linear in N^2")
    if args.output == "-":
        write_dimacs(sys.stdout, args.n, args.encoding, fixed, variant=variant)
        return EXIT_OK
    progress = Progress.make(f"dimacs {args.n}")
    try:
        write_dimacs_file(args.output, args.n, args.encoding, fixed,
                          progress=(lambda done, total: progress.text(f"dimacs: {done:,} of {total:,} clauses"))
                          if progress else None, variant=variant)
    finally:
        if progress:
            progress.clear()
    say(f"wrote {args.output}: N={args.n}, encoding {args.encoding}, {nvars} variables, {nclauses} clauses")
    return EXIT_OK


def _cmd_decode(args: argparse.Namespace) -> int:
    from ..model.dimacs import open_text
    from ..model.dimacs_answer import Decoding
    from ..model.dimacs_read import read_cnf

    cnf = open_text(args.cnf)
    try:
        header = read_cnf(cnf, "stdin" if args.cnf == "-" else args.cnf, units=True)  # (the body streamed: only its unit clauses kept)
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
        CtrlC.write(sys.stdout, json_text(result) + "\n")
    else:
        columns = ["encoding", "variables", "clauses", "literals"] + (["solutions", "seconds"] if count else [])
        CtrlC.write(sys.stdout, table(result.rows, columns, left=("encoding",)) + "\n")
    if result.problem:
        raise NQueensError(result.problem)
    return EXIT_OK


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_dimacs(sub)
    add_decode(sub)
    add_encodings(sub)
