"""The decision search (kernel/decide.c) against the declarative engines: first boards, the ideas, prob079.

Four tables, one run (docs/decision.md holds one run's):

1. the first board of plain N = 50, 100, 200, 1,000 and 10,000: bitmask
   (its decision search), cpsat, sat, asp, minizinc and minconflicts, each
   in a fresh process by solve's path (``nqueens-cp compare --first``'s
   measurement: search seconds), with a cap; an engine beyond its largest N
   says so instead;
2. what each idea buys: the decision search with one idea turned off at a
   time (and all of them), in this process, median nodes and seconds over
   a few seeds to the first board, capped;
3. the walk, the decision search, and the two in turns (bitmask's solve) on
   Excluded Diagonals instances of N = 20 near the 50 % point, one core;
4. the CSPLib prob079 sample (tests/data/prob079: Excluded Diagonals n =
   10..14 and a completion instance of n = 40), every engine that proves
   "none" (minconflicts would run to the cap on each unsatisfiable one),
   answers checked against the published ones, with each engine's effort.

    python benchmarks/decision.py [--cap 60] [--first 50,100,200,1000,10000] [--ideas-cap 5] [--seeds 3]
                                  [--tables first,ideas,turns,prob079]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import nqueens_cp as nq
from nqueens_cp import kernel
from nqueens_cp.engines.bitmask import DECIDE_CELLS_PER_SLICE
from nqueens_cp.model.board import is_solution
from nqueens_cp.studies import batch
from nqueens_cp.studies.compare import compare

from paradigms import SAMPLE, prob079, table

ENGINES = ["bitmask", "cpsat", "sat", "asp", "minizinc", "minconflicts"]
# The decision search with ideas turned off: label -> kernel.Decision's keywords.
IDEAS = {
    "all three": {},
    "no restarts": {"restarts": False},
    "no value order (left to right)": {"values": False},
    "no dynamic ordering (rows top down)": {"order": False},
    "none (lexicographic, forward checking only)": {"order": False, "values": False, "restarts": False},
}


def first_boards(engines: list[str], ns: list[int], cap: float) -> str:
    rows = []
    for engine in engines:
        cls = nq.engine_class(engine)
        cells = []
        for n in ns:
            if cls.max_n is not None and n > cls.max_n:
                cells.append(f"N ≤ {cls.max_n} only")
                continue
            (row,) = compare([n], [engine], first=True, time_limit=cap)
            if row["status"] == "ok":
                cells.append(f"{row['search_s']:.3g}")
            elif "timeout" in row["status"]:
                cells.append("> cap")
            else:  # a one-line refusal (the reason on stderr)
                print(f"  {engine} N={n}: {row['status']}", file=sys.stderr)
                cells.append("refused")
            print(f"  first board N={n} {engine}: {cells[-1]}", file=sys.stderr, flush=True)
        rows.append([engine, cls.paradigm, *cells])
    return table(["engine", "paradigm", *(f"N={n:,}" for n in ns)], rows)


def ideas(ns: list[int], seeds: int, cap: float) -> str:
    """Median nodes and seconds over the seeds; a run past the cap counts as unanswered."""
    rows = []
    for label, flags in IDEAS.items():
        cells = []
        for n in ns:
            nodes, times, answered = [], [], 0
            for seed in range(seeds):
                search = kernel.Decision(n, None, seed, **flags)
                start = time.perf_counter()
                while not search.advance(max(1, DECIDE_CELLS_PER_SLICE // n)) and time.perf_counter() - start < cap:
                    pass
                times.append(time.perf_counter() - start)
                nodes.append(search.nodes)
                if search.found:
                    assert is_solution(search.solution(), n)
                    answered += 1
            cell = f"{statistics.median(nodes):,.0f} nodes, {statistics.median(times):.3g} s"
            cells.append(cell if answered == seeds else f"{answered}/{seeds} in {cap:g} s" if answered else "> cap")
            print(f"  ideas {label} N={n}: {cells[-1]}", file=sys.stderr, flush=True)
        rows.append([label, *cells])
    return table(["decision search", *(f"N={n:,}" for n in ns)], rows)


def turns(n: int, d: int, seeds: int) -> str:
    """Excluded Diagonals near the 50 % point (benchmarks/excluded_diagonals.py's
    instances): the walk alone, the decision search alone, the two in turns
    (bitmask's solve), one core, seconds over all instances and the worst."""
    from excluded_diagonals import instance

    from nqueens_cp.engines.bitmask import decide, sub_board

    spent: dict[str, list[float]] = {"walk alone": [], "decision search alone": [], "in turns (solve)": []}
    satisfiable = []
    for seed in range(1, seeds + 1):
        masks = sub_board(n, instance(n, seed, d).position())
        answers = set()
        for label in spent:
            start = time.perf_counter()
            if label == "walk alone":
                walk = kernel.Walk(n, masks)
                walk.advance(limit=1)
                answers.add(walk.found > 0)
            elif label == "decision search alone":
                search = kernel.Decision(n, masks)
                search.advance()
                answers.add(search.found)
            else:
                answers.add(decide(n, masks)[0] is nq.Status.SOLVED)
            spent[label].append(time.perf_counter() - start)
        assert len(answers) == 1, f"seed {seed}: the searches disagree"
        satisfiable.append(answers.pop())
    unsat = [i for i, found in enumerate(satisfiable) if not found]
    rows = [[label, f"{sum(times):.2f}", f"{max(times):.3g}", f"{sum(times[i] for i in unsat):.2f}",
             f"{max((times[i] for i in unsat), default=0):.3g}"] for label, times in spent.items()]
    print(f"  N={n} D={d}: {sum(satisfiable)} of {seeds} satisfiable", file=sys.stderr)
    return table(["search", "all: total s", "worst s", "unsatisfiable: total s", "worst s"], rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per engine and N (default: 60)")
    parser.add_argument("--first", default="50,100,200,1000,10000", help="N for the first board")
    parser.add_argument("--ideas", default="50,100,200,1000", help="N for the table of ideas")
    parser.add_argument("--ideas-cap", type=float, default=5.0, help="seconds per run in the table of ideas")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per N in the table of ideas (default: 3)")
    parser.add_argument("--tables", default="first,ideas,turns,prob079", help="which tables (default: all four)")
    args = parser.parse_args()
    engines = [name for name in ENGINES if nq.engine_class(name).unavailable_reason() is None]
    if len(engines) < len(ENGINES):
        print(f"not available here (left out): {', '.join(sorted(set(ENGINES) - set(engines)))}", file=sys.stderr)
    print(f"kernel: {kernel.kind()}\n")
    tables = args.tables.split(",")
    if "first" in tables:
        print(f"## The first board of plain N (search seconds, fresh process each, cap {args.cap:g} s)\n")
        print(first_boards(engines, [int(n) for n in args.first.split(",")], args.cap) + "\n")
    if "ideas" in tables:
        print(f"## What each idea buys (median of {args.seeds} seeds, cap {args.ideas_cap:g} s a run)\n")
        print(ideas([int(n) for n in args.ideas.split(",")], args.seeds, args.ideas_cap) + "\n")
    if "turns" in tables:
        print("## Excluded Diagonals N = 20, D = 18, seeds 1..20: the walk, the decision search, both in turns\n")
        print(turns(20, 18, 20) + "\n")
    if "prob079" in tables:
        # (an engine that cannot prove "none" would run to the cap on every unsatisfiable instance)
        complete = [name for name in engines if nq.engine_class(name).proves_none]
        print(f"## CSPLib prob079 sample: {len(batch.instance_files([str(SAMPLE)]))} instances, cap {args.cap:g} s "
              f"each, the engines that prove none\n")
        print(prob079(complete, args.cap, effort=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
