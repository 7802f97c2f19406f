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
import signal
import sys
import time
from collections.abc import Iterable, Sequence
from itertools import islice
from typing import Any, NoReturn, TextIO

from . import __version__, parallel
from .board import render
from .encodings import DEFAULT_ENCODING, ENCODINGS
from .engines import DEFAULT_ENGINE, ENGINE_NAMES, SOLVE_ENGINES, availability, engine_class, get_engine
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
    _add_sat_options(p)


def _add_encoding_option(p: argparse.ArgumentParser, help_: str) -> None:
    p.add_argument("--encoding", choices=tuple(ENCODINGS), metavar="NAME",
                   help=f"{help_}: one of {', '.join(ENCODINGS)} (default: {DEFAULT_ENCODING})")


def _add_sat_options(p: argparse.ArgumentParser) -> None:
    from .engines.sat import DEFAULT_SOLVER, SOLVERS

    p.add_argument(
        "--solver", choices=SOLVERS, metavar="NAME",
        help=f"python-sat solver for the sat engine (default: {DEFAULT_SOLVER}); one of {', '.join(SOLVERS)}",
    )
    _add_encoding_option(p, "at-most-one encoding of the sat engine's CNF")


# option -> the engines it applies to
_ENGINE_SPECIFIC = {"solver": ("sat",), "encoding": ("sat",), "symmetry_breaking": ("cpsat", "sat")}


def _engine_options(args: argparse.Namespace, engines: Sequence[str]) -> dict[str, dict[str, Any]]:
    """engine -> its engine-specific options given on the command line; an
    error for an option that applies to none of ``engines``."""
    given = {key: getattr(args, key) for key in _ENGINE_SPECIFIC if getattr(args, key, None) not in (None, False)}
    for key in given:
        applies = _ENGINE_SPECIFIC[key]
        if not set(applies) & set(engines):
            flag = "--" + key.replace("_", "-")
            raise InvalidInputError(f"{flag} applies only to the {' and '.join(applies)} engine{'s' * (len(applies) > 1)}")
    return {engine: {k: v for k, v in given.items() if engine in _ENGINE_SPECIFIC[k]} for engine in engines}


def _get_engine(args: argparse.Namespace) -> Any:
    return get_engine(args.engine, **_engine_options(args, [args.engine])[args.engine])


def _add_jobs_option(p: argparse.ArgumentParser) -> None:
    from .parallel import PARALLEL_MIN_N, default_jobs

    p.add_argument("--jobs", "-j", type=positive_int, default=default_jobs(), metavar="J",
                   help=f"processes to split the search over by fixing the first rows (default: the "
                   f"number of cores, {default_jobs()} here); 1 means in-process.  Boards below "
                   f"N={PARALLEL_MIN_N} always run in-process.  The output order does not depend on J")


def _add_symmetry_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--unique", action="store_true",
                   help="one solution per class under the 8 symmetries of the square, in canonical "
                   "(lexicographically least) form: 12 for N=8 (OEIS A002562)")
    p.add_argument("--symmetry-breaking", action="store_true",
                   help="cpsat and sat: add lex-leader constraints (first row, all 8 symmetries) and "
                   "expand the survivors' orbits; the output is still the exact full set")


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class _CtrlC:
    """Ctrl-C that waits for the current write to finish.

    Python raises KeyboardInterrupt between any two bytecodes, which can be
    in the middle of a buffered write whose system call was interrupted: the
    line then comes out cut or twice.  While a write is under way, the
    interrupt is only noted, and raised as soon as the write is complete.
    """

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


def _write_solution(out: TextIO, fmt: str, n: int, index: int, solution: tuple[int, ...]) -> None:
    # One write per solution, never interrupted halfway: no half lines.
    if fmt == "board":
        text = f"Solution {index}:\n{render(solution)}\n\n"
    elif fmt == "line":
        text = " ".join(map(str, solution)) + "\n"
    else:
        text = json.dumps({"n": n, "index": index, "solution": list(solution)}) + "\n"
    _CtrlC.write(out, text)


def _emit(solutions: Iterable[tuple[int, ...]], fmt: str, n: int) -> int:
    """Write solutions to stdout in a format; returns how many."""
    count = 0
    for count, solution in enumerate(solutions, 1):
        _write_solution(sys.stdout, fmt, n, count, solution)
    return count


def _summarize(fmt: str, summary: str) -> None:
    """The board format is for people: its summary ends stdout.  The others are
    data: their summary goes to stderr."""
    if fmt == "board":
        sys.stdout.write(summary + "\n")
    else:
        sys.stdout.flush()
        _say(summary)


def _solutions(count: int, unique: bool = False) -> str:
    kind = " fundamental" if unique else ""
    return f"{count}{kind} solution" + ("" if count == 1 else "s")


class _Split:
    """Solutions from sub-problems in worker processes, with merged statistics."""

    def __init__(self, engine: Any, n: int, jobs: int) -> None:
        self.stats: dict[str, Any] = {}
        self._it = parallel.solutions(engine, n, None, jobs, self.stats)

    def __iter__(self) -> Any:
        return self._it

    def __enter__(self) -> _Split:
        return self

    def __exit__(self, *exc: object) -> None:
        self._it.close()


def _search(engine: Any, args: argparse.Namespace, limit: int | None = None) -> Any:
    """The engine's solutions, split across processes when that pays.

    A split search produces nothing until its first sub-problem is done, so
    a --limit, which wants the first few solutions soon, stays in-process.
    """
    if parallel.splits(args.n) and getattr(args, "limit", None) is None:
        return _Split(engine, args.n, args.jobs)
    return engine.search(args.n, limit=limit)


def _unique(solutions: Iterable[tuple[int, ...]], limit: int | None = None) -> Iterable[tuple[int, ...]]:
    """One canonical solution per symmetry class, at most ``limit`` of them."""
    from .symmetry import fundamental

    return islice(fundamental(solutions), limit)


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
    _add_symmetry_options(p)
    _add_jobs_option(p)
    p.add_argument("--limit", "-k", type=positive_int, metavar="K", help="stop after K solutions")
    p.add_argument("--format", "-f", default="board", choices=FORMATS, metavar="FORMAT",
                   help="board (default), line or json")
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")
    p.set_defaults(handler=_cmd_enumerate)


def _cmd_enumerate(args: argparse.Namespace) -> int:
    if args.format == "board" and args.n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")
    engine = _get_engine(args)
    start = time.perf_counter()
    with _search(engine, args, None if args.unique else args.limit) as search:
        stream = _unique(search, args.limit) if args.unique else search
        count = _emit(stream, args.format, args.n)
    seconds = time.perf_counter() - start
    stopped = f", stopped at --limit {args.limit}" if args.limit is not None and count >= args.limit else ""
    what = f"{_solutions(count, args.unique)} for N={args.n}"
    _summarize(args.format, f"{what} (engine {args.engine}, {seconds:.2f} s{stopped})")
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
    _add_symmetry_options(p)
    _add_jobs_option(p)
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")
    p.set_defaults(handler=_cmd_count)


def _cmd_count(args: argparse.Namespace) -> int:
    engine = _get_engine(args)
    if args.unique:
        with _search(engine, args) as search:
            count = sum(1 for _ in _unique(search))
    elif parallel.splits(args.n):
        search = _Split(engine, args.n, args.jobs)
        count = parallel.count(engine, args.n, None, args.jobs, search.stats)
    else:
        search = engine.search(args.n)
        count = search.count()
    print(count, flush=True)
    if args.stats:
        _say(_format_stats(search.stats))
    return EXIT_OK


# --- crosscheck ---------------------------------------------------------------

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
    p.add_argument("specs", nargs="+", type=board_sizes, metavar="SPEC", help="N, or a range such as 1-10")
    p.add_argument("--engines", type=_engine_list, metavar="E1,E2,...",
                   help="engines to compare, in order (default: every available engine)")
    _add_sat_options(p)
    p.add_argument("--symmetry-breaking", action="store_true",
                   help="run cpsat and sat with symmetry breaking and orbit expansion")
    _add_jobs_option(p)
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
    available = availability()
    names = args.engines or [name for name, reason in available.items() if reason is None]
    for name, reason in available.items():
        if reason and name in names:
            raise EngineUnavailableError(f"engine '{name}' is unavailable: {reason}")
        if reason and not args.engines:
            _say(f"skipping engine {name}: {reason}")
    engines = {name: get_engine(name, **options) for name, options in _engine_options(args, names).items()}
    progress = _progress if sys.stderr.isatty() else None

    def cell(count: object, seconds: object, agree: object) -> str:
        return f"{count:>10} {seconds:>7} {agree:<5}"

    print((f"{'N':>3} {'known':>10} {'unique':>8}  " + "  ".join(f"{name:^24}" for name in names)).rstrip())
    print((f"{'':>3} {'':>10} {'':>8}  " + "  ".join(cell("count", "time", "agree") for _ in names)).rstrip())
    problems: list[str] = []
    for n in sizes:
        row = check_n(n, engines, progress, args.jobs)
        if progress:
            progress("")
        known = "?" if row.known is None else str(row.known)
        cells = "  ".join(cell(r.count, f"{r.seconds:.2f}s", "yes" if r.agrees else "NO") for r in row.results)
        print(f"{n:>3} {known:>10} {row.unique:>8}  {cells}".rstrip(), flush=True)
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


# --- compare ----------------------------------------------------------------------------

def _add_compare(sub: Any) -> None:
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
        "  variables, constraints               model size (for sat, constraints are clauses)",
        epilog="engines: backtrack, bitmask, cpsat, sat; cpsat+sb and sat+sb add symmetry breaking.\n"
        "examples:\n"
        "  nqueens-cp compare 4-12 --repeat 3 --csv compare.csv --plot compare.png\n"
        "  nqueens-cp compare 8-11 --engines cpsat,cpsat+sb,sat,sat+sb\n"
        "  nqueens-cp compare 10 20 50 --first --time-limit 10",
    )
    p.add_argument("specs", nargs="+", type=board_sizes, metavar="SPEC", help="N, or a range such as 4-12")
    p.add_argument("--engines", type=_label_list, metavar="E1,E2,...",
                   help="engines to time, in order (default: every available engine)")
    p.add_argument("--symmetry-breaking", action="store_true",
                   help="also time cpsat+sb and sat+sb beside cpsat and sat")
    p.add_argument("--repeat", "-r", type=positive_int, default=1, metavar="R",
                   help="fresh processes per measurement; the table shows medians (default: 1)")
    p.add_argument("--first", action="store_true", help="time the first solution instead of all of them")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop a measurement after SEC seconds and report it as a timeout")
    p.add_argument("--csv", metavar="FILE", help="also write the rows as CSV")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw search time against N, log scale (needs matplotlib: pip install 'nqueens-cp[plot]')")
    p.set_defaults(handler=_cmd_compare)


def _write_rows(args: argparse.Namespace, rows: list[dict[str, Any]], columns: Sequence[str],
                plot: Any) -> None:
    """--csv, --json and --plot, for compare and complete bench."""
    from .compare import write_csv, write_json

    for path, write in ((args.csv, write_csv), (args.json, write_json)):
        if path:
            write(rows, path, columns)
            _say(f"wrote {path}")
    if args.plot:
        plot(args.plot)
        _say(f"wrote {args.plot}")


def _label_list(text: str) -> list[str]:
    from .compare import parse_label

    labels = [label.strip() for label in text.split(",") if label.strip()]
    if not labels:
        raise argparse.ArgumentTypeError("no engine named")
    for label in labels:
        try:
            parse_label(label)
        except InvalidInputError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return list(dict.fromkeys(labels))


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got '{text}'")
    return value


def _cmd_compare(args: argparse.Namespace) -> int:
    from .compare import COLUMNS, compare, format_table, require_matplotlib, write_plot

    if args.plot:
        require_matplotlib()  # before the long part, not after it
    sizes = sorted({n for spec in args.specs for n in spec})
    labels = args.engines or [name for name, reason in availability().items() if reason is None]
    if args.symmetry_breaking:
        labels = [x for label in labels for x in ([label, label + "+sb"] if label in ("cpsat", "sat") else [label])]
        labels = list(dict.fromkeys(labels))
    progress = _progress if sys.stderr.isatty() else None
    rows = compare(sizes, labels, args.repeat, args.first, args.time_limit, progress)
    if progress:
        progress("")
    print(format_table(rows), flush=True)
    _write_rows(args, rows, COLUMNS, lambda path: write_plot(rows, path, args.first))
    failed = False
    for row in rows:
        if row["agrees"] is False:
            _say(f"{PROG} compare: N={row['n']}: engine {row['engine']} counted {row['count']}, which disagrees")
            failed = True
        elif row["status"].startswith("error"):
            _say(f"{PROG} compare: N={row['n']}: engine {row['engine']} failed: {row['status']}")
            failed = True
    if failed:
        return EXIT_FAILURE
    return EXIT_OK


# --- solve ---------------------------------------------------------------------------------

EXIT_UNKNOWN = 3  # solve: the time limit came before an answer


def placements(text: str) -> dict[int, int]:
    """--place 'R:C,R:C,...' (0-based) -> {row: column}."""
    placed: dict[int, int] = {}
    for item in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*:\s*(\d+)\s*", item)
        if not match:
            raise argparse.ArgumentTypeError(f"expected ROW:COL pairs separated by commas (e.g. 0:0,3:5), got '{item.strip()}'")
        row, col = map(int, match.groups())
        if row in placed:
            raise argparse.ArgumentTypeError(f"two queens in row {row} ({row}:{placed[row]} and {row}:{col})")
        placed[row] = col
    return placed


def _add_solve(sub: Any) -> None:
    p = sub.add_parser(
        "solve", help="find one solution, optionally with queens already placed",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Find one solution of N-queens that keeps every pre-placed queen (the N-Queens\n"
        "Completion problem, NP-complete), or prove that none exists.  Every printed solution is\n"
        "validated.",
        epilog=f"""\
engines:
  cpsat         CP-SAT, pre-placed queens as fixed values (default: proves 'none' too)
  sat           CNF on CaDiCaL, pre-placed queens as unit clauses (sequential counter above N=60)
  backtrack     textbook search, pre-placed queens as fixed rows
  bitmask       bitwise search, pre-placed queens as fixed rows
  construct     an O(N) formula (by N mod 6) for plain N: 'solve 1000000 -e construct -f line'
  minconflicts  min-conflicts local search (--seed); pre-placed queens never move; it cannot
                prove 'none', so without a time limit it gives up after 200N + 10000 steps

exit codes:
  {EXIT_OK}  a solution was found (and printed)
  {EXIT_FAILURE}  proven: no solution exists (pre-placed queens that attack each other included)
  {EXIT_USAGE}  usage error: a placement off the board, two queens in a row, bad --place text, ...
  {EXIT_UNKNOWN}  unknown: the time limit (or local search's step budget) ran out first

examples:
  nqueens-cp solve 80 --place 0:3,5:17 --format line
  nqueens-cp solve 8 --place 0:0,1:1 --engine backtrack     (none: exit 1)
  nqueens-cp solve 1000 --engine minconflicts --seed 7 -f json""",
    )
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")
    p.add_argument("--engine", "-e", default="cpsat", choices=SOLVE_ENGINES, metavar="E",
                   help=f"one of {', '.join(SOLVE_ENGINES)} (default: cpsat)")
    p.add_argument("--place", type=placements, default={}, metavar="R:C,...",
                   help="pre-placed queens, 0-based row:column pairs")
    p.add_argument("--seed", type=int, metavar="S", help="random seed, for minconflicts and cpsat")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC", help="give up after SEC seconds: 'unknown', exit 3")
    p.add_argument("--format", "-f", default="board", choices=FORMATS, metavar="FORMAT",
                   help="board (default; refused above N=64), line or json")
    _add_sat_options(p)
    p.add_argument("--stats", action="store_true", help="print the engine's statistics on stderr")
    p.set_defaults(handler=_cmd_solve)


def _cmd_solve(args: argparse.Namespace) -> int:
    from .board import check_placements
    from .solve import NONE, SOLVED, solve

    if args.format == "board" and args.n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")
    check_placements(args.n, args.place)
    options = _engine_options(args, [args.engine])[args.engine]
    outcome = solve(args.n, args.engine, args.place, args.time_limit, args.seed, **options)
    where = f"N={args.n}, {len(args.place)} pre-placed, engine {args.engine}, {outcome.seconds:.2f} s"
    if outcome.status == SOLVED:
        assert outcome.solution is not None
        if args.format == "json":
            record = {"n": args.n, "status": "solved", "solution": list(outcome.solution),
                      "engine": args.engine, "seconds": round(outcome.seconds, 6)}
            _CtrlC.write(sys.stdout, json.dumps(record) + "\n")
        else:
            _write_solution(sys.stdout, args.format, args.n, 1, outcome.solution)
        _summarize(args.format, f"solved ({where})")
        code = EXIT_OK
    else:
        word = "none" if outcome.status == NONE else "unknown"
        if args.format == "json":
            sys.stdout.write(json.dumps({"n": args.n, "status": word, "reason": outcome.reason,
                                         "engine": args.engine, "seconds": round(outcome.seconds, 6)}) + "\n")
        else:
            sys.stdout.write(f"{word}: {outcome.reason}\n")
        sys.stdout.flush()
        _say(f"{word} ({where})")
        code = EXIT_FAILURE if outcome.status == NONE else EXIT_UNKNOWN
    if args.stats:
        _say(_format_stats(outcome.stats))
    return code


# --- complete -------------------------------------------------------------------------------

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
    g.add_argument("n", type=positive_int, metavar="N", help="board size")
    g.add_argument("k", type=int, metavar="K", help="queens to pre-place, 0..N")
    g.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default: 0)")
    g.add_argument("-o", "--output", default="-", metavar="FILE", help="write here, atomically; '-' or absent: stdout")
    g.set_defaults(handler=_cmd_complete_generate)
    b = actions.add_parser(
        "bench", help="run every engine on generated instances",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="For every N, generate M instances (seeds S, S+1, ...) with K pre-placed queens and solve\n"
        "each with every engine under a time limit.  One row per N and engine: solved, proven-none and\n"
        "unknown counts, median and worst time, and the median effort (nodes for the backtrackers,\n"
        "conflicts for cpsat and sat, steps for minconflicts).  Exit 1 if complete engines disagree on\n"
        "whether an instance has a completion.",
        epilog="example: nqueens-cp complete bench 20-100/20 --placed 0.4 --instances 5 --time-limit 5 --plot c.png",
    )
    b.add_argument("specs", nargs="+", type=_bench_sizes, metavar="SPEC", help="N, a range 20-100, or a stepped range 20-100/20")
    b.add_argument("--placed", required=True, metavar="K|FRACTION", help="pre-placed queens: a count, or a fraction of N such as 0.4")
    b.add_argument("--instances", "-m", type=positive_int, default=5, metavar="M", help="instances per N (default: 5)")
    b.add_argument("--engines", type=_solve_engine_list, metavar="E1,E2,...",
                   help="default: cpsat,sat,backtrack,bitmask,minconflicts")
    b.add_argument("--time-limit", type=positive_float, default=10.0, metavar="SEC", help="per engine and instance (default: 10)")
    b.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the first instance (default: 0)")
    b.add_argument("--csv", metavar="FILE", help="also write the rows as CSV")
    b.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    b.add_argument("--plot", metavar="FILE.png", help="median time against N (needs matplotlib)")
    b.set_defaults(handler=_cmd_complete_bench)


def _bench_sizes(text: str) -> list[int]:
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not match:
        return board_sizes(text)
    low, high, step = (positive_int(part) for part in match.groups())
    if low > high:
        raise argparse.ArgumentTypeError(f"range '{text}' runs backwards")
    return list(range(low, high + 1, step))


def _solve_engine_list(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in SOLVE_ENGINES or name == "construct":
            raise argparse.ArgumentTypeError(
                f"unknown engine '{name}' (choose from {', '.join(e for e in SOLVE_ENGINES if e != 'construct')}; "
                "construct takes no pre-placed queens)")
    if not names:
        raise argparse.ArgumentTypeError("no engine named")
    return list(dict.fromkeys(names))


def _cmd_complete_generate(args: argparse.Namespace) -> int:
    from .completion import generate, instance_json
    from .files import atomic_write_text

    text = json.dumps(instance_json(args.n, generate(args.n, args.k, args.seed), args.seed)) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        atomic_write_text(args.output, text)
        _say(f"wrote {args.output}")
    return EXIT_OK


def _cmd_complete_bench(args: argparse.Namespace) -> int:
    from .compare import require_matplotlib
    from .completion import BENCH_ENGINES, COLUMNS, bench, format_table, placed_count, write_plot

    if args.plot:
        require_matplotlib()
    sizes = sorted({n for spec in args.specs for n in spec})
    for n in sizes:
        placed_count(n, args.placed)  # refuse a bad --placed before any work
    engines = args.engines or list(BENCH_ENGINES)
    progress = _progress if sys.stderr.isatty() else None
    rows, problems = bench(sizes, args.placed, args.instances, engines, args.time_limit, args.seed, progress)
    if progress:
        progress("")
    print(format_table(rows), flush=True)
    _write_rows(args, rows, COLUMNS, lambda path: write_plot(rows, path, args.time_limit))
    for problem in problems:
        _say(f"{PROG} complete bench: {problem}")
    return EXIT_FAILURE if problems else EXIT_OK


# --- dimacs -------------------------------------------------------------------------

def _add_dimacs(sub: Any) -> None:
    p = sub.add_parser(
        "dimacs", help="write N-queens as DIMACS CNF for any SAT solver",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Write N-queens as standard DIMACS CNF over N*N cell variables (plus the\n"
        "encoding's auxiliary variables).  The header maps cells to variables:\n\n"
        "  c nqueens n=<N> encoding=<NAME>\n"
        "  c q <row> <col> <var>          one line per cell, 0-based\n"
        "  c p show <var> ... 0           the cell variables, for projected model counters\n"
        "  p cnf <variables> <clauses>\n\n"
        "The same arguments always give a byte-identical file.",
        epilog="examples:\n"
        "  nqueens-cp dimacs 8 -o q8.cnf && clasp -n 0 q8.cnf > q8.out; nqueens-cp decode q8.cnf q8.out\n"
        "  nqueens-cp dimacs 12 --encoding ladder | picosat",
    )
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")
    _add_encoding_option(p, "how at-most-one is encoded")
    p.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="write here, atomically (a temporary file, then a rename); '-' or absent: stdout")
    p.set_defaults(handler=_cmd_dimacs)


def _cmd_dimacs(args: argparse.Namespace) -> int:
    from .cnf import encode
    from .dimacs import dimacs_text
    from .files import atomic_write_text

    cnf = encode(args.n, args.encoding or DEFAULT_ENCODING)
    text = dimacs_text(cnf)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        atomic_write_text(args.output, text)
        _say(f"wrote {args.output}: N={args.n}, encoding {cnf.encoding}, {cnf.nvars} variables, {len(cnf.clauses)} clauses")
    return EXIT_OK


# --- decode -------------------------------------------------------------------------

def _add_decode(sub: Any) -> None:
    p = sub.add_parser(
        "decode", help="turn a SAT solver's answer on our CNF back into boards",
        description="Read the cell map from CNF_FILE's comments and print the board of every model in "
        "SOLVER_OUTPUT, each validated.  Understands the SAT-competition form ('s SATISFIABLE' and 'v ... 0' "
        "lines; several models as 'clasp -n 0' or 'picosat --all' print them) and MiniSat's result file "
        "('SAT' then a line of literals).  Exit 1 for an UNSAT answer, a missing or malformed file, an answer "
        "over other variables, or a model that is not a valid placement.",
        epilog="Example: clasp -n 0 q8.cnf | nqueens-cp decode q8.cnf - --format line",
    )
    p.add_argument("cnf", metavar="CNF_FILE", help="a CNF written by 'nqueens-cp dimacs'")
    p.add_argument("answer", metavar="SOLVER_OUTPUT", help="the solver's output; '-' for stdin")
    p.add_argument("--format", "-f", default="board", choices=FORMATS, metavar="FORMAT",
                   help="board (default), line or json")
    p.set_defaults(handler=_cmd_decode)


def _read_text(path: str) -> str:
    from .dimacs import DimacsError

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError as error:
        raise DimacsError(f"cannot read {path}: {error.strerror or error}") from None


def _cmd_decode(args: argparse.Namespace) -> int:
    from .dimacs import decode_model, read_answer, read_cnf

    header = read_cnf(_read_text(args.cnf), args.cnf)
    answer_name = "stdin" if args.answer == "-" else args.answer
    models = read_answer(_read_text(args.answer), answer_name)
    if args.format == "board" and header.n > BOARD_MAX_N:
        raise InvalidInputError(f"boards wider than {BOARD_MAX_N} are unreadable; use --format line or json")
    solutions = [decode_model(model, header, answer_name) for model in models]  # all checked before printing
    duplicates = len(solutions) - len(set(solutions))
    count = _emit(solutions, args.format, header.n)
    note = f", {duplicates} repeated" if duplicates else ""
    _summarize(args.format, f"{_solutions(count)} decoded for N={header.n} (encoding {header.encoding}), all valid{note}")
    return EXIT_OK


# --- encodings ------------------------------------------------------------------------

def _add_encodings(sub: Any) -> None:
    p = sub.add_parser(
        "encodings", help="compare the at-most-one encodings on one N",
        description="One row per at-most-one encoding of the CNF: variables, clauses, literals, and the "
        "time for the sat engine to enumerate every solution of N (its count is checked).",
    )
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")
    from .engines.sat import DEFAULT_SOLVER, SOLVERS

    p.add_argument("--solver", choices=SOLVERS, default=DEFAULT_SOLVER, metavar="NAME",
                   help=f"python-sat solver (default: {DEFAULT_SOLVER})")
    p.set_defaults(handler=_cmd_encodings)


def _cmd_encodings(args: argparse.Namespace) -> int:
    from .cnf import encode
    from .known import TOTAL

    print(f"{'encoding':<11} {'variables':>9} {'clauses':>9} {'literals':>9} {'solutions':>10} {'time':>8}", flush=True)
    counts = set()
    for name in ENCODINGS:
        cnf = encode(args.n, name)
        literals = sum(len(clause) for clause in cnf.clauses)
        start = time.perf_counter()
        count = get_engine("sat", solver=args.solver, encoding=name).search(args.n).count()
        seconds = time.perf_counter() - start
        counts.add(count)
        print(f"{name:<11} {cnf.nvars:>9} {len(cnf.clauses):>9} {literals:>9} {count:>10} {seconds:>7.2f}s", flush=True)
    expected = TOTAL.get(args.n)
    if len(counts) > 1 or (expected is not None and counts != {expected}):
        raise NQueensError(f"encodings disagree on N={args.n}: counts {sorted(counts)}, published {expected}")
    return EXIT_OK


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
  nqueens-cp compare 4-12 --plot t.png       timings and statistics side by side
  nqueens-cp solve 80 --place 0:3,5:17 -f line   one solution keeping placed queens
  nqueens-cp dimacs 8 -o q8.cnf              DIMACS CNF for any SAT solver
  clasp -n 0 q8.cnf | nqueens-cp decode q8.cnf -   the solver's models as boards
  nqueens-cp encodings 9                     at-most-one encodings compared

exit codes:
  {EXIT_OK}    success (also when N has no solution, as N = 2 or 3)
  {EXIT_FAILURE}    failure: a cross-check disagreed, a solver failed, a file is
       missing, malformed or unwritable, an answer is UNSAT or invalid;
       solve: proven that no solution exists
  {EXIT_USAGE}    usage error: bad N, unknown engine or format, ...
  3    solve: unknown, the time limit came before an answer
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
    _add_compare(sub)
    _add_solve(sub)
    _add_complete(sub)
    _add_dimacs(sub)
    _add_decode(sub)
    _add_encodings(sub)
    _add_engines(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and usage errors
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    try:
        previous = signal.signal(signal.SIGINT, _CtrlC.handler)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        _CtrlC.writing = True  # a second Ctrl-C must not cut the flush short
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
    finally:
        _CtrlC.writing = _CtrlC.pending = False
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


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
