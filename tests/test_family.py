"""Random members of the family, drawn from the data's vocabulary, against a
brute-force oracle: what makes the next member safe to add.

A member is data (model/variants.py): the columns, any of the two diagonal
directions, each wrapping or not, and offsets.  The core engines must give
the oracle's count (and, where they list boards, the oracle's exact set) for
every member and N <= 7, with a pre-placed queen and a blocked square, and in
a split count; the rest of the field on the four corner members at N = 6
(tests/test_members.py draws members and N for every engine); every engine
that cannot express some part of a member must refuse in one line.  The oracle reads the member's data but computes the
attack relation itself, from the definition, over every permutation: it
shares no code with the engines or with ``Variant.attacks``.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

import pytest

import nqueens_cp as nq
from nqueens_cp import engine_class, get_engine, names, preset
from nqueens_cp.execution import plan as planning
from nqueens_cp.model.variants import COLUMNS, Lines, Variant, family

from conftest import usable

OFFSETS = [(1, 2), (1, -2), (2, 1), (2, -1), (1, 3), (2, -3), (1, 1), (2, 2), (3, 1)]
N = 7  # the largest board of the oracle's permutations (5,040 of them)
FAST = tuple(preset("core"))  # every N up to N, exact sets, placements, splits
FIELD_N = 6  # the rest of the field on the corners (the columns' 7! boards took SMT 6 s to list at 7)


def draw(seed: int) -> Variant:
    """A member from the vocabulary: the columns, each diagonal direction with
    probability 0.6 (wrapping or not), and 0 to 4 offsets."""
    rng = random.Random(seed)
    lines = [COLUMNS] + [Lines(slope, rng.random() < 0.5) for slope in (-1, 1) if rng.random() < 0.6]
    return family(f"drawn{seed}", lines, rng.sample(OFFSETS, rng.choice((0, 0, 1, 2, 4))))


# Ten drawn members, and the corners every draw may miss.
FAMILIES = [draw(seed) for seed in range(10)] + [
    family("columns", [COLUMNS]),
    family("one-edge-diagonal", [COLUMNS, Lines(-1)]),
    family("wrapped-and-knight", [COLUMNS, Lines(-1, True), Lines(1)], [(1, 2), (2, -1)]),
    family("far-offset", [COLUMNS, Lines(1)], [(3, 1)]),
]


@lru_cache(maxsize=None)
def oracle(index: int, n: int, fixed: tuple[tuple[int, int], ...] = (),
           blocked: tuple[tuple[int, int], ...] = ()) -> frozenset[tuple[int, ...]]:
    """Every board of FAMILIES[index], from the definition: no two pieces on
    one line of a family (c + slope * r, mod n where it wraps) or an offset apart."""
    member = FAMILIES[index]

    def attack(r1: int, c1: int, r2: int, c2: int) -> bool:
        for lines in member.families:
            a, b = c1 + lines.slope * r1, c2 + lines.slope * r2
            if (a - b) % n == 0 if lines.wraps else a == b:
                return True
        return (r2 - r1, c2 - c1) in member.offsets or (r1 - r2, c1 - c2) in member.offsets

    return frozenset(p for p in itertools.permutations(range(n))
                     if all(p[r] == c for r, c in fixed) and not any(p[r] == c for r, c in blocked)
                     and not any(attack(r1, p[r1], r2, p[r2]) for r1, r2 in itertools.combinations(range(n), 2)))


def answering(member: Variant) -> list[str]:
    return [name for name in names(counts=True) if engine_class(name).answers(member)]


def test_the_draws_cover_the_vocabulary():
    parts = [member.parts for member in FAMILIES]
    assert all(any(part in found for found in parts) for part in ("lines", "wrapping", "offsets"))
    assert any(not member.symmetric_at(N) for member in FAMILIES) and any(member.translations for member in FAMILIES)
    assert any("mirror" not in member.symmetries_at(N) for member in FAMILIES)


DRAWN = 10  # FAMILIES[:DRAWN] are the draws, the rest the corners


def _table() -> list[tuple[str, int]]:
    """(engine, member) rows: the core engines on every member; every other engine on the corners, and on the
    draws only where it must refuse.  The draws for those engines are test_members' (Hypothesis draws a member
    and N, and holds every engine that answers it to the oracle): the full table held them here a second
    time, a third of this file's time (smt and modelcount on ten draws)."""
    return [(name, index) for name in names(counts=True) for index in range(len(FAMILIES))
            if name in FAST or index >= DRAWN or not engine_class(name).answers(FAMILIES[index])]


@pytest.mark.parametrize("name, index", _table(), ids=[f"{name}-{FAMILIES[index].name}" for name, index in _table()])
def test_every_engine_that_accepts_a_member_gives_the_oracles_answers(name, index):
    member = FAMILIES[index]
    if not engine_class(name).answers(member):
        with pytest.raises(nq.InvalidInputError, match=f"engine {name} does not answer .* cannot express"):
            nq.count(5, name, variant=member)
        return
    usable(name)
    top = N if name in FAST else FIELD_N
    for n in range(1, top + 1) if name in FAST else (top,):
        assert nq.count(n, name, variant=member) == len(oracle(index, n)), n
    if engine_class(name).enumerates:
        found = list(nq.solutions(top, name, variant=member))
        assert len(found) == len(set(found)) and set(found) == oracle(index, top)


def test_the_kernel_refuses_only_what_it_cannot_carry():
    for member in FAMILIES:
        far = any(dr > 2 for dr, _ in member.offsets)
        assert engine_class("bitmask").answers(member) is not far, member.name
    with pytest.raises(nq.InvalidInputError, match=r"cannot express offsets more than 2 rows down or 8 columns "
                       r"across, such as \(3, 1\)"):
        nq.count(5, "bitmask", variant=FAMILIES[-1])


@pytest.mark.parametrize("index", range(len(FAMILIES)), ids=[member.name for member in FAMILIES])
def test_placements_and_blocked_squares_against_the_oracle(index):
    member, rng = FAMILIES[index], random.Random(index)
    boards = sorted(oracle(index, N)) or [tuple(rng.sample(range(N), N))]
    board = rng.choice(boards)
    row, other = rng.sample(range(N), 2)
    fixed, blocked = {row: board[row]}, [(other, board[other])]  # a blocked square on the drawn board
    expected = oracle(index, N, tuple(fixed.items()), tuple(blocked))
    for name in (*FAST, "asp"):
        if not engine_class(name).answers(member) or engine_class(name).unavailable_reason():
            continue
        assert nq.count(N, name, fixed, blocked=blocked, variant=member) == len(expected), name
        assert set(nq.solutions(N, name, fixed, blocked=blocked, variant=member)) == expected, name
        outcome = nq.solve(N, name, fixed, blocked=blocked, variant=member)
        assert (outcome.solution in expected) if expected else outcome.status is nq.Status.NONE, name


@pytest.mark.parametrize("index", range(len(FAMILIES)), ids=[member.name for member in FAMILIES])
def test_a_split_count_against_the_oracle(index, monkeypatch):
    """Split from N = 1 on: the prefixes, the mirror halving (where the member
    keeps the mirror) and the translations (where it has them) all run."""
    monkeypatch.setattr(planning, "SPLIT_MIN_N", 1)
    member = FAMILIES[index]
    fixed = {N - 1: 3}
    for name in FAST:
        if not engine_class(name).answers(member):
            continue
        assert planning.plan(N, get_engine(name, member)).split
        assert nq.count(N, name, variant=member, jobs=1) == len(oracle(index, N)), name
        assert nq.count(N, name, fixed, variant=member, jobs=1) == len(oracle(index, N, ((N - 1, 3),))), name
    if index == 0 and engine_class("bitmask").answers(member):  # the pool's processes take the member too
        assert nq.count(N, "bitmask", variant=member, jobs=2) == len(oracle(index, N))


def test_symmetry_breaking_needs_the_squares_symmetries():
    lopsided = next(member for member in FAMILIES if not member.symmetric_at(6))
    with pytest.raises(nq.InvalidInputError, match="keeps only"):
        nq.count(6, "cpsat", variant=lopsided, symmetry_breaking=True)
    usable("bitmask")
    assert nq.count(7, "bitmask", variant="rooks", unique=True) == 694  # A000903: all 8 kept


def test_the_vocabulary_is_checked_where_a_member_is_made():
    for lines, offsets in (([Lines(1)], []), ([COLUMNS, Lines(2)], []), ([COLUMNS, Lines(1), Lines(1, True)], []),
                           ([COLUMNS], [(0, 1)]), ([COLUMNS], [(1, 0)]), ([COLUMNS], [(1, 2), (1, 2)])):
        with pytest.raises(nq.InvalidInputError):
            family("bad", lines, offsets)
