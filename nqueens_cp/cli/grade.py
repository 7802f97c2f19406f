"""The command line, grade: a class's folder of models, each checked in a sandbox of its own."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .options import PROG, add_variant, positive_float, positive_int, whole
from .terminal import EXIT_OK, CtrlC, Progress, say

FORMATS = ("text", "json", "jsonl", "csv")
COLUMNS = ("submission", "form", "verdict", "score", "first_wrong", "seconds", "message")

EPILOG = """\
submissions: each entry of DIR is one. A model file of a form check reads (a .py file's
function --entry, a .mzn, a .lp), or a folder holding one model: one .py file defining
--entry, one .mzn, one .lp, or one file per N (q-4.cnf, q-5.cnf, ... or q-04.pbtxt, ...).
An entry with no model, or more than one, is graded 'error' and says why.

each submission is checked at every N of SPEC, in a process of its own (see check --help:
a scratch folder, a clean environment, no network, --memory), --time-limit covering it
whole from its import on. Its record:
  submission   the entry's name in DIR
  form         the form its model was read in (python, minizinc, clingo, dimacs, pbtxt)
  verdict      right (every N agrees), wrong (an N differs), error (the model cannot be
               read, raised, exited or crashed), time limit, memory
  score        the share of SPEC's N whose boards are exactly the reference's (an N not
               reached scores nothing)
  first_wrong  the first N that differs, or null
  records      check's JSON object for each N checked (check --help lists its fields)
  seconds      the submission's time, its import included
  message      the model's own traceback (from its file on) or its tool's message
  output       what the model printed (its first and last 4 KB)

--results FILE appends each record as it finishes (JSON Lines); the same command again
resumes: the submissions recorded there are kept, the others (late ones too) graded.
--feedback DIR writes a page per submission a student can read (the boards drawn, the
reason, the output) and index.html.

exit codes: 0 every submission has a verdict (whatever it is); 1 the grader itself failed
(a results file or page it cannot write); 2 a usage mistake; 130 Ctrl-C (the records so far
kept in --results).

examples:
  nqueens-cp grade submissions/ 1-8 --time-limit 20
  nqueens-cp grade submissions/ 1-8 --results grades.jsonl --feedback pages/
  nqueens-cp grade submissions/ 1-10 --entry build --format csv > grades.csv"""


def add_grade(sub: Any) -> None:
    p = sub.add_parser(
        "grade", help="grade a class: every model in a folder checked in a sandbox, a record and a page each",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Grade a folder of submissions: each model is checked against the reference at every N of "
        "SPEC, in a process of its own with limits, and gets a verdict, a score and feedback.",
        epilog=EPILOG,
    )
    p.add_argument("folder", metavar="DIR", help="the folder of submissions (one entry each)")
    p.add_argument("spec", nargs="+", metavar="SPEC", help="the sizes: N, a range 1-10 or a stepped range 4-12/2")
    p.add_argument("--entry", default="model", metavar="NAME",
                   help="the function of a Python submission that returns (model, board) (default model)")
    add_variant(p, both=True)
    p.add_argument("--time-limit", type=positive_float, default=60.0, metavar="SEC",
                   help="each submission's time, its import included (default 60): past it, 'time limit'")
    p.add_argument("--memory", metavar="SIZE", default=None,
                   help="each model's memory, e.g. 2G (default) or 512M: an address-space limit, as check's")
    p.add_argument("--network", action="store_true", help="let the models reach the network (cut by default)")
    p.add_argument("--jobs", "-j", type=positive_int, metavar="N", help="submissions at a time (default: the cores)")
    p.add_argument("--scheduler", metavar="ADDRESS", dest="executor",
                   help="grade on a Dask cluster: its scheduler's ADDRESS (tcp://host:8786), whose workers see DIR "
                   "at the same path, or 'local:N' for N worker processes here (pip install 'nqueens-cp[cluster]')")
    p.add_argument("--results", metavar="FILE", help="append each record to FILE (JSON Lines) as it finishes, and "
                   "resume from it: the submissions there are not graded again")
    p.add_argument("--feedback", metavar="DIR", help="write a page for each submission, and index.html, into DIR")
    p.add_argument("--show", type=whole, default=3, metavar="K",
                   help="the smallest missing and extra boards kept per N (default 3)")
    p.add_argument("--format", "-f", default="text", choices=FORMATS, metavar="FORMAT",
                   help="text (a table), json (a list of the records), jsonl (a record a line, as each finishes) "
                   "or csv (the record's fields but records and output) (default: text)")
    p.set_defaults(handler=_cmd_grade)


def _cmd_grade(args: argparse.Namespace) -> int:
    from ..checking.grading import grade, scores
    from ..files import check_writable

    if args.results:
        check_writable(args.results)
    progress = Progress.make("grade") if sys.stderr.isatty() else None
    streamed = args.format == "jsonl"

    def record_done(record: Any) -> None:
        if streamed:
            _write_json_line(record)
        elif progress is None and args.format == "text":
            say(f"{PROG} grade: {record.submission}: {record.verdict} ({record.score:.3f})")

    def progressed(done: int, total: int) -> None:
        if progress:
            progress.text(f"grade: {done}/{total} submissions, {progress_seconds(progress):.0f} s")

    report = grade(args.folder, args.spec, entry=args.entry, variant=args.variant, time_limit=args.time_limit,
                   memory=args.memory, network=args.network, jobs=args.jobs, executor=args.executor,
                   results=args.results,
                   feedback=args.feedback, show=args.show, on_record=record_done, progress=progressed)
    if progress:
        progress.clear()
    _write(report, args.format)
    records = report.records
    counted = ", ".join(f"{count} {verdict}" for verdict, count in scores(records).items() if count)
    resumed = f" ({len(report.resumed)} from {args.results})" if report.resumed else ""
    say(f"{len(records)} submissions graded{resumed}: {counted}")
    return EXIT_OK


def _write(report: Any, form: str) -> None:
    """The records on stdout in ``form`` (jsonl: those resumed, the others streamed as they came)."""
    if form == "jsonl":
        for record in report.records:
            if record.submission in report.resumed:
                _write_json_line(record)
    elif form == "json":
        import json

        CtrlC.write(sys.stdout, json.dumps([r.to_dict() for r in report.records], indent=2) + "\n")
    elif form == "csv":
        _write_csv(report.records)
    else:
        _write_table(report.records)


def progress_seconds(progress: Progress) -> float:
    import time

    return time.monotonic() - progress.start


def _write_json_line(record: Any) -> None:
    import json

    CtrlC.write(sys.stdout, json.dumps(record.to_dict()) + "\n")
    sys.stdout.flush()


def _write_csv(records: list[Any]) -> None:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for record in records:
        data = record.to_dict()
        data["message"] = data["message"].strip().splitlines()[-1] if data["message"].strip() else ""
        writer.writerow(["" if data[column] is None else data[column] for column in COLUMNS])
    CtrlC.write(sys.stdout, buffer.getvalue())


def _write_table(records: list[Any]) -> None:
    width = max([len("submission"), *(len(r.submission) for r in records)])
    lines = [f"{'submission':<{width}}  {'form':<9} {'verdict':<10} {'score':>6} {'first wrong':>11} {'seconds':>8}"]
    for r in records:
        first = "" if r.first_wrong is None else str(r.first_wrong)
        lines.append(f"{r.submission:<{width}}  {r.form:<9} {r.verdict:<10} {r.score:>6.3f} {first:>11} "
                     f"{r.seconds:>8.1f}")
    CtrlC.write(sys.stdout, "\n".join(lines) + "\n")


def add(sub: Any) -> None:
    """The commands of this module, onto the main parser's subcommands."""
    add_grade(sub)
