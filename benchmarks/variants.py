"""What changing the question costs each paradigm: toroidal queens, superqueens, rooks, toroidal
semi-queens, queen domination.

Three tables, one run (docs/variants.md holds one run's):

1. lines of model or search code each variant needed beyond plain N-queens,
   per paradigm, counted from the source: the regions between the markers
   ``[cost VARIANT PARADIGM]`` and ``[end cost]`` in nqueens_cp/ (blank lines
   and comment lines left out).  A member of the family that places pieces
   is data only (its entry in model/variants.py, the "data" column); the
   "family" row is the code each paradigm has, once, to read any member's
   data;
2. the time to count each variant (N = 12, 14, 16 by default) in every
   engine that answers it, each run in a child process stopped at the cap,
   its count checked against OEIS where published; and the time to prove
   each domination optimum (N = 8..20), the optimum checked;
3. the kernel's speed per node: its family walk of superqueens (N = 16)
   and toroidal queens (N = 17, row 0's queen in column 0) against the
   plain count's compiled search (N = 16 and 17, mirror-halved), one core,
   side by side in this run;
4. (``--tables workers``) CP-SAT proving γ with one worker per core against
   its full portfolio of 8, N = 8, 9, 12.

    python benchmarks/variants.py [--cap 30] [--count 12,14,16] [--optimum 8-20] [--tables lines,times,nodes,workers]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

import nqueens_cp as nq
from nqueens_cp import kernel, names
from nqueens_cp.model.variants import VARIANTS
from nqueens_cp.studies.cost import cost_markdown, cost_plot, cost_rows

from paradigms import table

def lines_table() -> str:
    """The lines each question costs each paradigm (nqueens_cp/studies/cost.py: read from the
    source's markers); docs/variants.md holds this table, and a test holds it to the code."""
    return cost_markdown(cost_rows())


def _run(queue, what: str, n: int, variant: str, engine: str, options: dict) -> None:
    from nqueens_cp import stopping

    stopping.worker()  # SIGTERM at the cap runs the engines' clean-ups (MiniZinc's folder and process)
    start = time.perf_counter()
    if what == "count":
        answer = nq.count(n, engine, variant=variant, jobs=1)
    else:
        found = nq.optimum(n, variant, engine, **options)
        answer = found.size if found.proved else None
    queue.put((answer, time.perf_counter() - start))


def timed(what: str, n: int, variant: str, engine: str, cap: float, **options) -> tuple[object, float | None]:
    """(answer, seconds) in a child process, or (None, None) past the cap."""
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_run, args=(queue, what, n, variant, engine, options))
    child.start()
    child.join(cap)
    if child.is_alive():
        child.terminate()
        child.join(10)
        if child.is_alive():
            child.kill()
            child.join()
        return None, None
    return queue.get() if not queue.empty() else ("error", None)


def times_table(what: str, variants: list[str], ns: list[int], cap: float) -> str:
    rows = []
    for variant in variants:
        engines = names(counts=True, available=True, variant=variant) if what == "count" else \
            names(available=True, variant=variant)
        engines = [e for e in engines if nq.engine_class(e).group != "classic"]
        for engine in engines:
            cells, stopped = [], False
            for n in ns:
                if stopped:
                    cells.append("")
                    continue
                answer, seconds = timed(what, n, variant, engine, cap)
                known = VARIANTS[variant].known.get(n)
                if seconds is None:
                    cells.append(f"> {cap:g}")
                    stopped = True
                elif known is not None and answer != known:
                    cells.append(f"WRONG {answer}")
                else:
                    cells.append(f"{seconds:.3g}")
            rows.append([variant, engine, *cells])
    return table(["variant", "engine", *[f"N = {n}" for n in ns]], rows)


def nodes_table() -> str:
    def rate(n: int, variant: str | None, first: int) -> tuple[float, float]:
        allowed = [(1 << n) - 1] * n
        allowed[0] = first
        start = time.perf_counter()
        if variant is None:
            nodes = kernel.count(n, allowed).nodes
        else:
            walk = kernel.FamilyWalk(n, VARIANTS[variant], allowed)
            walk.advance()
            nodes = walk.nodes
        seconds = time.perf_counter() - start
        return seconds / nodes * 1e9, seconds

    rows = []
    for n, variant, first in ((16, "superqueens", (1 << 16) - 1), (17, "toroidal", 1)):
        plain, plain_s = rate(n, None, (1 << (n // 2)) - 1)
        fam, fam_s = rate(n, variant, first)
        rows.append([f"{variant}, N = {n}", f"{fam:.2f} ns ({fam_s:.2f} s)", f"{plain:.2f} ns ({plain_s:.2f} s)",
                     f"{fam / plain:.2f}×"])
    return table(["kernel search", "per node", "plain count, same N, per node", "ratio"], rows)


def workers_table(cap: float) -> str:
    import os

    rows = []
    for workers in dict.fromkeys((os.cpu_count() or 1, 8)):
        cells = []
        for n in (8, 9, 12):
            answer, seconds = timed("optimum", n, "domination", "cpsat", cap, workers=workers)
            known = VARIANTS["domination"].known[n]
            cells.append(f"> {cap:g}" if seconds is None else f"WRONG {answer}" if answer != known else f"{seconds:.3g}")
        rows.append([f"{workers}{' (every core)' if workers == os.cpu_count() else ''}", *cells])
    return table(["CP-SAT workers", "γ(8)", "γ(9)", "γ(12)"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=30.0, help="seconds per run (default 30)")
    parser.add_argument("--count", default="12,14,16", help="N to count (default 12,14,16)")
    parser.add_argument("--optimum", default="8-20", help="N to prove the optimum of (default 8-20)")
    parser.add_argument("--tables", default="lines,times,nodes")
    parser.add_argument("--figure", metavar="PATH", help="also draw the lines table as a figure (docs/cost-of-a-question.png)")
    args = parser.parse_args()
    if args.figure:
        cost_plot(cost_rows(), args.figure)
    counts = [int(n) for n in args.count.split(",")]
    low, high = map(int, args.optimum.split("-"))
    tables = args.tables.split(",")
    if "lines" in tables:
        print("Lines of code each variant needed beyond plain N-queens (counted between the markers):\n")
        print(lines_table(), "\n")
    if "times" in tables:
        print(f"Seconds to count (one process, cap {args.cap:g} s; '> cap': stopped, larger N not tried):\n")
        # (not rooks: their count is N!, and counting them is listing the permutations)
        print(times_table("count", ["toroidal", "superqueens", "semiqueens"], counts, args.cap), "\n")
        print(f"Seconds to prove the optimum (cap {args.cap:g} s):\n")
        print(times_table("optimum", ["domination", "independent"], list(range(low, high + 1)), args.cap), "\n")
    if "nodes" in tables:
        print("The kernel's time per node, one core:\n")
        print(nodes_table(), "\n")
    if "workers" in tables:
        print(f"Seconds for CP-SAT to prove γ, by its number of workers (cap {args.cap:g} s):\n")
        print(workers_table(args.cap))


if __name__ == "__main__":
    main()
