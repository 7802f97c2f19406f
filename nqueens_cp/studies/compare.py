"""Declarative against hand-written search, side by side, in numbers.

Every (N, engine) measurement runs in a fresh Python process, so start-up,
the solver package's import and the search itself are timed separately:

    wall     the whole process, as the parent sees it
    import   importing the engine's solver package (OR-Tools, python-sat)
    search   building the model and enumerating every solution (or finding
             the first, or proving an optimum)
    startup  wall - import - search: the interpreter and our own modules

Any question of the family (``variant``: :mod:`nqueens_cp.model.variants`)
is timed the same way; for the domination questions, ``count`` is the
optimum, proved within the time limit or reported as not proved.

The worker is :mod:`.measure`: ``python -m nqueens_cp.studies.measure N
LABEL [--first] [--variant NAME] [--time-limit SEC]`` prints one JSON object.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..estimates import duration
from ..engines import engine_class, get_engine, names
from ..errors import EngineUnavailableError, InvalidInputError
from ..known import TOTAL
from ..model import variants
from ..model.variants import Variant
from ..stopping import die_with_parent

STOP_GRACE_S = 10.0  # how long a worker stopped at its time limit has to end what it started
SB = "+sb"  # label suffix: the engine with symmetry breaking

# Columns of every row, in order: every counter some engine reports (the engines
# declare them), then the model size; the statistics an engine does not know stay empty.
_NOT_COUNTERS = {"status", "solver", "counter", "encoding", "kernel", "formula", "sub_boards", "total", "fundamental",
                 "solver_time", "variables", "clauses", "constraints"}
STAT_COLUMNS = (*dict.fromkeys(stat for name in names() for stat in engine_class(name).statistics
                               if stat not in _NOT_COUNTERS), "variables", "constraints")
START_SECONDS = 0.3  # a measurement's fresh process, to its search: Python, the package, the engine's imports
NOTE_SECONDS = 60.0  # a study that takes longer than this at the least says so before it starts
COLUMNS = ("n", "engine", "count", "agrees", "runs", "wall_s", "startup_s", "import_s", "search_s",
           "solutions_per_s", *STAT_COLUMNS, "status")


def labels() -> list[str]:
    """Every label compare takes: each engine, and ENGINE+sb for those with symmetry breaking."""
    return [*names(), *(name + SB for name in names(option="symmetry_breaking"))]


def expand(chosen: Sequence[str], first: bool = False, variant: str | variants.Variant = "queens") -> list[str]:
    """Labels with presets ("classic", "core", "declarative") replaced by the engines they
    stand for that answer ``variant``; with ``first``, a preset leaves out the engines
    that find no solution."""
    from ..engines import PRESETS, expand_presets

    found: list[str] = []
    lists = not first and variants.get(variant).places
    for label in chosen:
        if label in PRESETS:
            found += [name for name in expand_presets([label]) if (not first or engine_class(name).solves)
                      and (not lists or engine_class(name).enumerates or engine_class(name).counts_only)
                      and engine_class(name).answers(variant) and name not in found and name not in chosen]
        else:
            found.append(label)
    return found


def parse_label(label: str) -> tuple[str, dict[str, Any]]:
    """'cpsat+sb' -> ('cpsat', {'symmetry_breaking': True})."""
    name, sb, rest = label.partition(SB)
    if rest or label not in labels():
        raise InvalidInputError(f"unknown engine '{label}' (choose from {', '.join(labels())})")
    return name, ({"symmetry_breaking": True} if sb else {})


def default_labels(first: bool, symmetry_breaking: bool = False, variant: str = "queens") -> list[str]:
    """Every available core engine that can answer the question (all solutions, the
    first, or the optimum of ``variant``), with its +sb label beside it when
    ``symmetry_breaking``."""
    question = variants.get(variant)
    lists = not first and question.places
    chosen = names(enumerates=True if lists else None, available=True, group="core", variant=question.name)
    return with_symmetry_breaking(chosen, symmetry_breaking)


def with_symmetry_breaking(chosen: Sequence[str], symmetry_breaking: bool) -> list[str]:
    """The labels, each engine that has symmetry breaking followed by its +sb label."""
    if not symmetry_breaking:
        return list(chosen)
    takes = set(names(option="symmetry_breaking"))
    return list(dict.fromkeys(x for label in chosen for x in ([label, label + SB] if label in takes else [label])))


@dataclass
class Run:
    wall_s: float
    result: dict[str, Any] | None  # None: timed out
    error: str | None = None


def _run_worker(n: int, label: str, first: bool, time_limit: float | None, question: Variant = variants.PLAIN) -> Run:
    """One measurement in a fresh process.  Its time limit runs from the
    moment the process says it is at work (its interpreter and our modules
    loaded): counted from its start, a busy machine's slow start-up made
    construct "not give one" at N = 20,000 within 1 s, and cpsat time out at
    N = 50.  The engine's own imports are its work, and count."""
    ready_r, ready_w = os.pipe()
    command = [sys.executable, "-m", "nqueens_cp.studies.measure", str(n), label, "--variant", question.name,
               "--ready", str(ready_w)]
    command += ["--first"] if first else []
    wait = time_limit
    if question.optimizes and time_limit is not None:
        # The engine stops itself at the limit and says what it found by then.
        command += ["--time-limit", repr(time_limit)]
        wait = time_limit + STOP_GRACE_S
    start = time.perf_counter()
    try:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, pass_fds=(ready_w,),
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, preexec_fn=die_with_parent) as proc:
            os.close(ready_w)
            ready_w = -1
            try:
                _started(ready_r)  # (or ended: its output says how)
                out, err = proc.communicate(timeout=wait)
            except subprocess.TimeoutExpired:
                wall = time.perf_counter() - start
                _end(proc)
                return Run(wall, None)
            except BaseException:  # Ctrl-C or SIGTERM in this process: the worker ends with it, now
                _end(proc)
                raise
    finally:
        for fd in (ready_r, ready_w):
            if fd >= 0:
                os.close(fd)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        return Run(wall, None, (err.strip().splitlines() or [f"exit {proc.returncode}"])[-1])
    return Run(wall, json.loads(out))


def _started(ready: int) -> None:
    """Wait until the measurement's process writes its word on ``ready``, or closes
    it by ending (however long its start-up takes on a busy machine: a stuck one
    is the user's to stop, as any command)."""
    os.read(ready, 1)


def _end(proc: subprocess.Popen[str]) -> None:
    """End a measurement's worker: SIGTERM first, so that it ends what its engine
    started (a MiniZinc run in a session of its own, which SIGKILL would leave
    running: nqueens_cp.stopping), then SIGKILL after a grace."""
    proc.terminate()
    try:
        proc.communicate(timeout=STOP_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


def compare(sizes: Sequence[int], labels: Sequence[str], repeat: int = 1, first: bool = False,
            time_limit: float | None = None, progress: Callable[[str], None] | None = None,
            variant: str = "queens") -> list[dict[str, Any]]:
    """One row per (N, engine): medians over ``repeat`` fresh processes, for
    one question of the family (``variant``; for domination and independent,
    the time to prove the optimum).  All of :func:`compare_rows`."""
    return list(compare_rows(sizes, labels, repeat, first, time_limit, progress, variant))


def compare_rows(sizes: Sequence[int], labels: Sequence[str], repeat: int = 1, first: bool = False,
                 time_limit: float | None = None, progress: Callable[[str], None] | None = None,
                 variant: str = "queens") -> Iterator[dict[str, Any]]:
    """The rows of :func:`compare`, each as soon as it is measured (everything
    is checked before the first measurement).  A row's ``agrees`` is judged
    against the published value and the rows of its N so far; a later row
    of the same N that disagrees marks the earlier ones too (the row objects
    already given are updated: the list at the end is the final word)."""
    question = _checked(labels, first, variant)
    return _measured(sizes, labels, repeat, first, time_limit, progress, question)


def _checked(labels: Sequence[str], first: bool, variant: str) -> Variant:
    """The question, every label refused now if it cannot run (before any measurement)."""
    question = variants.get(variant)
    if len(set(labels)) != len(labels):
        twice = next(label for label in labels if labels.count(label) > 1)
        raise InvalidInputError(f"engine {twice} is named twice")
    if first and question.optimizes:
        raise InvalidInputError(f"{question.title} asks for an optimum, not a first board: leave out --first")
    for label in labels:
        name, options = parse_label(label)
        cls = engine_class(name)
        if not cls.answers(question):
            raise InvalidInputError(cls.refusal(question))
        if question.optimizes:
            if options:  # +sb: the lex-leader constraints are on boards of N queens
                raise InvalidInputError(f"{label}: symmetry breaking does not apply to an optimum (name {name})")
        elif not cls.enumerates and not cls.counts_only and not first:
            raise InvalidInputError(f"{name} finds one solution, never all of them: use it with --first")
        if first and not cls.solves:
            raise InvalidInputError(f"{name} counts solutions without finding one: leave out --first")
        reason = cls.unavailable_reason()
        if reason:
            raise EngineUnavailableError(f"engine '{name}' is unavailable: {reason}")
    return question


def _measured(sizes: Sequence[int], labels: Sequence[str], repeat: int, first: bool, time_limit: float | None,
              progress: Callable[[str], None] | None, question: Variant) -> Iterator[dict[str, Any]]:
    for n in sizes:
        rows: list[dict[str, Any]] = []  # this N's
        for label in labels:
            name, options = parse_label(label)
            refusal = get_engine(name, question.name, **options).refuses(n)
            if refusal is not None:  # (bitmask's optimum serves N <= 32): a row that says so, not a failure
                rows.append(_refused(n, label, refusal))
            else:
                runs = []
                for attempt in range(repeat):
                    if progress:
                        progress(f"compare: N={n} {label} run {attempt + 1}/{repeat}")
                    runs.append(_run_worker(n, label, first, time_limit, question))
                    if runs[-1].result is None or runs[-1].result.get("proved") is False:
                        break  # a timeout or failure will not get better
                rows.append(_row(n, label, runs, time_limit))
            _check_agreement(rows, first, question)
            yield rows[-1]


def advice(sizes: Sequence[int], labels: Sequence[str], repeat: int = 1) -> list[str]:
    """A note for a study of many measurements: each is a fresh process
    (about :data:`START_SECONDS` before any search), so their number alone
    says how long it runs at the least."""
    runs = len(sizes) * len(labels) * repeat
    seconds = runs * START_SECONDS
    if seconds <= NOTE_SECONDS:
        return []
    return [f"{len(sizes):,} sizes x {len(labels)} engines x {repeat:,} runs is {runs:,} measurements, each a "
            f"fresh process of about {START_SECONDS:g} s before its search: {duration(math.log10(seconds))} "
            "at the least (rows are printed as they are measured)"]


def _refused(n: int, label: str, refusal: str) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, None)
    row.update(n=n, engine=label, runs=0, status=f"refused: {refusal}")
    return row


# The last line of a measurement that its engine refused, in its own process (its check of this N, or a
# package or program missing there): a refusal, drawn as one, not an error at the time it took.
REFUSALS = ("nqueens_cp.errors.InvalidInputError: ", "nqueens_cp.errors.EngineUnavailableError: ")


def _row(n: int, label: str, runs: list[Run], time_limit: float | None) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, None)
    row.update(n=n, engine=label, runs=len(runs))
    failed = next((run for run in runs if run.result is None), None)
    if failed is not None:
        error = failed.error or ""
        refusal = next((error.removeprefix(kind) for kind in REFUSALS if error.startswith(kind)), None)
        row["status"] = f"refused: {refusal}" if refusal is not None else \
            f"error: {error}" if error else f"timeout after {time_limit:g} s"
        row["wall_s"] = failed.wall_s
        row["agrees"] = None
        return row
    results = [run.result for run in runs if run.result is not None]
    counts = {result["count"] for result in results}
    row["count"] = counts.pop() if len(counts) == 1 else None
    row["wall_s"] = statistics.median(run.wall_s for run in runs)
    row["import_s"] = statistics.median(r["import_s"] for r in results)
    row["search_s"] = statistics.median(r["search_s"] for r in results)
    row["startup_s"] = max(0.0, row["wall_s"] - row["import_s"] - row["search_s"])
    if row["count"] and row["search_s"] > 0 and "proved" not in results[-1]:  # (an optimum is no rate)
        row["solutions_per_s"] = row["count"] / row["search_s"]
    stats = results[-1]["stats"]
    for key in STAT_COLUMNS:
        if key in stats:
            row[key] = stats[key]
    unproved = next((r for r in results if r.get("proved") is False), None)
    if unproved is not None:  # an optimum not proved within the time limit: the best found, the bound shown
        best = "none found" if unproved["count"] is None else f"best {unproved['count']}"
        row["status"] = f"not proved in {time_limit:g} s ({best}, at least {unproved['bound']})"
        return row
    row["status"] = "ok"
    return row


def _check_agreement(rows: list[dict[str, Any]], first: bool, question: Variant = variants.PLAIN) -> None:
    """Counts (or optima) must agree with each other and with the published
    values (A000170 for plain N-queens, the variant's own sequence otherwise),
    or be 1 (first) exactly where a board exists."""
    known = TOTAL if question == variants.PLAIN else question.known
    for row in rows:
        if row["status"] != "ok":
            continue
        n = row["n"]
        total = known.get(n)
        expected = int(bool(question.exists(n))) if first else total
        others = {r["count"] for r in rows if r["status"] == "ok"}
        row["agrees"] = row["count"] is not None and (expected is None or row["count"] == expected) and len(others) == 1
        if not row["agrees"]:
            row["status"] = "DISAGREES"


def problems(rows: list[dict[str, Any]]) -> list[str]:
    """What went wrong, one line each: a disagreeing count or a failed run."""
    found = []
    for row in rows:
        if row["agrees"] is False:
            found.append(f"N={row['n']}: engine {row['engine']} counted {row['count']}, which disagrees")
        elif row["status"].startswith("error"):
            found.append(f"N={row['n']}: engine {row['engine']} failed: {row['status']}")
    return found

