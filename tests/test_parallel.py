"""Splitting across processes and symmetry give exactly the sequential sets, in a fixed order."""

from __future__ import annotations

import pytest

from conftest import reference
from nqueens_cp import TOTAL, get_engine, is_solution
from nqueens_cp import parallel
from nqueens_cp.cli import main


def sequential(n: int, fixed=None) -> list[tuple[int, ...]]:
    return list(get_engine("backtrack").search(n, fixed))


def test_prefixes_cover_the_first_rows() -> None:
    found = parallel.prefixes(6, {}, 2)
    assert all(len(p) == 2 and w == 1 for p, w in found)
    assert {(p[0], p[1]) for p, _ in found} == {(a, b) for a in range(6) for b in range(6) if abs(a - b) > 1}
    mirrored = parallel.prefixes(7, {}, 1, mirror=True)
    assert mirrored == [({0: 0}, 2), ({0: 1}, 2), ({0: 2}, 2), ({0: 3}, 1)]
    assert parallel.prefixes(6, {1: 3}, 2) == [({0: 0, 1: 3}, 1), ({0: 1, 1: 3}, 1), ({0: 5, 1: 3}, 1)]


@pytest.mark.parametrize("variant", ["backtrack", "bitmask", "cpsat", "sat", "cpsat+sb", "sat+sb"])
@pytest.mark.parametrize("n", range(1, 12))
def test_split_gives_exactly_the_sequential_set(variant: str, n: int) -> None:
    name, _, sb = variant.partition("+")
    engine = get_engine(name, **({"symmetry_breaking": True} if sb else {}))
    found = list(parallel.solutions(engine, n, None, jobs=1))
    assert len(found) == len(set(found)) == TOTAL[n]
    assert set(found) == (reference(n) if n <= 9 else set(sequential(n)))
    assert parallel.count(engine, n, None, jobs=1) == TOTAL[n]


@pytest.mark.parametrize("variant", ["bitmask", "cpsat", "sat", "cpsat+sb", "sat+sb"])
def test_two_processes_give_the_same_sequence_as_one(variant: str) -> None:
    name, _, sb = variant.partition("+")
    engine = get_engine(name, **({"symmetry_breaking": True} if sb else {}))
    n = 11
    one = list(parallel.solutions(engine, n, None, jobs=1))
    two = list(parallel.solutions(engine, n, None, jobs=2))
    assert one == two, "output order must not depend on the number of jobs"
    assert len(two) == TOTAL[n] and set(two) == set(sequential(n))
    assert all(is_solution(s, n) for s in two)
    assert parallel.count(engine, n, None, jobs=2) == TOTAL[n]


def test_fixed_placements_in_parallel() -> None:
    engine = get_engine("sat")
    fixed = {0: 3, 5: 1}
    expected = set(sequential(11, fixed))
    found = list(parallel.solutions(engine, 11, fixed, jobs=2))
    assert set(found) == expected and len(found) == len(expected)
    assert parallel.count(engine, 11, fixed, jobs=2) == len(expected)


def test_statistics_are_merged() -> None:
    stats: dict = {}
    assert parallel.count(get_engine("sat"), 11, None, 2, stats) == 2680
    assert stats["conflicts"] > 0 and stats["subproblems"] > 10 and stats["variables"] == 121


def test_cli_jobs_do_not_change_the_output(capsys) -> None:
    outputs = []
    for jobs in ("1", "2", "3"):
        assert main(["enumerate", "11", "--engine", "sat", "--format", "line", "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0].splitlines()) == 2680
    for jobs in ("1", "2"):
        assert main(["count", "12", "--engine", "sat", "--jobs", jobs]) == 0
        assert capsys.readouterr().out == "14200\n"


def test_cli_limit_and_unique_with_jobs(capsys) -> None:
    assert main(["enumerate", "12", "--format", "line", "--limit", "5", "--jobs", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5
    assert main(["count", "12", "--unique", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == "1787\n"


def test_jobs_must_be_positive(capsys) -> None:
    assert main(["count", "8", "--jobs", "0"]) == 2
    assert "argument --jobs/-j: must be a positive integer, got '0'" in capsys.readouterr().err
