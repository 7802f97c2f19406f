"""Counting once per class of the 8 symmetries: both published numbers, exact, and tied together."""

from __future__ import annotations

import pytest

import nqueens_cp as nq
from conftest import reference
from nqueens_cp import FUNDAMENTAL, TOTAL
from nqueens_cp.counting import classes
from nqueens_cp.model.board import canonical, is_solution, orbit, rotate90, rotate180
from nqueens_cp import kernel


@pytest.mark.parametrize("n", range(1, 16))
def test_total_and_fundamental_are_the_published_numbers(n: int) -> None:
    search = nq.solutions(n, jobs=1)
    assert search.count() == TOTAL[n]
    assert nq.count(n, unique=True, jobs=1) == FUNDAMENTAL[n]
    if n >= classes.MIN_N:
        stats = search.stats
        assert (stats["total"], stats["fundamental"]) == (TOTAL[n], FUNDAMENTAL[n])
        a, b, c = stats["classes_8"], stats["classes_4"], stats["classes_2"]
        assert 8 * a + 4 * b + 2 * c == TOTAL[n] and a + b + c == FUNDAMENTAL[n]
        assert stats["sub_boards"] == len(classes.sub_boards(n))


@pytest.mark.parametrize("n", range(4, 10))
def test_symmetric_counts_match_the_solutions_themselves(n: int) -> None:
    sols = reference(n)
    assert classes.count_half_turn(n) == classes.count_half_turn(n, compiled=False) == sum(
        rotate180(s) == s for s in sols)
    assert classes.count_quarter_turn(n) == sum(rotate90(s) == s for s in sols)


def test_the_compiled_half_turn_search_agrees_with_the_python_one_on_any_masks() -> None:
    import random

    if not kernel.compiled():
        pytest.skip("the compiled search is not built here: nothing to compare")
    rng = random.Random(3)
    for n in range(2, 15):
        full = (1 << n) - 1
        for case in range(12):
            allowed = [full] * n if case == 0 else [full & ~(rng.getrandbits(n) & rng.getrandbits(n)) for _ in range(n)]
            assert kernel.count_half_turn(n, allowed) == classes.count_half_turn(n, None, allowed, compiled=False)
    # 69 diagonals are more than a word: the twin answers.  q[i] = 2i + 18 (mod 35)
    # is a solution (gcd(35, 6) = 1) that the half turn leaves unchanged.
    n = 35
    board = [(2 * i + (n + 1) // 2) % n for i in range(n)]
    allowed = [1 << c if r < n - 12 else (1 << n) - 1 for r, c in enumerate(board)]
    assert kernel.count_half_turn(n, allowed) == classes.count_half_turn(n, None, allowed, compiled=False) == 1


def _representatives(n: int) -> list[tuple[tuple[int, ...], int]]:
    """Every board the sub-boards count, with the class size the loop gave it;
    of the boards on a tie square (which pair up by the half turn) the lesser
    of each pair, a class of 8, or one its own image, a class of 4."""
    found = []
    for task in classes.sub_boards(n):
        walk = kernel.Walk(n, task.allowed, classify=task.classify)
        before = (0, 0, 0)
        while not walk.advance(limit=1):
            step = [after - was for after, was in zip(walk.tallies, before)]
            before = walk.tallies
            board, size = walk.solution(), (8, 4, 2)[step.index(1)]
            if task.tie and 1 << board[-1] == task.tie:
                if rotate180(board) < board:
                    continue  # the pair's other board counts
                size = 4 if rotate180(board) == board else 8
            found.append((board, size))
    return found


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10, 11])
def test_the_sub_boards_count_one_board_of_every_class_with_its_size(n: int) -> None:
    found = _representatives(n)
    boards = [board for board, _ in found]
    assert all(is_solution(board, n) for board in boards)
    assert len({canonical(board) for board in boards}) == len(boards), "two boards of one class"
    assert {canonical(board) for board in boards} == {canonical(s) for s in reference(n)}, "a class missed"
    assert all(size == len(orbit(board)) for board, size in found)


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10, 11])
def test_the_boards_on_tie_squares_pair_up_and_their_symmetric_ones_are_searched_apart(n: int) -> None:
    """The third part of each inner family holds each board on its tie square
    with its half-turn image, and count_half_turn with the part's masks finds
    exactly those that are their own image."""
    on_ties = symmetric = 0
    for family in classes.families(n):
        if not family.tie:
            continue
        inside = [s for s in reference(n) if all(family.allowed[r] >> c & 1 for r, c in enumerate(s))]
        tied = {s for s in inside if 1 << s[-1] == family.tie}
        assert {rotate180(s) for s in tied} == tied
        on_ties += len(tied)
        symmetric += sum(rotate180(s) == s for s in tied)
        symmetric_inside = sum(rotate180(s) == s for s in inside)
        assert classes.count_half_turn(n, allowed=family.allowed) == symmetric_inside
        assert classes.count_half_turn(n, allowed=family.allowed, compiled=False) == symmetric_inside
    assert classes.symmetric_on_ties(n) == symmetric
    assert classes.tally(n, 0, 0, 0, on_ties, symmetric).eight == (on_ties - symmetric) // 2


def test_boards_on_tie_squares_that_do_not_pair_are_a_counting_error() -> None:
    with pytest.raises(nq.NQueensError, match="do not pair up"):
        classes.tally(8, 10, 0, 0, 5, 2)


def test_the_sub_boards_split_each_family_on_rows_1_and_2() -> None:
    n = 9
    tasks = classes.sub_boards(n)
    assert all(all(m and m & (m - 1) == 0 for m in task.allowed[:classes.DEPTH]) for task in tasks)
    assert {task.family for task in tasks} == {"corner", "inner"}
    assert [task.family for task in tasks] == sorted((task.family for task in tasks), key=lambda f: f != "inner")
    assert sum(len(chunk) for chunk in classes.chunks(n, 5)) == len(tasks)


def test_a_wrong_count_cannot_hide_in_the_classes() -> None:
    classes.Tally(8, 11, 1, 0).check()  # N=8: 11 classes of 8 and one a half turn keeps (92 = 88 + 4)
    with pytest.raises(nq.NQueensError, match="do not add up"):
        classes.Tally(8, 10, 3, 0).check()  # the same total, 92 = 80 + 12, in the wrong classes


def test_split_and_unsplit_counts_agree() -> None:
    assert nq.count(14, jobs=2) == nq.count(14, jobs=1) == TOTAL[14]
    assert nq.count(13, unique=True, jobs=2) == FUNDAMENTAL[13]
    with pytest.raises(nq.TimeLimitReached):
        nq.count(17, time_limit=0.2)
