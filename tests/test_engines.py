"""Every engine: known counts, exact solution sets, validity, fixed placements, limits."""

from __future__ import annotations

import importlib.util

import pytest

from conftest import affordable, reference
from nqueens_cp import TOTAL, SearchFinishedError, engine_class, get_engine, is_solution, names
from nqueens_cp.errors import InvalidInputError


@pytest.mark.parametrize("n", range(1, 11))
def test_count_equals_published_total(engine, n: int) -> None:
    affordable(engine.name, n)
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
    # 17-queens has 96 million solutions, 20-queens 39 billion: only a lazy engine returns from this.
    n = 20 if engine_class(engine_name).first_solution_max_n >= 30 else 17
    with get_engine(engine_name).search(n) as search:
        first = next(search)
        second = next(search)
    assert is_solution(first, n) and is_solution(second, n) and first != second


def test_closing_early_then_searching_again(engine) -> None:
    search = engine.search(10)
    next(search)
    search.close()
    with pytest.raises(SearchFinishedError, match="closed"):
        list(search)
    assert engine.search(10).count() == 724


def test_a_finished_search_cannot_be_iterated_or_counted_again(engine) -> None:
    search = engine.search(6)
    assert len(list(search)) == 4
    with pytest.raises(SearchFinishedError, match="finished"):
        list(search)
    with pytest.raises(SearchFinishedError, match="fresh search"):
        search.count()
    assert "4 solutions, finished" in repr(search)


def test_a_partly_read_search_goes_on_where_it_stopped(engine) -> None:
    search = engine.search(6)
    first = next(search)
    rest = list(search)
    assert {first, *rest} == reference(6) and len(rest) == 3


@pytest.mark.parametrize("bad", [dict(n=0), dict(n=-2), dict(n=8.0), dict(n=8, fixed={8: 0}),
                                 dict(n=8, fixed={0: -1}), dict(n=8, limit=0), dict(n=8, limit=1.5)])
def test_bad_arguments_raise(engine, bad: dict) -> None:
    args = {"fixed": None, "limit": None, **bad}
    with pytest.raises(InvalidInputError):
        engine.search(args["n"], args["fixed"], args["limit"])


def test_unknown_engine_lists_the_valid_ones() -> None:
    with pytest.raises(InvalidInputError, match="backtrack, bitmask, cpsat, sat, scan, copy, .*, construct, minconflicts"):
        get_engine("nope")


@pytest.mark.parametrize("solver", ["minisat22", "glucose4"])
def test_sat_engine_other_solvers(solver: str) -> None:
    pytest.importorskip("pysat", reason="python-sat is not installed")
    assert set(get_engine("sat", solver=solver).search(8)) == reference(8)


def test_sat_engine_rejects_unknown_and_non_incremental_solvers() -> None:
    for name in ("kissat404", "nope"):
        with pytest.raises(InvalidInputError, match="option solver: unknown value"):
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


def test_bad_engine_option_is_named() -> None:
    with pytest.raises(InvalidInputError, match="option encoding: unknown value 'nope'"):
        get_engine("sat", encoding="nope")
    with pytest.raises(InvalidInputError, match=r"option 'solver' \(--solver\) applies to the sat engine, not bitmask"):
        get_engine("bitmask", solver="cadical195")
    with pytest.raises(InvalidInputError, match="applies to the cpsat and sat engines, not backtrack"):
        get_engine("backtrack", symmetry_breaking=True)
    with pytest.raises(InvalidInputError, match="unknown option 'no_such_option' for engine sat"):
        get_engine("sat", no_such_option=1)
    with pytest.raises(InvalidInputError, match="takes True or False"):
        get_engine("cpsat", symmetry_breaking="yes")
    for seed in (-1, 2**31, 1.5, True):
        with pytest.raises(InvalidInputError, match="option seed takes an integer from 0 to 2147483647"):
            get_engine("cpsat", seed=seed)


def test_capabilities_are_data_on_the_engines() -> None:
    assert names(enumerates=True) == ["backtrack", "bitmask", "cpsat", "sat", "scan", "copy", "undo", "iterative",
                                      "generator", "nested"]
    assert names(enumerates=False) == ["construct", "minconflicts"]
    assert names(takes_fixed=False) == ["construct"]
    assert names(proves_none=False) == ["minconflicts"]
    assert names(option="symmetry_breaking") == ["cpsat", "sat"]
    assert names(option="seed") == ["cpsat", "minconflicts"]
    for name in names():
        cls = get_engine(name).__class__
        assert set(cls.additive) <= set(cls.statistics), name
        assert cls.effort is None or cls.effort in cls.statistics, name


def test_engines_that_only_find_one_solution_refuse_to_enumerate() -> None:
    for name in names(enumerates=False):
        with pytest.raises(InvalidInputError, match="cannot enumerate: use solve"):
            get_engine(name).search(8)


def _walks(n, allowed, classify, plan, compiled):
    """The states a walk passes through, advanced by (limit, nodes) steps."""
    from nqueens_cp.engines import kernel

    walk = kernel.Walk(n, allowed, classify)
    if not compiled:
        walk = kernel.Walk.__new__(kernel.Walk)
        walk.__dict__.update(kernel.Walk(n, allowed, classify).__dict__)
        walk._loop = None
        walk._masks, walk._state = list(walk._masks), [0] * (4 * (n + 1))
        walk._board, walk._image, walk._out = [0] * (n + 1), [0] * (n + 1), [0] * kernel.OUT
    seen = []
    for limit, nodes in plan:
        done = walk.advance(limit=limit, nodes=nodes)
        seen.append((walk.tallies, walk.nodes, walk.solution() if limit and not done else None, done))
        if done:
            break
    return seen


def test_the_compiled_loop_and_its_python_twin_agree() -> None:
    """The compiled loop and its plain-Python twin walk alike: counts, classes,
    nodes, the solution at every stop, with restricted rows, limits and budgets."""
    import random

    from nqueens_cp.engines import kernel
    from nqueens_cp.engines.construct import construct

    if kernel.compiled() is None:
        pytest.skip("llvmlite cannot compile here: no compiled loop to check")
    rng = random.Random(5)
    for n in range(1, 12):
        full = (1 << n) - 1
        cases = [[full] * n, [1 << (n // 2)] + [full] * (n - 1), [full] * (n - 1) + [1], [0] + [full] * (n - 1)]
        cases += [[full & ~(rng.getrandbits(n) & rng.getrandbits(n)) for _ in range(n)] for _ in range(20)]
        for allowed in cases:
            classify = rng.random() < 0.3
            plan = [(rng.choice([0, 1, 2]), rng.choice([0, 1, 3, 50])) for _ in range(60)] + [(0, 0)]
            assert _walks(n, allowed, classify, plan, True) == _walks(n, allowed, classify, plan, False)
        assert _walks(n, [full] * n, False, [(0, 0)], False)[-1][0][0] == TOTAL[n]
    # Masks wider than 32 bits: a 60-queens board with its last six rows open.
    board = construct(60)
    allowed = [1 << c for c in board[:54]] + [(1 << 60) - 1] * 6
    expected = _walks(60, allowed, False, [(1, 0), (0, 0)], False)
    assert expected[0][0][0] == 1 and _walks(60, allowed, False, [(1, 0), (0, 0)], True) == expected


def test_whole_counts_in_the_recursive_loop_agree_with_the_walk() -> None:
    """kernel.count and count_classes (count_tree, recursion, when compiled)
    give the walk's tallies and nodes, on restricted rows, classifying or not."""
    import random

    from nqueens_cp.engines import kernel

    rng = random.Random(11)
    for n in range(1, 13):
        full = (1 << n) - 1
        cases = [[full] * n, [full] * (n - 1) + [1], [0] + [full] * (n - 1)]
        cases += [[full & ~(rng.getrandbits(n) & rng.getrandbits(n)) for _ in range(n)] for _ in range(25)]
        for allowed in cases:
            plain, classes = kernel.Walk(n, allowed), kernel.Walk(n, allowed, classify=True)
            plain.advance()
            classes.advance()
            assert kernel.count(n, allowed) == (plain.found, plain.nodes)
            assert kernel.count_classes(n, allowed) == (*classes.tallies, classes.nodes)
        assert kernel.count(n, [full] * n)[0] == TOTAL[n]


def test_many_boards_in_the_vector_lanes_agree_with_one_count_each() -> None:
    """kernel.count_boards (count_lanes: four boards at once, one per vector
    lane) gives the sums of count_tied and count_classes board by board:
    solutions, those on each board's tie square, nodes, classes of 8, 4, 2;
    for lists of any length (lanes left idle), plain and classified boards
    mixed, boards with an empty row, and sizes past the lanes' 32 columns."""
    import random

    from nqueens_cp.engines import kernel
    from nqueens_cp.engines.construct import construct

    def one_by_one(n: int, boards: list) -> tuple[int, ...]:
        sums = [0] * 6
        for allowed, tie, classify in boards:
            if classify:
                a, b, c, nodes = kernel.count_classes(n, allowed)
                parts = (0, 0, nodes, a, b, c)
            else:
                found, tied, nodes = kernel.count_tied(n, allowed, tie)
                parts = (found, tied, nodes, 0, 0, 0)
            sums = [x + y for x, y in zip(sums, parts)]
        return tuple(sums)

    rng = random.Random(23)
    assert kernel.count_boards(8, []) == (0,) * 6
    for n in [3, 4, 5, 6, 8, 9, 10, 11, 12, 31, 32, 33, 40]:
        full = (1 << n) - 1
        big = n > 12  # only a few rows open: a quick count
        for _ in range(3):
            boards = []
            for _ in range(rng.choice([1, 3, 4, 5, 9, 14])):
                if big:
                    board = construct(n)
                    allowed = [1 << c for c in board[:n - 7]] + [full & ~rng.getrandbits(n) | 1 << c for c in board[n - 7:]]
                else:
                    allowed = [full & ~(rng.getrandbits(n) & rng.getrandbits(n)) for _ in range(n)]
                    if rng.random() < 0.15:
                        allowed[rng.randrange(n)] = 0
                classify = rng.random() < 0.4
                boards.append((allowed, 1 << rng.randrange(n) if not classify and rng.random() < 0.7 else 0, classify))
            expected = one_by_one(n, boards)
            assert kernel.count_boards(n, boards) == expected
            assert not big or expected[0] + sum(expected[3:]) > 0
    # Whole boards: every solution counted, every class found once.
    full = (1 << 10) - 1
    assert kernel.count_boards(10, [([full] * 10, 0, False)] * 5)[0] == 5 * TOTAL[10]
    whole = kernel.count_boards(10, [([full] * 10, 0, True)] * 3)
    assert whole[3:] == tuple(3 * x for x in kernel.count_classes(10, [full] * 10)[:3])
    assert 3 * TOTAL[10] == sum(size * count for size, count in zip((8, 4, 2), whole[3:])) // 2  # turns only: half the group
    with pytest.raises(ValueError, match="n masks"):
        kernel.count_boards(8, [([255] * 7, 0, False)])


def test_a_walk_stops_at_its_limit_with_the_solution_on_the_board() -> None:
    from nqueens_cp.board import is_solution
    from nqueens_cp.engines import kernel

    walk = kernel.Walk(8, [255] * 8)
    seen = []
    while not walk.advance(limit=1):
        seen.append(walk.solution())
    assert len(seen) == walk.found == 92 and len(set(seen)) == 92 and all(is_solution(s, 8) for s in seen)
    assert seen == sorted(seen)  # the loop's order: lowest column first, row by row
    budget = kernel.Walk(12, [4095] * 12)
    steps, before = 0, 0
    while not budget.advance(nodes=10_000):
        steps += 1
        assert budget.nodes - before in (10_000, 10_001)  # (a last row is placed with the row above it)
        before = budget.nodes
    assert budget.found == TOTAL[12] and steps == budget.nodes // 10_000 == kernel.count(12, [4095] * 12)[1] // 10_000


def test_compiled_loop_refuses_what_does_not_fit_64_bits() -> None:
    from nqueens_cp.engines import kernel

    with pytest.raises(ValueError, match="n masks"):
        kernel.Walk(4, [1, 2])
    # Beyond 62 rows the twin runs on Python's unbounded integers.
    assert kernel.Walk(63, [(1 << 63) - 1] * 63)._loop is None
    assert kernel.count(4, [15] * 4)[0] == 2


def test_a_loop_that_does_not_compile_falls_back_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    from nqueens_cp.engines import kernel

    if importlib.util.find_spec("llvmlite") is None:
        pytest.skip("llvmlite is not installed: nothing to compile")
    monkeypatch.setattr(kernel, "ir", lambda: "define i64 @count_masks( {")
    kernel.compiled.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="cannot compile the counting loop"):
            assert kernel.compiled() is None
        assert kernel.count(8, [255] * 8)[0] == 92  # the twin answers instead
    finally:
        kernel.compiled.cache_clear()


def test_the_loop_is_compiled_on_first_use_not_at_import() -> None:
    import subprocess
    import sys

    code = ("import sys, nqueens_cp as nq; from nqueens_cp.engines import kernel; "
            "assert kernel.compiled.cache_info().currsize == 0 and 'llvmlite' not in sys.modules; "
            "nq.count(8); print(kernel.kind())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() in ("llvm", "python")


def _compile_in_a_process(cache: str) -> tuple[str, int]:
    """(where the loops came from, count 10) in a fresh process with
    NQUEENS_CP_CACHE=cache: 'compiled', 'object' (the cached object code,
    through LLVM) or 'linked' (the cached shared library, LLVM not imported)."""
    import os
    import subprocess
    import sys

    code = ("import sys; from nqueens_cp.engines import kernel; import nqueens_cp as nq; loops = kernel.compiled(); "
            "assert loops.linked == ('llvmlite.binding' not in sys.modules); "
            "print('linked' if loops.linked else 'object' if loops.cached else 'compiled', nq.count(10, jobs=1))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "NQUEENS_CP_CACHE": cache})
    source, count = out.stdout.split()
    return source, int(count)


def test_compiled_code_is_cached_between_processes_and_a_damaged_file_is_never_run(tmp_path) -> None:
    import shutil
    import sys

    if importlib.util.find_spec("llvmlite") is None:
        pytest.skip("llvmlite is not installed: nothing to compile or cache")
    cache = tmp_path / "cache"
    assert _compile_in_a_process(str(cache)) == ("compiled", TOTAL[10])  # compiled, then written
    (path,) = cache.glob("*.o")
    linking = sys.platform.startswith("linux") and shutil.which("cc") is not None
    if linking:  # and linked into a library, loaded next time without LLVM
        (library,) = cache.glob("*.so")
        assert _compile_in_a_process(str(cache)) == ("linked", TOTAL[10])
        for damaged in (library, library.with_suffix(".so.sha256")):
            data = bytearray(damaged.read_bytes())
            data[len(data) // 2] ^= 0xFF
            damaged.write_bytes(bytes(data))
            assert _compile_in_a_process(str(cache)) == ("object", TOTAL[10])  # not believed: LLVM loads the object
            assert _compile_in_a_process(str(cache)) == ("linked", TOTAL[10])  # and the library was linked again
        library.unlink()
    assert _compile_in_a_process(str(cache)) == ("object", TOTAL[10])  # read back
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte of the machine code damaged
    path.write_bytes(bytes(data))
    if linking:
        cache.joinpath(library.name).unlink()
    assert _compile_in_a_process(str(cache)) == ("compiled", TOTAL[10])  # not believed: compiled again
    assert _compile_in_a_process(str(cache)) == ("linked" if linking else "object", TOTAL[10])  # and mended
    # No cache, or one that cannot be written: compiled every time, same answer.
    assert _compile_in_a_process("0") == ("compiled", TOTAL[10])
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert _compile_in_a_process(str(blocker / "cache")) == ("compiled", TOTAL[10])
    assert _compile_in_a_process(str(blocker / "cache")) == ("compiled", TOTAL[10])


def test_without_a_linker_the_object_code_is_still_cached(tmp_path) -> None:
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("llvmlite") is None:
        pytest.skip("llvmlite is not installed: nothing to compile or cache")
    cache = tmp_path / "cache"
    env = {**os.environ, "NQUEENS_CP_CACHE": str(cache), "PATH": str(tmp_path / "nothing-here")}
    code = "import nqueens_cp as nq; print(nq.count(9, jobs=1))"
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
        assert out.stdout.split() == [str(TOTAL[9])]
    assert [p.suffix for p in cache.iterdir()] == [".o"]


def test_bitmask_count_without_the_compiled_loop_is_the_same() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "NQUEENS_CP_NO_JIT": "1"}
    out = subprocess.run([sys.executable, "-m", "nqueens_cp", "count", "11", "--jobs", "1", "--stats"],
                         capture_output=True, text=True, env=env, check=True)
    assert out.stdout == "2680\n" and "kernel=python" in out.stderr
