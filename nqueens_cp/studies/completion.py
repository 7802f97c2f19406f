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
import re
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from ..execution import execute
from ..execution.plan import plan_solve
from ..engines import Status, engine_class, names
from ..errors import InvalidInputError, NQueensError

COLUMNS = ("n", "placed", "engine", "instances", "solved", "none", "unknown", "median_s", "max_s", "effort", "effort_unit")


_DRAWS = 32  # random columns tried in a row before its free columns are listed


def generate(n: int, k: int, seed: int | None = None) -> dict[int, int]:
    """K random non-attacking queens on an n x n board, in K distinct rows
    (time about linear in K: a row's column is drawn at random, and the free
    columns are listed only when a few draws all miss)."""
    from ..model.instances import MAX_N

    if not 1 <= n <= MAX_N:
        raise InvalidInputError(f"N must be from 1 to {MAX_N:,} (the largest instance the readers take), got {n}")
    if not 0 <= k <= n:
        raise InvalidInputError(f"cannot place {k} queens in the {n} rows of an {n}x{n} board")
    rng = random.Random(seed)
    for _ in range(10_000):
        placed: dict[int, int] = {}
        cols: set[int] = set()
        diags: set[int] = set()
        antis: set[int] = set()
        for row in sorted(rng.sample(range(n), k)):
            col = next((c for c in (rng.randrange(n) for _ in range(_DRAWS))
                        if c not in cols and row - c not in diags and row + c not in antis), None)
            if col is None:
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


def bench_engines() -> list[str]:
    """The default engines of the benchmark: every available one that takes pre-placed queens."""
    return names(takes_fixed=True, available=True, group="core")


def check_engines(engines: Sequence[str] | None) -> list[str]:
    """The engines of a benchmark (``complete bench``, ``batch``), checked: each named once,
    each taking pre-placed queens and blocked squares; None: :func:`bench_engines`."""
    chosen = list(engines) if engines is not None else bench_engines()
    for name in chosen:
        if chosen.count(name) > 1:
            raise InvalidInputError(f"engine {name} is named twice")
        if not engine_class(name).solves:
            raise InvalidInputError(f"engine {name} counts solutions without finding one: it cannot solve instances")
        if not engine_class(name).takes_fixed:
            raise InvalidInputError(f"engine {name} cannot take pre-placed queens or blocked squares")
    return chosen


def placed_count(n: int, spec: str) -> int:
    """'--placed' as a count (whole digits: '30') or a fraction of N (any
    other number from 0 to 1: '0.4', '1.0' and '1e0' all mean a fraction)."""
    text = str(spec).strip()
    if re.fullmatch(r"\d+", text):
        k = int(text)
    else:
        try:
            fraction = float(text)
        except ValueError:
            raise InvalidInputError(f"--placed must be a count or a fraction of N, got '{spec}'") from None
        if not 0 <= fraction <= 1:
            raise InvalidInputError(f"--placed {spec}: a fraction of N must lie between 0 and 1 "
                                    "(write a count in whole digits)")
        k = round(fraction * n)
    if not 0 <= k <= n:
        raise InvalidInputError(f"--placed {spec} gives {k} queens, which does not fit N={n}")
    return k


def bench(sizes: Sequence[int], placed_spec: str, instances: int = 5, engines: Sequence[str] | None = None,
          time_limit: float = 10.0, seed: int = 0,
          progress: Callable[[str], None] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows (one per N and engine) and the disagreements between complete engines."""
    engines = check_engines(engines)
    if type(instances) is not int or instances < 1:
        raise InvalidInputError(f"instances must be a positive integer, got {instances!r}")
    for n in sizes:
        placed_count(n, placed_spec)  # refuse a bad --placed before any work
    complete = set(names(proves_none=True))
    effort = {name: engine_class(name).effort for name in engines}
    takes_seed = set(names(option="seed"))
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for n in sizes:
        k = placed_count(n, placed_spec)
        answers: dict[int, dict[str, Status]] = {}
        results: dict[str, list[Any]] = {engine: [] for engine in engines}
        for i in range(instances):
            placed = generate(n, k, seed + i)
            for engine in engines:
                if progress:
                    progress(f"complete bench: N={n} instance {i + 1}/{instances} {engine}")
                options: dict[str, Any] = {"seed": seed + i} if engine in takes_seed else {}
                outcome = execute.solve(plan_solve(n, engine, placed, time_limit=time_limit, jobs=1, **options))
                results[engine].append(outcome)
                answers.setdefault(i, {})[engine] = outcome.status
            decided = {e: s for e, s in answers[i].items()
                       if s is not Status.UNKNOWN and (e in complete or s is Status.SOLVED)}
            if Status.SOLVED in decided.values() and Status.NONE in decided.values():
                problems.append(f"N={n} instance seed {seed + i}: engines disagree on feasibility: "
                                + ", ".join(f"{e} {s}" for e, s in sorted(decided.items())))
        for engine in engines:
            outcomes = results[engine]
            times = [o.seconds for o in outcomes]
            work = [o.stats.get(effort[engine]) for o in outcomes if o.stats.get(effort[engine]) is not None]
            rows.append({
                "n": n, "placed": k, "engine": engine, "instances": len(outcomes),
                "solved": sum(o.status is Status.SOLVED for o in outcomes),
                "none": sum(o.status is Status.NONE for o in outcomes),
                "unknown": sum(o.status is Status.UNKNOWN for o in outcomes),
                "median_s": statistics.median(times), "max_s": max(times),
                "effort": statistics.median(work) if work else None, "effort_unit": effort[engine],
            })
    return rows, problems


