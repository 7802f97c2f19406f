"""solve and complete: one solution under pre-placed queens, three outcomes, instances, the benchmark."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pytest

from conftest import honours, reference, usable
from nqueens_cp.kernel.twin_repair import START_TRIES
from nqueens_cp import Status, is_solution, names, solve
from nqueens_cp.studies.completion import bench, generate, placed_count
from nqueens_cp.engines.construct import construct
from nqueens_cp.errors import InvalidInputError

SOLVED, NONE, UNKNOWN = Status.SOLVED, Status.NONE, Status.UNKNOWN
COMPLETE_ENGINES = names(proves_none=True, takes_fixed=True)



def seeded(engine: str, seed: int) -> dict:
    return {"seed": seed} if engine in names(option="seed") else {}


def test_every_engine_solves_and_honours_placements(any_engine_name: str) -> None:
    placed = {} if any_engine_name in names(takes_fixed=False) else {0: 2, 3: 1}
    outcome = solve(10, any_engine_name, placed, time_limit=30, **seeded(any_engine_name, 1))
    assert outcome.status is SOLVED and is_solution(outcome.solution, 10) and honours(outcome.solution, placed)
    assert outcome.to_dict()["status"] == "solved" and outcome.engine == any_engine_name


@pytest.mark.parametrize("engine", COMPLETE_ENGINES)
@pytest.mark.parametrize("placed", [{0: 0, 1: 2}, {0: 1, 7: 0, 3: 7}])
def test_known_infeasible_placements_are_proven_none(engine: str, placed: dict) -> None:
    usable(engine)
    # {0:0, 1:2}: no completion for N=8, checked against the full solution set.
    assert not any(honours(s, placed) for s in reference(8))
    assert solve(8, engine, placed, time_limit=30).status == NONE


@pytest.mark.parametrize("engine", COMPLETE_ENGINES)
def test_attacking_placements_are_none_with_the_pair_named(engine: str) -> None:
    usable(engine)
    outcome = solve(8, engine, {0: 0, 1: 1})
    assert outcome.status == NONE and "0:0 and 1:1 attack each other" in outcome.reason


def test_engines_agree_on_feasibility_over_a_seeded_batch() -> None:
    rng = random.Random(2017)
    answers = set()
    for index in range(40):
        n = rng.randint(4, 9)
        k = rng.randint(1, n // 2 + 1)
        placed = generate(n, k, rng.randrange(10**6))
        feasible = any(honours(s, placed) for s in reference(n))  # the exhaustive answer
        answers.add(feasible)
        for engine in names(takes_fixed=True, solves=True, available=True):  # (the others: skipped elsewhere)
            # local search gets its step budget, not a time limit it would spend in full on "none"
            limit = {"time_limit": 30} if engine in COMPLETE_ENGINES else {}
            outcome = solve(n, engine, placed, **limit, **seeded(engine, index))
            if outcome.status is SOLVED:
                assert feasible and is_solution(outcome.solution, n) and honours(outcome.solution, placed)
            elif engine in COMPLETE_ENGINES:
                assert outcome.status is NONE and not feasible, (engine, n, placed)
            else:
                assert outcome.status is UNKNOWN and not feasible  # local search never claims "none"
    assert answers == {True, False}, "the batch holds feasible and infeasible instances"


def test_construct_is_valid_for_every_n_up_to_2000() -> None:
    for n in range(4, 2001):
        assert is_solution(construct(n), n), n
    assert construct(1) == (0,) and construct(2) is None and construct(3) is None


def test_construct_a_million_queens(cli) -> None:
    code, out, err = cli("solve", "1000000", "--engine", "construct", "--format", "line")
    assert code == 0 and "solved (N=1000000" in err
    assert is_solution(tuple(map(int, out.split())), 1_000_000)


def test_minconflicts_solves_1000_with_a_fixed_seed() -> None:
    first = solve(1000, "minconflicts", seed=42)
    again = solve(1000, "minconflicts", seed=42)
    assert first.status is SOLVED and is_solution(first.solution, 1000)
    assert first.solution == again.solution and first.stats == again.stats  # reproducible


def test_minconflicts_honours_the_time_limit_over_its_step_budget() -> None:
    # 8 queens with 0:0 and 1:2 placed has no completion: local search can only give up.
    budget = solve(8, "minconflicts", {0: 0, 1: 2}, seed=1)
    # (a row of the start draws up to START_TRIES times before the budget is looked at again)
    assert budget.status is UNKNOWN and "11600 swaps" in budget.reason
    assert budget.stats["steps"] - (200 * 8 + 10_000) in range(START_TRIES)
    timed = solve(8, "minconflicts", {0: 0, 1: 2}, seed=1, time_limit=0.5)
    assert timed.status is UNKNOWN and "within 0.5 s" in timed.reason
    assert timed.stats["steps"] > budget.stats["steps"], "the step budget does not cut a time limit short"
    capped = solve(8, "minconflicts", {0: 0, 1: 2}, seed=1, time_limit=30, max_steps=50)
    assert capped.status is UNKNOWN and capped.stats["steps"] - 50 in range(START_TRIES)


def test_minconflicts_keeps_pre_placed_queens() -> None:
    placed = generate(200, 20, seed=5)
    outcome = solve(200, "minconflicts", placed, seed=5, time_limit=60)
    assert outcome.status is SOLVED and honours(outcome.solution, placed)


def test_time_limit_gives_unknown(cli, tmp_path: Path) -> None:
    outcome = solve(34, "backtrack", time_limit=0.2)  # its first solution takes over 20 s
    assert outcome.status is UNKNOWN and "within 0.2 s" in outcome.reason
    code, out, err = cli("solve", "34", "--engine", "backtrack", "--time-limit", "0.2", "--format", "json")
    assert code == 3 and json.loads(out)["status"] == "unknown" and "unknown (" in err
    # bitmask's decision search places 34 queens at once: its hard question is a proof of "none"
    instance = tmp_path / "d20.param"
    assert cli("complete", "diagonals", 20, "--seed", 17, "-o", instance)[0] == 0  # about 1.7 s: 58 M nodes
    code, out, err = cli("solve", instance, "-D", 18, "-e", "bitmask", "--time-limit", 0.2, "-f", "json")
    assert code == 3 and json.loads(out)["status"] == "unknown" and "within 0.2 s" in json.loads(out)["reason"]


def test_cli_solve_formats_and_exit_codes(cli) -> None:
    code, out, err = cli("solve", "8", "--place", "0:0", "--format", "json", "--engine", "sat")
    record = json.loads(out)
    assert code == 0 and record["status"] == "solved" and record["solution"][0] == 0
    assert is_solution(tuple(record["solution"]), 8)
    code, out, err = cli("solve", "8", "--place", "0:0,1:1", "--engine", "backtrack")
    assert code == 1 and out == "none: the pre-placed queens at 0:0 and 1:1 attack each other\n"
    code, out, err = cli("solve", "8", "--place", "0:0,1:2", "--engine", "cpsat", "--format", "line")
    assert code == 1 and out.startswith("none: ")
    # repeated --place options combine: never silently dropped
    code, out, err = cli("solve", "8", "--place", "0:0", "--place", "1:2", "--engine", "bitmask")
    assert code == 1 and out.startswith("none: ") and "2 pre-placed" in err
    code, out, err = cli("solve", "6")
    assert code == 0 and out.splitlines()[0] == "Solution 1:" and "solved (N=6" in out.splitlines()[-1]


def test_generate_is_reproducible_and_non_attacking(tmp_path: Path, cli) -> None:
    a = generate(30, 12, seed=3)
    assert a == generate(30, 12, seed=3) and a != generate(30, 12, seed=4)
    assert len(a) == 12 and len(set(a.values())) == 12
    assert len({r - c for r, c in a.items()}) == 12 and len({r + c for r, c in a.items()}) == 12
    code, _, _ = cli("complete", "generate", "30", "12", "--seed", "3", "-o", tmp_path / "i.json")
    record = json.loads((tmp_path / "i.json").read_text())
    assert code == 0 and record["n"] == 30 and record["seed"] == 3
    assert {r: c for r, c in record["placed"]} == a
    expected = solve(30, "cpsat", a).status
    code, out, _ = cli("solve", "30", "--place", record["place"], "--format", "line")
    assert code == {SOLVED: 0, NONE: 1}[expected]


def test_placed_count() -> None:
    assert placed_count(80, "30") == 30 and placed_count(80, "0.4") == 32
    assert placed_count(8, "1") == 1 and placed_count(8, "1.0") == placed_count(8, "1e0") == 8
    for bad in ("9", "1.5", "-0.1", "x"):
        with pytest.raises(InvalidInputError):
            placed_count(8, bad)


def test_bench_rows_and_csv(tmp_path: Path, cli) -> None:
    code, out, err = cli("complete", "bench", "8-10", "--placed", "0.3", "--instances", "3",
                         "--time-limit", "2", "--csv", tmp_path / "b.csv")
    assert code == 0, err
    with open(tmp_path / "b.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    engines = names(takes_fixed=True, available=True, group="core")
    assert [(r["n"], r["engine"]) for r in rows] == [(str(n), e) for n in (8, 9, 10) for e in engines]
    for r in rows:
        assert int(r["solved"]) + int(r["none"]) + int(r["unknown"]) == 3
    by_n: dict = {}
    for r in rows:
        if r["engine"] in COMPLETE_ENGINES:
            by_n.setdefault(r["n"], set()).add((r["solved"], r["none"]))
    assert all(len(v) == 1 for v in by_n.values()), "complete engines agree"


def test_bench_detects_disagreement(monkeypatch) -> None:
    from nqueens_cp.engines.sat import SatEngine

    real = SatEngine._solve

    def lying(self, n, placed, time_limit, stats):
        status, solution, reason = real(self, n, placed, time_limit, stats)
        return (NONE, None, "lies") if status is SOLVED else (status, solution, reason)

    monkeypatch.setattr(SatEngine, "_solve", lying)
    _, problems = bench([8], "2", 2, ["cpsat", "sat"], 5.0)
    assert problems and "engines disagree on feasibility" in problems[0]


@pytest.mark.parametrize("solver", ["cadical195", "glucose4"])
def test_a_sat_solve_stops_at_its_time_limit_with_every_solver(cli, tmp_path: Path, solver: str) -> None:
    """CaDiCaL takes no interrupt in python-sat: it solves in conflict budgets
    and reads the clock between them; the others are interrupted.  Either way
    a hard instance under a short limit is 'unknown', exit 3, one line, and
    nothing in another thread prints a traceback."""
    instance = tmp_path / "d20.param"
    assert cli("complete", "diagonals", 20, "--seed", 17, "-o", instance)[0] == 0  # CaDiCaL: seconds at D = 18
    code, out, err = cli("solve", instance, "-D", 18, "-e", "sat", "--solver", solver, "--time-limit", 0.2)
    assert code == 3 and out.startswith("unknown") and "Traceback" not in err and "Exception" not in err, err


def test_a_solver_that_cannot_stop_at_a_time_limit_says_so(cli, tmp_path: Path) -> None:
    code, out, err = cli("count", 12, "-e", "sat", "--solver", "lingeling", "--time-limit", 5)
    assert code == 2 and out == "" and "cannot stop at a time limit" in err and err.count("\n") == 1
    # solve runs such a solver in a child process, stopped at the limit: it keeps one
    code, out, err = cli("solve", 12, "-e", "sat", "--solver", "lingeling", "--time-limit", 5, "-f", "line")
    assert code == 0 and len(out.split()) == 12, err


def test_a_large_completion_instance_is_generated_valid() -> None:
    """(Listing every row's free columns took minutes at this size.)"""
    placed = generate(40_000, 20_000, seed=1)
    assert len(placed) == 20_000 and len(set(placed.values())) == 20_000
    assert len({r - c for r, c in placed.items()}) == len({r + c for r, c in placed.items()}) == 20_000
