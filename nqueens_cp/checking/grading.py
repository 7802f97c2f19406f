"""Grading: a model's check as one record (:func:`grade_model`), and a class's folder of them (:func:`grade`).

A record says what a grader needs of one submission: its ``verdict``
(``right``, ``wrong``, ``error``, ``time limit``, ``memory``), its
``score`` (the share of SPEC's N at which its boards are exactly the
reference's), the first N that differs, check's JSON for each N checked,
the time, the user's message (their traceback from their own file on, or
the tool's), and what the model printed (bounded).  Every N of SPEC is
checked, each model in its own sandbox (:mod:`.isolate`) under the same
limits, the time limit covering the whole submission from its import on;
an N not reached (a failure, the time limit) scores nothing.

A folder's entries are the submissions (:func:`submissions`): a model file
of any form check reads, or a folder holding one.  They are graded
``jobs`` at a time; ``results`` (a JSON Lines file) takes each record as it
finishes, and a grade that finds it resumes: the submissions recorded
there are not graded again, those added since are.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError, NQueensError, TimeLimitReached
from .forms import ModelError
from .reading import FORMS, form_of
from .records import GradeReport, Graded

VERDICTS = ("right", "wrong", "error", "time limit", "memory")
DEFAULT_TIME_LIMIT = 60.0  # seconds a submission, unless told: a class's grade must end


def grade_model(model: Any, spec: Any, *, name: str | None = None, variant: str = "queens",
                var: str | None = None, generator: str | None = None, data: str | None = None,
                base: int | None = None, every: bool = True, show: int = 3,
                time_limit: float | None = DEFAULT_TIME_LIMIT, memory: Any = None, network: bool = False,
                isolate: bool = True, ignore_objective: bool = False, progress: Callable[[str], None] | None = None,
                rows: Callable[[Any], None] | None = None,
                notify: Callable[[str], None] | None = None) -> Graded:
    """One model checked at every N of ``spec`` (``every=False``: up to the
    first that differs), as a record: the model's failure or its time limit
    is its verdict, never raised.  A usage mistake (a bad SPEC, a name that
    is no form) raises InvalidInputError before any work; a failure of the
    checker's own (a tool missing here) raises as it is.  The other keywords
    are :func:`~nqueens_cp.checking.run.check`'s."""
    from .records import CheckReport, NCheck
    from .run import check, spec_sizes

    sizes = spec_sizes(spec)
    form = form_of(model, generator)
    checked: list[NCheck] = []

    def row_done(row: NCheck) -> None:
        checked.append(row)
        if rows:
            rows(row)

    started = time.monotonic()
    verdict, message, output, report = "", "", "", None
    try:
        report = check(model, sizes, variant=variant, var=var, generator=generator, data=data, base=base,
                       every=every, show=show, time_limit=time_limit, memory=memory, network=network,
                       isolate=isolate, ignore_objective=ignore_objective, progress=progress, rows=row_done,
                       notify=notify)
        output = report.output
    except TimeLimitReached as error:
        verdict, message = "time limit", str(error)
    except ModelError as error:
        verdict = "memory" if error.memory else "error"
        message = (error.detail.rstrip() + "\n" if error.detail and error.detail.strip() != str(error) else "") \
            + str(error)
        output = error.output
    if report is None:
        shown = str(name or (os.fspath(model) if isinstance(model, (str, os.PathLike)) else
                             getattr(model, "__name__", "model") if model is not None else generator))
        report = CheckReport(shown, form.tool, str(variant), list(checked), form=form.name, output=output)
    agreed = sum(1 for row in checked if row.agrees)
    first_wrong = next((row.n for row in checked if not row.agrees), None)
    if not verdict:
        verdict = "right" if first_wrong is None else "wrong"
    return Graded(name or report.model, form.name, verdict, agreed / len(sizes), first_wrong,
                  [row.to_dict() for row in checked], time.monotonic() - started, message, output, sizes, report)


# -- a class's folder -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Submission:
    """One entry of a class's folder: the model check takes, or why none was found."""

    name: str
    model: str | None
    problem: str = ""


_PER_N = re.compile(r"(.*?)(\d+)(\.[A-Za-z]+)$")


def submissions(folder: str | os.PathLike[str], entry: str = "model") -> list[Submission]:
    """The submissions in ``folder``, by name: each file of a form check reads
    (a ``.py`` file's function ``entry``), and each folder holding one model
    (one ``.py`` file defining ``entry``, one ``.mzn``, one ``.lp``, or one
    file a N, ``q-4.cnf``, ``q-5.cnf``...)."""
    if not entry.isidentifier():
        raise InvalidInputError(f"--entry {entry!r}: not a Python function name")
    try:
        names = sorted(os.listdir(folder))
    except OSError as error:
        raise InvalidInputError(f"cannot read the folder {os.fspath(folder)}: {error.strerror or error}") from None
    found = []
    for name in names:
        if name.startswith((".", "__")):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path):
            found.append(_in_folder(name, path, entry))
        else:
            model = _model_file(path, entry)
            if model is not None:
                found.append(Submission(name, model))
    if not found:
        raise InvalidInputError(f"{os.fspath(folder)} holds no submission: no model file ({_suffixes()}) and no "
                                "folder")
    return found


def _suffixes() -> str:
    return ", ".join(suffix for form in FORMS for suffix in form.suffixes)


def _model_file(path: str, entry: str) -> str | None:
    """The model check takes for one file, or None where it is none of the forms."""
    suffix = os.path.splitext(path)[1].lower()
    form = next((form for form in FORMS if suffix in form.suffixes), None)
    if form is None or form.per_n:
        return None
    return f"{path}:{entry}" if form.name == "python" else path


def _in_folder(name: str, path: str, entry: str) -> Submission:
    files = sorted(f for f in os.listdir(path) if os.path.isfile(os.path.join(path, f)) and not f.startswith("."))
    candidates = []
    python = [f for f in files if f.endswith(".py")]
    defining = [f for f in python if re.search(rf"^\s*def\s+{entry}\s*\(", _text(os.path.join(path, f)), re.M)]
    if defining:
        candidates.append(os.path.join(path, (defining if len(defining) == 1 else
                                              [f for f in defining if f == f"{entry}.py"] or defining)[0]) + f":{entry}")
    for form in FORMS:
        if form.per_n and form.suffixes:
            templates = {t for f in files if os.path.splitext(f)[1].lower() in form.suffixes
                         for t in [_template(f)] if t is not None}
            candidates.extend(os.path.join(path, t) for t in sorted(templates))
        elif form.name not in ("python", "generator"):
            candidates.extend(os.path.join(path, f) for f in files if os.path.splitext(f)[1].lower() in form.suffixes)
    if len(candidates) == 1:
        return Submission(name, candidates[0])
    if not candidates:
        said = (f"no model in it: no .py file defines {entry}()" if python else
                f"no model in it (a .py file defining {entry}(), or {_suffixes()})")
        return Submission(name, None, said)
    shown = ", ".join(os.path.basename(c) for c in candidates)
    return Submission(name, None, f"more than one model in it ({shown}): leave one")


def _text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(1 << 20)
    except OSError:
        return ""


def _template(file: str) -> str | None:
    """'q-08.cnf' -> 'q-{n:02}.cnf'; 'q-8.cnf' -> 'q-{n}.cnf'."""
    match = _PER_N.fullmatch(file)
    if not match:
        return None
    head, digits, tail = match.groups()
    return head + ("{n:0%d}" % len(digits) if digits.startswith("0") and len(digits) > 1 else "{n}") + tail


def read_results(path: str | os.PathLike[str]) -> list[Graded]:
    """The records of a results file; a last line cut short (a grade killed as it wrote) is left out."""
    records = []
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    data = json.loads(line)
                    records.append(Graded.from_dict(data))
                except (ValueError, KeyError, TypeError):
                    continue
    except FileNotFoundError:
        return []
    except OSError as error:
        raise InvalidInputError(f"cannot read the results {os.fspath(path)}: {error.strerror or error}") from None
    return records


def append_result(path: str | os.PathLike[str], record: Graded) -> None:
    """One record onto the results file, on a line of its own, on disk before the next."""
    from ..errors import NQueensError

    line = json.dumps(record.to_dict()) + "\n"
    try:
        with open(path, "a+b") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell():
                handle.seek(-1, os.SEEK_END)
                if handle.read(1) != b"\n":  # (a line cut short by a kill: the next starts afresh)
                    line = "\n" + line
            handle.write(line.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        raise NQueensError(f"cannot write the results {os.fspath(path)}: {error.strerror or error}") from None


def _graded(submission: Submission, sizes: list[int], options: dict[str, Any]) -> Graded:
    """One submission's record (run in a thread of the grader, or on a Dask worker)."""
    if submission.model is None:
        return Graded(submission.name, "", "error", 0.0, None, [], 0.0, f"{submission.name}: {submission.problem}",
                      sizes=sizes)
    try:
        return grade_model(submission.model, sizes, name=submission.name, **options)
    except NQueensError as error:  # (its form's tool is missing here, say: said on its record, the rest go on)
        return Graded(submission.name, "", "error", 0.0, None, [], 0.0, f"{submission.name}: {error}", sizes=sizes)


def grade(folder: str | os.PathLike[str], spec: Any, *, entry: str = "model", variant: str = "queens",
          time_limit: float | None = DEFAULT_TIME_LIMIT, memory: Any = None, network: bool = False,
          jobs: int | None = None, executor: Any = None, results: str | os.PathLike[str] | None = None,
          feedback: str | os.PathLike[str] | None = None, show: int = 3,
          on_record: Callable[[Graded], None] | None = None,
          progress: Callable[[int, int], None] | None = None) -> GradeReport:
    """Grade every submission of ``folder`` at every N of ``spec`` (see the
    module's docstring), ``jobs`` at a time (default: the cores) in this
    machine's threads, or on ``executor``: a ``concurrent.futures.Executor``,
    a Dask ``Client``, or a Dask scheduler's address (``tcp://host:8786``,
    ``local:N``), whose workers must see ``folder`` at the same path.
    ``feedback``: a folder that takes a page for each submission and an
    index.  ``on_record`` is called with each record as it finishes,
    ``progress`` with (done, all)."""
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
    from contextlib import ExitStack

    from ..engines.search import check_time_limit
    from .run import spec_sizes
    from .sandbox import parse_size

    sizes = spec_sizes(spec)
    parse_size(memory)
    check_time_limit(time_limit)
    if jobs is not None and (type(jobs) is not int or jobs < 1):
        raise InvalidInputError(f"jobs: how many submissions at a time, a positive whole number, got {jobs!r}")
    found = submissions(folder, entry)
    done: dict[str, Graded] = {}
    if results is not None:
        done = {record.submission: record for record in read_results(results)}
    if feedback is not None:
        from .feedback import prepare

        prepare(feedback)
    resumed = [s.name for s in found if s.name in done]
    todo = [s for s in found if s.name not in done]
    total, finished = len(found), len(resumed)
    if progress:
        progress(finished, total)
    options = {"variant": variant, "time_limit": time_limit, "memory": memory, "network": network, "show": show}
    with ExitStack() as stack:
        if executor is None:
            pool: Any = stack.enter_context(ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1,
                                                               thread_name_prefix="grade"))
        elif isinstance(executor, str):
            from ..execution.cluster import dask_executor

            pool = stack.enter_context(dask_executor(executor))
        else:
            from ..execution.cluster import as_executor

            pool = as_executor(executor)
        pending = {pool.submit(_graded, s, sizes, options) for s in todo}
        try:
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in ready:
                    record = future.result()
                    done[record.submission] = record
                    if results is not None:
                        append_result(results, record)
                    if feedback is not None:
                        from .feedback import write_page

                        write_page(feedback, record)
                    finished += 1
                    if on_record:
                        on_record(record)
                    if progress:
                        progress(finished, total)
        except BaseException:
            for future in pending:
                future.cancel()
            from .sandbox import end_every_sandbox

            end_every_sandbox()  # (the checks under way here then fail at once, and their threads end)
            raise
    ordered = [done[s.name] for s in found]
    if feedback is not None:
        from .feedback import write_index

        write_index(feedback, ordered)
    return GradeReport(ordered, resumed)


def scores(records: Iterable[Graded]) -> dict[str, int]:
    """How many submissions got each verdict."""
    counted = {verdict: 0 for verdict in VERDICTS}
    for record in records:
        counted[record.verdict] = counted.get(record.verdict, 0) + 1
    return counted
