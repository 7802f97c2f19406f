"""Blocked squares: every engine agrees with brute force, and no queen ever stands on one."""

from __future__ import annotations

import itertools
import random

import pytest

import nqueens_cp as nq
from conftest import SOAK, drawn, honours, usable
from nqueens_cp.model.board import is_solution
from nqueens_cp.model.position import Position, diagonal

ENUMERATORS = nq.names(enumerates=True, takes_fixed=True)
COUNTERS = nq.names(counts=True, enumerates=False, takes_fixed=True)  # model counters: count, never list
SOLVERS = nq.names(takes_fixed=True, solves=True)


def brute_force(n: int, position: Position) -> set[tuple[int, ...]]:
    """Every permutation checked by the independent validator: no search at all."""
    return {p for p in itertools.permutations(range(n)) if is_solution(p, n) and honours(p, position)}


def random_positions(count: int, seed: int) -> list[tuple[int, Position]]:
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        n = rng.randint(1, 7)
        cells = [(r, c) for r in range(n) for c in range(n)]
        blocked = rng.sample(cells, rng.randint(0, len(cells) // 3))
        fixed = {}
        if rng.random() < 0.4:
            r, c = rng.choice(cells)
            fixed[r] = c
        found.append((n, Position(fixed, blocked)))
    return found


CASES = random_positions(40, seed=13)
# Each engine is held to 16 of the cases (all 40 in a soak), dealt so that between them the engines
# hold every case: MiniZinc's 40 processes were 6 s of the suite's time, a fifth of them saying more.
BUDGET = 16


def test_the_engines_draws_hold_every_case_between_them() -> None:
    for engines in (ENUMERATORS, SOLVERS):
        hands = [drawn(CASES, BUDGET, engine, engines) for engine in engines]
        assert {id(case) for hand in hands for case in hand} == {id(case) for case in CASES}
        assert all(len(hand) == (len(CASES) if SOAK > 1 else BUDGET) for hand in hands)


@pytest.mark.parametrize("engine", ENUMERATORS)
def test_every_enumerating_engine_lists_exactly_the_brute_force_set(engine: str) -> None:
    usable(engine)
    for n, position in drawn(CASES, BUDGET, engine, ENUMERATORS):
        expected = brute_force(n, position)
        found = list(nq.solutions(n, engine, position, jobs=1))
        assert set(found) == expected and len(found) == len(expected), (n, position)
        assert nq.count(n, engine, position, jobs=1) == len(expected)


@pytest.mark.parametrize("engine", COUNTERS)
def test_every_counting_engine_counts_the_brute_force_set(engine: str) -> None:
    usable(engine)
    for n, position in CASES[:12]:  # each count starts a process
        assert nq.count(n, engine, position) == len(brute_force(n, position)), (n, position)


@pytest.mark.parametrize("engine", SOLVERS)
def test_every_solver_answers_as_brute_force_says(engine: str) -> None:
    usable(engine)
    complete = engine in nq.names(proves_none=True)
    for n, position in drawn(CASES, BUDGET, engine, SOLVERS):
        expected = brute_force(n, position)
        options = {"seed": 1} if engine in nq.names(option="seed") else {}
        if engine in nq.names(option="max_steps"):
            options["max_steps"] = 2000  # local search cannot prove none: a small budget, not the clock
        if engine == "construct" and position:
            continue
        outcome = nq.solve(n, engine, position, time_limit=None if "max_steps" in options else 10, **options)
        if outcome.status is nq.Status.SOLVED:
            assert outcome.solution in expected  # solve() validated it; the blocked squares are empty
        elif outcome.status is nq.Status.NONE:
            assert not expected, (engine, n, position)
        else:
            assert not complete, (engine, n, position, outcome.reason)


def test_blocked_squares_are_checked_and_named() -> None:
    with pytest.raises(nq.InvalidInputError, match="^blocked square 4:0 is off the 4x4 board$"):
        nq.solve(4, blocked=[(4, 0)])
    with pytest.raises(nq.InvalidInputError, match="blocked square .* is not a .row, column. on the 4x4 board"):
        nq.count(4, blocked=[(0, 1, 2)])
    with pytest.raises(nq.InvalidInputError, match="blocked takes"):
        nq.count(4, blocked="0:0")
    outcome = nq.solve(6, "backtrack", {0: 1}, blocked=[(0, 1)])
    assert outcome.status is nq.Status.NONE and "pre-placed on the blocked square 0:1" in outcome.reason
    assert nq.solve(8, "construct").status is nq.Status.SOLVED
    with pytest.raises(nq.InvalidInputError, match="or blocked squares"):
        nq.solve(8, "construct", blocked=[(0, 0)])


def test_a_split_count_carries_the_blocked_squares_to_every_worker() -> None:
    n = 12
    blocked = diagonal(n, "r+c", 11) + diagonal(n, "r-c", 0)  # both long diagonals
    one = nq.count(n, "backtrack", blocked=blocked, jobs=1)
    assert nq.count(n, blocked=blocked, jobs=2) == nq.count(n, blocked=blocked, jobs=1) == one
    assert nq.count(n, "cpsat", blocked=blocked, jobs=2) == one
    assert one < nq.TOTAL[n]
    sols = set(nq.solutions(n, blocked=blocked, jobs=2))
    assert len(sols) == one and not any(s[r] in (r, n - 1 - r) for s in sols for r in range(n))


def test_the_cli_blocks_squares_and_diagonals(cli) -> None:
    code, out, _ = cli("count", 8, "--block", "0:0,7:7", "--block-diagonal", "r+c=7")
    expected = len(brute_force(8, Position({}, [(0, 0), (7, 7), *diagonal(8, "r+c", 7)])))
    assert (code, out) == (0, f"{expected}\n")
    assert cli("count", 8, "--block-diagonal", "r+c=99")[0] == 2
    code, _, err = cli("count", 8, "--block-diagonal", "r*c=3")
    assert code == 2 and "r+c=K or r-c=K" in err
    code, _, err = cli("count", 8, "--block", "9:0")
    assert code == 2 and "off the 8x8 board" in err
    code, out, err = cli("solve", 4, "--block", "0:1,0:2", "--engine", "bitmask")
    assert code == 1 and out.startswith("none:") and "2 blocked squares" in err
    assert cli("trace", 6, "--block", "0:0")[0] == 2


def test_sampling_never_draws_a_blocked_square() -> None:
    from nqueens_cp.counting.sample import sample

    position = Position({}, diagonal(8, "r-c", 0))
    allowed = brute_force(8, position)
    drawn = list(sample(8, 50, seed=3, fixed=position))
    assert set(drawn) <= allowed and len(set(drawn)) > 1
