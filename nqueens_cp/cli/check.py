"""The command line, check: a model someone wrote against the reference, N by N."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import InvalidInputError
from .options import PROG, RESULT_FORMATS, add_format, add_variant, positive_float, whole
from ..files import atomic_write_text, check_writable
from .terminal import EXIT_FAILURE, EXIT_MODEL, EXIT_OK, EXIT_UNKNOWN, CtrlC, Progress, finish, say

AUTOGRADERS = ("gradescope", "prairielearn")

EPILOG_TEMPLATE = """\
{forms}
what it reports, for each N in order (stopping at the first that differs unless --all):
  agrees or DIFFERS, the model's distinct boards against the reference's (the hand-written
  search, every board through the question's validator), the times; at an N that differs,
  the smallest extra board drawn with the two queens that attack each other (X) and the
  line they share, and the smallest missing board drawn with the reason the model
  excludes it in its own terms (a MiniZinc location, a CP-SAT constraint, a clause number,
  a clingo rule); solutions that repeat a board, and whether a board determines the
  model's other variables (where it does not, a solution counter overcounts).

--format json: one JSON object per N checked, with at least
  n           the board size
  agrees      true when the model's boards are exactly the reference's
  boards      the model's distinct boards
  reference   the reference's count
  missing     boards the question accepts and the model lacks: 0-based column lists,
              smallest first, at most --show (missing_count: how many in all)
  extra       boards the model gives and the question forbids, likewise (extra_count)
  why         the reason the model excludes the first missing board: {text, parts,
              accepted, sites}, sites giving each part's {file, line, source} where
              the model wrote it (or null), or null
  determined  whether a board fixes every other variable of the model (null: no board)
  seconds     the model's enumeration
  and solutions, duplicates, not_boards (solutions with a row of no queen or two, or a
  column off the board: their squares), not_boards_count, attack (why the first extra
  board is refused), undetermined, reference_seconds, base (the model's first column).

the model runs in a process of its own, in a scratch folder, with a clean environment, no
network and the limits above: nothing it does (an exit, a crash, a print, a patch of this
tool, a process left behind) reaches the check or its verdict; its output is captured.

exit codes: 0 every N agrees; 1 an N differs; 2 a usage mistake; 3 the time limit came
first (the N checked by then printed); 4 the model failed: it cannot be read (its own
tool's message, with file and line), it raised or exited, crashed, or ran out of memory;
130 Ctrl-C of the check itself.

examples:
  nqueens-cp check models/mistakes/no_anti_diagonal.py:model 1-8
  nqueens-cp check models/mistakes/off_by_one.mzn 1-8 --all
  nqueens-cp check models/nqueens-08.lp 1-10 --format json
  nqueens-cp check 'models/nqueens-{n:02}-pairwise.cnf' 4-12
  nqueens-cp check --generator 'python3 gen.py {n}' 1-9
  nqueens-cp check my_torus.py:build 1-13 --variant toroidal --all"""


def forms_help() -> str:
    """The forms of MODEL, from their registry (checking.reading.FORMS): one paragraph each."""
    import textwrap

    from ..checking.reading import FORMS

    lines = ["forms of MODEL (docs/checking.md):"]
    for form in FORMS:
        body = textwrap.wrap(form.help + (f" (needs {form.needs})" if form.needs else ""), 70)
        lines.append(f"  {form.pattern:<16} {body[0]}")
        lines.extend(f"  {'':<16} {line}" for line in body[1:])
    return "\n".join(lines)


def add_check(sub: Any) -> None:
    p = sub.add_parser(
        "check", help="check a model you wrote against the reference: exact sets, the first N that differs, why",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Check a model someone wrote (CP-SAT, CPMpy, PySAT, MiniZinc, clingo, DIMACS) against the "
        "reference: for each N, every solution of the model is read by its own tool, turned into a board and "
        "compared with the reference's exact set of boards.",
        epilog=EPILOG_TEMPLATE.replace("{forms}", forms_help()),
    )
    p.add_argument("words", nargs="+", metavar="MODEL SPEC",
                   help="the model (see below; none with --generator), then the sizes: N, a range 1-10 or a "
                   "stepped range 4-12/2, one or more")
    p.add_argument("--generator", metavar="CMD", help="a command writing the DIMACS CNF of N to stdout, {n} where "
                   "N goes (split as a shell splits words; no shell runs it)")
    p.add_argument("--var", metavar="NAME", help="the board in a MiniZinc model (an array; default q), a clingo "
                   "program (a predicate of row and column; default queen/2) or a .pbtxt model (the prefix of "
                   "its variables' names; default q)")
    p.add_argument("--data", metavar="DZN", help="more data for a MiniZinc model than n, as MiniZinc's -D takes it "
                   "(e.g. 'placed_row = []; placed_col = [];')")
    add_variant(p, both=True)
    p.add_argument("--base", type=int, choices=(0, 1), metavar="0|1",
                   help="the model's first column, where it cannot be told from its domain or its solutions")
    p.add_argument("--all", action="store_true", dest="every", help="check every N, not only up to the first "
                   "that differs")
    p.add_argument("--show", type=whole, default=3, metavar="K",
                   help="the smallest missing and extra boards kept per N (default 3)")
    p.add_argument("--time-limit", type=positive_float, metavar="SEC",
                   help="stop after SEC seconds in all, the model's import included: exit 3, the N checked by then "
                   "printed")
    p.add_argument("--memory", metavar="SIZE", default=None,
                   help="the model's memory, e.g. 2G (default) or 512M, or 'none': an address-space limit "
                   "(RLIMIT_AS) on its process and all it starts, SIZE beyond what its interpreter and the "
                   "solvers' libraries map as it starts, with 256 MiB more for its solver's threads' stacks; "
                   "past it the model fails (exit 4)")
    p.add_argument("--network", action="store_true", help="let the model reach the network (cut by default, in a "
                   "network namespace of its own, where the machine allows it)")
    p.add_argument("--ignore-objective", action="store_true", dest="ignore_objective",
                   help="check the feasible boards of a model with an objective (minimize, maximize, #minimize), "
                   "which is otherwise refused in one line, the same in every form")
    p.add_argument("--in-process", action="store_true", dest="in_process",
                   help="run the model's code in this process, to debug it (pdb): unsafe for grading, since an "
                   "os._exit or a monkeypatch of it then reaches the check and its verdict")
    p.add_argument("-v", "--verbose", action="store_true", help="show what the model printed (captured, its first "
                   "and last 4 KB) after the check")
    add_format(p, (*RESULT_FORMATS, *AUTOGRADERS), " (json: one object per N, the contract above; gradescope "
               "and prairielearn: the autograder's results.json, every N checked, docs/grading.md)")
    p.add_argument("--visibility", default="visible", choices=("hidden", "after_due_date", "after_published",
                                                               "visible"), metavar="WHEN",
                   help="with --format gradescope: when students see each N's test (default visible)")
    p.add_argument("--html", metavar="FILE", help="also write the check as a page a student can read (boards drawn, "
                   "the reason, the model's output; self-contained HTML)")
    p.set_defaults(handler=_cmd_check)


def _cmd_check(args: argparse.Namespace) -> int:
    from ..checking.feedback import gradescope, prairielearn, record_page
    from ..checking.grading import grade_model
    from ..checking.report import detail_text, row_text
    from ..studies.reporting import to_json

    model, specs = _model_and_sizes(args.words, args.generator)
    if args.html:
        check_writable(args.html)
    text, graded = args.format == "text", args.format in AUTOGRADERS
    progress = Progress.make("check") if not graded else None

    def row_done(row: Any) -> None:
        if progress:
            progress.clear()
        if graded:
            return
        said = row_text(row) + ("" if row.agrees else "\n" + detail_text(row)) if text else to_json(row)
        CtrlC.write(sys.stdout, said + "\n")
        sys.stdout.flush()

    record = grade_model(model, specs, variant=args.variant, var=args.var, generator=args.generator, data=args.data,
                         base=args.base, every=args.every or graded, show=args.show, time_limit=args.time_limit,
                         memory=args.memory, network=args.network, isolate=not args.in_process,
                         ignore_objective=args.ignore_objective,
                         progress=progress.text if progress else None, rows=row_done,
                         notify=lambda note: say(f"{PROG} check: note: {note}"))
    if progress:
        progress.clear()
    if args.html:
        atomic_write_text(args.html, record_page(record))
    if graded:
        result = gradescope(record, args.visibility) if args.format == "gradescope" else prairielearn(record)
        CtrlC.write(sys.stdout, json.dumps(result, indent=2) + "\n")
    finish(EXIT_OK, f"{PROG} check")
    return _verdict(record, args.verbose, graded)


def _model_and_sizes(words: list[str], generator: str | None) -> tuple[str | None, list[str]]:
    """MODEL and SPEC from the words on the line (with --generator, SPEC alone)."""
    if generator is not None and not words[0][:1].isdigit():
        raise InvalidInputError(f"--generator writes the model: name no MODEL beside it ({words[0]}), only SPEC")
    model = None if generator is not None else words[0]
    specs = words if generator is not None else words[1:]
    if not specs:
        raise InvalidInputError("name the sizes to check after the model, e.g. check MODEL 1-8")
    return model, specs


def _verdict(record: Any, verbose: bool, graded: bool) -> int:
    """The record's last lines on stderr, and its exit code."""
    from ..checking.report import summary_text

    if record.verdict in ("error", "memory"):  # the model failed, not the check: its own exit code
        if verbose and record.output:
            say(_output_text(record.output))
        said, _, last = record.message.rstrip().rpartition("\n")
        say(f"{said}\n{PROG} check: {last}" if said else f"{PROG} check: {last}")
        return EXIT_MODEL
    if record.verdict == "time limit":
        say(f"{PROG} check: unknown: {record.message}")
        return EXIT_UNKNOWN
    if record.output and not graded:
        say(_output_text(record.output) if verbose else
            f"{PROG} check: note: the model printed {len(record.output.splitlines())} lines (--verbose shows them)")
    say(summary_text(record.report))
    return EXIT_OK if record.verdict == "right" else EXIT_FAILURE


def _output_text(output: str) -> str:
    lines = output.rstrip("\n").splitlines()
    return "the model's output:\n" + "\n".join(f"  | {line}" for line in lines)


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_check(sub)
