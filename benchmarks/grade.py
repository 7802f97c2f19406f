"""Grading a class on this machine (issue 77's target: 25 submissions, three of which
never return, with --time-limit 20 on two cores, every verdict right, in under 90 s).

The class is made here: right CP-SAT, CPMpy and PySAT models, wrong ones (a missing
anti-diagonal, 1-based with an off-by-one), one that does not parse, one that exits, one
that raises, a MiniZinc and a clingo model where their tools are installed, and three
that never return (a loop at import, a loop in the function, a sleep).  One
``nqueens-cp grade`` process grades it; every verdict is compared with the one the
submission was written to get, and the wall time printed beside the sum of the
submissions' own times (what one job at a time would take).

    python benchmarks/grade.py [--jobs J] [--time-limit SEC]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from common import PYTHON, ROOT

CPSAT = '''from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[r] + r for r in range(n)])
    m.add_all_different([q[r] - r for r in range(n)])
    return m, q
'''
CPMPY = '''import cpmpy as cp


def model(n):
    q = cp.intvar(0, n - 1, shape=(n,), name="q")
    return cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[r] + r for r in range(n)]),
                    cp.AllDifferent([q[r] - r for r in range(n)])), q
'''
MINIZINC = """include "alldifferent.mzn";
int: n;
array[1..n] of var 1..n: q;
constraint alldifferent(q);
constraint alldifferent(i in 1..n)(q[i] + i);
constraint alldifferent(i in 1..n)(q[i] - i);
solve satisfy;
"""
PYSAT = '''from pysat.formula import CNF
from itertools import combinations


def model(n):
    cell = [[r * n + c + 1 for c in range(n)] for r in range(n)]
    cnf = CNF()
    lines = [list(row) for row in cell] + [[cell[r][c] for r in range(n)] for c in range(n)]
    for k in range(-n + 1, n):
        lines.append([cell[r][r - k] for r in range(n) if 0 <= r - k < n])
        lines.append([cell[r][k + n - 1 - r] for r in range(n) if 0 <= k + n - 1 - r < n])
    for row in cell:
        cnf.append(row)
    for line in lines:
        cnf.extend([[-a, -b] for a, b in combinations(line, 2)])
    cnf.nv = n * n
    return cnf, cell
'''


def make_class(folder: Path) -> dict[str, str]:
    """The submissions and the verdict each was written to get."""
    wanted: dict[str, str] = {}

    def put(name: str, text: str, verdict: str) -> None:
        (folder / name).write_text(text)
        wanted[name] = verdict

    for i in range(9):
        put(f"right_cpsat_{i}.py", CPSAT, "right")
    for i in range(3):
        put(f"right_cpmpy_{i}.py", CPMPY, "right")
    for i in range(3):
        put(f"right_pysat_{i}.py", PYSAT, "right")
    put("wrong_anti.py", CPSAT.replace("    m.add_all_different([q[r] + r for r in range(n)])\n", ""), "wrong")
    put("wrong_one_based.py", CPSAT.replace("(0, n - 1,", "(1, n,").replace("q[r] - r for", "q[r] - r - (r == n - 1) for"),
        "wrong")
    put("syntax.py", "def model(n)\n    return None\n", "error")
    put("exits.py", "import os\n\n\ndef model(n):\n    os._exit(0)\n", "error")
    put("raises.py", CPSAT.replace("    return m, q", "    return m, q[n]"), "error")
    put("loop_import.py", "while True:\n    pass\n" + CPSAT, "time limit")
    put("loop_model.py", CPSAT.replace("def model(n):\n", "def model(n):\n    while n > 4:\n        pass\n"), "time limit")
    put("sleeps.py", "import time\n" + CPSAT.replace("def model(n):\n", "def model(n):\n    time.sleep(3600)\n"),
        "time limit")
    if shutil.which("minizinc"):
        put("mzn.mzn", MINIZINC, "right")
    else:
        put("extra_cpsat.py", CPSAT, "right")
    put("clingo.lp", (ROOT / "models" / "nqueens-08.lp").read_text(), "right")
    return wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--spec", default="1-8")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "class"
        folder.mkdir()
        wanted = make_class(folder)
        command = [PYTHON, "-m", "nqueens_cp", "grade", str(folder), args.spec, "--time-limit", str(args.time_limit),
                   "--format", "jsonl", *(["--jobs", str(args.jobs)] if args.jobs else [])]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
        wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"grade failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    records = [json.loads(line) for line in done.stdout.splitlines()]
    got = {r["submission"]: r["verdict"] for r in records}
    wrong = {name: (got.get(name), verdict) for name, verdict in wanted.items() if got.get(name) != verdict}
    own = sum(r["seconds"] for r in records)
    print(f"{len(records)} submissions ({sum(v == 'time limit' for v in wanted.values())} never return), "
          f"--time-limit {args.time_limit:g}, spec {args.spec}")
    print(f"  grade: {wall:.1f} s wall; the submissions' own times add up to {own:.1f} s "
          f"(one at a time: ratio {wall / own:.2f}x)")
    print(f"  verdicts as written: {len(wanted) - len(wrong)} of {len(wanted)}" + (f"; not: {wrong}" if wrong else ""))
    if wrong:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
