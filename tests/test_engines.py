"""Every engine: known counts, exact solution sets, validity, fixed placements, limits."""

from __future__ import annotations

import importlib.util

import pytest

from conftest import reference
from nqueens_cp import TOTAL, get_engine, is_solution
from nqueens_cp.errors import InvalidInputError


@pytest.mark.parametrize("n", range(1, 11))
def test_count_equals_published_total(engine, n: int) -> None:
    search = engine.search(n)
    assert search.count() == TOTAL[n]
    assert search.stats, "every engine reports some search statistics"


@pytest.mark.parametrize("n", range(1, 10))
def test_exact_solution_set_and_every_solution_valid(engine, n: int) -> None:
    found = list(engine.search(n))
    assert all(is_solution(s, n) for s in found)
    assert all(type(s) is tuple and all(type(c) is int for c in s) for s in found)
    assert len(found) == len(set(found)), "no duplicates"
    assert set(found) == reference(n)


def test_oracle_sets_have_published_sizes() -> None:
    for n in range(1, 10):
        assert len(reference(n)) == TOTAL[n]


@pytest.mark.parametrize("n, fixed", [(8, {0: 0}), (8, {3: 5, 7: 2}), (9, {4: 4}), (8, {0: 0, 1: 1}), (1, {0: 0})])
def test_fixed_placements_are_honoured(engine, n: int, fixed: dict[int, int]) -> None:
    found = set(engine.search(n, fixed))
    expected = {s for s in reference(n) if all(s[r] == c for r, c in fixed.items())}
    assert found == expected
    assert engine.search(n, fixed).count() == len(expected)


def test_attacking_fixed_placements_have_no_solution(engine) -> None:
    assert list(engine.search(8, {0: 0, 1: 1})) == []


@pytest.mark.parametrize("limit", [1, 5, 92, 500])
def test_limit_is_honoured(engine, limit: int) -> None:
    found = list(engine.search(8, limit=limit))
    assert len(found) == min(limit, 92)
    assert set(found) <= reference(8)


def test_limit_with_fixed_placement(engine) -> None:
    found = list(engine.search(10, {0: 3}, limit=4))
    assert len(found) == 4 and all(s[0] == 3 and is_solution(s, 10) for s in found)


def test_streams_first_solution_of_a_board_too_big_to_enumerate(engine_name: str) -> None:
    # 20-queens has 39 billion solutions: only a lazy engine returns from this.
    if engine_name == "backtrack":
        n = 16
    else:
        n = 20
    with get_engine(engine_name).search(n) as search:
        first = next(search)
        second = next(search)
    assert is_solution(first, n) and is_solution(second, n) and first != second


def test_closing_early_then_searching_again(engine) -> None:
    search = engine.search(10)
    next(search)
    search.close()
    assert list(search) == []
    assert engine.search(10).count() == 724


@pytest.mark.parametrize("bad", [dict(n=0), dict(n=-2), dict(n=8.0), dict(n=8, fixed={8: 0}),
                                 dict(n=8, fixed={0: -1}), dict(n=8, limit=0), dict(n=8, limit=1.5)])
def test_bad_arguments_raise(engine, bad: dict) -> None:
    args = {"fixed": None, "limit": None, **bad}
    with pytest.raises(InvalidInputError):
        engine.search(args["n"], args["fixed"], args["limit"])


def test_unknown_engine_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidInputError, match="backtrack, bitmask, cpsat, sat"):
        get_engine("nope")


@pytest.mark.parametrize("solver", ["minisat22", "glucose4"])
def test_sat_engine_other_solvers(solver: str) -> None:
    pytest.importorskip("pysat", reason="python-sat is not installed")
    assert set(get_engine("sat", solver=solver).search(8)) == reference(8)


def test_sat_engine_rejects_unknown_and_non_incremental_solvers() -> None:
    for name in ("kissat404", "nope"):
        with pytest.raises(InvalidInputError, match="unknown SAT solver"):
            get_engine("sat", solver=name)


def test_sat_stats_report_model_size() -> None:
    pytest.importorskip("pysat", reason="python-sat is not installed")
    search = get_engine("sat").search(8)
    assert search.count() == 92
    # pairwise: 16 at-least-one clauses, 16 * C(8,2) row/column pairs, and pairs on the diagonals
    diagonal_pairs = 2 * sum(k * (k - 1) // 2 for k in list(range(1, 9)) + list(range(1, 8)))
    assert search.stats["variables"] == 64
    assert search.stats["clauses"] == 16 + 16 * 28 + diagonal_pairs
    assert search.stats["conflicts"] > 0 and search.stats["decisions"] > 0


def test_cpsat_stats_come_from_the_solver() -> None:
    pytest.importorskip("ortools", reason="OR-Tools is not installed")
    search = get_engine("cpsat").search(8)
    assert search.count() == 92
    assert search.stats["status"] == "OPTIMAL"
    assert search.stats["branches"] > 0


def test_backtrack_stats_count_the_search_tree() -> None:
    search = get_engine("backtrack").search(4)
    assert search.count() == 2
    # 4-queens: the textbook tree has 16 placed queens and 60 is-safe checks.
    assert search.stats == {"nodes": 16, "tries": 60}


def test_bitmask_mirror_count_matches_enumeration() -> None:
    bitmask = get_engine("bitmask")
    for n in range(1, 13):
        counted = bitmask.search(n)
        assert counted.count() == TOTAL[n]
        assert sum(1 for _ in bitmask.search(n)) == TOTAL[n]


def test_bad_engine_option() -> None:
    with pytest.raises(InvalidInputError):
        get_engine("sat", encoding="nope")
    with pytest.raises(TypeError):
        get_engine("bitmask", solver="cadical195")


def test_counting_kernels_agree() -> None:
    """The Python loop, the compiled loop and the recursive fallback count alike,
    with and without restricted rows."""
    import random

    from nqueens_cp.engines import _kernel
    from nqueens_cp.engines.bitmask import _count_recursive

    if importlib.util.find_spec("llvmlite") is None:
        pytest.skip("llvmlite (the 'fast' extra) is not installed: no compiled loop to check")
    assert _kernel.compiled is not None
    rng = random.Random(5)
    for n in range(1, 12):
        full = (1 << n) - 1
        cases = [[full] * n, [1 << (n // 2)] + [full] * (n - 1), [full] * (n - 1) + [1], [0] + [full] * (n - 1)]
        cases += [[rng.randrange(full + 1) for _ in range(n)] for _ in range(20)]
        for allowed in cases:
            expected = _count_recursive(n, allowed)
            assert _kernel.count_masks(n, allowed, *([0] * (n + 1) for _ in range(4))) == expected
            assert _kernel.compiled(n, allowed) == expected
    # Masks wider than 32 bits: a 60-queens board with its last six rows open.
    from nqueens_cp.solve import construct

    board = construct(60)
    allowed = [1 << c for c in board[:54]] + [(1 << 60) - 1] * 6
    expected = _count_recursive(60, allowed)
    assert expected[0] >= 1 and _kernel.compiled(60, allowed) == expected


def test_compiled_loop_refuses_what_does_not_fit_64_bits() -> None:
    from nqueens_cp.engines import _kernel

    if _kernel.compiled is None:
        pytest.skip("llvmlite (the 'fast' extra) is not installed: no compiled loop to check")
    with pytest.raises(ValueError, match="n <= 62"):
        _kernel.compiled(63, [1] * 63)
    with pytest.raises(ValueError, match="n masks"):
        _kernel.compiled(4, [1, 2])


def test_a_loop_that_does_not_compile_falls_back_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from nqueens_cp.engines import _kernel

    if importlib.util.find_spec("llvmlite") is None:
        pytest.skip("llvmlite (the 'fast' extra) is not installed: nothing to compile")
    monkeypatch.setattr(_kernel, "_IR", "define i64 @count_masks( {")
    with pytest.warns(RuntimeWarning, match="cannot compile the counting loop"):
        assert _kernel._compile() is None


def test_bitmask_count_without_the_compiled_loop_is_the_same() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "NQUEENS_CP_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-m", "nqueens_cp", "count", "11", "--jobs", "1", "--stats"],
                         capture_output=True, text=True, env=env, check=True)
    assert out.stdout == "2680\n" and "kernel=python" in out.stderr
