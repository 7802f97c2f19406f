"""What a grade gives back: a page a student can read for each submission
(``grade --feedback DIR``), an index of them, and the results files the
autograders read (Gradescope's ``results.json``, PrairieLearn's).

The pages are :mod:`.page`'s, with the record's verdict and score on top;
each is written whole (a temporary file renamed), so a page is never seen
half written.  The autograders' fields are theirs, as documented:

- Gradescope (gradescope-autograders.readthedocs.io, "Autograder
  Specifications"): ``score``, ``output``, ``execution_time``, ``tests``,
  each with ``name``, ``score``, ``max_score``, ``status``
  (``passed``/``failed``), ``output``, ``output_format`` and
  ``visibility`` (``hidden``, ``after_due_date``, ``after_published``,
  ``visible``);
- PrairieLearn (prairielearn.readthedocs.io, "Externally graded
  questions", the results file): ``gradable``, ``score`` in [0, 1],
  ``message``, ``output``, ``format_errors`` where it is not gradable,
  ``tests``, each with ``name``, ``points``, ``max_points``, ``message``
  and ``output``.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError
from .page import escape, output_section, page, report_body

if TYPE_CHECKING:
    from .records import Graded

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
_CLASS = {"right": "right", "wrong": "wrong", "error": "error", "time limit": "time-limit", "memory": "memory"}


def record_page(record: Graded) -> str:
    """One submission's page: its verdict and score, the check's rows and counterexamples, the message."""
    verdict = f"{record.verdict}: {record.score:.0%} of the sizes"
    body = [f"<p>Score <b>{record.score:.3f}</b>: the share of the sizes checked ({_sizes(record)}) at which "
            "the model's boards are exactly the reference's.</p>"]
    if record.message:
        body.append(f"<h2>What went wrong</h2><pre class=\"message\">{escape(record.message)}</pre>")
    if record.report is not None:
        body.append(report_body(record.report))
    else:
        body.append(output_section(record.output))
    return page(f"{record.submission}", verdict, _CLASS.get(record.verdict, "error"), "\n".join(body))


def _sizes(record: Graded) -> str:
    sizes = record.sizes or [row["n"] for row in record.records]
    return ", ".join(map(str, sizes)) if sizes else "none"


def page_name(submission: str) -> str:
    """A submission's page's file name: its name, in letters, digits, '.', '_' and '-' only."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", submission).lstrip(".") + ".html"


def prepare(folder: str | os.PathLike[str]) -> None:
    """The feedback folder, made if it is not there; refused before any work if it cannot be written."""
    path = os.fspath(folder)
    if os.path.exists(path) and not os.path.isdir(path):
        raise InvalidInputError(f"--feedback {path}: not a folder")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise InvalidInputError(f"--feedback {path}: cannot make it: {error.strerror or error}") from None
    from ..files import check_writable

    check_writable(os.path.join(path, "index.html"))


def write_page(folder: str | os.PathLike[str], record: Graded) -> str:
    from ..files import atomic_write_text

    path = os.path.join(os.fspath(folder), page_name(record.submission))
    atomic_write_text(path, record_page(record))
    return path


def index_page(records: list[Graded]) -> str:
    rows = "".join(
        f'<tr class="{_CLASS.get(r.verdict, "error")}"><td><a href="{escape(page_name(r.submission))}">{escape(r.submission)}'
        f"</a></td><td>{escape(r.form)}</td><td>{escape(r.verdict)}</td><td class=\"num\">{r.score:.3f}</td>"
        f"<td class=\"num\">{'' if r.first_wrong is None else r.first_wrong}</td>"
        f"<td class=\"num\">{r.seconds:.1f}</td></tr>" for r in records)
    right = sum(1 for r in records if r.verdict == "right")
    body = ("<table><thead><tr><th>submission</th><th>form</th><th>verdict</th><th>score</th><th>first wrong N</th>"
            f"<th>seconds</th></tr></thead><tbody>{rows}</tbody></table>")
    return page("grade", f"{right} of {len(records)} right", "right" if right == len(records) else "wrong", body)


def write_index(folder: str | os.PathLike[str], records: list[Graded]) -> str:
    from ..files import atomic_write_text

    path = os.path.join(os.fspath(folder), "index.html")
    atomic_write_text(path, index_page(records))
    return path


def _test_lines(record: Graded) -> list[tuple[str, bool, str]]:
    """(name, passed, output) for each N of SPEC: checked or not reached."""
    by_n = {row["n"]: row for row in record.records}
    lines = []
    for n in record.sizes or list(by_n):
        row = by_n.get(n)
        if row is None:
            lines.append((f"N = {n}", False, f"not checked: {record.verdict}" + (f" ({_last(record.message)})"
                                                                                 if record.message else "")))
        elif "optimum" in row:  # (an optimisation model's row)
            lines.append((f"N = {n}", bool(row["agrees"]), _optimum(row)))
        elif row["agrees"]:
            lines.append((f"N = {n}", True, f"agrees: {row['boards']} boards, as the reference"))
        else:
            lines.append((f"N = {n}", False, _differs(row)))
    return lines


def _last(message: str) -> str:
    lines = message.strip().splitlines()
    return lines[-1] if lines else ""


def _optimum(row: dict[str, Any]) -> str:
    proved = "proved by its solver" if row["proved"] else "not proved by its solver"
    if row["agrees"]:
        return f"agrees: {row['optimum']} queens, {proved}, the optimum"
    said = [f"differs: the model's best is {row['optimum']} queens ({proved}), the optimum {row['reference']}"]
    if row.get("attack"):
        said.append(f"its board {row['witness']} is no answer: {row['attack']}")
    if row.get("excluded"):
        why = row.get("why") or {}
        said.append(f"a board of {row['reference']} queens it excludes: {row['excluded']}"
                    + (f": {why.get('text')}" if why else ""))
    return "\n".join(said)


def _differs(row: dict[str, Any]) -> str:
    said = [f"differs: the model has {row['boards']} boards, the reference {row['reference']} "
            f"({row['missing_count']} missing, {row['extra_count']} extra)"]
    if row.get("extra"):
        said.append(f"smallest extra board {row['extra'][0]}: {row.get('attack')}")
    if row.get("missing"):
        why = row.get("why") or {}
        said.append(f"smallest missing board {row['missing'][0]}" + (f": {why.get('text')}" if why else ""))
        said.extend(f"  {part}" for part in why.get("parts", []))
    return "\n".join(said)


def gradescope(record: Graded, visibility: str = "visible") -> dict[str, Any]:
    """The record as Gradescope's results.json: a test a size, a point each."""
    if visibility not in VISIBILITIES:
        raise InvalidInputError(f"visibility: one of {', '.join(VISIBILITIES)}, got {visibility!r}")
    lines = _test_lines(record)
    tests = [{"name": name, "score": 1.0 if passed else 0.0, "max_score": 1.0,
              "status": "passed" if passed else "failed", "output": output, "output_format": "text",
              "visibility": visibility} for name, passed, output in lines]
    points = float(sum(1 for _, passed, _ in lines if passed))
    summary = f"{record.verdict}: {points:g} of {len(tests)} sizes agree"
    if record.message:
        summary += "\n\n" + record.message
    if record.output:
        summary += "\n\nWhat the model printed:\n" + record.output
    return {"score": points, "execution_time": round(record.seconds, 3),
            "output": summary, "output_format": "text", "visibility": visibility, "tests": tests}


def prairielearn(record: Graded) -> dict[str, Any]:
    """The record as PrairieLearn's results: score in [0, 1], not gradable where the model cannot be read."""
    if not record.gradable:
        return {"gradable": False, "score": 0.0, "message": _last(record.message),
                "format_errors": [record.message or record.verdict], "output": record.output}
    lines = _test_lines(record)
    tests = [{"name": name, "points": 1 if passed else 0, "max_points": 1, "message": output.splitlines()[0],
              "output": output} for name, passed, output in lines]
    points = sum(1 for _, passed, _ in lines if passed)
    return {"gradable": True, "score": round(record.score, 6),
            "message": f"{record.verdict}: {points} of {len(tests)} sizes agree"
            + (f"; {_last(record.message)}" if record.message else ""), "output": record.output, "tests": tests}
