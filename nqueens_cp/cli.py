"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp``.

One ``_add_<cmd>`` / ``_cmd_<cmd>`` pair per subcommand.  Data goes to
stdout, diagnostics to stderr.  Every user mistake is one line on stderr
and a named exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn, TextIO

from . import __version__
from .board import render
from .engines import DEFAULT_ENGINE, ENGINE_NAMES, availability, engine_class, get_engine
from .errors import EngineUnavailableError, InvalidInputError, NQueensError

PROG = "nqueens-cp"

EXIT_OK = 0
EXIT_FAILURE = 1  # a check failed, a file is bad, a solver failed
EXIT_USAGE = 2  # the command line is wrong
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_BROKEN_PIPE = 141  # the reader went away (128 + SIGPIPE), as for a C tool

BOARD_MAX_N = 64  # wider boards are unreadable; use --format line or json

FORMATS = ("board", "line", "json")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def positive_int(text: str) -> int:
    """An integer >= 1 written in decimal digits ('8', not '8.5', '1e3' or '-3')."""
    if not re.fullmatch(r"\s*\+?\d+\s*", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{text}'")
    return int(text)


def board_sizes(text: str) -> list[int]:
    """A SPEC: '8' or an ascending range '1-10'."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", text)
    if not match:
        return [positive_int(text)]
    low, high = (positive_int(part) for part in match.groups())
    if low > high:
        raise argparse.ArgumentTypeError(f"range '{text}' runs backwards; write {high}-{low}")
    return list(range(low, high + 1))


# --- helpers shared by subcommands ----------------------------------------

def _add_engine_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--engine", "-e", default=DEFAULT_ENGINE, choices=ENGINE_NAMES, metavar="E",
        help=f"one of {', '.join(ENGINE_NAMES)} (default: {DEFAULT_ENGINE}, the fastest "
        "exact enumerator, which needs no solver package)",
    )
    _add_solver_option(p)


def _add_solver_option(p: argparse.ArgumentParser) -> None:
    from .engines.sat import DEFAULT_SOLVER, SOLVERS

    p.add_argument(
        "--solver", choices=SOLVERS, metavar="NAME",
        help=f"python-sat solver for the sat engine (default: {DEFAULT_SOLVER}); one of {', '.join(SOLVERS)}",
    )


def _engine_options(args: argparse.Namespace, engine: str) -> dict[str, Any]:
    if args.solver is None:
        return {}
    if engine != "sat":
        raise InvalidInputError("--solver applies only to the sat engine")
    return {"solver": args.solver}


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _write_solution(out: TextIO, fmt: str, n: int, index: int, solution: tuple[int, ...]) -> None:
    # One write per solution, so an interrupt never leaves half a line.
    if fmt == "board":
        out.write(f"Solution {index}:\n{render(solution)}\n\n")
    elif fmt == "line":
        out.write(" ".join(map(str, solution)) + "\n")
    else:
        out.write(json.dumps({"n": n, "index": index, "solution": list(solution)}) + "\n")


def _format_stats(stats: dict[str, Any]) -> str:
    def show(value: Any) -> str:
        return f"{value:.3f}" if isinstance(value, float) else str(value)

    return "stats: " + " ".join(f"{key}={show(value)}" for key, value in stats.items())


# --- enumerate --------------------------------------------------------------

def _add_enumerate(sub: Any) -> None:
    p = sub.add_parser(
        "enumerate", help="print every solution of N-queens",
        description="Print every solution of N-queens (or the first K), then a summary.",
        epilog="formats: board = numbered boards, Q for a queen, . for an empty square, summary "
        "last on stdout; line = one solution per line, the 0-based column of each row; "
        'json = JSON Lines, {"n": 8, "index": 1, "solution": [0, 4, 7, 5, 2, 6, 1, 3]}. '
        "For line and json the summary goes to stderr.  Example: nqueens-cp enumerate 8 --format line | head -3",
    )
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")
    _add_engine_options(p)
    p.add_argument("--limit", "-k", type=positive_int, metavar="K", help="stop after K solutions")
    p.add_argument("--format", "-f", default="board", choices=FORMATS, metavar="FORMAT",
                   help="board (default), line or json")
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")
    p.set_defaults(handler=_cmd_enumerate)


def _cmd_enumerate(args: argparse.Namespace) -> int:
    if args.format == "board" and args.n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")
    engine = get_engine(args.engine, **_engine_options(args, args.engine))
    out = sys.stdout
    start = time.perf_counter()
    count = 0
    search = engine.search(args.n, limit=args.limit)
    try:
        for count, solution in enumerate(search, 1):
            _write_solution(out, args.format, args.n, count, solution)
    finally:
        search.close()
    seconds = time.perf_counter() - start
    noun = "solution" if count == 1 else "solutions"
    stopped = f", stopped at --limit {args.limit}" if args.limit is not None and count >= args.limit else ""
    summary = f"{count} {noun} for N={args.n} (engine {args.engine}, {seconds:.2f} s{stopped})"
    if args.format == "board":
        out.write(summary + "\n")
    else:
        out.flush()
        _say(summary)
    if args.stats:
        _say(_format_stats(search.stats))
    return EXIT_OK


# --- count ------------------------------------------------------------------

def _add_count(sub: Any) -> None:
    p = sub.add_parser(
        "count", help="print the number of solutions",
        description="Count the solutions of N-queens.  The last line of stdout is the count, a bare integer.",
    )
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")
    _add_engine_options(p)
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")
    p.set_defaults(handler=_cmd_count)


def _cmd_count(args: argparse.Namespace) -> int:
    engine = get_engine(args.engine, **_engine_options(args, args.engine))
    search = engine.search(args.n)
    print(search.count(), flush=True)
    if args.stats:
        _say(_format_stats(search.stats))
    return EXIT_OK


# --- crosscheck ---------------------------------------------------------------

def _add_crosscheck(sub: Any) -> None:
    p = sub.add_parser(
        "crosscheck", help="compare engines' exact solution sets and the published totals",
        description="For each N, run every engine, validate every solution, and compare the exact "
        "solution sets with each other (the first engine is the reference) and the counts with "
        "the published totals (OEIS A000170).  Exit 1 on any disagreement.",
        epilog="Example: nqueens-cp crosscheck 1-10 12",
    )
    p.add_argument("specs", nargs="+", type=board_sizes, metavar="SPEC", help="N, or a range such as 1-10")
    p.add_argument("--engines", type=_engine_list, metavar="E1,E2,...",
                   help="engines to compare, in order (default: every available engine)")
    _add_solver_option(p)
    p.set_defaults(handler=_cmd_crosscheck)


def _engine_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in ENGINE_NAMES:
            raise argparse.ArgumentTypeError(f"unknown engine '{name}' (choose from {', '.join(ENGINE_NAMES)})")
    if not names:
        raise argparse.ArgumentTypeError("no engine named")
    return list(dict.fromkeys(names))


def _cmd_crosscheck(args: argparse.Namespace) -> int:
    from .crosscheck import check_n

    sizes = sorted({n for spec in args.specs for n in spec})
    if args.engines:
        names = args.engines
        for name in names:
            reason = engine_class(name).unavailable_reason()
            if reason:
                raise EngineUnavailableError(f"engine '{name}' is unavailable: {reason}")
    else:
        names = [name for name, reason in availability().items() if reason is None]
        for name, reason in availability().items():
            if reason:
                _say(f"skipping engine {name}: {reason}")
    if args.solver is not None and "sat" not in names:
        raise InvalidInputError("--solver applies only to the sat engine")
    engines = {name: get_engine(name, **_engine_options(args, name) if name == "sat" else {}) for name in names}
    progress = _progress if sys.stderr.isatty() else None

    def cell(count: object, seconds: object, agree: object) -> str:
        return f"{count:>10} {seconds:>7} {agree:<5}"

    print((f"{'N':>3} {'known':>10}  " + "  ".join(f"{name:^24}" for name in names)).rstrip())
    print((f"{'':>3} {'':>10}  " + "  ".join(cell("count", "time", "agree") for _ in names)).rstrip())
    problems: list[str] = []
    for n in sizes:
        row = check_n(n, engines, progress)
        if progress:
            progress("")
        known = "?" if row.known is None else str(row.known)
        cells = "  ".join(cell(r.count, f"{r.seconds:.2f}s", "yes" if r.agrees else "NO") for r in row.results)
        print(f"{n:>3} {known:>10}  {cells}".rstrip(), flush=True)
        problems.extend(row.problems)
    if problems:
        for problem in problems:
            _say(f"{PROG} crosscheck: {problem}")
        return EXIT_FAILURE
    _say(f"all {len(names)} engines agree on every N ({', '.join(map(str, sizes))})")
    return EXIT_OK


def _progress(text: str) -> None:
    sys.stderr.write(f"\r\033[K{text}")
    sys.stderr.flush()


# --- engines ------------------------------------------------------------------

def _add_engines(sub: Any) -> None:
    p = sub.add_parser("engines", help="list the engines and whether each can run here",
                       description="List the engines, whether each is available here, and what each is.")
    p.set_defaults(handler=_cmd_engines)


def _cmd_engines(args: argparse.Namespace) -> int:
    for name, reason in availability().items():
        status = "available" if reason is None else f"unavailable ({reason})"
        default = " [default]" if name == DEFAULT_ENGINE else ""
        print(f"{name:<10} {status:<12} {engine_class(name).summary}{default}")
    return EXIT_OK


# --- main ---------------------------------------------------------------------

_MAIN_EPILOG = f"""\
engines (--engine):
  backtrack  textbook row-by-row search with an is-safe check: the oracle
  bitmask    bitwise backtracking, mirror-halved counting (default: fastest,
             exact, needs no solver package, starts instantly)
  cpsat      OR-Tools CP-SAT, one integer per row, three AllDifferent
  sat        CNF over N*N cells on python-sat (CaDiCaL), blocking clauses

examples:
  nqueens-cp enumerate 8                     the 92 boards, then a summary
  nqueens-cp enumerate 12 -e cpsat -f json   JSON Lines, one solution each
  nqueens-cp count 12 --engine sat --stats   14200, statistics on stderr
  nqueens-cp crosscheck 1-10                 every engine, exact sets

exit codes:
  {EXIT_OK}    success (also when N has no solution, as N = 2 or 3)
  {EXIT_FAILURE}    failure: a cross-check disagreed, a solver failed
  {EXIT_USAGE}    usage error: bad N, unknown engine or format, ...
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C); the output so far is intact
  {EXIT_BROKEN_PIPE}  the reader of stdout went away (e.g. | head); nothing printed

Run 'nqueens-cp COMMAND --help' for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Model N-queens declaratively (CP-SAT, CNF on a SAT solver) and check it\n"
        "against hand-written search (textbook and bitwise backtracking).\n"
        "A solution is the 0-based column of the queen in each row.",
        epilog=_MAIN_EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    _add_enumerate(sub)
    _add_count(sub)
    _add_crosscheck(sub)
    _add_engines(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        _flush_quietly()
        _say(f"{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except InvalidInputError as error:
        _flush_quietly()
        _say(f"{PROG} {args.command}: error: {error}")
        return EXIT_USAGE
    except NQueensError as error:
        _flush_quietly()
        _say(f"{PROG} {args.command}: {error}")
        return EXIT_FAILURE


def _flush_quietly() -> None:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    """After the reader of stdout has gone, point stdout at /dev/null so that
    the interpreter's final flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
