"""Excluded Diagonals (CSPLib prob079) near the 50 % point: hand-written bitset search against CP-SAT and CaDiCaL.

Instances come from our generator, which follows the authors' rules and
regenerates their published sample byte for byte (tests/test_instances.py):
N, min-in-file 4, seeds 1..S, the first D diagonals.  Every engine answers
every instance in this process, one instance after the other, the engines
in turn (alternating their order), each with the time limit; the answers of
the complete engines must agree.  Printed: per engine the answers, median
and worst seconds, and for the compiled bitmask search its nodes per second,
against the authors' bitset solver (233.7 million nodes in 9.6 s on their
2017 machine: about 24 million a second).  bitmask's solve runs its
decision search and the lexicographic walk in turns (docs/decision.md):
both node counts are printed.

    python benchmarks/excluded_diagonals.py [--n 20] [--d 18] [--seeds 20] [--time-limit 300]
    python benchmarks/excluded_diagonals.py --n 20 --scan 14-22       (satisfiable share per D: the 50 % point)
    python benchmarks/excluded_diagonals.py --n 22 --d 21 --seeds 10 --engines bitmask   (larger N: the stretch)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import nqueens_cp as nq
from nqueens_cp.model.instances import excluded_diagonals_text, generate_excluded_diagonals, parse_instance

# label -> (engine, options for solve)
ENGINES = {
    "bitmask-1": ("bitmask", {"jobs": 1}),  # the default: one process
    "bitmask-2": ("bitmask", {"jobs": 2}),  # the sub-boards of rows 0 and 1 on a pool of two
    "sat": ("sat", {}),  # CaDiCaL 1.9.5 through python-sat, pairwise CNF
    "cpsat-1": ("cpsat", {"workers": 1}),
    "cpsat": ("cpsat", {}),  # every core
    # parameters that might change the picture
    "sat-seqcounter": ("sat", {"encoding": "seqcounter"}),
    "sat-ladder": ("sat", {"encoding": "ladder"}),
    "sat-glucose4": ("sat", {"solver": "glucose4"}),
}


def engine_of(label: str) -> str:
    return ENGINES[label][0]


def instance(n: int, seed: int, d: int):
    text = excluded_diagonals_text(n, generate_excluded_diagonals(n, 4, seed))
    return parse_instance(f"diag-{n}-4-{seed}.param", text, d)


def scan(n: int, seeds: int, ds: list[int]) -> None:
    print(f"N={n}: satisfiable share of {seeds} instances per D (bitmask, one core)")
    for d in ds:
        outcomes = [nq.solve(n, "bitmask", instance(n, seed, d).position(), jobs=1) for seed in range(1, seeds + 1)]
        sat = sum(o.status is nq.Status.SOLVED for o in outcomes)
        print(f"  D={d:>3}: {sat:>3}/{seeds} satisfiable, worst {max(o.seconds for o in outcomes):.2f} s, "
              f"most nodes {max(o.stats['nodes'] for o in outcomes):,}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--d", type=int, default=18, help="diagonals used (default 18: the 50 %% point at N=20)")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 1..S (default 20)")
    parser.add_argument("--seed-list", help="these seeds instead, e.g. 5,9,13 (the unsatisfiable ones of a run)")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--scan", help="a range of D, e.g. 14-22: print the satisfiable share per D instead")
    args = parser.parse_args()
    if args.scan:
        low, high = map(int, args.scan.split("-"))
        scan(args.n, args.seeds, list(range(low, high + 1)))
        return
    labels = args.engines.split(",")
    seeds = [int(x) for x in args.seed_list.split(",")] if args.seed_list else list(range(1, args.seeds + 1))
    results: dict[str, list[nq.Outcome]] = {label: [] for label in labels}
    print(f"N={args.n}, D={args.d}, min-in-file 4, seeds {seeds[0]}..{seeds[-1]} ({len(seeds)}), "
          f"time limit {args.time_limit:g} s", flush=True)
    for seed in seeds:
        problem = instance(args.n, seed, args.d)
        order = labels if seed % 2 else list(reversed(labels))
        answers = {}
        for label in order:
            engine, options = ENGINES[label]
            outcome = nq.solve(args.n, engine, problem.position(), time_limit=args.time_limit, **options)
            results[label].append(outcome)
            answers[label] = outcome.status
        decided = {s for s in answers.values() if s is not nq.Status.UNKNOWN}
        if len(decided) > 1:
            raise SystemExit(f"seed {seed}: engines disagree: {answers}")
        line = "  ".join(f"{label} {results[label][-1].seconds:7.3f}s"
                         + (f" ({results[label][-1].stats['nodes']:,} nodes)" if engine_of(label) == "bitmask" else "")
                         for label in labels)
        print(f"  seed {seed:>3}: {next(iter(decided), 'unknown')!s:<7} {line}", flush=True)
    statuses = [next((o.status for o in (results[label][i] for label in labels)
                      if o.status is not nq.Status.UNKNOWN), nq.Status.UNKNOWN) for i in range(len(seeds))]
    unsat = [i for i, s in enumerate(statuses) if s is nq.Status.NONE]
    print(f"\n{sum(s is nq.Status.SOLVED for s in statuses)} satisfiable, {len(unsat)} unsatisfiable, "
          f"{sum(s is nq.Status.UNKNOWN for s in statuses)} unknown")
    print(f"{'engine':<10} {'median s':>9} {'worst s':>9} {'unsat median':>13} {'unsat worst':>12} {'unknown':>8}")
    for label in labels:
        outcomes = results[label]
        times = [o.seconds for o in outcomes]
        hard = [outcomes[i].seconds for i in unsat] or [float("nan")]
        print(f"{label:<10} {statistics.median(times):9.3f} {max(times):9.3f} {statistics.median(hard):13.3f} "
              f"{max(hard):12.3f} {sum(o.status is nq.Status.UNKNOWN for o in outcomes):8d}")
    if "bitmask-1" in results:
        outcomes = results["bitmask-1"]
        walk, decision = (sum(o.stats[key] for o in outcomes) for key in ("walk_nodes", "decision_nodes"))
        seconds = sum(o.seconds for o in outcomes)
        print(f"\nbitmask-1: {seconds:.2f} s in all; the lexicographic walk ran {walk:,} nodes "
              f"({walk / seconds / 1e6:.0f} M a second of the whole, the authors' solver 24 M/s in 2017), "
              f"the decision search {decision:,}; most nodes on one instance "
              f"{max(o.stats['nodes'] for o in outcomes):,}")
        if unsat:
            def median_and_worst(label: str) -> tuple[float, float]:
                times = [results[label][i].seconds for i in unsat]
                return statistics.median(times), max(times)

            base = median_and_worst("bitmask-1")
            print("on the unsatisfiable ones, median and worst time over bitmask-1's: " + ", ".join(
                f"{label} {m / base[0]:.0f}x / {w / base[1]:.0f}x"
                for label, (m, w) in ((label, median_and_worst(label)) for label in labels if label != "bitmask-1")))


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"({time.perf_counter() - started:.0f} s in all)", file=sys.stderr)
