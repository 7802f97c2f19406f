"""Declarative against hand-written search, side by side, in numbers.

Every (N, engine) measurement runs in a fresh Python process, so start-up,
the solver package's import and the search itself are timed separately:

    wall     the whole process, as the parent sees it
    import   importing the engine's solver package (OR-Tools, python-sat)
    search   building the model and enumerating every solution
    startup  wall - import - search: the interpreter and our own modules

The worker is this module: ``python -m nqueens_cp.studies.compare N LABEL [--first]``
prints one JSON object.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..execution import execute
from ..execution.plan import plan, plan_solve
from ..engines import engine_class, get_engine, names
from ..errors import EngineUnavailableError, InvalidInputError
from ..known import TOTAL

STOP_GRACE_S = 10.0  # how long a worker stopped at its time limit has to end what it started
VARIANT = "+sb"  # label suffix: the engine with symmetry breaking

# Columns of every row, in order: every counter some engine reports (the engines
# declare them), then the model size; the statistics an engine does not know stay empty.
_NOT_COUNTERS = {"status", "solver", "encoding", "kernel", "formula", "sub_boards", "total", "fundamental",
                 "solver_wall_time", "variables", "clauses", "constraints"}
STAT_COLUMNS = (*dict.fromkeys(stat for name in names() for stat in engine_class(name).statistics
                               if stat not in _NOT_COUNTERS), "variables", "constraints")
COLUMNS = ("n", "engine", "count", "agrees", "runs", "wall_s", "startup_s", "import_s", "search_s",
           "solutions_per_s", *STAT_COLUMNS, "status")


def labels() -> list[str]:
    """Every label compare takes: each engine, and ENGINE+sb for those with symmetry breaking."""
    return [*names(), *(name + VARIANT for name in names(option="symmetry_breaking"))]


def expand(chosen: Sequence[str], first: bool = False) -> list[str]:
    """Labels with presets ("classic", "core", "declarative") replaced by the engines they
    stand for; with ``first``, a preset leaves out the engines that find no solution."""
    from ..engines import PRESETS, expand_presets

    found: list[str] = []
    for label in chosen:
        if label in PRESETS:
            found += [name for name in expand_presets([label]) if not first or engine_class(name).solves]
        else:
            found.append(label)
    return found


def parse_label(label: str) -> tuple[str, dict[str, Any]]:
    """'cpsat+sb' -> ('cpsat', {'symmetry_breaking': True})."""
    name, sb, rest = label.partition(VARIANT)
    if rest or label not in labels():
        raise InvalidInputError(f"unknown engine '{label}' (choose from {', '.join(labels())})")
    return name, ({"symmetry_breaking": True} if sb else {})


def default_labels(first: bool, symmetry_breaking: bool = False) -> list[str]:
    """Every available engine that can answer the question (all solutions, or the first),
    with its +sb variant beside it when ``symmetry_breaking``."""
    chosen = names(available=True, family="core") if first else names(enumerates=True, available=True, family="core")
    return with_variants(chosen, symmetry_breaking)


def with_variants(chosen: Sequence[str], symmetry_breaking: bool) -> list[str]:
    if not symmetry_breaking:
        return list(chosen)
    takes = set(names(option="symmetry_breaking"))
    return list(dict.fromkeys(x for label in chosen for x in ([label, label + VARIANT] if label in takes else [label])))


def measure(n: int, label: str, first: bool = False) -> dict[str, Any]:
    """One measurement in this process: import, then search (all solutions, or the first)."""
    name, options = parse_label(label)
    if first:
        return _measure_first(n, name, options)
    engine = get_engine(name, **options)
    start = time.perf_counter()
    engine.preload()
    imported = time.perf_counter()
    # Searched as the command line searches it (plan()), on this one process.
    with execute.search(plan(n, engine, jobs=1)) as search:
        # A model counter counts without listing; every other engine lists, one by one.
        count = search.count() if engine.counts_only else sum(1 for _ in search)
    done = time.perf_counter()
    stats = dict(search.stats)
    if "clauses" in stats:  # one column for model size, whatever the model
        stats["constraints"] = stats.pop("clauses")
    return {"count": count, "import_s": imported - start, "search_s": done - imported, "stats": stats}


def _measure_first(n: int, name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Time to one solution, by the ``solve`` path (CP-SAT then runs a portfolio of workers)."""
    from ..engines import Status

    if "seed" in {o.name for o in engine_class(name).options}:
        options = {"seed": 0, **options}  # reproducible runs
    engine = get_engine(name, **options)
    start = time.perf_counter()
    engine.preload()
    imported = time.perf_counter()
    outcome = execute.solve(plan_solve(n, engine, jobs=1))
    done = time.perf_counter()
    return {"count": int(outcome.status is Status.SOLVED), "import_s": imported - start,
            "search_s": done - imported, "stats": dict(outcome.stats)}


@dataclass
class Run:
    wall_s: float
    result: dict[str, Any] | None  # None: timed out
    error: str | None = None


def _run_worker(n: int, label: str, first: bool, time_limit: float | None) -> Run:
    command = [sys.executable, "-m", "nqueens_cp.studies.compare", str(n), label] + (["--first"] if first else [])
    start = time.perf_counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}) as proc:
        try:
            out, err = proc.communicate(timeout=time_limit)
        except subprocess.TimeoutExpired:
            wall = time.perf_counter() - start
            # SIGTERM first: the worker then ends what its engine started (a MiniZinc
            # run in a session of its own, which SIGKILL would leave running: nqueens_cp.stopping)
            proc.terminate()
            try:
                proc.communicate(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
            return Run(wall, None)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        return Run(wall, None, (err.strip().splitlines() or [f"exit {proc.returncode}"])[-1])
    return Run(wall, json.loads(out))


def compare(sizes: Sequence[int], labels: Sequence[str], repeat: int = 1, first: bool = False,
            time_limit: float | None = None, progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """One row per (N, engine): medians over ``repeat`` fresh processes."""
    if len(set(labels)) != len(labels):
        twice = next(label for label in labels if labels.count(label) > 1)
        raise InvalidInputError(f"engine {twice} is named twice")
    for label in labels:
        name, options = parse_label(label)
        cls = engine_class(name)
        if not cls.enumerates and not cls.counts_only and not first:
            raise InvalidInputError(f"{name} finds one solution, never all of them: use it with --first")
        if first and not cls.solves:
            raise InvalidInputError(f"{name} counts solutions without finding one: leave out --first")
        reason = cls.unavailable_reason()
        if reason:
            raise EngineUnavailableError(f"engine '{name}' is unavailable: {reason}")
    rows = []
    for n in sizes:
        for label in labels:
            runs = []
            for attempt in range(repeat):
                if progress:
                    progress(f"compare: N={n} {label} run {attempt + 1}/{repeat}")
                runs.append(_run_worker(n, label, first, time_limit))
                if runs[-1].result is None:
                    break  # a timeout or failure will not get better
            rows.append(_row(n, label, runs, time_limit))
        _check_agreement([row for row in rows if row["n"] == n], first)
    return rows


def _row(n: int, label: str, runs: list[Run], time_limit: float | None) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, None)
    row.update(n=n, engine=label, runs=len(runs))
    failed = next((run for run in runs if run.result is None), None)
    if failed is not None:
        row["status"] = f"error: {failed.error}" if failed.error else f"timeout after {time_limit:g} s"
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
    if row["count"] and row["search_s"] > 0:
        row["solutions_per_s"] = row["count"] / row["search_s"]
    stats = results[-1]["stats"]
    for key in STAT_COLUMNS:
        if key in stats:
            row[key] = stats[key]
    row["status"] = "ok"
    return row


def _check_agreement(rows: list[dict[str, Any]], first: bool) -> None:
    """Counts must agree with each other and with A000170 (all solutions) or be 1 (first)."""
    for row in rows:
        if row["status"] != "ok":
            continue
        n = row["n"]
        expected = (0 if TOTAL.get(n) == 0 else 1) if first else TOTAL.get(n)
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


def _worker(argv: list[str]) -> int:
    from .. import stopping

    stopping.worker()  # (stopped at its time limit by SIGTERM: see _run_worker)
    first = "--first" in argv
    args = [a for a in argv if a != "--first"]
    print(json.dumps(measure(int(args[0]), args[1], first)))
    return 0


if __name__ == "__main__":
    raise SystemExit(_worker(sys.argv[1:]))
