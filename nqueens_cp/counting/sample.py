"""Uniformly random solutions without listing them all.

A solution is drawn row by row: in row r, column c is taken with
probability (solutions below the prefix with c) / (solutions below the
prefix), the counts made by the compiled counting loop on the sub-board of
the prefix.  Every solution is then exactly equally likely (the product of
the ratios telescopes to 1 / total), unlike ``random.choice`` over a list,
which needs the whole list.  Counts are cached, so later draws reuse the
first rows' counts.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from functools import lru_cache

from ..model.board import Solution
from ..model.position import Position, check_placements
from ..errors import InvalidInputError
from ..known import TOTAL

MAX_N = 16  # the first draw counts every first-row sub-tree: about count N on one core (N=16: seconds)
# Seconds a solution of N that a draw's counts take: the first draw counts every first row's
# sub-tree, the next ones (the first rows cached) the sub-trees below their own rows only.  N = 14,
# 15 and 16 drew their first board in 0.12, 0.73 and 4.5 s here, each next in 13, 95 and 575 ms.
FIRST_SECONDS_PER_SOLUTION = 3e-7
NEXT_SECONDS_PER_SOLUTION = 4e-8
NOTE_SECONDS = 2.0  # a sample that takes longer says so before it starts (sample 16 took 4 to 9 s in silence)


def seconds(n: int, k: int) -> float:
    """About how long ``k`` draws of N take here (0 where the count of N is not known)."""
    total = TOTAL.get(n, 0) if n <= MAX_N and type(k) is int and k >= 1 else 0
    return total * (FIRST_SECONDS_PER_SOLUTION + (k - 1) * NEXT_SECONDS_PER_SOLUTION)


def advice(n: int, k: int) -> list[str]:
    """A note for a sample that will take more than a few seconds."""
    import math

    from ..estimates import duration

    wait = seconds(n, k)
    if wait <= NOTE_SECONDS:
        return []
    first, each = TOTAL[n] * FIRST_SECONDS_PER_SOLUTION, TOTAL[n] * NEXT_SECONDS_PER_SOLUTION
    more = f", each next about {each:.2g} s" if k > 1 else ""
    return [f"each draw counts the boards below its rows by the compiled loop: the first of N={n} about "
            f"{first:.2g} s here (every first row's){more}; {k:,} {'board takes' if k == 1 else 'boards take'} "
            f"{duration(math.log10(wait))}, each printed as it is drawn"]


def sample(n: int, k: int = 1, seed: int | None = None, fixed: Mapping[int, int] | None = None) -> Iterator[Solution]:
    """``k`` solutions of n-queens, each drawn independently and uniformly from
    those that honour ``fixed``; reproducible with ``seed``.  None where
    there is no solution to draw from (N = 2, 3, or impossible placements).
    The arguments are checked here, before the first draw is asked for (sample 65
    advised --format line, which then refused N > 16)."""
    placed = check_placements(n, fixed)
    if type(k) is not int or k < 1:
        raise InvalidInputError(f"k must be a positive integer, got {k!r}")
    if n > MAX_N:
        raise InvalidInputError(f"exact uniform sampling counts the sub-trees of every first row: N={n} would "
                                f"take minutes to hours (N={n} has {TOTAL.get(n, 'more than 10^17')} solutions); "
                                f"use N <= {MAX_N}")
    return _draws(n, k, seed, placed)


def _draws(n: int, k: int, seed: int | None, placed: Position) -> Iterator[Solution]:
    rng = random.Random(seed)
    counter = _counter(n, tuple(sorted(placed.items())), placed.blocked)
    if counter(()) == 0:
        return  # (no solution, as for N = 2 and 3: nothing to draw, and no error)
    for _ in range(k):
        prefix: tuple[int, ...] = ()
        while len(prefix) < n:
            options = [(c, counter(prefix + (c,))) for c in _columns(n, placed, len(prefix))]
            pick = rng.randrange(sum(weight for _, weight in options))
            for c, weight in options:
                if pick < weight:
                    prefix += (c,)
                    break
                pick -= weight
        yield prefix


def _columns(n: int, placed: Position, row: int) -> list[int]:
    return placed.columns(row, n)


def _counter(n: int, placed: tuple[tuple[int, int], ...], blocked: frozenset[tuple[int, int]]):
    """completions(prefix): solutions whose first rows are ``prefix`` (and that honour
    the placements and the blocked squares)."""
    from .. import kernel

    position = Position(dict(placed), blocked)
    fixed = position  # true when anything is placed or blocked: no mirror shortcut then
    masks = [position.mask(r, n) for r in range(n)]

    @lru_cache(maxsize=1 << 16)
    def completions(prefix: tuple[int, ...]) -> int:
        if any(row in fixed and fixed[row] != col for row, col in enumerate(prefix)):
            return 0
        last = n - 1
        if not prefix and not fixed and n > 1:  # the mirror image of a first row counts alike
            return sum(completions((c,)) for c in range(n))
        if len(prefix) == 1 and not fixed and prefix[0] > last - prefix[0]:
            return completions((last - prefix[0],))
        allowed = [1 << prefix[r] if r < len(prefix) else masks[r] for r in range(n)]
        return kernel.count(n, allowed).found

    return completions
