"""Counting once per class of the 8 symmetries: both published numbers, exact, and tied together."""

from __future__ import annotations

import pytest

import nqueens_cp as nq
from conftest import reference
from nqueens_cp import FUNDAMENTAL, TOTAL, classes
from nqueens_cp.board import canonical, is_solution, orbit, rotate90, rotate180
from nqueens_cp.engines import kernel


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
    assert classes.count_half_turn(n) == sum(rotate180(s) == s for s in sols)
    assert classes.count_quarter_turn(n) == sum(rotate90(s) == s for s in sols)


def _representatives(n: int) -> list[tuple[tuple[int, ...], int]]:
    """Every board the sub-boards count, with the class size the loop gave it."""
    found = []
    for task in classes.sub_boards(n):
        walk = kernel.Walk(n, task.allowed, classify=task.classify)
        before = (0, 0, 0)
        while not walk.advance(limit=1):
            step = [after - was for after, was in zip(walk.tallies, before)]
            before = walk.tallies
            found.append((walk.solution(), (8, 4, 2)[step.index(1)]))
    return found


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
def test_the_sub_boards_count_one_board_of_every_class_with_its_size(n: int) -> None:
    found = _representatives(n)
    boards = [board for board, _ in found]
    assert all(is_solution(board, n) for board in boards)
    assert len({canonical(board) for board in boards}) == len(boards), "two boards of one class"
    assert {canonical(board) for board in boards} == {canonical(s) for s in reference(n)}, "a class missed"
    assert all(size == len(orbit(board)) for board, size in found)


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
