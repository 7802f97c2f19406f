"""One board of a huge N: the local search (kernel/repair.c) at the scale of
its literature, and every paradigm's first board against N, as a picture.

Two tables and a plot, one run (docs/decision.md holds one run's):

1. ``solve N -e minconflicts`` for N = 10^4 .. 10^8 on one core, several
   seeds, each in a fresh process by the library's solve (the board
   validated by the NumPy validator, as the command line does): the search's
   seconds (median and worst), the validation's, the peak memory in bytes a
   queen, and nanoseconds a queen with their ratio to N = 10^5's; superqueens
   and construct beside it; Sosic and Gu's published 55 s for 3,000,000
   queens (IBM RS/6000, 1991) on its row.  Targets: 3,000,000 under 1 s,
   10^7 under 5 s, 10^8 under 2 minutes, under 32 bytes a queen.
2. the first board of plain N = 100 .. 10^8 for each paradigm (local search,
   construction, the decision search, CP-SAT, MiniZinc/Gecode), each in a
   fresh process (``compare --first``: search seconds) with a cap; an engine
   is not run at larger N once it missed the cap.  ``--plot FILE`` draws it
   on log-log axes.

    python benchmarks/local_search.py [--sizes 10000,...] [--seeds 3] [--cap 60] [--first 1000,...]
                                      [--tables scale,first] [--plot docs/first-board.png]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

import nqueens_cp as nq
from nqueens_cp import kernel

from paradigms import table

SOSIC_GU = {3_000_000: "55 s (Sosic and Gu 1991, IBM RS/6000)"}
TARGETS = {3_000_000: 1.0, 10_000_000: 5.0, 100_000_000: 120.0}
FIRST_ENGINES = ["minconflicts", "construct", "bitmask", "cpsat", "minizinc"]

# One solve in a fresh process: its search seconds, the validation's, and the peak memory beyond
# what the interpreter and the package held before it (ru_maxrss, KiB on Linux).
CHILD = """
import json, resource, sys, time
import nqueens_cp as nq
from nqueens_cp.model.variants import get
n, engine, variant, seed = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
options = {"seed": seed} if engine == "minconflicts" else {}
nq.solve(8, engine, variant=variant, **options)  # (every import a solve makes, before the baseline,
import numpy  # noqa: F401                        #  NumPy's too: a large board is built and validated with it)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
outcome = nq.solve(n, engine, variant=variant, **options)
total = time.perf_counter() - start
assert outcome.status is nq.Status.SOLVED and get(variant).is_solution(outcome.solution, n)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"search": outcome.seconds, "total": total, "peak": (peak - before) * 1024}))
"""


def measure(n: int, engine: str, variant: str, seed: int) -> dict[str, float]:
    run = subprocess.run([sys.executable, "-c", CHILD, str(n), engine, variant, str(seed)], capture_output=True,
                         text=True, check=True)
    return json.loads(run.stdout)


def scale(sizes: list[int], seeds: int) -> str:
    rows = []
    per_queen: dict[str, float] = {}
    runs = [("minconflicts", "queens", n) for n in sizes] + \
           [("minconflicts", "superqueens", n) for n in sizes if n <= 10**6] + \
           [("construct", "queens", n) for n in sizes]
    for engine, variant, n in runs:
        results = [measure(n, engine, variant, seed) for seed in range(1, (seeds if engine == "minconflicts" else 1) + 1)]
        search = [r["search"] for r in results]
        validate = statistics.median(r["total"] - r["search"] for r in results)
        peak = max(r["peak"] for r in results)
        ns = statistics.median(search) / n * 1e9
        key = f"{engine} {variant}"
        if n == 10**5:
            per_queen[key] = ns
        ratio = f"{ns / per_queen[key]:.1f}x" if key in per_queen else ""
        target = TARGETS.get(n) if engine == "minconflicts" and variant == "queens" else None
        met = "" if target is None else ("met" if max(search) < target and peak / n < 32 else "MISSED") + \
            f" (< {target:g} s, < 32 B)"
        rows.append([f"{n:,}", key, f"{statistics.median(search):.3g}", f"{max(search):.3g}", f"{validate:.3g}",
                     f"{peak / 2**20:.0f}", f"{peak / n:.1f}", f"{ns:.0f}", ratio, met, SOSIC_GU.get(n, "")
                     if engine == "minconflicts" and variant == "queens" else ""])
        print(f"  {key} N={n:,}: {rows[-1][2]} s", file=sys.stderr, flush=True)
    return table(["N", "engine, question", "search s (median)", "worst", "validate s", "peak MiB", "bytes/queen",
                  "ns/queen", "vs 10^5", "target", "published"], rows)


def first_boards(ns: list[int], cap: float) -> tuple[str, dict[str, dict[int, float]], dict[str, tuple[int, str]]]:
    from nqueens_cp.studies.compare import compare

    engines = [e for e in FIRST_ENGINES if nq.engine_class(e).unavailable_reason() is None]
    times: dict[str, dict[int, float]] = {}
    stops: dict[str, tuple[int, str]] = {}  # engine -> (the N where it stopped, why)
    rows = []
    for engine in engines:
        cls, cells, stopped = nq.engine_class(engine), [], False
        times[engine] = {}
        for n in ns:
            if stopped:
                cells.append("")
                continue
            if cls.max_n is not None and n > cls.max_n:
                cells.append(f"N ≤ {cls.max_n:,} only")
                stops[engine] = (n, "refused")
                stopped = True
                continue
            (row,) = compare([n], [engine], first=True, time_limit=cap)
            if row["status"] == "ok":
                times[engine][n] = row["search_s"]
                cells.append(f"{row['search_s']:.3g}")
            else:
                cells.append("> cap" if "timeout" in row["status"] else "refused")
                stops[engine] = (n, cells[-1])
                stopped = True  # (a larger N will not be quicker)
            print(f"  first board N={n:,} {engine}: {cells[-1]}", file=sys.stderr, flush=True)
        rows.append([engine, cls.paradigm, *cells])
    return table(["engine", "paradigm", *(f"N={n:,}" for n in ns)], rows), times, stops


def plot(times: dict[str, dict[int, float]], stops: dict[str, tuple[int, str]], path: str, cap: float) -> None:
    """Time against N, log-log, a line an engine; a cross on the cap line
    where it stopped (past the cap, or refused: past its largest N)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for engine, points in times.items():
        ns = sorted(points)
        (line,) = ax.plot(ns, [points[n] for n in ns], marker="o", label=f"{engine} ({nq.engine_class(engine).paradigm})")
        if engine in stops:
            n, why = stops[engine]
            ax.plot([n], [cap], marker="x", markersize=10, color=line.get_color())
            ax.annotate(why, (n, cap), textcoords="offset points", xytext=(4, -12), fontsize=7, color=line.get_color())
    ax.axhline(cap, color="grey", linestyle=":", label=f"cap {cap:g} s")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("N")
    ax.set_ylabel("seconds to the first board (search)")
    ax.set_title("One board of plain N, one core: where each paradigm stops")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000,3000000,10000000,100000000")
    parser.add_argument("--seeds", type=int, default=3, help="seeds a size for the local search (default: 3)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per engine and N, first boards (default: 60)")
    parser.add_argument("--first", default="100,1000,10000,100000,1000000,10000000,100000000")
    parser.add_argument("--tables", default="scale,first")
    parser.add_argument("--plot", metavar="FILE", help="draw the first-board table (PNG or SVG)")
    args = parser.parse_args()
    print(f"kernel: {kernel.kind()}; one core each (a process a run)\n")
    if "scale" in args.tables:
        print(f"## solve N -e minconflicts: {args.seeds} seeds, fresh process each, validated\n")
        print(scale([int(n) for n in args.sizes.split(",")], args.seeds) + "\n")
    if "first" in args.tables:
        print(f"## The first board of plain N (search seconds, fresh process each, cap {args.cap:g} s)\n")
        text, times, stops = first_boards([int(n) for n in args.first.split(",")], args.cap)
        print(text + "\n")
        if args.plot:
            plot(times, stops, args.plot, args.cap)
            print(f"(drawn: {args.plot})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
