"""Counting by joining quarters (nqueens_cp.counting.quarters): the reference
of issue 41's counter, against the published totals and the kernel."""

from __future__ import annotations

import pytest

from nqueens_cp.counting import quarters
from nqueens_cp.known import TOTAL


def table_sizes(n: int) -> dict[str, int]:
    """How many placements each quarter's table holds (the memory the method
    needs grows with them): north-west, north-east, south-west, south-east."""
    h = n // 2
    north, south = list(range(h)), list(range(n - h, n))
    west, east = list(range(h)), list(range(n - h, n))
    return {f"{v}{w}": sum(len(sigs) for sigs in quarters.quarter_table(n, rows, cols).values())
            for v, rows in (("n", north), ("s", south)) for w, cols in (("w", west), ("e", east))}


@pytest.mark.parametrize("n", range(1, 13))
def test_joining_quarters_counts_the_published_totals(n: int) -> None:
    """Even and odd N (the middle row and column first), through the same code."""
    assert quarters.count(n) == TOTAL[n]


def test_a_quarter_table_is_every_placement_that_attacks_nothing_within_it() -> None:
    """The north-west quarter of N = 8 (4 x 4 squares), against brute force over
    every set of its squares."""
    import itertools

    n, rows, cols = 8, [0, 1, 2, 3], [0, 1, 2, 3]
    table = quarters.quarter_table(n, rows, cols)
    squares = [(r, c) for r in rows for c in cols]
    expected: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for k in range(5):
        for chosen in itertools.combinations(squares, k):
            if any(a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1])
                   for a, b in itertools.combinations(chosen, 2)):
                continue
            key = (sum(1 << r for r, _ in chosen), sum(1 << c for _, c in chosen))
            expected.setdefault(key, []).append((sum(1 << (c - r + n - 1) for r, c in chosen),
                                                 sum(1 << (r + c) for r, c in chosen)))
    assert {key: sorted(sigs) for key, sigs in table.items()} == {key: sorted(sigs) for key, sigs in expected.items()}
    assert sum(map(len, table.values())) == table_sizes(8)["nw"] == 87


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="N must be positive"):
        quarters.count(0)
