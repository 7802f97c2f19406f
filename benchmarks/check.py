"""What a check costs over enumerating the model alone (issue 62's target: under 1.5x on a
correct CP-SAT model of N = 10).

Three sides, alternating in one process, medians of R rounds:

- ``alone``: the model's solutions as the check lists them (CP-SAT, one worker, inprocessing
  off, the values read by index), consumed and nothing else;
- ``plain``: what a user writes to enumerate it (one worker, a callback that records
  ``value(q[r])``), CP-SAT's other settings left alone;
- ``check``: ``check(model, N)``: the same enumeration, every board through the validator,
  the reference listed and looked up, and the extra solve that asks whether a board fixes the
  model's other variables.

    python benchmarks/check.py [N ...] [--repeat R]

With ``--isolation`` (issue 77's target: at most 1.2x, and under 0.3 s a model), two
whole commands side by side instead, then the same two in one process that checks model
after model (as grade and a notebook do, the zygote started once): ``check model.py:model N``, the model in a process
of its own (the default), against ``check ... --in-process``, the model run in the
checker's process as before; each process imports what it needs (the isolated checker
never imports OR-Tools: its model's process does).

    python benchmarks/check.py 10 11 --isolation [--repeat R]
"""

from __future__ import annotations

import argparse
import statistics
import time

from nqueens_cp.checking import check
from nqueens_cp.checking.cpsat import CpSatInstance
from nqueens_cp.known import TOTAL


def model(n: int):  # noqa: ANN201 - the user's function: (model, board)
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
    m.add_all_different(q)
    m.add_all_different([q[r] + r for r in range(n)])
    m.add_all_different([q[r] - r for r in range(n)])
    return m, q


def alone(n: int) -> int:
    m, q = model(n)
    return sum(1 for _ in CpSatInstance(m, q, n, "model").solutions(None))


def plain(n: int) -> int:
    from ortools.sat.python import cp_model

    m, q = model(n)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    found: list[tuple[int, ...]] = []

    class Record(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(self.value(v) for v in q))

    solver.solve(m, Record())
    return len(found)


def checked(n: int) -> int:
    report = check(model, n)
    assert report.ok
    return report.rows[0].boards


def isolation(sizes: list[int], repeat: int) -> None:
    """check in its sandbox against --in-process, whole commands, alternating."""
    import tempfile
    from pathlib import Path

    from common import Side, alternate, nqueens, report

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.py"
        path.write_text("from ortools.sat.python import cp_model\n\n\n" + _source(model))
        for n in sizes:
            def agrees(out: str, n: int = n) -> bool:
                return out.startswith(f"N={n:<3} agrees   {TOTAL[n]} boards")

            isolated = Side(f"check {n} (isolated)", nqueens("check", f"{path}:model", str(n)), agrees)
            in_process = Side(f"check {n} --in-process", nqueens("check", f"{path}:model", str(n), "--in-process"),
                              agrees)
            alternate([isolated, in_process], repeat)
            report(f"N={n}: whole commands, the model in its own process against the checker's",
                   [isolated, in_process], in_process)
            extra = statistics.median(isolated.times) - statistics.median(in_process.times)
            print(f"  isolation costs {extra:+.3f} s a command (medians): its zygote's start")
            warm(f"{path}:model", n, repeat)


def warm(model: str, n: int, repeat: int) -> None:
    """In one process that checks model after model (grade, a notebook): the zygote started once."""
    check(model, 6)
    check(model, 6, isolate=False)
    times: dict[bool, list[float]] = {True: [], False: []}
    for round_ in range(repeat):
        for isolate in ((True, False) if round_ % 2 else (False, True)):
            start = time.perf_counter()
            assert check(model, n, isolate=isolate).ok
            times[isolate].append(time.perf_counter() - start)
    isolated, in_process = statistics.median(times[True]), statistics.median(times[False])
    print(f"N={n}: in one process, check isolated {isolated:.3f} s against isolate=False {in_process:.3f} s: "
          f"{isolated / in_process:.2f}x, {isolated - in_process:+.3f} s a model (medians of {repeat})")


def _source(function) -> str:  # noqa: ANN001
    import inspect

    return inspect.getsource(function).replace("    from ortools.sat.python import cp_model\n\n", "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", type=int, nargs="*", default=[10])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--isolation", action="store_true", help="check isolated against --in-process, whole commands")
    args = parser.parse_args()
    if args.isolation:
        isolation(args.sizes, args.repeat)
        return
    checked(6)  # (imports and the kernel's loading, once, outside the timings)
    for n in args.sizes:
        sides = {"alone": alone, "plain": plain, "check": checked}
        times: dict[str, list[float]] = {name: [] for name in sides}
        for round_ in range(args.repeat):
            for name in (list(sides) if round_ % 2 == 0 else list(reversed(sides))):
                start = time.perf_counter()
                count = sides[name](n)
                times[name].append(time.perf_counter() - start)
                if count != TOTAL[n]:
                    raise SystemExit(f"{name} at N={n}: {count} boards, not {TOTAL[n]}")
        base = statistics.median(times["alone"])
        print(f"\nN={n}: medians of {args.repeat} alternating rounds")
        for name, seconds in times.items():
            med = statistics.median(seconds)
            print(f"  {name:<6} {med:8.3f} s  (min {min(seconds):.3f}, max {max(seconds):.3f})  "
                  f"ratio to alone: {med / base:5.2f}x")


if __name__ == "__main__":
    main()
