"""N-Queens Completion instances, and the benchmark that runs every engine on them.

An instance is N plus K pre-placed, mutually non-attacking queens; it may
or may not extend to a full solution.  The file format is small JSON::

    {"problem": "n-queens-completion", "n": 8, "seed": 1,
     "placed": [[0, 3], [5, 1]], "place": "0:3,5:1"}

``placed`` lists [row, column] pairs, 0-based, sorted by row; ``place`` is
the same as text for ``nqueens-cp solve --place``.  The same (n, k, seed)
always gives the same instance.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from .errors import InvalidInputError, NQueensError
from .solve import COMPLETE_ENGINES, NONE, SOLVED, UNKNOWN, solve

BENCH_ENGINES = ("cpsat", "sat", "backtrack", "bitmask", "minconflicts")
# The statistic that measures each engine's work.
EFFORT = {"cpsat": "conflicts", "sat": "conflicts", "backtrack": "nodes", "bitmask": "nodes", "minconflicts": "steps"}
COLUMNS = ("n", "placed", "engine", "instances", "solved", "none", "unknown", "median_s", "max_s", "effort", "effort_unit")


def generate(n: int, k: int, seed: int | None = None) -> dict[int, int]:
    """K random non-attacking queens on an n x n board, in K distinct rows."""
    if not 0 <= k <= n:
        raise InvalidInputError(f"cannot place {k} queens in the {n} rows of an {n}x{n} board")
    rng = random.Random(seed)
    for _ in range(10_000):
        placed: dict[int, int] = {}
        cols: set[int] = set()
        diags: set[int] = set()
        antis: set[int] = set()
        for row in sorted(rng.sample(range(n), k)):
            free = [c for c in range(n) if c not in cols and row - c not in diags and row + c not in antis]
            if not free:
                break
            col = rng.choice(free)
            placed[row] = col
            cols.add(col)
            diags.add(row - col)
            antis.add(row + col)
        else:
            return placed
    raise NQueensError(f"found no {k} non-attacking queens for N={n} in 10000 tries")


def instance_json(n: int, placed: dict[int, int], seed: int | None) -> dict[str, Any]:
    pairs = sorted(placed.items())
    return {"problem": "n-queens-completion", "n": n, "seed": seed,
            "placed": [[r, c] for r, c in pairs], "place": ",".join(f"{r}:{c}" for r, c in pairs)}


def placed_count(n: int, spec: str) -> int:
    """'--placed' as a count ('30') or a fraction of N ('0.4')."""
    try:
        value = float(spec)
    except ValueError:
        raise InvalidInputError(f"--placed must be a count or a fraction of N, got '{spec}'") from None
    k = round(value * n) if "." in spec else int(value)
    if not 0 <= k <= n or value < 0:
        raise InvalidInputError(f"--placed {spec} gives {k} queens, which does not fit N={n}")
    return k


def bench(sizes: Sequence[int], placed_spec: str, instances: int, engines: Sequence[str], time_limit: float,
          seed: int = 0, progress: Callable[[str], None] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows (one per N and engine) and the disagreements between complete engines."""
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for n in sizes:
        k = placed_count(n, placed_spec)
        answers: dict[int, dict[str, str]] = {}
        results: dict[str, list[Any]] = {engine: [] for engine in engines}
        for i in range(instances):
            placed = generate(n, k, seed + i)
            for engine in engines:
                if progress:
                    progress(f"complete bench: N={n} instance {i + 1}/{instances} {engine}")
                outcome = solve(n, engine, placed, time_limit=time_limit, seed=seed + i)
                results[engine].append(outcome)
                answers.setdefault(i, {})[engine] = outcome.status
            decided = {e: s for e, s in answers[i].items() if s != UNKNOWN and (e in COMPLETE_ENGINES or s == SOLVED)}
            if SOLVED in decided.values() and NONE in decided.values():
                problems.append(f"N={n} instance seed {seed + i}: engines disagree on feasibility: "
                                + ", ".join(f"{e} {s}" for e, s in sorted(decided.items())))
        for engine in engines:
            outcomes = results[engine]
            times = [o.seconds for o in outcomes]
            effort = [o.stats.get(EFFORT[engine]) for o in outcomes if o.stats.get(EFFORT[engine]) is not None]
            rows.append({
                "n": n, "placed": k, "engine": engine, "instances": len(outcomes),
                "solved": sum(o.status == SOLVED for o in outcomes),
                "none": sum(o.status == NONE for o in outcomes),
                "unknown": sum(o.status == UNKNOWN for o in outcomes),
                "median_s": statistics.median(times), "max_s": max(times),
                "effort": statistics.median(effort) if effort else None, "effort_unit": EFFORT[engine],
            })
    return rows, problems


def format_table(rows: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, float):
            return f"{value:.3f}" if value < 1000 else f"{value:.0f}"
        return str(value)

    from .compare import aligned

    body = [[cell(row[c]) for c in COLUMNS] for row in rows]
    return aligned(list(COLUMNS), body, left=[c in ("engine", "effort_unit") for c in COLUMNS])


def write_plot(rows: list[dict[str, Any]], path: str, time_limit: float) -> None:
    """Median time against N, log scale, one line per engine."""
    from .compare import time_plot

    instances = rows[0]["instances"] if rows else 0
    title = f"N-Queens Completion: median time to an answer ({instances} instances per N)"
    sizes = [row["n"] for row in rows]
    with time_plot(path, "median seconds per instance (log scale)", title, sizes) as axes:
        for engine in dict.fromkeys(row["engine"] for row in rows):
            mine = [row for row in rows if row["engine"] == engine]
            axes.plot([r["n"] for r in mine], [max(r["median_s"], 1e-5) for r in mine], marker="o", label=engine)
        axes.axhline(time_limit, color="grey", linestyle="--", linewidth=1, label=f"time limit ({time_limit:g} s)")
