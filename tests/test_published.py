"""Every published number the package keeps, against a copy of its source.

``nqueens_cp.known.published()`` lists each value with the OEIS sequence it
comes from; ``tests/data/published/<id>.txt`` holds that sequence's terms as
its source prints them, with where and when they were copied.  A000142 (N!)
is its definition.  A value with no term in the copy fails: a number we keep
must say where it came from (issue 44: gamma(18) was kept as 10 where A075458
has 9; the toroidal counts cited A007705, which lists odd boards only)."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import pytest

from nqueens_cp.known import published
from nqueens_cp.model import variants

SOURCES = Path(__file__).parent / "data" / "published"


@lru_cache(maxsize=None)
def source(oeis: str) -> dict[int, int]:
    """N -> term of the copied sequence (``# offset: k``; ``# board: 2n+1`` maps index n to N,
    and the even N, where that header says no board exists, to 0)."""
    text = (SOURCES / f"{oeis}.txt").read_text()
    header = dict(re.findall(r"^# (\w+): (.*)$", text, re.MULTILINE))
    terms = [int(word) for line in text.splitlines() if line and not line.startswith("#") for word in line.split(",")]
    first = int(header["offset"])
    board = {"n": lambda i: i, "2n+1": lambda i: 2 * i + 1}[header.get("board", "n")]
    terms_by_n = {board(first + i): term for i, term in enumerate(terms)}
    if header.get("board") == "2n+1":
        terms_by_n.update((n, 0) for n in range(2, max(terms_by_n), 2))
    return terms_by_n


VALUES = list(published())


def test_every_kept_value_is_listed_and_has_a_source():
    sequences = {oeis for _, oeis, _, _ in VALUES}
    assert {"A000170", "A002562"} <= sequences
    assert all(variant.oeis for variant in variants.VARIANTS.values() if variant.known)
    assert len(VALUES) > 150
    for oeis in sequences - {"A000142"}:
        copy = (SOURCES / f"{oeis}.txt").read_text()
        assert re.search(r"^# url: https://oeis\.org/A\d{6}$", copy, re.MULTILINE), oeis
        assert re.search(r"^# Copied \d{4}-\d\d-\d\d from ", copy, re.MULTILINE), oeis


@pytest.mark.parametrize("oeis", sorted({oeis for _, oeis, _, _ in VALUES}))
def test_each_value_is_its_source_term(oeis):
    wrong = []
    for where, sequence, n, value in VALUES:
        if sequence != oeis:
            continue
        if oeis == "A000142":  # N!, by definition
            expected: int | None = math.factorial(n)
        else:
            expected = source(oeis).get(n)
        if expected != value:
            wrong.append(f"{where}[{n}] = {value}, {oeis} has {expected if expected is not None else 'no term'}")
    assert not wrong, "\n".join(wrong)


def test_the_copies_agree_with_each_other():
    """The identities that tie sequences together hold in the copies themselves."""
    total, classes = source("A000170"), source("A002562")
    assert all(classes[n] <= total[n] <= 8 * classes[n] for n in total)
    torus = source("A051906")
    assert all((k > 0) == (math.gcd(n, 6) == 1) for n, k in torus.items())  # Pólya
    assert all(k % n == 0 for n, k in torus.items())  # a torus board's shifts are boards
    assert all(torus[n] <= total[n] for n in torus if n in total)
    gamma, independent = source("A075458"), source("A075324")
    assert all(gamma[n] <= independent[n] for n in independent)
