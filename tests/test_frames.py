"""Counting by border frames and Burnside: both published numbers, exact, and tied together."""

from __future__ import annotations

import pytest

import nqueens_cp as nq
from conftest import reference
from nqueens_cp import FUNDAMENTAL, TOTAL, frames
from nqueens_cp.board import orbit, rotate90, rotate180


@pytest.mark.parametrize("n", range(1, 16))
def test_total_and_fundamental_are_the_published_numbers(n: int) -> None:
    search = nq.solutions(n, jobs=1)
    assert search.count() == TOTAL[n]
    assert nq.count(n, unique=True, jobs=1) == FUNDAMENTAL[n]
    if n >= frames.MIN_N:
        stats = search.stats
        assert (stats["total"], stats["fundamental"]) == (TOTAL[n], FUNDAMENTAL[n])
        a, b, c = stats["classes_8"], stats["classes_4"], stats["classes_2"]
        assert 8 * a + 4 * b + 2 * c == TOTAL[n] and a + b + c == FUNDAMENTAL[n]


@pytest.mark.parametrize("n", range(4, 10))
def test_symmetric_counts_and_classes_match_the_solutions_themselves(n: int) -> None:
    sols = reference(n)
    assert frames.count_half_turn(n) == sum(rotate180(s) == s for s in sols)
    assert frames.count_quarter_turn(n) == sum(rotate90(s) == s for s in sols)
    sizes = [len(orbit(s)) for s in {min(orbit(s)) for s in sols}]
    tally = frames.Tally(n, len(sols), frames.count_half_turn(n), frames.count_quarter_turn(n))
    assert tally.classes == (sizes.count(8), sizes.count(4), sizes.count(2))


@pytest.mark.parametrize("n", [6, 8, 9])
def test_every_solution_has_one_frame_and_frames_are_weighted_by_their_orbits(n: int) -> None:
    found = dict(frames.canonical_frames(n))
    border = {0, n - 1}
    covered = 0
    for s in reference(n):
        frame = tuple(sorted((r, c) for r, c in enumerate(s) if r in border or c in border))
        assert frame in set(frames.frames(n))
        covered += frame in found
    assert covered == sum(frames.count_frames(n, [(f, 1)])[0] for f in found)
    assert sum(frames.count_frames(n, [(f, w)])[0] for f, w in found.items()) == TOTAL[n]
    assert set(found.values()) <= {2, 4, 8}


def test_a_wrong_count_cannot_hide_in_the_classes() -> None:
    with pytest.raises(nq.NQueensError, match="do not add up"):
        frames.Tally(8, 93, 4, 0).classes  # one solution too many


def test_split_and_unsplit_frame_counts_agree() -> None:
    assert nq.count(14, jobs=2) == nq.count(14, jobs=1) == TOTAL[14]
    assert nq.count(13, unique=True, jobs=2) == FUNDAMENTAL[13]
    with pytest.raises(nq.TimeLimitReached):
        nq.count(17, time_limit=0.2)
