"""The command line: ``nqueens-cp`` / ``python -m nqueens_cp``.

Every command is: parse, one library call, render the result, exit code.
One ``_add_<cmd>`` / ``_cmd_<cmd>`` pair per subcommand.  Data goes to
stdout, diagnostics to stderr.  Every user mistake and every failure is one
line on stderr and a named exit code, never a traceback.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import signal
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn, TextIO

from . import __version__
from .engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, ENGINE_NAMES, all_options, engine_class, names
from .errors import InvalidInputError, NQueensError, TimeLimitReached

PROG = "nqueens-cp"

EXIT_OK = 0
EXIT_FAILURE = 1  # a check failed, a file is bad or unwritable, a solver failed; solve: proven none
EXIT_USAGE = 2  # the command line is wrong
EXIT_UNKNOWN = 3  # solve, count: the time limit came before an answer
EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT)
EXIT_BROKEN_PIPE = 141  # the reader went away (128 + SIGPIPE), as for a C tool

BOARD_MAX_N = 64  # wider boards are unreadable; use --format line or json
SOLUTION_FORMATS = ("board", "line", "json")
RESULT_FORMATS = ("text", "json")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse swallows a failed write (--help > /dev/full would report success): let it through.
        if message:
            (file or sys.stderr).write(message)


# --- argument types ---------------------------------------------------------------------

def positive_int(text: str) -> int:
    """An integer >= 1 written in decimal digits ('8', not '8.5', '1e3' or '-3')."""
    if not re.fullmatch(r"\s*\+?\d{1,9}\s*", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{text}'")
    return int(text)


def whole(text: str) -> int:
    """An integer >= 0 in decimal digits (range checks are the library's)."""
    if not re.fullmatch(r"\s*\+?\d{1,30}\s*", text):
        raise argparse.ArgumentTypeError(f"must be a whole number, got '{text}'")
    return int(text)


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got '{text}'")
    return value


def sizes(text: str) -> list[int]:
    """A SPEC, the same for every command: '8', a range '1-10' or a stepped range '20-100/20'."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*(?:/\s*(\d+)\s*)?", text)
    if not match:
        return [positive_int(text)]
    low, high = positive_int(match.group(1)), positive_int(match.group(2))
    step = positive_int(match.group(3)) if match.group(3) else 1
    if low > high:
        raise argparse.ArgumentTypeError(f"range '{text}' runs backwards; write {high}-{low}")
    return list(range(low, high + 1, step))


def placements(text: str) -> list[tuple[int, int]]:
    """--place 'R:C,R:C,...' (0-based) -> [(row, column), ...]."""
    found = []
    for item in text.split(","):
        match = re.fullmatch(r"\s*(\d{1,9})\s*:\s*(\d{1,9})\s*", item)
        if not match:
            raise argparse.ArgumentTypeError(f"expected ROW:COL pairs separated by commas (e.g. 0:0,3:5), got '{item.strip()}'")
        found.append((int(match.group(1)), int(match.group(2))))
    return found


def name_list(text: str) -> list[str]:
    found = [name.strip() for name in text.split(",") if name.strip()]
    if not found:
        raise argparse.ArgumentTypeError("no engine named")
    return found


# --- shared options and their conversion to keywords -------------------------------------

def _add_n(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")


def _add_engine(p: argparse.ArgumentParser, choices: Sequence[str], default: str, why: str) -> None:
    p.add_argument("--engine", "-e", default=default, choices=choices, metavar="E",
                   help=f"one of {', '.join(choices)} (default: {default}, {why})")


def _add_engine_options(p: argparse.ArgumentParser, among: Sequence[str] = ENGINE_NAMES) -> None:
    """A flag for every option of the engines in ``among``, from the engines' own data."""
    for name, (option, takers) in all_options().items():
        takers = [t for t in takers if t in among]
        if not takers:
            continue
        help_ = f"{option.help} [{', '.join(takers)}]"
        if option.kind is bool:
            p.add_argument(option.flag, dest=name, action="store_true", default=None, help=help_)
        elif option.kind is int:
            p.add_argument(option.flag, dest=name, type=whole, metavar=name.upper(), help=help_)
        else:
            p.add_argument(option.flag, dest=name, choices=option.choices, metavar="NAME", help=help_)


def _engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The engine options given on the command line, as keywords."""
    return {name: getattr(args, name) for name in all_options() if getattr(args, name, None) is not None}


def _add_place(p: argparse.ArgumentParser) -> None:
    p.add_argument("--place", type=placements, action="append", default=[], metavar="R:C,...",
                   help="pre-placed queens, 0-based row:column pairs; may be repeated (they combine)")


def _fixed(args: argparse.Namespace) -> dict[int, int]:
    fixed: dict[int, int] = {}
    for row, col in (pair for group in args.place for pair in group):
        if row in fixed and fixed[row] != col:
            raise InvalidInputError(f"--place: two queens in row {row} ({row}:{fixed[row]} and {row}:{col})")
        fixed[row] = col
    return fixed


def _add_search_options(p: argparse.ArgumentParser, limit: bool) -> None:
    _add_n(p)
    _add_engine(p, names(enumerates=True), DEFAULT_ENGINE,
                "exact, the fastest enumerator, needs no solver package")
    _add_engine_options(p, names(enumerates=True))
    _add_place(p)
    if limit:
        p.add_argument("--limit", "-k", type=positive_int, metavar="K", help="stop after K solutions")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds" + ("" if limit else ": exit 3, no count (a partial count is not the count)"))
    p.add_argument("--unique", action="store_true",
                   help="one solution per class under the 8 symmetries of the square, in canonical "
                   "(lexicographically least) form: 12 for N=8 (OEIS A002562)")
    _add_jobs(p)
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")


def _add_jobs(p: argparse.ArgumentParser) -> None:
    from .parallel import default_jobs
    from .run import SPLIT_MIN_N

    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help=f"worker processes (default: the cores, {default_jobs()} here); 1 means this process.  "
                   f"From N={SPLIT_MIN_N} the search is split by fixing its first rows whatever J is, so the "
                   "output order never depends on J")


def _add_format(p: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    p.add_argument("--format", "-f", default=choices[0], choices=choices, metavar="FORMAT",
                   help=f"{' or '.join(choices)} (default: {choices[0]})")


def _add_outputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--csv", metavar="FILE", help="also write the rows as CSV")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--plot", metavar="FILE", help="draw time against N, log scale; .png, .svg or .pdf "
                   "(needs matplotlib: pip install 'nqueens-cp[plot]')")


# --- rendering ---------------------------------------------------------------------------

def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class _CtrlC:
    """Ctrl-C that waits for the current write to finish, so no line comes out cut or twice."""

    writing = False
    pending = False

    @classmethod
    def handler(cls, signum: int, frame: object) -> None:
        if cls.writing:
            cls.pending = True
        else:
            raise KeyboardInterrupt

    @classmethod
    def write(cls, out: TextIO, text: str) -> None:
        cls.writing = True
        try:
            out.write(text)
        finally:
            cls.writing = False
        if cls.pending:
            cls.pending = False
            raise KeyboardInterrupt


def _solution_text(fmt: str, n: int, index: int, solution: tuple[int, ...]) -> str:
    from .board import render

    if fmt == "board":
        return f"Solution {index}:\n{render(solution)}\n\n"
    if fmt == "line":
        return " ".join(map(str, solution)) + "\n"
    return json.dumps({"n": n, "index": index, "solution": list(solution)}) + "\n"


def _emit(solutions: Iterable[tuple[int, ...]], fmt: str, n: int, flush: bool = False) -> int:
    """Write solutions to stdout, one whole write each (flushed with ``flush``,
    for input that arrives slowly); returns how many."""
    count = 0
    for count, solution in enumerate(solutions, 1):
        _CtrlC.write(sys.stdout, _solution_text(fmt, n, count, solution))
        if flush:
            sys.stdout.flush()
    return count


def _summarize(fmt: str, summary: str) -> None:
    """The board format is for people: its summary ends stdout.  The others are data: stderr."""
    if fmt == "board":
        _CtrlC.write(sys.stdout, summary + "\n")
    else:
        sys.stdout.flush()
        _say(summary)


def _check_board(fmt: str, n: int) -> None:
    if fmt == "board" and n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")


class _Progress:
    """Progress on a terminal's stderr: done of all, rate, time left.  Nothing on a pipe."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.start = time.monotonic()
        self.shown = False

    @classmethod
    def make(cls, what: str) -> _Progress | None:
        return cls(what) if sys.stderr.isatty() else None

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.monotonic() - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f", about {(total - done) / rate:.0f} s left" if rate and done < total else ""
        sys.stderr.write(f"\r\033[K{self.what}: {done}/{total} sub-problems, {rate:.1f}/s{left}")
        sys.stderr.flush()
        self.shown = True

    def text(self, message: str) -> None:
        sys.stderr.write(f"\r\033[K{message}")
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _solutions_word(count: int, unique: bool = False) -> str:
    return f"{count}{' fundamental' if unique else ''} solution" + ("" if count == 1 else "s")


# --- enumerate and count -----------------------------------------------------------------

def _add_enumerate(sub: Any) -> None:
    p = sub.add_parser(
        "enumerate", help="print every solution of N-queens",
        description="Print every solution of N-queens (or the first K), then a summary.",
        epilog="formats: board = numbered boards, Q for a queen, . for an empty square, summary "
        "last on stdout; line = one solution per line, the 0-based column of each row; "
        'json = JSON Lines, {"n": 8, "index": 1, "solution": [0, 4, 7, 5, 2, 6, 1, 3]}. '
        "For line and json the summary goes to stderr.  Example: nqueens-cp enumerate 8 --format line | head -3",
    )
    _add_search_options(p, limit=True)
    _add_format(p, SOLUTION_FORMATS)
    p.set_defaults(handler=_cmd_enumerate)


def _search_keywords(args: argparse.Namespace) -> dict[str, Any]:
    return dict(fixed=_fixed(args), time_limit=args.time_limit, jobs=args.jobs, unique=args.unique,
                notify=lambda note: _say(f"{PROG}: note: {note}"), **_engine_options(args))


def _cmd_enumerate(args: argparse.Namespace) -> int:
    from .run import solutions

    _check_board(args.format, args.n)
    start = time.perf_counter()
    with solutions(args.n, args.engine, limit=args.limit, **_search_keywords(args)) as search:
        count = _emit(search, args.format, args.n)
    seconds = time.perf_counter() - start
    stopped = f", stopped at --limit {args.limit}" if args.limit is not None and count >= args.limit else ""
    stopped += f", stopped at --time-limit {args.time_limit:g} s" if search.timed_out else ""
    what = f"{_solutions_word(count, args.unique)} for N={args.n}"
    _summarize(args.format, f"{what} (engine {args.engine}, {seconds:.2f} s{stopped})")
    if args.stats:
        _say(_stats_line(search.stats))
    return EXIT_OK


def _stats_line(stats: dict[str, Any]) -> str:
    from .reporting import format_stats

    return format_stats(stats)


def _add_count(sub: Any) -> None:
    p = sub.add_parser(
        "count", help="print the number of solutions",
        description="Count the solutions of N-queens.  With --format text the last line of stdout is the "
        "count, a bare integer; with --format json one JSON object with the statistics.",
    )
    _add_search_options(p, limit=False)
    _add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_count)


def _cmd_count(args: argparse.Namespace) -> int:
    from .run import counted

    progress = _Progress.make(f"count {args.n}")
    try:
        result = counted(args.n, args.engine, progress=progress, **_search_keywords(args))
    finally:
        if progress:
            progress.clear()
    _CtrlC.write(sys.stdout, (_json(result) if args.format == "json" else str(result.count)) + "\n")
    if args.stats:
        _say(_stats_line(result.stats))
    return EXIT_OK


def _json(result: Any) -> str:
    from .reporting import to_json

    return to_json(result)


# --- crosscheck ------------------------------------------------------------------------

def _add_crosscheck(sub: Any) -> None:
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
                   help=f"engines to compare, in order (default: every available one of {', '.join(names(enumerates=True))})")
    _add_engine_options(p, names(enumerates=True))
    _add_jobs(p)
    _add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_crosscheck)


def _cmd_crosscheck(args: argparse.Namespace) -> int:
    from .crosscheck import crosscheck

    text = args.format == "text"
    progress = _Progress.make("crosscheck") if text else None
    shown: list[str] = []

    def row_done(row: Any) -> None:
        if progress:
            progress.clear()
        if not shown:
            shown.extend(r.engine for r in row.results)
            cell = "{:>10} {:>7} {:<5}"
            _CtrlC.write(sys.stdout, (f"{'N':>3} {'known':>10} {'unique':>8}  " + "  ".join(f"{e:^24}" for e in shown)).rstrip()
                         + "\n" + (f"{'':>20}  " + "  ".join(cell.format("count", "time", "agree") for _ in shown)).rstrip() + "\n")
        cells = "  ".join(f"{r.count:>10} {f'{r.seconds:.2f}s':>7} {'yes' if r.agrees else 'NO':<5}" for r in row.results)
        known = "?" if row.known is None else row.known
        _CtrlC.write(sys.stdout, f"{row.n:>3} {known:>10} {row.unique:>8}  {cells}".rstrip() + "\n")
        sys.stdout.flush()

    report = crosscheck([n for spec in args.specs for n in spec], args.engines, jobs=args.jobs,
                        progress=progress.text if progress else None, rows=row_done if text else None,
                        **_engine_options(args))
    if progress:
        progress.clear()
    for name, reason in report.skipped.items():
        _say(f"{PROG} crosscheck: skipped engine {name}: {reason}")
    if not text:
        _CtrlC.write(sys.stdout, _json(report) + "\n")
    for problem in report.problems:
        _say(f"{PROG} crosscheck: {problem}")
    if not report.ok:
        return EXIT_FAILURE
    if text:
        checked = ", ".join(str(row.n) for row in report.rows)
        _say(f"all {len(report.engines)} engines agree on every N ({checked})")
    return EXIT_OK


# --- compare ----------------------------------------------------------------------------

def _add_compare(sub: Any) -> None:
    from .compare import VARIANT, labels

    p = sub.add_parser(
        "compare", help="time every engine side by side, each in a fresh process",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="For every N and engine, enumerate every solution (or, with --first, find one) in a\n"
        "fresh Python process, R times, and print the medians in an aligned table:\n\n"
        "  count, agrees   the count, checked against the other engines and OEIS A000170\n"
        "  wall            the whole process\n"
        "  startup         the interpreter and nqueens_cp itself\n"
        "  import          the engine's solver package (OR-Tools, python-sat)\n"
        "  search          building the model and searching\n"
        "  sol/s           solutions per second of search\n"
        "  nodes, tries    backtrackers: queens placed, placements tried\n"
        "  branches        cpsat: from the solver's response (with conflicts)\n"
        "  conflicts, decisions, propagations   sat: python-sat's accumulated statistics\n"
        "  steps           minconflicts: moves made\n"
        "  variables, constraints               model size (for sat, constraints are clauses)",
        epilog=f"engines: {', '.join(labels())}; ENGINE{VARIANT} adds symmetry breaking.\n"
        "examples:\n"
        "  nqueens-cp compare 4-12 --repeat 3 --csv compare.csv --plot compare.png\n"
        "  nqueens-cp compare 8-11 --engines cpsat,cpsat+sb,sat,sat+sb\n"
        "  nqueens-cp compare 10 20 50 --first --time-limit 10",
    )
    p.add_argument("specs", nargs="+", type=sizes, metavar="SPEC", help="N, a range 4-12, or a stepped range 4-12/2")
    p.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help="engines to time, in order (default: every available engine that can answer)")
    p.add_argument("--symmetry-breaking", action="store_true",
                   help=f"also time ENGINE{VARIANT} beside every engine that has symmetry breaking")
    p.add_argument("--repeat", "-r", type=positive_int, default=1, metavar="R",
                   help="fresh processes per measurement; the table shows medians (default: 1)")
    p.add_argument("--first", action="store_true", help="time the first solution instead of all of them")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop a measurement after SEC seconds and report it as a timeout")
    _add_outputs(p)
    p.set_defaults(handler=_cmd_compare)


def _cmd_compare(args: argparse.Namespace) -> int:
    from .compare import COLUMNS, compare, default_labels, problems, with_variants
    from .reporting import check_outputs, compare_plot, compare_table

    check_outputs(args.csv, args.json, args.plot)  # before the long part, not after it
    chosen = with_variants(args.engines, args.symmetry_breaking) if args.engines else \
        default_labels(args.first, args.symmetry_breaking)
    progress = _Progress.make("compare")
    rows = compare(sorted({n for spec in args.specs for n in spec}), chosen, args.repeat, args.first,
                   args.time_limit, progress.text if progress else None)
    if progress:
        progress.clear()
    _CtrlC.write(sys.stdout, compare_table(rows) + "\n")
    _write_files(args, rows, COLUMNS, lambda path: compare_plot(rows, path, args.first))
    for problem in problems(rows):
        _say(f"{PROG} compare: {problem}")
    return EXIT_FAILURE if problems(rows) else EXIT_OK


def _write_files(args: argparse.Namespace, rows: list[dict[str, Any]], columns: Sequence[str], plot: Any) -> None:
    from .reporting import write_csv, write_json

    if args.csv:
        write_csv(rows, args.csv, columns)
        _say(f"wrote {args.csv}")
    if args.json:
        write_json(rows, args.json)
        _say(f"wrote {args.json}")
    if args.plot:
        plot(args.plot)
        _say(f"wrote {args.plot}")


# --- solve ---------------------------------------------------------------------------------

def _add_solve(sub: Any) -> None:
    lines = "\n".join(f"  {name:<13} {engine_class(name).summary}" for name in ENGINE_NAMES)
    p = sub.add_parser(
        "solve", help="find one solution, optionally with queens already placed",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Find one solution of N-queens that keeps every pre-placed queen (the N-Queens\n"
        "Completion problem, NP-complete), or prove that none exists.  Every printed solution is\n"
        "validated.",
        epilog=f"""\
engines:
{lines}

exit codes:
  {EXIT_OK}  a solution was found (and printed)
  {EXIT_FAILURE}  proven: no solution exists (pre-placed queens that attack each other included)
  {EXIT_USAGE}  usage error: a placement off the board, two queens in a row, bad --place text, ...
  {EXIT_UNKNOWN}  unknown: the time limit (or local search's step budget) ran out first

examples:
  nqueens-cp solve 80 --place 0:3,5:17 --format line
  nqueens-cp solve 8 --place 0:0 --place 1:1 --engine backtrack     (none: exit 1)
  nqueens-cp solve 1000 --engine minconflicts --seed 7 -f json""",
    )
    _add_n(p)
    _add_engine(p, ENGINE_NAMES, DEFAULT_SOLVE_ENGINE, "fastest on completion questions, proves 'none'")
    _add_engine_options(p)
    _add_place(p)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC", help="give up after SEC seconds: 'unknown', exit 3")
    _add_format(p, SOLUTION_FORMATS)
    p.add_argument("--stats", action="store_true", help="print the engine's statistics on stderr")
    p.set_defaults(handler=_cmd_solve)


def _cmd_solve(args: argparse.Namespace) -> int:
    from .engines import Status
    from .run import solve

    _check_board(args.format, args.n)
    outcome = solve(args.n, args.engine, _fixed(args), time_limit=args.time_limit, **_engine_options(args))
    where = f"N={args.n}, {len(outcome.placed)} pre-placed, engine {args.engine}, {outcome.seconds:.2f} s"
    if args.format == "json":
        _CtrlC.write(sys.stdout, _json(outcome) + "\n")
    elif outcome.solution is not None:
        _CtrlC.write(sys.stdout, _solution_text(args.format, args.n, 1, outcome.solution))
    else:
        _CtrlC.write(sys.stdout, f"{outcome.status}: {outcome.reason}\n")
    if outcome.solution is not None:
        _summarize(args.format, f"{outcome.status} ({where})")
    else:
        sys.stdout.flush()
        _say(f"{outcome.status} ({where})")
    if args.stats:
        _say(_stats_line(outcome.stats))
    return {Status.SOLVED: EXIT_OK, Status.NONE: EXIT_FAILURE, Status.UNKNOWN: EXIT_UNKNOWN}[outcome.status]


# --- complete ---------------------------------------------------------------------------------

def _add_complete(sub: Any) -> None:
    p = sub.add_parser("complete", help="N-Queens Completion instances and the benchmark",
                       description="Generate N-Queens Completion instances, or run every engine on many of them.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    g = actions.add_parser(
        "generate", help="write an instance: N and K random non-attacking pre-placed queens",
        description="Write an N-Queens Completion instance as JSON: "
        '{"problem": "n-queens-completion", "n": N, "seed": S, "placed": [[row, col], ...], "place": "r:c,..."}. '
        "The same N, K and seed always give the same instance; it may or may not have a completion.",
    )
    _add_n(g)
    g.add_argument("k", type=whole, metavar="K", help="queens to pre-place, 0..N")
    g.add_argument("--seed", type=whole, default=0, metavar="S", help="random seed (default: 0)")
    g.add_argument("-o", "--output", default="-", metavar="FILE", help="write here, atomically; '-' or absent: stdout")
    g.set_defaults(handler=_cmd_complete_generate)
    takes_fixed = names(takes_fixed=True)
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
    _add_outputs(b)
    b.set_defaults(handler=_cmd_complete_bench)


def _cmd_complete_generate(args: argparse.Namespace) -> int:
    from .completion import generate, instance_json
    from .files import atomic_write_text

    text = json.dumps(instance_json(args.n, generate(args.n, args.k, args.seed), args.seed)) + "\n"
    if args.output == "-":
        _CtrlC.write(sys.stdout, text)
    else:
        atomic_write_text(args.output, text)
        _say(f"wrote {args.output}")
    return EXIT_OK


def _cmd_complete_bench(args: argparse.Namespace) -> int:
    from .completion import COLUMNS, bench
    from .reporting import check_outputs, completion_plot, completion_table

    check_outputs(args.csv, args.json, args.plot)
    progress = _Progress.make("complete bench")
    rows, problems = bench(sorted({n for spec in args.specs for n in spec}), args.placed, args.instances,
                           args.engines, args.time_limit, args.seed, progress.text if progress else None)
    if progress:
        progress.clear()
    _CtrlC.write(sys.stdout, completion_table(rows) + "\n")
    _write_files(args, rows, COLUMNS, lambda path: completion_plot(rows, path, args.time_limit))
    for problem in problems:
        _say(f"{PROG} complete bench: {problem}")
    return EXIT_FAILURE if problems else EXIT_OK


# --- dimacs, decode, encodings -------------------------------------------------------------------

def _add_dimacs(sub: Any) -> None:
    from .encodings import DEFAULT_ENCODING, ENCODINGS

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
        "The same arguments always give a byte-identical file.",
        epilog="examples:\n"
        "  nqueens-cp dimacs 8 -o q8.cnf && clasp -n 0 q8.cnf > q8.out; nqueens-cp decode q8.cnf q8.out\n"
        "  nqueens-cp dimacs 12 --encoding ladder | picosat",
    )
    _add_n(p)
    p.add_argument("--encoding", choices=tuple(ENCODINGS), default=DEFAULT_ENCODING, metavar="NAME",
                   help=f"how at-most-one is encoded: one of {', '.join(ENCODINGS)} (default: {DEFAULT_ENCODING})")
    _add_place(p)
    p.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="write here, atomically (a temporary file, then a rename; through a symlink, where it "
                   "points); '-' or absent: stdout")
    p.set_defaults(handler=_cmd_dimacs)


def _cmd_dimacs(args: argparse.Namespace) -> int:
    from .cnf import size
    from .dimacs import write_dimacs, write_dimacs_file

    fixed = _fixed(args)
    nvars, nclauses = size(args.n, args.encoding, fixed)
    if nclauses > 10**8:
        _say(f"{PROG}: note: N={args.n} with {args.encoding} has {nclauses:,} clauses, about "
             f"{nclauses * 12 / 1e9:.0f} GB of DIMACS; --encoding seqcounter is linear in N^2")
    if args.output == "-":
        write_dimacs(sys.stdout, args.n, args.encoding, fixed)
        return EXIT_OK
    progress = _Progress.make(f"dimacs {args.n}")
    try:
        write_dimacs_file(args.output, args.n, args.encoding, fixed,
                          progress=(lambda done, total: progress.text(f"dimacs: {done:,} of {total:,} clauses"))
                          if progress else None)
    finally:
        if progress:
            progress.clear()
    _say(f"wrote {args.output}: N={args.n}, encoding {args.encoding}, {nvars} variables, {nclauses} clauses")
    return EXIT_OK


def _add_decode(sub: Any) -> None:
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
    _add_format(p, SOLUTION_FORMATS)
    p.set_defaults(handler=_cmd_decode)


def _open(path: str) -> TextIO:
    from .dimacs import DimacsError

    if path == "-":
        return sys.stdin
    try:
        return open(path, encoding="utf-8", errors="replace")
    except OSError as error:
        raise DimacsError(f"cannot read {path}: {error.strerror or error}") from None


def _cmd_decode(args: argparse.Namespace) -> int:
    from .dimacs import Decoding, read_cnf

    with _open(args.cnf) as cnf:
        header = read_cnf(cnf, args.cnf)
    _check_board(args.format, header.n)
    name = "stdin" if args.answer == "-" else args.answer
    answer = _open(args.answer)
    try:
        decoding = Decoding(header, answer, name)
        count = _emit(decoding, args.format, header.n, flush=True)
    finally:
        if answer is not sys.stdin:
            answer.close()
    repeats = f"; {decoding.models} models, {decoding.repeated} of them repeats" if decoding.repeated else ""
    _summarize(args.format, f"{_solutions_word(count)} decoded for N={header.n} (encoding {header.encoding}), "
               f"all valid{repeats}")
    return EXIT_OK


def _add_encodings(sub: Any) -> None:
    from .engines.sat import DEFAULT_SOLVER, SOLVERS
    from .cnf import COUNT_MAX_N

    p = sub.add_parser(
        "encodings", help="compare the at-most-one encodings on one N",
        description="One row per at-most-one encoding of the CNF: variables, clauses, literals, and, up to "
        f"N={COUNT_MAX_N} (or with --count), the time for the sat engine to enumerate every solution of N "
        "(its count is checked against the others and OEIS A000170).",
    )
    _add_n(p)
    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, metavar="NAME",
                   help=f"python-sat solver (default: {DEFAULT_SOLVER})")
    p.add_argument("--count", action=argparse.BooleanOptionalAction, default=None,
                   help=f"enumerate every solution under each encoding (default: only up to N={COUNT_MAX_N})")
    _add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_encodings)


def _cmd_encodings(args: argparse.Namespace) -> int:
    from .cnf import COUNT_MAX_N, compare_encodings
    from .reporting import table

    count = args.count if args.count is not None else args.n <= COUNT_MAX_N
    if args.count is None and not count:
        _say(f"{PROG} encodings: sizes only: enumerating N={args.n} under six encodings would take too long "
             "(--count asks for it)")
    progress = _Progress.make("encodings")
    result = compare_encodings(args.n, args.solver, count, progress.text if progress else None)
    if progress:
        progress.clear()
    if args.format == "json":
        _CtrlC.write(sys.stdout, _json(result) + "\n")
    else:
        columns = ["encoding", "variables", "clauses", "literals"] + (["solutions", "seconds"] if count else [])
        _CtrlC.write(sys.stdout, table(result.rows, columns, left=("encoding",)) + "\n")
    if result.problem:
        raise NQueensError(result.problem)
    return EXIT_OK


# --- engines ------------------------------------------------------------------

def _add_engines(sub: Any) -> None:
    p = sub.add_parser("engines", help="list the engines, what each can do and whether it can run here",
                       description="List every engine: whether it is available here, whether it enumerates "
                       "(and so counts and cross-checks), whether its 'none' is a proof, whether it takes "
                       "pre-placed queens, its own options, and what it is.")
    _add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=_cmd_engines)


def _cmd_engines(args: argparse.Namespace) -> int:
    from .reporting import table

    found = [engine_class(name).capabilities() for name in ENGINE_NAMES]
    if args.format == "json":
        _CtrlC.write(sys.stdout, _json({"default": DEFAULT_ENGINE, "engines": found}) + "\n")
        return EXIT_OK
    rows = [{**c, "engine": c["name"] + (" *" if c["name"] == DEFAULT_ENGINE else ""),
             "available": c["available"] if c["available"] else f"no: {c['unavailable_reason']}",
             "proves none": c["proves_none"], "fixed": c["takes_fixed"],
             "options": ",".join(o["flag"] for o in c["options"].values()) or "-"} for c in found]
    columns = ["engine", "available", "enumerates", "proves none", "fixed", "options", "summary"]
    _CtrlC.write(sys.stdout, table(rows, columns, left=("engine", "available", "enumerates", "proves none", "fixed",
                                                       "options", "summary")) + "\n")
    _say(f"* the default engine (solve defaults to {DEFAULT_SOLVE_ENGINE})")
    return EXIT_OK


# --- main ---------------------------------------------------------------------

def _main_epilog() -> str:
    engines = "\n".join(f"  {name:<13} {engine_class(name).summary}" for name in ENGINE_NAMES)
    return f"""\
engines (--engine; 'nqueens-cp engines' says what each can do):
{engines}

examples:
  nqueens-cp enumerate 8                     the 92 boards, then a summary
  nqueens-cp enumerate 12 -e cpsat -f json   JSON Lines, one solution each
  nqueens-cp count 12 --engine sat --stats   14200, statistics on stderr
  nqueens-cp crosscheck 1-10                 every engine, exact sets
  nqueens-cp compare 4-12 --plot t.png       timings and statistics side by side
  nqueens-cp solve 80 --place 0:3,5:17 -f line   one solution keeping placed queens
  nqueens-cp dimacs 8 -o q8.cnf              DIMACS CNF for any SAT solver
  clasp -n 0 q8.cnf | nqueens-cp decode q8.cnf -   the solver's models as boards
  nqueens-cp encodings 9                     at-most-one encodings compared

exit codes:
  {EXIT_OK}    success (also when N has no solution, as N = 2 or 3)
  {EXIT_FAILURE}    failure: a cross-check disagreed, a solver failed, a file is missing,
       malformed or unwritable (a full disk, a closed stdout), an answer is
       UNSAT or invalid; solve: proven that no solution exists
  {EXIT_USAGE}    usage error: bad N, unknown engine or format, an option the engine
       does not take, ...
  {EXIT_UNKNOWN}    solve, count: the time limit came before an answer
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C); the output so far is intact
  {EXIT_BROKEN_PIPE}  the reader of stdout went away (e.g. | head); nothing printed

Run 'nqueens-cp COMMAND --help' for a command's options."""


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Model N-queens declaratively (CP-SAT, CNF on a SAT solver) and check it\n"
        "against hand-written search (textbook and bitwise backtracking).\n"
        "A solution is the 0-based column of the queen in each row.",
        epilog=_main_epilog(),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in (_add_enumerate, _add_count, _add_crosscheck, _add_compare, _add_solve, _add_complete,
                _add_dimacs, _add_decode, _add_encodings, _add_engines):
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:  # started with stdout closed (>&-)
        print(f"{PROG}: error: stdout is closed", file=sys.stderr)
        return EXIT_FAILURE
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors
        code = exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
        return _finish(code, PROG)
    except OSError as error:  # --help or --version could not be written
        _silence_stdout()
        _say(f"{PROG}: cannot write output: {error.strerror or error}")
        return EXIT_FAILURE
    try:
        previous = signal.signal(signal.SIGINT, _CtrlC.handler)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    where = f"{PROG} {args.command}"
    try:
        return _finish(args.handler(args), where)
    except KeyboardInterrupt:
        _CtrlC.writing = True  # a second Ctrl-C must not cut the flush short
        _finish(EXIT_OK, where)
        _say(f"{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:  # a write to stdout failed: a full disk, a closed descriptor
        _silence_stdout()
        _say(f"{where}: cannot write output: {error.strerror or error}")
        return EXIT_FAILURE
    except InvalidInputError as error:
        _finish(EXIT_OK, where)
        _say(f"{where}: error: {error}")
        return EXIT_USAGE
    except TimeLimitReached as error:
        _finish(EXIT_OK, where)
        _say(f"{where}: unknown: {error}")
        return EXIT_UNKNOWN
    except NQueensError as error:
        _finish(EXIT_OK, where)
        _say(f"{where}: {error}")
        return EXIT_FAILURE
    finally:
        _CtrlC.writing = _CtrlC.pending = False
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _finish(code: int, where: str) -> int:
    """Flush stdout now, so that a failed write is reported (one line, exit 1), not lost at exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE if code == EXIT_OK else code
    except OSError as error:
        _silence_stdout()
        reason = "stdout is closed" if error.errno == errno.EBADF else error.strerror or str(error)
        _say(f"{where}: cannot write output: {reason}")
        return EXIT_FAILURE
    return code


def _silence_stdout() -> None:
    """After stdout has failed, point it at /dev/null so that the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
