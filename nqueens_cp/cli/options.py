"""The command line's shared grammar: argument types and the flags several
commands share (each command's own parser is in its module).  Engine flags are built from the engines' own data: every
engine option is a flag, every flag a keyword of the Python API.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..model import sizes as spec
from ..model.position import Position, diagonal
from ..engines import DEFAULT_ENGINE, all_options, engine_class, names
from ..engines.search import MAX_TIME_LIMIT
from ..errors import InvalidInputError
from .terminal import EXIT_USAGE, say

PROG = "nqueens-cp"

SOLUTION_FORMATS = ("board", "line", "json")
RESULT_FORMATS = ("text", "json")


def positive_int(text: str) -> int:
    """An integer >= 1 written in decimal digits ('8', not '8.5', '1e3' or '-3')."""
    try:
        return spec.positive(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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
    try:
        return spec.sizes(text)
    except InvalidInputError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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


def add_engine_options(p: argparse.ArgumentParser, among: Sequence[str] | None = None, solving: bool = False,
                       optimum: bool = False) -> None:
    """A flag for every option of the engines in ``among``, from the engines'
    own data: the options of solve only where ``solving``, with their solve help;
    only those that apply to an optimum where ``optimum``.  Engines that give
    one name different meanings (sat's and cpmpy's --solver) share the flag:
    its help says each, and each engine checks the value against its own."""
    among = names() if among is None else among
    for name, (option, takers) in all_options().items():
        takers = [t for t in takers if t in among and (solving or not _option(t, name).solve_only)
                  and (not optimum or _option(t, name).optimum)]
        if not takers:
            continue
        meanings: dict[Any, list[str]] = {}
        for taker in takers:
            own = _option(taker, name)
            meanings.setdefault((own.solve_help if solving and own.solve_help else own.help, own.choices), []).append(taker)
        help_ = "; ".join(f"{', '.join(who)}: {said}" if len(meanings) > 1 else f"{said} [{', '.join(who)}]"
                          for (said, _), who in meanings.items())
        choices = option.choices if len({choices for _, choices in meanings}) == 1 else None
        if option.kind is bool:
            p.add_argument(option.flag, dest=name, action="store_true", default=None, help=help_)
        elif option.kind is int:
            p.add_argument(option.flag, dest=name, type=whole, metavar=name.upper(), help=help_)
        else:
            p.add_argument(option.flag, dest=name, choices=choices,
                           metavar="NAME" if any(_option(t, name).choices for t in takers) else "FILE", help=help_)


def _option(engine: str, name: str) -> Any:
    """An engine's own option of that name (engines may differ on solve_only)."""
    return next(option for option in engine_class(engine).options if option.name == name)


def engine_options(args: argparse.Namespace) -> dict[str, Any]:
    """The engine options given on the command line, as keywords (the question's
    variant is not one of them: :func:`question_keywords`)."""
    return {name: getattr(args, name) for name in all_options() if getattr(args, name, None) is not None}


def question_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The part of the question a command's flags give beyond N and the placements: its variant."""
    return {"variant": args.variant} if getattr(args, "variant", None) is not None else {}


def add_variant(p: argparse.ArgumentParser, optimum: bool = False, both: bool = False) -> None:
    """--variant: another question of the family (model/variants.py): boards of N
    queens, or with ``optimum`` the domination questions, or with ``both`` either."""
    from ..model.variants import OPTIMUM, PLACE, VARIANTS

    chosen = PLACE + OPTIMUM if both else OPTIMUM if optimum else PLACE
    said = "; ".join(f"{name}: {VARIANTS[name].title}, OEIS {VARIANTS[name].oeis}" for name in chosen)
    p.add_argument("--variant", "-V", default=chosen[0], choices=chosen, metavar="NAME",
                   help=f"the question (default: {chosen[0]}): {said}.  An engine that cannot answer it says so "
                   "and exits 2 ('nqueens-cp engines' lists which answer what)")


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


def add_place(p: argparse.ArgumentParser, blocks: bool = True) -> None:
    """--place, and (``blocks``: where the command takes blocked squares) --block and --block-diagonal."""
    p.add_argument("--place", type=placements, action="append", default=[], metavar="R:C,...",
                   help="pre-placed queens, 0-based row:column pairs; may be repeated (they combine)")
    if not blocks:
        p.set_defaults(block=[], block_diagonal=[])
        return
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
    return instance.n, Position({**instance.fixed, **extra}, instance.blocked | extra.blocked), instance


def fixed_placements(args: argparse.Namespace) -> Position:
    """The pre-placed queens and blocked squares of the command line, as read: the library checks them
    against N (:func:`~nqueens_cp.model.question.question`), once."""
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
    return Position(fixed, blocked)  # (checked once, by the library's question)


def add_search_options(p: argparse.ArgumentParser, limit: bool) -> None:
    """N, the engine and its options, placements, limits, --unique, --jobs, --stats: enumerate and count."""
    add_n(p)
    chosen = names(enumerates=True) if limit else names(counts=True)  # count also takes a model counter
    add_engine(p, chosen, DEFAULT_ENGINE, "exact, the fastest enumerator, needs no solver package")
    add_engine_options(p, chosen)
    add_variant(p)
    add_place(p)
    if limit:
        p.add_argument("--limit", "-k", type=positive_int, metavar="K", help="stop after K solutions")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds" + ("" if limit else ": exit 3, no count (a partial count is not the count)"))
    p.add_argument("--unique", action="store_true",
                   help="one solution per class under the symmetries of the square that keep the question at "
                   "this N, in canonical (lexicographically least) form: 12 for N=8 (OEIS A002562, all 8 "
                   "symmetries); a member that keeps fewer (semi-queens keep 4, a long offset may leave 2) is "
                   "classed by those it keeps, computed from its data at N (count --stats says which); "
                   "without placements.  The torus's translations are not among them")
    add_jobs(p)
    p.add_argument("--scheduler", metavar="ADDRESS", dest="executor",
                   help="run the sub-problems on a Dask cluster: its scheduler's ADDRESS (tcp://host:8786), or "
                   "'local' / 'local:N' to start N worker processes here (pip install 'nqueens-cp[cluster]')")
    if not limit:
        p.add_argument("--checkpoint", metavar="FILE",
                       help="record finished tasks in FILE as they finish; the same command run again resumes "
                       "from it, saying first how much FILE holds "
                       f"({' and '.join(names(counts_classes=True))}, plain N)")
        joining = [engine_class(name) for name in names(counts_quarters=True)]
        by_default = "; ".join(f"{e.name} from N = {e.quarters_from}, where it starts to win" if e.quarters_from
                               else f"{e.name} only when asked" for e in joining)
        p.add_argument("--method", default="auto", choices=("auto", "walk", "quarters"),
                       help=f"how {' and '.join(e.name for e in joining)} count plain N: 'quarters' lists each "
                       "quarter's placements once and joins them (on a CPU 4x the walk's speed at N = 18, 7x at 20: "
                       "docs/counting.md); 'walk' backtracks by symmetry classes; 'auto' (default) joins quarters "
                       f"where the engine does by default ({by_default})")
        p.add_argument("--memory", metavar="SIZE",
                       help="the most a count by quarters may hold, all processes together (e.g. 4G, 512M; default "
                       "half of this machine's memory): the need is computed before the work, lists of halves are "
                       "cut to fit, and a count whose quarters' table does not fit (in SIZE, or in one process's "
                       "address-space limit) is refused; refused too for a count that walks the board")
    p.add_argument("--certificate", metavar="DIR",
                   help="also write a certificate of the " + ("list" if limit else "count") + " into the new directory "
                   "DIR: the question, its CNF, the boards and a DRAT proof that there are no more (engine sat, "
                   "CaDiCaL); 'nqueens-cp verify DIR' checks it trusting none of it (docs/certificates.md)")
    add_lrat(p)
    p.add_argument("--stats", action="store_true", help="print the engine's search statistics on stderr")


def lrat_needs_certificate(args: argparse.Namespace) -> None:
    if args.lrat and args.certificate is None:
        raise InvalidInputError("--lrat keeps a certificate's proof as LRAT: it needs --certificate DIR")


def add_lrat(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lrat", action="store_true",
                   help="with --certificate: drat-trim checks each proof as it is made, and the certificate keeps it "
                   "as LRAT too (proof.lrat), for a formally verified checker; verify then runs lrat-check as well")


def add_jobs(p: argparse.ArgumentParser) -> None:
    from ..execution.workers import default_jobs
    from ..execution.plan import INLINE_MAX_N, SPLIT_MIN_N

    p.add_argument("--jobs", "-j", type=positive_int, metavar="J",
                   help=f"worker processes (default: the cores, {default_jobs()} here); 1 means one at a time: in "
                   "this process, or in one worker process for a compiled count that runs long (from N="
                   f"{INLINE_MAX_N + 1}, or under --time-limit), so that Ctrl-C and the limit stop it at once.  "
                   f"From N={SPLIT_MIN_N} the search is split by fixing its first rows whatever J is, so the "
                   "output order never depends on J")


def add_format(p: argparse.ArgumentParser, choices: Sequence[str], extra: str = "") -> None:
    p.add_argument("--format", "-f", default=choices[0], choices=choices, metavar="FORMAT",
                   help=f"{' or '.join(choices)} (default: {choices[0]}){extra}")


def add_outputs(p: argparse.ArgumentParser, times: bool = False) -> None:
    """--csv, --json and --plot, with the plot's size and resolution; ``times``:
    and which time it draws (compare's search or wall time)."""
    p.add_argument("--csv", metavar="FILE", help="also write the rows as CSV ('-': to stdout, instead of the table)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON ('-': to stdout, instead of the table)")
    p.add_argument("--plot", metavar="FILE", help="draw time against N, log scale; .png, .svg or .pdf "
                   "(needs matplotlib: pip install 'nqueens-cp[plot]')")
    p.add_argument("--plot-size", type=plot_size, metavar="WxH",
                   help="the plot's width and height in inches (default: 10x5; a slide: 13.3x7.5)")
    p.add_argument("--dpi", type=int, metavar="DPI", help="the plot's dots per inch (default: 120; a printed page: 300)")
    if times:
        p.add_argument("--plot-time", choices=("search", "wall"), metavar="TIME",
                       help="search: the model's building and its search, the engine's own cost (default); "
                       "wall: the whole fresh process, Python's start-up and the solver's import too")


def plot_size(text: str) -> tuple[float, float]:
    """WxH in inches (8x4.5), for --plot-size."""
    width, x, height = text.lower().partition("x")
    try:
        return float(width), float(height)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a plot size is WIDTHxHEIGHT in inches (8x4.5), got {text!r}") from None


def plot_look(args: argparse.Namespace) -> dict[str, Any]:
    """The plot's size, resolution and time as the figures take them (keywords),
    checked; refused when there is no --plot to apply them to."""
    from ..studies.figures import PLOT_DPI, PLOT_SIZE, check_look

    given = [flag for flag, value in (("--plot-size", args.plot_size), ("--dpi", args.dpi),
                                      ("--plot-time", getattr(args, "plot_time", None))) if value is not None]
    if given and not args.plot:
        raise InvalidInputError(f"{given[0]} applies to the figure: add --plot FILE")
    size, dpi = check_look(args.plot_size or PLOT_SIZE, PLOT_DPI if args.dpi is None else args.dpi)
    look: dict[str, Any] = {"size": size, "dpi": dpi}
    if getattr(args, "plot_time", None) is not None:
        look["time"] = args.plot_time
    return look


# --- the parser ----------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse swallows a failed write (--help > /dev/full would report success): let it through.
        if message:
            (file or sys.stderr).write(message)


def table_to_stdout(args: argparse.Namespace) -> bool:
    """Whether the table goes to stdout: not when --csv or --json does (``-``);
    both there would be one stream no reader could split."""
    from ..files import STDOUT

    if args.csv == args.json == STDOUT:
        raise InvalidInputError("--csv - and --json - would both write to stdout: send one to a file")
    return STDOUT not in (args.csv, args.json)


def write_files(args: argparse.Namespace, rows: list[dict[str, Any]], columns: Sequence[str], plot: Any) -> None:
    from ..files import STDOUT
    from ..studies.reporting import write_csv, write_json

    if args.csv:
        write_csv(rows, args.csv, columns)
        if args.csv != STDOUT:
            say(f"wrote {args.csv}")
    if args.json:
        write_json(rows, args.json)
        if args.json != STDOUT:
            say(f"wrote {args.json}")
    if args.plot:
        plot(args.plot)
        say(f"wrote {args.plot}")


def json_text(result: Any) -> str:
    from ..studies.reporting import to_json

    return to_json(result)


def stats_line(stats: dict[str, Any]) -> str:
    from ..studies.reporting import format_stats

    return format_stats(stats)
