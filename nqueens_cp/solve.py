"""One solution, possibly under pre-placed queens: the N-Queens Completion problem.

Completion is NP-complete (Gent, Jefferson & Nightingale, JAIR 2017; CSPLib
prob079).  Three outcomes, each with its own exit code in the CLI:

    solved    a solution, validated, honouring every pre-placed queen
    none      proven: no solution exists (a complete engine searched it all)
    unknown   the time limit (or a local search's step budget) ran out first

Engines: the four complete ones (cpsat, sat, backtrack, bitmask) and two
that only find: ``construct`` (an O(N) formula for plain N) and
``minconflicts`` (local search, which can never prove "none").
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import Solution, attacking_pair, check_placements, is_solution
from .engines import ENGINE_NAMES, SOLVE_ENGINES, get_engine
from .errors import InvalidInputError, NQueensError

SOLVED, NONE, UNKNOWN = "solved", "none", "unknown"
COMPLETE_ENGINES = ENGINE_NAMES  # these can prove that no solution exists
SAT_LARGE_N = 60  # above this the pairwise CNF grows as N^3: solve uses the sequential counter


@dataclass
class Outcome:
    status: str
    solution: Solution | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    reason: str = ""  # why "none" or "unknown"


def solve(n: int, engine: str = "cpsat", fixed: Mapping[int, int] | None = None, time_limit: float | None = None,
          seed: int | None = None, **options: Any) -> Outcome:
    """Find one solution of n-queens that honours ``fixed`` (row -> column)."""
    placed = check_placements(n, fixed)
    if engine not in SOLVE_ENGINES:
        raise InvalidInputError(f"unknown engine '{engine}' (choose from {', '.join(SOLVE_ENGINES)})")
    if time_limit is not None and not time_limit > 0:
        raise InvalidInputError(f"time limit must be positive, got {time_limit!r}")
    if engine == "construct" and placed:
        raise InvalidInputError("construct solves plain N only: it cannot take pre-placed queens")
    start = time.perf_counter()
    pair = attacking_pair(sorted(placed.items()))
    if pair is not None:
        (r1, c1), (r2, c2) = pair
        outcome = Outcome(NONE, reason=f"the pre-placed queens at {r1}:{c1} and {r2}:{c2} attack each other")
    elif engine == "construct":
        outcome = _construct(n)
    elif engine == "minconflicts":
        outcome = _min_conflicts(n, placed, time_limit, seed)
    elif engine == "cpsat":
        outcome = _cpsat(n, placed, time_limit, seed)
    elif engine == "sat":
        outcome = _sat(n, placed, time_limit, **options)
    else:
        outcome = _first(n, engine, placed, time_limit, **options)
    outcome.seconds = time.perf_counter() - start
    if outcome.status == SOLVED:
        _check(n, engine, placed, outcome.solution)
    return outcome


def _check(n: int, engine: str, placed: dict[int, int], solution: Solution | None) -> None:
    """Every answer is validated before anyone sees it."""
    if solution is None or not is_solution(solution, n):
        raise NQueensError(f"engine {engine} returned an invalid board")
    for row, col in placed.items():
        if solution[row] != col:
            raise NQueensError(f"engine {engine} moved the pre-placed queen at {row}:{col}")


def _first(n: int, engine: str, placed: dict[int, int], time_limit: float | None, **options: Any) -> Outcome:
    with get_engine(engine, **options).search(n, placed, limit=1, time_limit=time_limit) as search:
        solution = next(search, None)
    if solution is not None:
        return Outcome(SOLVED, solution, stats=search.stats)
    if search.timed_out:
        return Outcome(UNKNOWN, stats=search.stats, reason=f"no answer within {time_limit:g} s")
    return Outcome(NONE, stats=search.stats, reason=f"{engine} searched every placement")


def _cpsat(n: int, placed: dict[int, int], time_limit: float | None, seed: int | None) -> Outcome:
    """One solution: unlike enumeration, a portfolio of workers is safe and fast here."""
    from ortools.sat.python import cp_model

    from .engines.cpsat import build_model

    model, q = build_model(n, placed)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 0  # every core, each with its own strategy
    solver.parameters.catch_sigint_signal = False
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    if seed is not None:
        solver.parameters.random_seed = seed
    status = solver.solve(model)
    stats = {"branches": solver.num_branches, "conflicts": solver.num_conflicts,
             "solver_wall_time": solver.wall_time, "status": solver.status_name(status)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Outcome(SOLVED, tuple(solver.value(v) for v in q), stats=stats)
    if status == cp_model.INFEASIBLE:
        return Outcome(NONE, stats=stats, reason="CP-SAT proved the model infeasible")
    if status == cp_model.MODEL_INVALID:
        raise NQueensError("CP-SAT rejected the model as invalid")
    return Outcome(UNKNOWN, stats=stats, reason=f"no answer within {time_limit:g} s" if time_limit else "CP-SAT gave up")


def _sat(n: int, placed: dict[int, int], time_limit: float | None, **options: Any) -> Outcome:
    # The pairwise CNF has about N^3 clauses; past SAT_LARGE_N use the linear-size sequential counter.
    if "encoding" not in options and n > SAT_LARGE_N:
        options["encoding"] = "seqcounter"
    outcome = _first(n, "sat", placed, time_limit, **options)
    if outcome.status == NONE:
        outcome.reason = "the SAT solver proved the CNF unsatisfiable"
    return outcome


def construct(n: int) -> Solution | None:
    """An explicit solution for every n except 2 and 3, in O(n) (the classic rule by n mod 6).

    Write the even numbers 2, 4, ..., then the odd ones 1, 3, ... (1-based).
    If n mod 6 is 2, swap 1 and 3 and move 5 to the end of the odd list; if
    n mod 6 is 3, move 2 to the end of the even list and 1, 3 to the end of
    the odd list.  The k-th number is the row of the queen in column k.
    """
    if n in (2, 3):
        return None
    if n == 1:
        return (0,)
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n + 1, 2))
    if n % 6 == 2:
        odds = [3, 1, *odds[3:], 5] if n >= 8 else [3, 1]
    elif n % 6 == 3:
        evens = [*evens[1:], 2]
        odds = [*odds[2:], 1, 3]
    rows = evens + odds  # rows[k] is the 1-based row of the queen in column k
    solution = [0] * n
    for col, row in enumerate(rows):
        solution[row - 1] = col
    return tuple(solution)


def _construct(n: int) -> Outcome:
    solution = construct(n)
    if solution is None:
        return Outcome(NONE, reason=f"N={n} has no solution (the only such N are 2 and 3)")
    return Outcome(SOLVED, solution, stats={"formula": f"n mod 6 = {n % 6}"})


def _min_conflicts(n: int, placed: dict[int, int], time_limit: float | None, seed: int | None,
                   max_steps: int | None = None) -> Outcome:
    """Min-conflicts local search (Minton et al. 1992), one queen per row.

    Start from a greedy placement (each row in turn takes a least-attacked
    column); then repeatedly move the queen of a random attacked row to a
    least-attacked column of its row, ties broken at random.  Pre-placed
    queens never move.  Restart from a new greedy placement after 20N steps
    without a solution; stop at the time limit, or without one after
    max_steps (default 200N + 10000) steps, with "unknown": local search
    cannot prove that there is no solution.
    """
    rng = random.Random(seed)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    budget = max_steps if max_steps is not None else 200 * n + 10_000
    movable = [row for row in range(n) if row not in placed]
    steps = restarts = 0
    queens = [0] * n
    cols = [0] * n  # queens per column
    diag = [0] * (2 * n - 1)  # queens per diagonal, row - col + n - 1
    anti = [0] * (2 * n - 1)  # queens per anti-diagonal, row + col

    def put(row: int, col: int, delta: int) -> None:
        cols[col] += delta
        diag[row - col + n - 1] += delta
        anti[row + col] += delta

    while True:
        cols[:] = [0] * n
        diag[:] = anti[:] = [0] * (2 * n - 1)
        for row, col in placed.items():
            queens[row] = col
            put(row, col, 1)
        order = movable[:]
        rng.shuffle(order)
        for row in order:  # greedy start: each row's least-attacked column
            col = _least_attacked(row, n, cols, diag, anti, rng, None)
            queens[row] = col
            put(row, col, 1)
        for _ in range(20 * n + 100):
            attacked = [row for row in movable
                        if cols[queens[row]] + diag[row - queens[row] + n - 1] + anti[row + queens[row]] > 3]
            if not attacked:
                return Outcome(SOLVED, tuple(queens), stats={"steps": steps, "restarts": restarts})
            steps += 1
            if steps > budget:
                return Outcome(UNKNOWN, stats={"steps": steps, "restarts": restarts},
                               reason=f"min-conflicts found nothing in {budget} steps (it cannot prove none)")
            if deadline is not None and not steps & 63 and time.monotonic() > deadline:
                return Outcome(UNKNOWN, stats={"steps": steps, "restarts": restarts},
                               reason=f"no answer within {time_limit:g} s")
            row = rng.choice(attacked)
            put(row, queens[row], -1)
            col = _least_attacked(row, n, cols, diag, anti, rng, queens[row])
            queens[row] = col
            put(row, col, 1)
        restarts += 1


def _least_attacked(row: int, n: int, cols: list[int], diag: list[int], anti: list[int],
                    rng: random.Random, current: int | None) -> int:
    best: list[int] = []
    best_score = None
    shift = row + n - 1
    for col in range(n):
        score = cols[col] + diag[shift - col] + anti[row + col]
        if best_score is None or score < best_score:
            best_score, best = score, [col]
        elif score == best_score:
            best.append(col)
    if current is not None and len(best) > 1 and current in best:
        best.remove(current)  # prefer moving: a sideways step escapes plateaus
    return rng.choice(best)
