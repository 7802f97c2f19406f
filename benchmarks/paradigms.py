"""Where each paradigm wins: every engine of the declarative field beside the hand-written search, one run.

Four questions, each engine in a fresh process (``nqueens-cp compare``'s
measurement: process start, import and search apart), with a time cap:

1. enumerate every board, N = 8..12 (an engine stops at its first N over the cap);
2. count: the model counter (no listing) against the fastest listing of each paradigm;
3. the first board of a large plain N (50, 100, 200);
4. the shared CSPLib prob079 sample (tests/data/prob079, n = 10..14, the
   published answers checked), every engine that solves, in this process.

    python benchmarks/paradigms.py [--cap 60] [--sizes 8-12] [--first 50,100,200] [--skip-prob079]

Prints Markdown tables (docs/paradigms.md holds one run's).  Counts are
checked against A000170 (compare marks a disagreement); the prob079 answers
against the published ones (batch).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import nqueens_cp as nq
from nqueens_cp.studies import batch
from nqueens_cp.studies.compare import compare

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "prob079"


def sizes(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def seconds(row: dict) -> str:
    if row["status"] != "ok":
        return "DISAGREES" if row["status"] == "DISAGREES" else "> cap" if "timeout" in row["status"] else "error"
    return f"{row['search_s']:.3g}"


def enumerate_all(engines: list[str], ns: list[int], cap: float) -> str:
    times: dict[str, dict[int, str]] = {}
    for engine in engines:
        times[engine] = {}
        for n in ns:
            (row,) = compare([n], [engine], time_limit=cap)
            times[engine][n] = seconds(row)
            print(f"  enumerate N={n} {engine}: {times[engine][n]} s", file=sys.stderr)
            if row["status"] != "ok":
                break
    header = ["engine", "paradigm", *(f"N={n}" for n in ns)]
    rows = [[e, nq.engine_class(e).paradigm, *(times[e].get(n, "-") for n in ns)] for e in engines]
    return table(header, rows)


def first_board(engines: list[str], ns: list[int], cap: float) -> str:
    times: dict[str, dict[int, str]] = {}
    for engine in engines:
        times[engine] = {}
        for n in ns:
            (row,) = compare([n], [engine], first=True, time_limit=cap)
            times[engine][n] = seconds(row)
            print(f"  first N={n} {engine}: {times[engine][n]} s", file=sys.stderr)
    header = ["engine", "paradigm", *(f"N={n}" for n in ns)]
    return table(header, [[e, nq.engine_class(e).paradigm, *(times[e][n] for n in ns)] for e in engines])


def prob079(engines: list[str], cap: float, effort: bool = False) -> str:
    """Per engine: the sample's instances answered, wrong, times; with
    ``effort``, each engine's own measure of work (median / worst)."""
    rows, problems = batch.run([str(SAMPLE)], engines, answers=str(SAMPLE / "answers.tsv"), time_limit=cap)
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    out = []
    for engine in engines:
        mine = [row for row in rows if row["engine"] == engine]
        times = [row["seconds"] for row in mine]
        out.append([engine, nq.engine_class(engine).paradigm, str(len(mine)),
                    str(sum(row["status"] != "unknown" for row in mine)),
                    str(sum(row["agrees"] is False for row in mine)),
                    f"{statistics.median(times):.3g}", f"{max(times):.3g}", f"{sum(times):.3g}"])
        if effort:
            efforts = [row["effort"] for row in mine if row["effort"] is not None]
            out[-1].append(f"{statistics.median(efforts):,.0f} / {max(efforts):,.0f} {mine[0]['effort_unit']}"
                           if efforts else "")
    header = ["engine", "paradigm", "instances", "answered", "wrong", "median s", "worst s", "total s"]
    return table(header + ["effort: median / worst"] * effort, out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per engine and N (default: 60)")
    parser.add_argument("--sizes", type=sizes, default=sizes("8-12"), help="N to enumerate (default: 8-12)")
    parser.add_argument("--first", default="50,100,200", help="N for the first board (default: 50,100,200)")
    parser.add_argument("--skip-prob079", action="store_true")
    args = parser.parse_args()
    available = nq.names(available=True)
    listing = ["bitmask", *nq.names(declarative=True, enumerates=True, available=True)]
    counting = nq.names(counts=True, enumerates=False, available=True)
    solving = ["bitmask", *nq.names(declarative=True, solves=True, available=True)]
    missing = [name for name in nq.names(declarative=True) if name not in available]
    if missing:
        print(f"not available here (left out): {', '.join(missing)}", file=sys.stderr)
    print(f"## Enumerate every board (search seconds, fresh process each, cap {args.cap:g} s)\n")
    print(enumerate_all(listing + counting, args.sizes, args.cap) + "\n")
    print(f"## The first board of plain N (search seconds, cap {args.cap:g} s)\n")
    print(first_board(solving, [int(n) for n in args.first.split(",")], args.cap) + "\n")
    if not args.skip_prob079:
        print(f"## CSPLib prob079 sample: {len(batch.instance_files([str(SAMPLE)]))} instances, cap {args.cap:g} s each\n")
        print(prob079(solving, args.cap) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
