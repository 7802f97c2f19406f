"""The command line's grammar: every command, argument and flag, with its help.

Argument types, the flags several commands share, and one ``_add_<cmd>``
per command.  Engine flags are built from the engines' own data: every
engine option is a flag, every flag a keyword of the Python API.  What a
command does is in :mod:`nqueens_cp.cli.main`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .. import __version__
from ..model.board import Position, check_placements, diagonal
from ..engines import DEFAULT_ENGINE, DEFAULT_SOLVE_ENGINE, ENGINE_NAMES, all_options, engine_class, names
from ..engines.base import MAX_TIME_LIMIT
from ..errors import InvalidInputError
from .terminal import EXIT_BROKEN_PIPE, EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE

PROG = "nqueens-cp"
Handlers = dict[str, Callable[[argparse.Namespace], int]]

SOLUTION_FORMATS = ("board", "line", "json")
RESULT_FORMATS = ("text", "json")


def positive_int(text: str) -> int:
    """An integer >= 1 written in decimal digits ('8', not '8.5', '1e3' or '-3')."""
    if not re.fullmatch(r"\s*\+?\d{1,9}\s*", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got '{text}'")
    return int(text)


def n_or_file(text: str) -> int | str:
    """N in decimal digits, or the path of an instance file (anything else)."""
    if re.fullmatch(r"\s*[+-]?\d+\s*", text):
        return positive_int(text)
    return text


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
    if not 0 < value <= MAX_TIME_LIMIT:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds up to {MAX_TIME_LIMIT:g}, got '{text}'")
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

def add_n(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=positive_int, metavar="N", help="board size, a positive integer")


def add_n_or_file(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", type=n_or_file, metavar="N|FILE",
                   help="board size, or a CSPLib prob079 instance file (completion or Excluded Diagonals)")
    p.add_argument("--diagonals", "-D", type=whole, metavar="D",
                   help="Excluded Diagonals files: use the first D diagonals the file lists (required for them)")


def add_engine(p: argparse.ArgumentParser, choices: Sequence[str], default: str, why: str) -> None:
    p.add_argument("--engine", "-e", default=default, choices=choices, metavar="E",
                   help=f"one of {', '.join(choices)} (default: {default}, {why})")


def add_engine_options(p: argparse.ArgumentParser, among: Sequence[str] = ENGINE_NAMES) -> None:
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
            p.add_argument(option.flag, dest=name, choices=option.choices, metavar="NAME" if option.choices else "FILE",
                           help=help_)


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The engine options given on the command line, as keywords."""
    return {name: getattr(args, name) for name in all_options() if getattr(args, name, None) is not None}


def diagonals(text: str) -> list[tuple[str, int]]:
    """--block-diagonal 'r+c=K,r-c=K,...' -> [("r+c", K), ...]."""
    found = []
    for item in text.split(","):
        match = re.fullmatch(r"\s*r\s*([+-])\s*c\s*=\s*(-?\d{1,9})\s*", item)
        if not match:
            raise argparse.ArgumentTypeError(f"expected diagonals r+c=K or r-c=K separated by commas (e.g. r+c=5,r-c=-2), "
                                             f"got '{item.strip()}'")
        found.append((f"r{match.group(1)}c", int(match.group(2))))
    return found


def add_place(p: argparse.ArgumentParser) -> None:
    p.add_argument("--place", type=placements, action="append", default=[], metavar="R:C,...",
                   help="pre-placed queens, 0-based row:column pairs; may be repeated (they combine)")
    p.add_argument("--block", type=placements, action="append", default=[], metavar="R:C,...",
                   help="blocked squares, where no queen may stand: 0-based row:column pairs; may be repeated")
    p.add_argument("--block-diagonal", type=diagonals, action="append", default=[], metavar="r+c=K,r-c=K,...",
                   help="block every square of whole diagonals: r+c=K (an anti-diagonal) or r-c=K; may be repeated")


def problem(args: argparse.Namespace) -> tuple[int, Position, Any]:
    """(N, position, instance or None) of a command that takes N or an instance
    file: the file's queens and blocked squares, plus --place and --block."""
    from ..model.instances import read_instance

    diagonals = getattr(args, "diagonals", None)
    if isinstance(args.n, int):
        if diagonals is not None:
            raise InvalidInputError("--diagonals applies to Excluded Diagonals instance files, not to N")
        return args.n, fixed_placements(args), None
    instance = read_instance(args.n, diagonals)
    args.n = instance.n
    extra = fixed_placements(args)
    for row, col in extra.items():
        if row in instance.fixed and instance.fixed[row] != col:
            raise InvalidInputError(f"--place {row}:{col}: the instance already has a queen in row {row} "
                                    f"({row}:{instance.fixed[row]})")
    return instance.n, check_placements(instance.n, {**instance.fixed, **extra}, instance.blocked | extra.blocked), \
        instance


def fixed_placements(args: argparse.Namespace) -> Position:
    """The pre-placed queens and blocked squares of the command line, checked against N."""
    fixed: dict[int, int] = {}
    for row, col in (pair for group in args.place for pair in group):
        if row in fixed and fixed[row] != col:
            raise InvalidInputError(f"--place: two queens in row {row} ({row}:{fixed[row]} and {row}:{col})")
        fixed[row] = col
    blocked = [pair for group in getattr(args, "block", []) for pair in group]
    for kind, k in (d for group in getattr(args, "block_diagonal", []) for d in group):
        squares = diagonal(args.n, kind, k)
        if not squares:
            raise InvalidInputError(f"--block-diagonal: {kind}={k} has no square on the {args.n}x{args.n} board")
        blocked += squares
    for row, col in blocked:
        if not (row < args.n and col < args.n):
            raise InvalidInputError(f"--block {row}:{col}: off the {args.n}x{args.n} board")
    return check_placements(args.n, fixed, blocked)


def add_search_options(p: argparse.ArgumentParser, limit: bool) -> None:
    """N, the engine and its options, placements, limits, --unique, --jobs, --stats: enumerate and count."""
    add_n(p)
    add_engine(p, names(enumerates=True), DEFAULT_ENGINE,
                "exact, the fastest enumerator, needs no solver package")
    add_engine_options(p, names(enumerates=True))
    add_place(p)
    if limit:
        p.add_argument("--limit", "-k", type=positive_int, metavar="K", help="stop after K solutions")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds" + ("" if limit else ": exit 3, no count (a partial count is not the count)"))
    p.add_argument("--unique", action="store_true",
                   help="one solution per class under the 8 symmetries of the square, in canonical "
                   "(lexicographically least) form: 12 for N=8 (OEIS A002562)")
    add_jobs(p)
    p.add_argument("--scheduler", metavar="ADDRESS", dest="executor",
                   help="run the sub-problems on a Dask cluster: its scheduler's ADDRESS (tcp://host:8786), or "
                   "'local' / 'local:N' to start N worker processes here (pip install 'nqueens-cp[cluster]')")
    if not limit:
        p.add_argument("--checkpoint", metavar="FILE",
                       help="record finished tasks in FILE as they finish; the same command run again resumes "
                       "from it (bitmask, plain N)")
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")


def add_jobs(p: argparse.ArgumentParser) -> None:
    from ..counting.parallel import default_jobs
    from ..run import SPLIT_MIN_N

    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help=f"worker processes (default: the cores, {default_jobs()} here); 1 means this process.  "
                   f"From N={SPLIT_MIN_N} the search is split by fixing its first rows whatever J is, so the "
                   "output order never depends on J")


def add_format(p: argparse.ArgumentParser, choices: Sequence[str]) -> None:
    p.add_argument("--format", "-f", default=choices[0], choices=choices, metavar="FORMAT",
                   help=f"{' or '.join(choices)} (default: {choices[0]})")


def add_outputs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--csv", metavar="FILE", help="also write the rows as CSV")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--plot", metavar="FILE", help="draw time against N, log scale; .png, .svg or .pdf "
                   "(needs matplotlib: pip install 'nqueens-cp[plot]')")


# --- the commands ---------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse swallows a failed write (--help > /dev/full would report success): let it through.
        if message:
            (file or sys.stderr).write(message)


def _add_enumerate(sub: Any, handlers: Handlers) -> None:
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
    p.set_defaults(handler=handlers["enumerate"])


def _add_count(sub: Any, handlers: Handlers) -> None:
    p = sub.add_parser(
        "count", help="print the number of solutions",
        description="Count the solutions of N-queens.  With --format text the last line of stdout is the "
        "count, a bare integer; with --format json one JSON object with the statistics.",
    )
    add_search_options(p, limit=False)
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=handlers["count"])


def _add_crosscheck(sub: Any, handlers: Handlers) -> None:
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
                   help="engines to compare, in order, or a preset: classic (the tutorial backtrackers and "
                   f"the core engines); default: every available one of {', '.join(names(enumerates=True, family='core'))}")
    add_engine_options(p, names(enumerates=True))
    add_jobs(p)
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=handlers["crosscheck"])


def _add_compare(sub: Any, handlers: Handlers) -> None:
    from ..studies.compare import VARIANT, labels

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
                   help="engines to time, in order, or a preset: classic (the tutorial backtrackers and the "
                   "core engines); default: every available core engine that can answer")
    p.add_argument("--symmetry-breaking", action="store_true",
                   help=f"also time ENGINE{VARIANT} beside every engine that has symmetry breaking")
    p.add_argument("--repeat", "-r", type=positive_int, default=1, metavar="R",
                   help="fresh processes per measurement; the table shows medians (default: 1)")
    p.add_argument("--first", action="store_true", help="time the first solution instead of all of them")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop a measurement after SEC seconds and report it as a timeout")
    add_outputs(p)
    p.set_defaults(handler=handlers["compare"])


def _add_solve(sub: Any, handlers: Handlers) -> None:
    lines = "\n".join(f"  {name:<13} {engine_class(name).summary}" for name in ENGINE_NAMES)
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
  {EXIT_FAILURE}  proven: no solution exists (pre-placed queens that attack each other included)
  {EXIT_USAGE}  usage error: a placement off the board, two queens in a row, bad --place text,
     a malformed or truncated instance file (with its line), ...
  {EXIT_UNKNOWN}  unknown: the time limit (or local search's step budget) ran out first

examples:
  nqueens-cp solve 80 --place 0:3,5:17 --format line
  nqueens-cp solve 8 --place 0:0 --place 1:1 --engine backtrack     (none: exit 1)
  nqueens-cp solve 12 --block 0:0,5:5 --block-diagonal r+c=11
  nqueens-cp solve diag-20-4-17.param --diagonals 29 --engine bitmask
  nqueens-cp solve 1000 --engine minconflicts --seed 7 -f json""",
    )
    add_n_or_file(p)
    add_engine(p, ENGINE_NAMES, DEFAULT_SOLVE_ENGINE, "fastest on completion questions, proves 'none'")
    add_engine_options(p)
    add_place(p)
    p.add_argument("--time-limit", type=positive_float, metavar="SEC", help="give up after SEC seconds: 'unknown', exit 3")
    from ..counting.parallel import default_jobs

    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help=f"engines that split their search (bitmask), from N=12: worker processes for the "
                   f"sub-boards of the first two open rows (default: the cores, {default_jobs()} here); the answer "
                   "is the one one core gives, the first solution in search order")
    p.add_argument("--scheduler", metavar="ADDRESS", dest="executor",
                   help="run those sub-boards on a Dask cluster (see count --help)")
    add_format(p, SOLUTION_FORMATS)
    p.add_argument("--stats", action="store_true", help="print the engine's statistics on stderr")
    p.set_defaults(handler=handlers["solve"])


def _add_complete(sub: Any, handlers: Handlers) -> None:
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
    g.set_defaults(handler=handlers["generate"])
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
    d.set_defaults(handler=handlers["diagonals"])
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
    add_outputs(b)
    b.set_defaults(handler=handlers["bench"])


def _add_batch(sub: Any, handlers: Handlers) -> None:
    takes_fixed = names(takes_fixed=True)
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
        "  nqueens-cp batch data/prob079 --answers data/prob079/answers.tsv --engines bitmask,cpsat,sat\n"
        "  nqueens-cp batch 'runs/diag-20-*.param' --diagonals 29 --time-limit 120 --csv r.csv --plot r.png",
    )
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="instance files, directories (their *.param files) or glob patterns")
    p.add_argument("--diagonals", "-D", type=whole, metavar="D", help="the D of every Excluded Diagonals file")
    p.add_argument("--answers", metavar="TSV", help="each file's D and published answer (checked)")
    p.add_argument("--engines", type=name_list, metavar="E1,E2,...",
                   help=f"default: every available core engine of {', '.join(takes_fixed)}")
    p.add_argument("--time-limit", type=positive_float, default=60.0, metavar="SEC",
                   help="per engine and instance (default: 60)")
    p.add_argument("--format", "-f", choices=("table", "csv", "json"), default="table",
                   help="stdout: the table (default), or every row as CSV or JSON")
    add_outputs(p)
    p.set_defaults(handler=handlers["batch"])


def _add_dimacs(sub: Any, handlers: Handlers) -> None:
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
        "  nqueens-cp dimacs diag-10-4-501.param --diagonals 8 -o d.cnf     (blocked squares: unit clauses)",
    )
    add_n_or_file(p)
    p.add_argument("--encoding", choices=tuple(ENCODINGS), default=DEFAULT_ENCODING, metavar="NAME",
                   help=f"how at-most-one is encoded: one of {', '.join(ENCODINGS)} (default: {DEFAULT_ENCODING})")
    add_place(p)
    p.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="write here, atomically (a temporary file, then a rename; through a symlink, where it "
                   "points); '-' or absent: stdout")
    p.set_defaults(handler=handlers["dimacs"])


def _add_decode(sub: Any, handlers: Handlers) -> None:
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
    p.set_defaults(handler=handlers["decode"])


def _add_encodings(sub: Any, handlers: Handlers) -> None:
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
    p.set_defaults(handler=handlers["encodings"])


def _add_trace(sub: Any, handlers: Handlers) -> None:
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
    add_place(p)
    p.add_argument("--limit", "-k", type=positive_int, metavar="STEPS", help="stop after STEPS events")
    add_format(p, RESULT_FORMATS)
    p.add_argument("--plot", metavar="FILE.svg", help="draw the search tree as SVG instead (N <= 8)")
    p.set_defaults(handler=handlers["trace"])


def _add_sample(sub: Any, handlers: Handlers) -> None:
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
    p.set_defaults(handler=handlers["sample"])


def _add_engines(sub: Any, handlers: Handlers) -> None:
    p = sub.add_parser("engines", help="list the engines, what each can do and whether it can run here",
                       description="List every engine: whether it is available here, whether it enumerates "
                       "(and so counts and cross-checks), whether its 'none' is a proof, whether it takes "
                       "pre-placed queens, its own options, and what it is.")
    add_format(p, RESULT_FORMATS)
    p.set_defaults(handler=handlers["engines"])


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
  nqueens-cp trace 4                         the textbook search, step by step
  nqueens-cp sample 16 -k 3 --seed 1         uniformly random solutions

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


COMMANDS = {"enumerate": _add_enumerate, "count": _add_count, "crosscheck": _add_crosscheck, "compare": _add_compare,
            "solve": _add_solve, "complete": _add_complete, "batch": _add_batch, "dimacs": _add_dimacs,
            "decode": _add_decode, "encodings": _add_encodings, "trace": _add_trace, "sample": _add_sample,
            "engines": _add_engines}


def build_parser(handlers: Handlers, command: str | None = None) -> argparse.ArgumentParser:
    """Every command, argument and flag, with its help; ``handlers`` maps a
    command to its function.  With ``command`` (the first word of a command
    line that names one), only that command: it parses its line exactly as
    the whole parser does, and costs a fraction of the start-up (the whole
    parser, with the engine list of the main help, took 0.05 s here)."""
    only = COMMANDS.get(command) if command else None
    parser = _Parser(
        prog=PROG, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Model N-queens declaratively (CP-SAT, CNF on a SAT solver) and check it\n"
        "against hand-written search (textbook and bitwise backtracking).\n"
        "A solution is the 0-based column of the queen in each row.",
        epilog=None if only else _main_epilog(),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in [only] if only else COMMANDS.values():
        add(sub, handlers)
    return parser
