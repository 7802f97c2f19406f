"""One measurement of :mod:`.compare`, in the fresh process it runs in:
``python -m nqueens_cp.studies.measure N LABEL [--first] [--variant NAME]
[--time-limit SEC] [--ready FD]`` imports the engine's solver package, then
searches (every solution, the first, or an optimum), timing each apart, and
prints one JSON object.  It writes a byte on FD as its work starts: the
parent's time limit runs from there."""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from ..engines import engine_class, get_engine
from ..execution import execute
from ..execution.plan import plan, plan_solve
from ..model import variants
from ..model.variants import Variant
from .compare import parse_label

def measure(n: int, label: str, first: bool = False, variant: str = "queens",
            time_limit: float | None = None) -> dict[str, Any]:
    """One measurement in this process: import, then search (all solutions, or the
    first, or the optimum of a domination ``variant`` within ``time_limit``)."""
    name, options = parse_label(label)
    question = variants.get(variant)
    if question.optimizes:
        return _measure_optimum(n, name, options, question, time_limit)
    if first:
        return _measure_first(n, name, options, question)
    engine = get_engine(name, question.name, **options)
    start = time.perf_counter()
    engine.preload()
    # The execution layer validates boards in NumPy blocks once there are more than a few: its
    # import is start-up, not search (timed in the search, it made bitmask's N = 10 look 40x
    # slower per board than N = 11, a drop in its rate a class would ask about).
    import numpy  # noqa: F401

    imported = time.perf_counter()
    # Searched as the command line searches it (plan()), on this one process.
    chosen = plan(n, engine, jobs=1)
    if engine.counts_only:  # a model counter counts without listing
        counted = execute.count(chosen)
        count, stats = counted.count, {k: v for k, v in counted.stats.items() if k != "strategy"}
    else:  # every other engine lists, one by one
        with execute.search(chosen) as search:
            count = sum(1 for _ in search)
        stats = dict(search.stats)
    done = time.perf_counter()
    if "clauses" in stats:  # one column for model size, whatever the model
        stats["constraints"] = stats.pop("clauses")
    return {"count": count, "import_s": imported - start, "search_s": done - imported, "stats": stats}


def _measure_first(n: int, name: str, options: dict[str, Any], question: Variant) -> dict[str, Any]:
    """Time to one solution, by the ``solve`` path (CP-SAT then runs a portfolio of workers)."""
    from ..engines import Status

    if "seed" in {o.name for o in engine_class(name).options}:
        options = {"seed": 0, **options}  # reproducible runs
    engine = get_engine(name, question.name, **options)
    start = time.perf_counter()
    engine.preload()
    imported = time.perf_counter()
    outcome = execute.solve(plan_solve(n, engine, jobs=1))
    done = time.perf_counter()
    return {"count": int(outcome.status is Status.SOLVED), "import_s": imported - start,
            "search_s": done - imported, "stats": dict(outcome.stats)}


def _measure_optimum(n: int, name: str, options: dict[str, Any], question: Variant,
                     time_limit: float | None) -> dict[str, Any]:
    """Time to prove the optimum (``optimum``'s path): ``count`` is the size found,
    ``proved`` whether one queen fewer was shown impossible within ``time_limit``."""
    engine = get_engine(name, question.name, **options)
    start = time.perf_counter()
    engine.preload()
    imported = time.perf_counter()
    found = execute.optimum(engine, n, time_limit)
    done = time.perf_counter()
    return {"count": found.size, "proved": found.proved, "bound": found.bound, "import_s": imported - start,
            "search_s": done - imported, "stats": dict(found.stats)}


def _worker(argv: list[str]) -> int:
    import argparse

    from .. import stopping

    stopping.worker()  # (stopped at its time limit by SIGTERM: see _run_worker)
    parser = argparse.ArgumentParser(prog="python -m nqueens_cp.studies.measure")
    parser.add_argument("n", type=int)
    parser.add_argument("label")
    parser.add_argument("--first", action="store_true")
    parser.add_argument("--variant", default="queens")
    parser.add_argument("--time-limit", type=float)
    parser.add_argument("--ready", type=int, help="a descriptor to write one byte on as the work starts")
    args = parser.parse_args(argv)
    if args.ready is not None:  # (the parent's time limit runs from here: _run_worker)
        os.write(args.ready, b"!")
        os.close(args.ready)
    print(json.dumps(measure(args.n, args.label, args.first, args.variant, args.time_limit)))
    return 0


if __name__ == "__main__":
    raise SystemExit(_worker(sys.argv[1:]))
