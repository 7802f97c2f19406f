"""Declarative against hand-written search, side by side, in numbers.

Every (N, engine) measurement runs in a fresh Python process, so start-up,
the solver package's import and the search itself are timed separately:

    wall     the whole process, as the parent sees it
    import   importing the engine's solver package (OR-Tools, python-sat)
    search   building the model and enumerating every solution
    startup  wall - import - search: the interpreter and our own modules

The worker is this module: ``python -m nqueens_cp.compare N LABEL [--first]``
prints one JSON object.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from .engines import ENGINE_NAMES, engine_class, get_engine
from .errors import InvalidInputError, NQueensError
from .known import TOTAL

VARIANT = "+sb"  # label suffix: the engine with --symmetry-breaking

# Columns of every row, in order; the statistics an engine does not know stay empty.
STAT_COLUMNS = ("nodes", "tries", "branches", "conflicts", "decisions", "propagations", "variables", "constraints")
COLUMNS = ("n", "engine", "count", "agrees", "runs", "wall_s", "startup_s", "import_s", "search_s",
           "solutions_per_s", *STAT_COLUMNS, "status")


FIRST_ONLY = ("construct", "minconflicts")  # engines that find one solution, never all


def parse_label(label: str) -> tuple[str, dict[str, Any]]:
    """'cpsat+sb' -> ('cpsat', {'symmetry_breaking': True})."""
    name, sb, rest = label.partition(VARIANT)
    if rest or name not in (*ENGINE_NAMES, *FIRST_ONLY):
        raise InvalidInputError(f"unknown engine '{label}' (choose from {', '.join((*ENGINE_NAMES, *FIRST_ONLY))}; "
                                f"cpsat{VARIANT} and sat{VARIANT} add symmetry breaking)")
    if sb and name not in ("cpsat", "sat"):
        raise InvalidInputError(f"'{label}': symmetry breaking applies only to cpsat and sat")
    return name, ({"symmetry_breaking": True} if sb else {})


def measure(n: int, label: str, first: bool = False) -> dict[str, Any]:
    """One measurement in this process: import, then search (all solutions, or the first)."""
    name, options = parse_label(label)
    if first:
        return _measure_first(n, name, options)
    engine = get_engine(name, **options)
    start = time.perf_counter()
    engine.preload()
    imported = time.perf_counter()
    count = 0
    with engine.search(n, limit=1 if first else None) as search:
        for _ in search:
            count += 1
    done = time.perf_counter()
    stats = dict(search.stats)
    if "clauses" in stats:  # one column for model size, whatever the model
        stats["constraints"] = stats.pop("clauses")
    return {"count": count, "import_s": imported - start, "search_s": done - imported, "stats": stats}


def _measure_first(n: int, name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Time to one solution, by the ``solve`` path (CP-SAT then runs a portfolio of workers)."""
    from .solve import SOLVED, solve

    start = time.perf_counter()
    if name in ENGINE_NAMES:
        get_engine(name, **options).preload()
    imported = time.perf_counter()
    outcome = solve(n, name, seed=0, **options)
    done = time.perf_counter()
    return {"count": int(outcome.status == SOLVED), "import_s": imported - start, "search_s": done - imported,
            "stats": dict(outcome.stats)}


@dataclass
class Run:
    wall_s: float
    result: dict[str, Any] | None  # None: timed out
    error: str | None = None


def _run_worker(n: int, label: str, first: bool, time_limit: float | None) -> Run:
    command = [sys.executable, "-m", "nqueens_cp.compare", str(n), label] + (["--first"] if first else [])
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=time_limit,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    except subprocess.TimeoutExpired:
        return Run(time.perf_counter() - start, None)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        return Run(wall, None, (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1])
    return Run(wall, json.loads(proc.stdout))


def compare(sizes: Sequence[int], labels: Sequence[str], repeat: int = 1, first: bool = False,
            time_limit: float | None = None, progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """One row per (N, engine): medians over ``repeat`` fresh processes."""
    for label in labels:
        name, options = parse_label(label)
        if name in FIRST_ONLY and not first:
            raise InvalidInputError(f"{name} finds one solution, never all of them: use it with --first")
        if first and options and name == "cpsat":
            raise InvalidInputError("cpsat+sb applies to enumeration; with --first, cpsat runs a portfolio of workers")
        reason = engine_class(name).unavailable_reason() if name in ENGINE_NAMES else None
        if reason:
            raise NQueensError(f"engine '{name}' is unavailable: {reason}")
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


def format_table(rows: list[dict[str, Any]]) -> str:
    shown = [c for c in COLUMNS if c not in ("runs",) and any(row[c] is not None for row in rows)]

    def cell(value: Any, column: str) -> str:
        if value is None:
            return "-"
        if isinstance(value, bool):
            return "yes" if value else "NO"
        if isinstance(value, float):
            return f"{value:.0f}" if column == "solutions_per_s" else f"{value:.3f}"
        return str(value)

    header = [c.removesuffix("_s") if c != "solutions_per_s" else "sol/s" for c in shown]
    body = [[cell(row[c], c) for c in shown] for row in rows]
    return aligned(header, body, left=[c in ("engine", "status") for c in shown])


def aligned(header: list[str], body: list[list[str]], left: list[bool]) -> str:
    """A plain-text table: columns padded to their widest cell, text left, numbers right."""
    table = [header, *body]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    return "\n".join(
        "  ".join(text.ljust(w) if flush_left else text.rjust(w)
                  for text, w, flush_left in zip(line, widths, left)).rstrip()
        for line in table
    )


def write_csv(rows: list[dict[str, Any]], path: str, columns: Sequence[str] = COLUMNS) -> None:
    import csv
    import io

    from .files import atomic_write_text

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write_text(path, buffer.getvalue())


def write_json(rows: list[dict[str, Any]], path: str, columns: Sequence[str] = COLUMNS) -> None:
    from .files import atomic_write_text

    atomic_write_text(path, json.dumps(rows, indent=1) + "\n")


def require_matplotlib() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise NQueensError("--plot needs matplotlib: pip install 'nqueens-cp[plot]' (or pip install matplotlib)") from None


@contextmanager
def time_plot(path: str, ylabel: str, title: str, sizes: Sequence[int]) -> Iterator[Any]:
    """Axes for seconds against N on a log scale; on leaving, labelled (a tick
    at each N in ``sizes``, if there are few) and saved as PNG, atomically."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .files import atomic_write

    figure, axes = plt.subplots(figsize=(8, 5), dpi=120)
    try:
        yield axes
        axes.set_yscale("log")
        axes.set_xlabel("N (board size)")
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(title="engine")
        if len(sizes) <= 30:
            axes.set_xticks(sorted(set(sizes)))
        figure.tight_layout()
        atomic_write(path, lambda temporary: figure.savefig(temporary, format="png"))
    finally:
        plt.close(figure)


def write_plot(rows: list[dict[str, Any]], path: str, first: bool = False) -> None:
    """Search time against N, log scale, one line per engine."""
    what = "the first solution" if first else "every solution"
    title = f"N-queens: time to find {what}, by engine"
    if any(row["status"] != "ok" for row in rows):
        title += " (x: stopped by the time limit)"
    sizes = [row["n"] for row in rows]
    with time_plot(path, f"seconds to find {what} (median, log scale)", title, sizes) as axes:
        for label in dict.fromkeys(row["engine"] for row in rows):
            mine = [row for row in rows if row["engine"] == label]
            points = [(row["n"], row["search_s"]) for row in mine if row["status"] == "ok"]
            stopped = [(row["n"], row["wall_s"]) for row in mine if row["status"] != "ok"]
            (line,) = axes.plot(*zip(*points), marker="o", label=label) if points else axes.plot([], [], label=label)
            if stopped:  # timeouts and failures: an x at the time they were stopped
                axes.scatter(*zip(*stopped), marker="x", s=60, color=line.get_color())


def _worker(argv: list[str]) -> int:
    first = "--first" in argv
    args = [a for a in argv if a != "--first"]
    print(json.dumps(measure(int(args[0]), args[1], first)))
    return 0


if __name__ == "__main__":
    raise SystemExit(_worker(sys.argv[1:]))
