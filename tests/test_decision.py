"""The decision search (nqueens_cp/kernel/decide.c) against its twin, the
reference counts and the validator; and how bitmask's solve uses it."""

from __future__ import annotations

import random

import pytest

import nqueens_cp as nq
from nqueens_cp import kernel, names
from nqueens_cp.engines import bitmask
from nqueens_cp.kernel import twin_decide
from nqueens_cp.model.board import is_solution
from nqueens_cp.model.position import Position

needs_compiled = pytest.mark.skipif(
    not kernel.compiled(), reason="the compiled search is not built here (no C compiler at install): "
    "nothing to compare the twin with")

FLAGS = [dict(order=o, values=v, restarts=r) for o in (True, False) for v in (True, False) for r in (True, False)]


def _blocked(rng: random.Random, n: int, share: float = 0.15) -> list[int]:
    """Random allowed masks: a share of cells blocked, now and then a row with one queen."""
    full = (1 << n) - 1
    masks = [full & ~sum(1 << c for c in range(n) if rng.random() < share) for _ in range(n)]
    for _ in range(rng.randint(0, 2)):
        masks[rng.randrange(n)] = 1 << rng.randrange(n)
    return masks


def _run(n: int, masks: list[int] | None, seed: int, compiled: bool, budget: int, stops: int = 10**9,
         **flags: bool) -> tuple:
    """The states a search passes through, stopped every ``budget`` nodes
    (at most ``stops`` times), and what it found."""
    search = kernel.Decision(n, masks, seed, compiled=compiled, **flags)
    assert search.compiled == compiled
    seen = []
    for _ in range(stops):
        done = search.advance(budget)
        seen.append((search.nodes, search.runs, done))
        if done:
            break
    return seen, search.found, search.solution() if search.found else None


def _honours(solution: tuple[int, ...], masks: list[int] | None) -> bool:
    return masks is None or all(masks[r] >> c & 1 for r, c in enumerate(solution))


@needs_compiled
def test_the_c_search_follows_its_twin_node_for_node() -> None:
    """Random boards of one word, two, and a part of one (N up to 130),
    every combination of the three ideas, random seeds, stopped at random
    budgets: the same nodes, runs and board at every stop.  (The twin takes
    a millisecond a node at N = 100: long searches are compared in part.)"""
    rng = random.Random(5)
    for trial in range(60):
        n = rng.choice([rng.randint(1, 12), rng.randint(13, 40), rng.randint(60, 70), 130])
        masks = _blocked(rng, n) if trial % 3 else None
        flags, seed, budget = rng.choice(FLAGS), rng.getrandbits(64), rng.choice([0, 1, 7, 500])
        if n > 12:
            budget = budget or 500
        stops = 10**9 if n <= 12 else max(1, 600 // budget)  # (the first 600 nodes or so)
        assert _run(n, masks, seed, True, budget, stops, **flags) == _run(n, masks, seed, False, budget, stops,
                                                                         **flags), (n, flags, seed)


def test_the_decision_search_finds_a_board_exactly_when_one_exists() -> None:
    """Against the reference count of the same sub-boards (N = 1..11, random
    blocked cells, every combination of ideas): a board that honours the
    masks and is a solution, or "none" only where the count is 0."""
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _ in range(300):
        n = rng.randint(1, 11)
        masks = _blocked(rng, n, rng.choice([0.0, 0.15, 0.3]))
        exists = kernel.count(n, masks).found > 0
        for flags in (FLAGS[0], rng.choice(FLAGS)):
            search = kernel.Decision(n, masks, rng.getrandbits(64), **flags)
            search.advance()
            assert search.found == exists, (n, masks, flags)
            if exists:
                assert is_solution(search.solution(), n) and _honours(search.solution(), masks)
        seen[exists] += 1
    assert min(seen.values()) > 50  # both answers were tested, often


def test_restarts_keep_the_search_complete() -> None:
    """An Excluded Diagonals board with no solution whose proof takes several
    runs: each run's cutoff doubles, and the run that ends inside its cutoff
    proves "none"; with restarts off, one run proves it."""
    from nqueens_cp.model.instances import excluded_diagonals_text, generate_excluded_diagonals, parse_instance

    text = excluded_diagonals_text(20, generate_excluded_diagonals(20, 4, 14))
    masks = bitmask.sub_board(20, parse_instance("diag-20-4-14.param", text, 18).position())
    assert kernel.count(20, masks).found == 0
    search = kernel.Decision(20, masks, seed=0)
    assert search.advance() and not search.found and search.runs > 3
    once = kernel.Decision(20, masks, seed=0, restarts=False)
    assert once.advance() and not once.found and once.runs == 1


def test_the_same_seed_gives_the_same_board_and_other_seeds_other_boards() -> None:
    found = []
    for seed in range(6):
        first, again = kernel.Decision(40, None, seed), kernel.Decision(40, None, seed)
        first.advance(), again.advance()
        assert first.solution() == again.solution() and first.nodes == again.nodes
        found.append(first.solution())
    assert len(set(found)) > 1 and all(is_solution(s, 40) for s in found)


def test_a_node_budget_stops_the_search_exactly_there() -> None:
    """A lexicographic search of N = 40 (every idea off) is trapped; a budget
    of 1000 nodes is then exactly 1000 nodes, and the search goes on from there."""
    search = kernel.Decision(40, None, order=False, values=False, restarts=False)
    assert not search.advance(1000) and search.nodes == 1000 and not search.finished
    assert not search.advance(5) and search.nodes == 1005
    with pytest.raises(ValueError, match="no board"):
        search.solution()


@needs_compiled
@pytest.mark.parametrize("n", [1000, 3001])
def test_a_thousand_queens_and_more_are_placed_by_the_compiled_search(n: int) -> None:
    search = kernel.Decision(n)
    assert search.advance() and search.found and is_solution(search.solution(), n)
    assert search.nodes < 3 * n  # (almost no backtracking: the point of the ideas)


@needs_compiled
def test_wide_boards_with_pre_placed_queens_and_blocked_squares() -> None:
    """Beyond 64 columns (multi-word bitsets): queens pre-placed along a
    construction's board and random blocked squares; the board found keeps
    them.  A row blocked whole is "none" at once."""
    rng = random.Random(2)
    for n in (65, 128, 200, 333):
        placed = {r: c for r, c in enumerate(nq.get_engine("construct").solve(n).solution) if rng.random() < 0.1}
        blocked = {(r, c) for r in range(n) for c in range(n) if r not in placed and rng.random() < 0.05}
        masks = bitmask.sub_board(n, Position(placed, blocked - set(placed.items())))
        search = kernel.Decision(n, masks, seed=n)
        assert search.advance() and search.found
        board = search.solution()
        assert is_solution(board, n) and all(board[r] == c for r, c in placed.items())
        assert not any((r, c) in blocked for r, c in enumerate(board))
        masks[n // 2] = 0
        empty = kernel.Decision(n, masks)
        assert empty.advance() and not empty.found and empty.nodes == 0


def test_the_decision_constants_are_the_same_in_c_and_in_the_twin() -> None:
    if not kernel.compiled():
        pytest.skip("the compiled search is not built here")
    from nqueens_cp.kernel import _search

    names = {"ORDER": twin_decide.ORDER, "VALUES": twin_decide.VALUES, "RESTARTS": twin_decide.RESTARTS,
             "DESCEND": twin_decide.DESCEND, "NEXT": twin_decide.NEXT, "FOUND": twin_decide.FOUND,
             "NONE": twin_decide.NONE, "FIRST_CUTOFF": twin_decide.FIRST_CUTOFF}
    assert {name: getattr(_search, f"DECIDE_{name}") for name in names} == names


# --- bitmask's solve -----------------------------------------------------------------------------

def test_bitmask_solves_a_thousand_queens_with_a_validated_board(cli) -> None:
    code, out, err = cli("solve", 1000, "-e", "bitmask", "-f", "line", "--stats")
    assert code == 0 and is_solution(tuple(map(int, out.split())), 1000), err
    assert "restarts=" in err and "decision_nodes=" in err


def test_bitmask_solve_takes_a_seed_and_a_node_budget() -> None:
    engine = nq.get_engine("bitmask", seed=7)
    first, again = engine.solve(60), nq.get_engine("bitmask", seed=7).solve(60)
    assert first.solution == again.solution and first.stats["nodes"] == again.stats["nodes"]
    hard = nq.get_engine("bitmask", max_nodes=10).solve(200, {0: 0, 1: 2, 2: 4})  # (the walk is off beyond 62)
    assert hard.status is nq.Status.UNKNOWN and "10 nodes" in hard.reason and hard.stats["nodes"] >= 10
    with pytest.raises(nq.InvalidInputError, match="max_nodes"):
        nq.get_engine("bitmask", max_nodes=0)


def test_the_walk_beside_the_decision_search_proves_none_and_finds_boards() -> None:
    """Up to 62 rows the lexicographic walk runs in turns with the decision
    search: whichever ends first answers, and both must be right."""
    rng = random.Random(8)
    for _ in range(60):
        n = rng.randint(4, 12)
        masks = _blocked(rng, n, 0.3)
        stats: dict = {}
        status, solution, _ = bitmask.decide(n, masks, rng.getrandbits(31), stats=stats)
        assert (status is nq.Status.SOLVED) == (kernel.count(n, masks).found > 0)
        assert stats["nodes"] == stats["decision_nodes"] + stats["walk_nodes"]
        if solution is not None:
            assert is_solution(solution, n) and _honours(solution, masks)


def test_bitmask_solve_reads_the_clock_between_slices(monkeypatch) -> None:
    """A clock that jumps past the deadline at its first reading after the
    start stops the search after exactly one slice of each search."""

    class Clock:
        readings = 0

        def monotonic(self) -> float:
            self.readings += 1
            return 0.0 if self.readings == 1 else 1e9  # the start, then past any deadline

    clock = Clock()
    monkeypatch.setattr(bitmask, "time", clock)
    search = kernel.Decision(40, None, order=False, values=False, restarts=False)  # (a trapped search)
    monkeypatch.setattr(kernel, "Decision", lambda n, masks, seed: search)
    outcome = nq.get_engine("bitmask").solve(40, time_limit=0.3)
    slice_nodes = bitmask.DECIDE_CELLS_PER_SLICE // 40
    assert outcome.status is nq.Status.UNKNOWN and outcome.reason == "no answer within 0.3 s"
    assert clock.readings == 2 and outcome.stats["decision_nodes"] == slice_nodes
    assert outcome.stats["walk_nodes"] == slice_nodes * 40 * bitmask.WALK_NODES_PER_CELL


def test_enumerating_the_first_boards_of_a_huge_n_names_the_engine_that_gives_one(cli) -> None:
    code, out, err = cli("enumerate", 400, "-k", 1, "--time-limit", 0.5, "-f", "line")
    assert "solve 400 --engine bitmask" in err and err.count("\n") >= 1 and code == 3


def test_the_seed_flag_names_the_engines_each_command_takes_it_for(cli) -> None:
    """bitmask's seed is for its decision search only (solve): enumerate's
    --seed still serves cpsat, and --max-nodes is solve's alone."""
    listing = " ".join(cli("enumerate", "--help")[1].split())
    solving = " ".join(cli("solve", "--help")[1].split())
    seed = "--seed SEED random seed, 0..2147483647: the same seed gives the same board"
    assert seed in listing and "never its value) [cpsat]" in listing and "--max-nodes" not in listing
    assert seed in solving and f"never its value) [{', '.join(names(option='seed'))}]" in solving and "--max-nodes" in solving


def test_restarts_leave_no_heavy_tail_on_the_pair_that_had_one() -> None:
    """N = 2662 with seed 7622960 found no board in 8 doubling runs (1.2 M
    nodes, 90 s and more); with Luby's restarts, one in 13 runs.  Counted in
    nodes, not seconds: the same on any machine."""
    search = kernel.Decision(2662, None, 7622960)
    assert search.advance(100_000) and search.runs == 13 and search.nodes == 51730
    assert is_solution(search.solution(), 2662)


def test_random_pairs_need_few_runs() -> None:
    """A sample of benchmarks/decision_tail.py's pairs: a few runs each, the
    nodes within a few times N (most dives find their board at once)."""
    rng = random.Random(44)
    for _ in range(8):
        n, seed = rng.randint(50, 1500), rng.randrange(2**31)
        search = kernel.Decision(n, None, seed)
        assert search.advance(50 * n) and search.runs <= 4 and search.nodes <= 4 * n, (n, seed, search.nodes)
        assert is_solution(search.solution(), n)
