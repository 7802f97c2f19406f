"""The local search of a huge board (kernel/repair.c) against its twin, swap
for swap; its boards through the independent validator; the large-board
path end to end: Columns, the NumPy validator, the streamed output, the
memory refusal, completion instances of N = 1,000 and 10,000."""

from __future__ import annotations

import json
import random
from array import array

import pytest

from conftest import honours
from nqueens_cp import InvalidInputError, Status, is_solution, solve
from nqueens_cp import kernel
from nqueens_cp.cli.main import main
from nqueens_cp.kernel import twin_repair
from nqueens_cp.model import board as board_module
from nqueens_cp.model.board import Columns, board_of, columns_valid
from nqueens_cp.model.position import Position
from nqueens_cp.model.variants import PLACE, Lines, family, get
from nqueens_cp.studies.completion import generate

needs_c = pytest.mark.skipif(not kernel.compiled(), reason="the compiled kernel is not built here")

# Members local search answers (no wrapping lines), and two made of the vocabulary here.
MEMBERS = [get("queens"), get("superqueens"), get("rooks"),
           family("antidiagonals", (Lines(0), Lines(1)), ()),
           family("knightly-rooks", (Lines(0),), ((1, 2), (2, -1)))]


def _pair(n: int, variant, fixed, blocked, seed: int) -> tuple[kernel.Repair, kernel.Repair]:
    return (kernel.Repair(n, variant, fixed, blocked, seed),
            kernel.Repair(n, variant, fixed, blocked, seed, compiled=False))


def _state(search: kernel.Repair) -> tuple:
    board = list(search.board) if search.compiled else list(search._twin.q)  # type: ignore[union-attr]
    return search.state, search.swaps, search.moves, search.restarts, search.attacked, board


def test_the_layout_is_the_modules() -> None:
    module = kernel._module()
    if module is None:
        pytest.skip("the compiled kernel is not built here")
    for name, value in (("START", twin_repair.START), ("SWAP", twin_repair.SWAP), ("FOUND", twin_repair.FOUND),
                        ("NOMEM", twin_repair.NOMEM), ("FILL", twin_repair.FILL), ("MAX_OFFSETS", twin_repair.MAX_OFFSETS),
                        ("START_TRIES", twin_repair.START_TRIES), ("MAX_N", kernel.REPAIR_MAX_N + 1)):
        assert getattr(module, f"REPAIR_{name}") == value, name


@needs_c
def test_c_follows_its_twin_swap_for_swap() -> None:
    """Random members, sizes, seeds, fixed queens and blocked squares: after
    every slice of swaps the C search and its twin hold the same board, the
    same state and the same statistics."""
    rng = random.Random(20261124)
    cases = 0
    for _ in range(120):
        variant = rng.choice(MEMBERS)
        n = rng.randint(1, 40)
        fixed = sorted(generate(n, rng.randint(0, n // 4), seed=rng.randrange(10**6)).items()) if n >= 4 else []
        blocked = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, n))} - set(fixed))
        seed = rng.randrange(2**31)
        c, twin = _pair(n, variant, fixed, blocked, seed)
        for _ in range(12):
            c.advance(700)
            twin.advance(700)
            assert _state(c) == _state(twin), (str(variant), n, fixed, blocked, seed)
            if c.found:
                break
        cases += c.found
    assert cases > 60  # most of them reach a board: the comparison covered the whole search


@pytest.mark.parametrize("variant", MEMBERS, ids=lambda v: v.name)
def test_every_board_found_is_a_solution_that_keeps_the_placements(variant) -> None:
    rng = random.Random(str(variant))
    tried = found_boards = 0
    for n in (1, 4, 5, 8, 13, 31, 64, 200):
        if variant.exists(n) is False:
            continue
        for trial in range(3):
            tried += 1
            fixed = generate(n, n // 10, seed=trial) if variant.is_plain and n >= 8 else {}
            blocked = {(rng.randrange(n), rng.randrange(n)) for _ in range(n // 8)} - set(fixed.items())
            search = kernel.Repair(n, variant, fixed.items(), blocked, seed=trial)
            for _ in range(200):
                if search.advance(50_000):
                    break
            else:
                continue  # (a rare board: local search may give up; never a wrong one)
            found = tuple(search.solution().tolist())
            assert variant.is_solution(found, n) and honours(found, Position(fixed, blocked)), (n, trial)
            found_boards += 1
    assert found_boards >= tried // 2, (found_boards, tried)


def test_the_same_seed_gives_the_same_board_and_another_seed_another() -> None:
    first, again, other = (solve(2000, "minconflicts", seed=s) for s in (7, 7, 8))
    assert first.solution == again.solution and first.stats == again.stats
    assert first.solution != other.solution
    assert all(is_solution(o.solution, 2000) for o in (first, again, other))


@pytest.mark.parametrize("n, share", [(1000, 0.05), (10_000, 0.02)])
def test_completion_instances_of_thousands_of_queens(n: int, share: float) -> None:
    """prob079-style completion: a few per cent of the queens pre-placed (the
    generator's non-attacking queens), a few blocked squares: kept, never taken."""
    placed = generate(n, int(n * share), seed=3)
    rng = random.Random(n)
    blocked = {(r, rng.randrange(n)) for r in rng.sample(range(n), 50)} - set(placed.items())
    outcome = solve(n, "minconflicts", placed, blocked=blocked, seed=3, time_limit=120)
    assert outcome.status is Status.SOLVED, outcome.reason
    assert is_solution(outcome.solution, n) and honours(outcome.solution, Position(placed, blocked))


def test_a_row_with_every_square_blocked_is_none_and_an_impossible_n_is_unknown_at_once() -> None:
    outcome = solve(6, "minconflicts", blocked=[(2, c) for c in range(6)])
    assert outcome.status is Status.NONE and "row 2" in outcome.reason
    for n, variant in ((3, "queens"), (7, "superqueens")):
        outcome = solve(n, "minconflicts", variant=variant)
        assert outcome.status is Status.UNKNOWN and "proves nothing" in outcome.reason
        assert "steps" not in outcome.stats  # (no search ran)


def test_wrapping_lines_are_refused_in_one_line_naming_why() -> None:
    for variant in ("toroidal", "semiqueens"):
        with pytest.raises(InvalidInputError, match="wrap.*stall.*construct"):
            solve(11, "minconflicts", variant=variant)


# --- boards too large for a tuple ------------------------------------------------------


def test_columns_read_compare_and_hash_as_their_tuple() -> None:
    values = (1, 3, 0, 2)
    columns = Columns(array("i", values))
    assert columns == values and values == columns and hash(columns) == hash(values)
    assert list(columns) == list(values) and columns[1] == 3 and columns[1:3] == (3, 0) and len(columns) == 4
    assert columns != (1, 3, 0) and columns != (1, 3, 2, 0) and columns == Columns(array("i", values))
    assert "4 queens" in repr(columns)
    with pytest.raises(TypeError):
        Columns(array("q", values))
    assert isinstance(board_of(array("i", values)), tuple)


@pytest.mark.parametrize("variant", [get(name) for name in PLACE], ids=lambda v: v.name)
def test_the_numpy_validator_agrees_with_the_definition(variant, monkeypatch) -> None:
    """columns_valid (in chunks, as for a hundred million queens: the chunk
    shrunk to 3 rows here) against the tuple validator on boards near
    solutions: each found board, then each with one swap, and off-board ones."""
    monkeypatch.setattr(board_module, "VALIDATE_CHUNK", 3)
    rng = random.Random(str(variant))
    for n in (1, 5, 7, 10, 11, 13):
        boards = [tuple(rng.sample(range(n), n)) for _ in range(200)]
        boards += [tuple(k * r % n for r in range(n)) for k in range(n)]
        boards += [tuple(min(n, c + 1) for c in boards[0]), tuple(-1 if r == 0 else c for r, c in enumerate(boards[1]))]
        verdicts = set()
        for b in boards:
            verdicts.add(expected := variant.is_solution(b, n))
            assert variant.is_solution(Columns(array("i", b)), n) == expected, (n, b)
        assert verdicts == {True, False} or variant.offsets or n in (1, 10), n  # both kinds were checked
    assert not columns_valid(Columns(array("i", [0, 1])), 3, [(0, False)], ())  # the wrong length


def test_a_board_of_two_million_queens_comes_as_columns_validated_and_streamed(capsys) -> None:
    n = 2_000_003
    for engine, options in (("minconflicts", {"seed": 1}), ("construct", {})):
        outcome = solve(n, engine, **options)
        assert outcome.status is Status.SOLVED and isinstance(outcome.solution, Columns)
        assert is_solution(outcome.solution, n)
    assert main(["solve", str(n), "-e", "minconflicts", "-f", "summary"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("solved (N=2000003, ") and out.count("\n") == 1
    assert main(["solve", "300000", "-e", "minconflicts", "--seed", "4", "-f", "line"]) == 0
    out, _ = capsys.readouterr()
    line = tuple(map(int, out.split()))
    assert len(line) == 300_000 and is_solution(line, 300_000)
    assert main(["solve", "300000", "-e", "minconflicts", "--seed", "4", "-f", "json"]) == 0
    out, _ = capsys.readouterr()
    record = json.loads(out)
    assert tuple(record["solution"]) == line and record["status"] == "solved" and record["stats"]["steps"] > 0


def test_a_board_beyond_the_memory_is_refused_before_any_allocation(monkeypatch, capsys) -> None:
    # (the engine module imported it by name from nqueens_cp.machine: patch where it is read)
    from nqueens_cp.engines import minconflicts

    monkeypatch.setattr(minconflicts, "available_memory", lambda: 10**9)
    with pytest.raises(InvalidInputError, match=r"N=100,000,000 needs 1\.9 GiB.*0\.9 GiB available"):
        solve(100_000_000, "minconflicts")
    assert main(["solve", "100000000", "-e", "minconflicts", "-f", "summary"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "needs" in err


def test_the_twin_keeps_a_deadline_as_the_c_search_does() -> None:
    """The twin took no deadline: where the compiled module is not built, a
    local search of a large board ran past its time limit to the end."""
    import time

    from nqueens_cp import kernel
    from nqueens_cp.model.variants import VARIANTS

    search = kernel.Repair(300_000, VARIANTS["queens"], compiled=False)
    started = time.monotonic()
    assert not search.advance(0, deadline=started + 0.2)
    assert time.monotonic() - started < 5
