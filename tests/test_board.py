from __future__ import annotations

from itertools import permutations

import pytest

from nqueens_cp.model import board, position
from nqueens_cp.errors import InvalidInputError


def brute_force_ok(cols: tuple[int, ...]) -> bool:
    """The definition, pair by pair."""
    n = len(cols)
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            if cols[r1] == cols[r2] or abs(cols[r1] - cols[r2]) == r2 - r1:
                return False
    return True


@pytest.mark.parametrize("n", range(1, 7))
def test_validator_agrees_with_definition_on_every_permutation(n: int) -> None:
    for cols in permutations(range(n)):
        assert board.is_solution(cols, n) is brute_force_ok(cols)


@pytest.mark.parametrize(
    "cols, n",
    [
        ((0, 4, 7, 5, 2, 6, 1, 3), 7),  # wrong length
        ((0, 4, 7, 5, 2, 6, 1), 8),  # too short
        ((0, 4, 7, 5, 2, 6, 1, 8), 8),  # off the board
        ((0, 4, 7, 5, 2, 6, 1, -1), 8),
        ((0, 0, 7, 5, 2, 6, 1, 3), 8),  # same column
        ((0, 1), 2),  # diagonal
        ((1.0, 3, 0, 2), 4),  # not an int
    ],
)
def test_validator_rejects(cols: tuple, n: int) -> None:
    assert not board.is_solution(cols, n)
    with pytest.raises(InvalidInputError):
        board.check_solution(cols, n)


def test_check_solution_names_the_attacking_pair() -> None:
    with pytest.raises(InvalidInputError, match="1:2 and 2:3 attack"):
        board.check_solution((0, 2, 3, 1), 4)


def test_attacking_pair() -> None:
    assert board.attacking_pair([(0, 0), (1, 2), (2, 4)]) is None
    assert board.attacking_pair([(0, 0), (3, 3)]) == ((0, 0), (3, 3))
    assert board.attacking_pair([(0, 3), (3, 0)]) == ((0, 3), (3, 0))
    assert board.attacking_pair([(2, 1), (2, 5)]) == ((2, 1), (2, 5))


def test_render() -> None:
    assert board.render((1, 3, 0, 2)) == ". Q . .\n. . . Q\nQ . . .\n. . Q ."


def test_pack_is_order_preserving_and_invertible() -> None:
    sols = sorted(permutations(range(6)))
    keys = [board.pack(s, 6) for s in sols]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert all(board.unpack(k, 6) == s for k, s in zip(keys, sols))
    assert board.pack(tuple(range(15, -1, -1)), 16) < 2**64


def test_check_placements() -> None:
    assert position.check_placements(8, {0: 0, 1: 1}) == {0: 0, 1: 1}  # attacking is allowed
    for bad in ({8: 0}, {0: 8}, {-1: 0}, {0: "1"}):
        with pytest.raises(InvalidInputError, match="off the 8x8 board"):
            position.check_placements(8, bad)
    for n in (0, -1, 2.0, "8"):
        with pytest.raises(InvalidInputError, match="positive integer"):
            position.check_placements(n, None)
