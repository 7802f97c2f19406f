"""The C searches (nqueens_cp/kernel) against their Python twin, the
published counts, and the sanitizers; and the install without a compiler."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import cpu_flags
from nqueens_cp import kernel
from nqueens_cp.kernel import twin_decide, twin_join, twin_repair
from nqueens_cp.model.board import is_solution
from nqueens_cp.engines.construct import construct
from nqueens_cp.known import TOTAL
from nqueens_cp.model.variants import KNIGHT, PLACE, VARIANTS
from nqueens_cp.studies.completion import generate

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "nqueens_cp" / "kernel"
COMPILER = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")

needs_compiled = pytest.mark.skipif(
    not kernel.compiled(), reason="the compiled search is not built here (no C compiler at install): "
    "nothing to compare the twin with")


def test_the_compiled_search_is_built_wherever_there_is_a_compiler() -> None:
    """The extension is optional at install, so a broken build would pass
    unseen but for this: with a C compiler here, it must have been built."""
    if COMPILER is None:
        pytest.skip("no C compiler here: the twin runs, as designed")
    assert kernel.kind() == "c"


def test_the_compiled_search_is_no_older_than_its_sources() -> None:
    """A rebuild (pip install -e .) whose compile fails keeps the module built
    before, the extension being optional, and says so only in pip's output:
    the suite would then test the code before the edit.  So the module must
    be newer than every C source and header it is built from."""
    if not kernel.compiled():
        pytest.skip("the compiled search is not built here: the twin runs")
    built = Path(kernel._module().__file__).stat().st_mtime
    stale = sorted(path.name for path in SOURCES.glob("*.[ch]") if path.stat().st_mtime > built)
    assert not stale, (f"the compiled module is older than {', '.join(stale)}: rebuild it (pip install -e .), "
                       "and if it stays older, read the compiler's errors (pip install -e . -v)")


def _random_masks(rng: random.Random, n: int) -> list[int]:
    full = (1 << n) - 1
    return [full & ~(rng.getrandbits(n) & rng.getrandbits(n)) for _ in range(n)]


def _cases(rng: random.Random, n: int, many: int) -> list[list[int]]:
    full = (1 << n) - 1
    cases = [[full] * n, [1 << (n // 2)] + [full] * (n - 1), [full] * (n - 1) + [1], [0] + [full] * (n - 1)]
    return cases + [_random_masks(rng, n) for _ in range(many)]


def _walks(n: int, allowed: list[int], classify: bool, plan: list[tuple[int, int]], compiled: bool) -> list:
    """The states a walk passes through, advanced by (limit, nodes) steps."""
    walk = kernel.Walk(n, allowed, classify, compiled=compiled)
    assert walk.compiled == compiled
    seen = []
    for limit, nodes in plan:
        done = walk.advance(limit=limit, nodes=nodes)
        seen.append((walk.tallies, walk.nodes, walk.solution() if limit and not done else None, done))
        if done:
            break
    return seen


@needs_compiled
def test_walks_in_c_and_in_the_twin_pass_through_the_same_states() -> None:
    """Counts, classes, nodes and the solution at every stop, with restricted
    rows, limits and node budgets."""
    rng = random.Random(5)
    for n in range(1, 12):
        for allowed in _cases(rng, n, 20):
            classify = rng.random() < 0.3
            plan = [(rng.choice([0, 1, 2]), rng.choice([0, 1, 3, 50])) for _ in range(60)] + [(0, 0)]
            assert _walks(n, allowed, classify, plan, True) == _walks(n, allowed, classify, plan, False)
        assert _walks(n, [(1 << n) - 1] * n, False, [(0, 0)], True)[-1][0][0] == TOTAL[n]
    # Masks wider than 32 bits: a 60-queens board with its last six rows open.
    allowed = [1 << c for c in construct(60)[:54]] + [(1 << 60) - 1] * 6
    expected = _walks(60, allowed, False, [(1, 0), (0, 0)], False)
    assert expected[0][0][0] == 1 and _walks(60, allowed, False, [(1, 0), (0, 0)], True) == expected


@needs_compiled
def test_whole_counts_in_c_equal_the_twin_in_tallies_and_nodes() -> None:
    """count_tree (recursion) against the twin's walk: solutions, classes,
    nodes and the solutions on a tie square, on random sub-boards."""
    rng = random.Random(11)
    for n in range(1, 13):
        for allowed in _cases(rng, n, 25 if n <= 10 else 5):  # (the twin's walk of 11 and 12: most of the test's time)
            classify, tie = rng.random() < 0.4, 1 << rng.randrange(n)
            expected = kernel.count(n, allowed, classify, tie, compiled=False)
            assert kernel.count(n, allowed, classify, tie) == expected
        assert kernel.count(n, [(1 << n) - 1] * n).found == TOTAL[n]


@needs_compiled
def test_many_boards_in_the_vector_lanes_equal_one_count_each() -> None:
    """count_boards (eight boards or more: a board per vector lane; fewer: the
    recursion) sums the twin's counts board by board: lists of any length
    (lanes left idle), plain and
    classified boards mixed, boards with an empty row, and wide boards."""
    rng = random.Random(23)
    assert kernel.count_boards(8, []) == (0,) * 5
    for n in [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 31, 32, 33, 40, 62]:
        full = (1 << n) - 1
        big = n > 12  # only a few rows open: a quick count
        for _ in range(3 if n <= 10 or big else 1):  # (the twin's counts of 11 and 12: most of the test's time)
            boards = []
            for _ in range(rng.choice([1, 3, 4, 5, 9, 14])):
                if big:
                    board = construct(n)
                    allowed = [1 << c for c in board[:n - 7]] + [full & ~rng.getrandbits(n) | 1 << c
                                                                 for c in board[n - 7:]]
                else:
                    allowed = _random_masks(rng, n)
                    if rng.random() < 0.15:
                        allowed[rng.randrange(n)] = 0
                classify = rng.random() < 0.4
                boards.append((allowed, 1 << rng.randrange(n) if rng.random() < 0.7 else 0, classify))
            expected = kernel.count_boards(n, boards, compiled=False)
            assert expected == tuple(map(sum, zip(*(kernel.count(n, a, c, t, compiled=False) for a, t, c in boards))))
            assert kernel.count_boards(n, boards) == expected
            assert not big or expected.found > 0 or all(classify for _, _, classify in boards)
    # Whole boards: every solution counted, every class found once.
    full = (1 << 10) - 1
    assert kernel.count_boards(10, [([full] * 10, 0, False)] * 5).eight == 5 * TOTAL[10]
    whole = kernel.count_boards(10, [([full] * 10, 0, True)] * 3)
    assert whole[:3] == tuple(3 * x for x in kernel.count(10, [full] * 10, classify=True)[:3])
    assert 3 * TOTAL[10] == (8 * whole.eight + 4 * whole.four + 2 * whole.two) // 2  # turns only: half the group
    with pytest.raises(ValueError, match="n masks"):
        kernel.count_boards(8, [([255] * 7, 0, False)])


def _brute_half_turn(n: int, allowed: list[int]) -> int:
    from itertools import permutations

    return sum(1 for q in permutations(range(n)) if is_solution(q, n)
               and all(q[n - 1 - r] == n - 1 - q[r] and allowed[r] >> q[r] & 1 for r in range(n)))


def test_the_half_turn_search_in_c_and_python_agrees_with_brute_force() -> None:
    rng = random.Random(3)
    for n in range(2, 9):
        for allowed in _cases(rng, n, 8):
            expected = _brute_half_turn(n, allowed)
            assert kernel.count_half_turn(n, allowed, compiled=False) == expected
            assert kernel.count_half_turn(n, allowed) == expected
    for n in range(9, 15):
        allowed = _random_masks(rng, n)
        assert kernel.count_half_turn(n, allowed) == kernel.count_half_turn(n, allowed, compiled=False)


def test_a_walk_stops_at_its_limit_with_the_solution_on_the_board() -> None:
    walk = kernel.Walk(8, [255] * 8)
    seen = []
    while not walk.advance(limit=1):
        seen.append(walk.solution())
    assert len(seen) == walk.found == 92 and len(set(seen)) == 92 and all(is_solution(s, 8) for s in seen)
    assert seen == sorted(seen)  # the search's order: lowest column first, row by row
    budget = kernel.Walk(12, [4095] * 12)
    steps, before = 0, 0
    while not budget.advance(nodes=10_000):
        steps += 1
        assert budget.nodes - before in (10_000, 10_001)  # (a last row is placed with the row above it)
        before = budget.nodes
    assert budget.found == TOTAL[12] and steps == budget.nodes // 10_000 == kernel.count(12, [4095] * 12).nodes // 10_000


def test_boards_wider_than_a_word_run_in_the_twin() -> None:
    with pytest.raises(ValueError, match="n masks"):
        kernel.Walk(4, [1, 2])
    wide = kernel.Walk(63, [1 << c for c in construct(63)])
    assert not wide.compiled and not wide.advance(limit=1) and wide.found == 1
    assert kernel.count(63, [1 << c for c in construct(63)]).found == 1
    assert kernel.count(4, [15] * 4).found == 2


# --- the C code under the sanitizers -------------------------------------------------------------

def _driver_input(rng: random.Random) -> tuple[str, list[str]]:
    """Commands for tests/c/driver.c and the answers the twin gives."""
    lines, answers = [], []

    def tallies(t) -> str:
        return " ".join(map(str, t))

    for n in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 33, 62]:
        full = (1 << n) - 1
        for _ in range(4 if n <= 10 else 1):
            if n > 10:  # a wide board with its last rows open: quick
                allowed = [1 << c for c in construct(n)[:n - 6]] + [full] * 6
            else:
                allowed = _random_masks(rng, n)
            classify, tie = int(rng.random() < 0.4), 1 << rng.randrange(n)
            lines.append(f"tree {n} {classify} {tie} {' '.join(map(str, allowed))}")
            answers.append(tallies(kernel.count(n, allowed, bool(classify), tie, compiled=False)))
            limit, budget = rng.choice([0, 1, 3]), rng.choice([0, 7, 100])
            walk = kernel.Walk(n, allowed, bool(classify), compiled=False)
            calls = 1
            while not walk.advance(limit, budget):
                calls += 1
            lines.append(f"walk {n} {classify} 0 {limit} {budget} {' '.join(map(str, allowed))}")
            answers.append(f"{tallies((*walk.tallies, walk.nodes, 0))} {calls}")
        boards = [(allowed, 1 << rng.randrange(n), rng.random() < 0.4) for allowed in
                  ([_random_masks(rng, n) for _ in range(rng.choice([1, 5, 9]))] if n <= 10 else
                   [[1 << c for c in construct(n)[:n - 6]] + [full] * 6])]
        words = [w for allowed, tie, classify in boards for w in (*allowed, tie, int(classify))]
        lines.append(f"boards {n} {len(boards)} {' '.join(map(str, words))}")
        answers.append(tallies(kernel.count_boards(n, boards, compiled=False)))
    members = [VARIANTS[name] for name in PLACE]  # (every member that places pieces, from the family's data)
    for n in [1, 2, 5, 7, 9, 11]:  # the one walk over every member's descriptor
        for member in members:
            if n == 11 and member.known.get(n, 0) > 10**6:  # (rooks' 11! boards: the twin's walk took 25 s; 9! do)
                continue
            allowed = _random_masks(rng, n)
            limit, budget = rng.choice([0, 1, 3]), rng.choice([0, 7, 100])
            family = kernel.FamilyWalk(n, member, allowed, compiled=False)
            calls = 1
            while not family.advance(limit, budget):
                calls += 1
            words = [n, *kernel.family_words(n, member), limit, budget, *allowed]
            lines.append("family " + " ".join(map(str, words)))
            answers.append(f"{family.found} {family.nodes} {calls}")
    for n in range(2, 12):
        allowed = _random_masks(rng, n)
        lines.append("half " + _half_turn_arguments(n, allowed))
        answers.append(str(kernel.count_half_turn(n, allowed, compiled=False)))
    for n in [1, 2, 3, 5, 8, 12, 63, 64, 65, 130]:  # the decision search: one word, several, a part of one
        for flags in (0b111, 0b011, 0b000) if n <= 12 else (0b111,):
            allowed = _random_masks(rng, n) if n <= 12 else None
            seed, budget = rng.getrandbits(64), rng.choice([0, 5, 40])
            search = twin_decide.Decide(n, allowed, seed, flags)
            calls = 1
            while not search.advance(budget):
                calls += 1
            words = (n + 63) // 64
            packed = [mask >> (64 * w) & (2**64 - 1) for mask in allowed for w in range(words)] if allowed else []
            lines.append(f"decide {n} {seed} {flags} {budget} {int(allowed is not None)} {' '.join(map(str, packed))}")
            answers.append(" ".join(map(str, [search.state, search.nodes, search.run, calls,
                                              *(search.solution() if search.found else ())])))
    for n, down, up, offsets in [(1, 1, 1, ()), (8, 1, 1, ()), (40, 1, 1, ()), (30, 1, 1, KNIGHT),
                                 (20, 0, 0, ()), (25, 0, 1, ((1, 2),)), (200, 1, 1, ())]:
        fixed = sorted(generate(n, n // 10, seed=n).items()) if n >= 8 and not offsets else []
        blocked = sorted({rng.randrange(n * n) for _ in range(n // 4)} - {r * n + c for r, c in fixed})
        seed, budget = rng.getrandbits(64), rng.choice([1, 50, 1000])
        search = twin_repair.Repair(n, down, up, offsets, fixed, blocked, seed)
        calls = 1
        while search.advance(budget) != twin_repair.FOUND and calls < 100:
            calls += 1
        words = [n, down, up, seed, budget, len(offsets), *(x for p in offsets for x in p),
                 len(fixed), *(x for p in fixed for x in p), len(blocked), *blocked]
        lines.append("repair " + " ".join(map(str, words)))
        answers.append(" ".join(map(str, [search.state, search.swaps, search.moves, search.restarts, search.attacked,
                                          calls, *search.q])))
    join_lines, join_answers = _join_input()
    return "\n".join(lines + join_lines) + "\n", answers + join_answers


# join.c: the dense buckets' rule for lists of any length (the twin's dense_list=0), every bucket of the
# longer list kept dense, however small, and chunks of DENSE_WIDE bits from three chunks of six (dense.h), so
# that the AVX-512 loops of all three widths run at these N (DENSE_MID's where others of 7 bits take one chunk
# of 7, not two of 6: a mutant in their sums fails the driver)
DENSE_C_FLAGS = ("-DDENSE_MIN=1", "-DJOIN_DENSE_LIST=0", "-DDENSE_WIDE_FROM=3")


def _join_input() -> tuple[list[str], list[str]]:
    """The driver's join commands (join.c's count by quarters) and the twin's
    answers: an even and an odd N, every way of cutting the join, lists in
    pieces.  The driver is built with DENSE_MIN=1 and JOIN_DENSE_LIST=0
    (DENSE_C_FLAGS), so that every bucket of the longer list is matched
    through its dense words: at these N no list reaches the 512 keys, nor
    a bucket the 64, that make them dense otherwise; and with
    DENSE_WIDE_FROM=3, so that joins whose others take three chunks of six
    bits or more are cut in chunks of eight, as N = 22's of six are.  At
    those N every bucket's keys fit in a half batch of dense words; N = 16's
    longest lists (row sets 2231 and 2232, 7,154 halves), in buckets of
    about 1,024 and 4,096 keys, make whole batches, one to several a bucket,
    an odd one with a half one after it or alone."""
    lines, answers = [], []
    for n, x, y in ((10, -1, -1), (11, 5, 5), (11, 0, 2), (13, 1, 9)):
        table, ranks = twin_join.table(n // 2), twin_join.row_sets(n, x, y)
        for first, last, cap, direct, small, bucket in (
                (0, ranks, 1, 0, 0, 1), (3, ranks // 2, 1 << 10, 0, 4, 4), (0, ranks, 1 << 16, 0, 0, 64),
                (0, ranks, 1 << 16, twin_join.DIRECT, twin_join.SMALL, twin_join.BUCKET)):
            lines.append(f"join {n} {x + 1} {y + 1} {first} {last} {cap} {direct} {small} {bucket}")
            answers.append(" ".join(map(str, twin_join.join_count(table, n, x, y, first, last, cap, direct, small,
                                                                  bucket, dense_list=0))))
    table = twin_join.table(8)
    for bucket in (1024, 4096):
        lines.append(f"join 16 0 0 2231 2233 {1 << 16} 0 0 {bucket}")
        answers.append(" ".join(map(str, twin_join.join_count(table, 16, -1, -1, 2231, 2233, 1 << 16, 0, 0, bucket,
                                                              dense_list=0))))
    return lines, answers


def _half_turn_arguments(n: int, allowed: list[int]) -> str:
    """What kernel.count_half_turn hands the C search, as driver words."""
    captured = {}

    class Spy:
        @staticmethod
        def count_half_turn(n, masks, cols, diag, anti):
            captured.update(masks=list(masks), cols=cols, diag=diag, anti=anti)
            return 0

    real = kernel.loader.chosen
    kernel.loader.chosen = lambda *args: Spy  # type: ignore[assignment]
    try:
        kernel.count_half_turn(n, allowed)
    finally:
        kernel.loader.chosen = real  # type: ignore[assignment]
    if not captured:  # (an odd board whose centre is not allowed: no search)
        captured.update(masks=[0] * (n // 2), cols=0, diag=0, anti=0)
    return f"{n} {captured['cols']} {captured['diag']} {captured['anti']} {' '.join(map(str, captured['masks']))}"


def _address_space_limit() -> int | None:
    """The address-space limit of this process (ulimit -v), if one is set."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def test_the_c_searches_run_clean_under_address_and_undefined_behaviour_sanitizers(tmp_path: Path) -> None:
    if COMPILER is None:
        pytest.skip("no C compiler here to build the sanitized driver")
    if _address_space_limit() is not None:  # AddressSanitizer reserves terabytes of address space at start
        pytest.skip(f"an address-space limit is set (ulimit -v: {_address_space_limit():,} bytes), and "
                    "AddressSanitizer cannot start under one")
    binary = tmp_path / "driver"
    # (-g1: the line tables that a report's frames are named by, without the types and variables of -g, which
    # took the build 23.8 s where this takes 13.9 on a Zen 3: the suite's longest test)
    build = subprocess.run([COMPILER, "-O1", "-g1", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
                            "-fno-sanitize-recover=all", *DENSE_C_FLAGS, f"-I{SOURCES}", "-o", str(binary),
                            str(ROOT / "tests" / "c" / "driver.c"), str(SOURCES / "search.c"), str(SOURCES / "decide.c"),
                            str(SOURCES / "repair.c"), str(SOURCES / "join.c"), str(SOURCES / "dense.c")],
                           capture_output=True, text=True)
    if build.returncode and "sanitize" in build.stderr and "unrecognized" in build.stderr:
        pytest.skip(f"this compiler has no sanitizers: {build.stderr.strip()[:200]}")
    assert build.returncode == 0, build.stderr
    commands, answers = _driver_input(random.Random(17))
    run = subprocess.run([str(binary)], input=commands, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0"})
    assert run.returncode == 0 and run.stderr == "", run.stderr[-3000:]
    assert run.stdout.splitlines() == answers


def test_the_sanitizer_test_skips_with_its_reason_under_an_address_space_limit(tmp_path: Path) -> None:
    """It failed where ulimit -v was set (AddressSanitizer's shadow memory cannot be mapped)."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (16 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))

    test = "tests/test_kernel.py::test_the_c_searches_run_clean_under_address_and_undefined_behaviour_sanitizers"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-n", "0", "-p", "no:cacheprovider", test], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, preexec_fn=limited)
    assert "1 skipped" in run.stdout and "an address-space limit is set" in run.stdout, run.stdout[-2000:]


# --- without the compiled module ----------------------------------------------------------------

def _without_the_module(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    """Run python with the import of nqueens_cp.kernel._search failing, as
    where the package was installed without a compiler."""
    blocker = tmp_path / "blocker"
    blocker.mkdir(exist_ok=True)
    (blocker / "sitecustomize.py").write_text(
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'nqueens_cp.kernel._search':\n"
        "            raise ModuleNotFoundError(\"No module named 'nqueens_cp.kernel._search'\")\n"
        "sys.meta_path.insert(0, Block())\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)


def test_without_the_compiled_module_counts_are_right_and_the_first_says_why_once(tmp_path: Path) -> None:
    out = _without_the_module(["-m", "nqueens_cp", "count", "11", "--jobs", "1", "--stats"], tmp_path)
    assert out.returncode == 0 and out.stdout == "2680\n", out.stderr
    notes = [line for line in out.stderr.splitlines() if "compiled search" in line]
    assert len(notes) == 1 and "not built at install" in notes[0] and "C compiler" in notes[0], out.stderr
    assert "Traceback" not in out.stderr and "kernel=python" in out.stderr
    split = _without_the_module(["-m", "nqueens_cp", "solve", "20", "-e", "bitmask", "--jobs", "2"], tmp_path)
    assert split.returncode == 0 and split.stderr.count("compiled search is missing") == 1, split.stderr
    api = _without_the_module(["-c", "import nqueens_cp as nq, nqueens_cp.kernel as k; "
                               "print(nq.count(9), nq.count(8), k.kind())"], tmp_path)
    assert api.stdout.split() == [str(TOTAL[9]), str(TOTAL[8]), "python"], api.stderr
    assert api.stderr.count("compiled search is missing") == 1


def test_the_package_installs_and_counts_on_a_machine_without_a_c_compiler(tmp_path: Path) -> None:
    """pip builds the wheel with a compiler that always fails (CC=false): the
    install succeeds without the extension, and a count is right."""
    if shutil.which("false") is None:
        pytest.skip("no 'false' program to stand in for a broken compiler")
    wheels = tmp_path / "wheels"
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    # the sources alone: a checkout's own build/ (a wheel built there before) or in-place
    # module would otherwise be packed as they are
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.egg-info", "*.so",
                                                                "__pycache__", ".*_cache", ".hypothesis"))
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(source)],
                           capture_output=True, text=True, env=env, timeout=300)
    if build.returncode and "Could not find a version that satisfies" in build.stderr:
        pytest.skip(f"no package index to fetch the build requirements from: {build.stderr.strip()[-200:]}")
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not [name for name in names if name.endswith((".so", ".pyd"))]
        assert "nqueens_cp/kernel/queens.h" in names
        archive.extractall(tmp_path / "site")
    # A clean interpreter (no site: not this checkout's editable install) on the unpacked wheel.
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    out = subprocess.run([sys.executable, "-S", "-m", "nqueens_cp", "count", "10", "--jobs", "1"], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=120)
    assert out.returncode == 0 and out.stdout == f"{TOTAL[10]}\n", out.stderr
    assert "not built at install" in out.stderr


def test_the_twins_half_turn_search_stops_at_its_deadline() -> None:
    """(S180 under a time limit: the compiled search cannot stop, the twin reads the clock.)"""
    import time

    from nqueens_cp.errors import TimeLimitReached

    with pytest.raises(TimeLimitReached):
        kernel.count_half_turn(30, [(1 << 30) - 1] * 30, deadline=time.monotonic() - 1)


@needs_compiled
def test_the_binding_refuses_sizes_it_cannot_search() -> None:
    """Python code that calls the module wrongly gets a ValueError, never a
    crash (n = -2 once divided by zero in count_boards)."""
    from array import array

    from nqueens_cp.kernel import _search

    for n in (-2, 0, 63):
        with pytest.raises(ValueError, match="n must be within 1..62"):
            _search.count_boards(n, array("q", [0] * 10))
        with pytest.raises(ValueError, match="n must be within 1..62"):
            _search.walk(n, array("q", [0] * 4), array("q"), array("q"), array("q"), 0, 0, 0, 0)
    with pytest.raises(ValueError, match="words of 8 bytes"):
        _search.count_boards(4, array("q", [15] * 5))



@needs_compiled
def test_the_layouts_python_shares_with_c_are_the_same_on_both_sides() -> None:
    """queens.h defines each shared layout once (OUT_*, ROW_*, BOARD_*) and
    the module exports them; the twin's LAYOUT must say the same, word for word."""
    from nqueens_cp.kernel import _search, twin

    assert {name: getattr(_search, name) for name in twin.LAYOUT} == twin.LAYOUT
    # ... and the other way: every layout the module exports is the twin's (the decision search's
    # DECIDE_* are twin_decide's, tests/test_decision.py; REPAIR_* twin_repair's, tests/test_repair.py;
    # JOIN_* twin_join's, tests/test_join.py; the two maxima are checked here and there)
    exported = {name for name in dir(_search) if name.isupper() and isinstance(getattr(_search, name), int)}
    assert {name for name in exported - set(twin.LAYOUT) if not name.startswith(("DECIDE_", "REPAIR_", "JOIN_"))} == \
        {"MAX_N", "DOMINATE_MAX_N"}
    assert _search.MAX_N == kernel.MAX_N
    # and the rules' own numbering: the tallies first, the row last
    assert [twin.EIGHT, twin.FOUR, twin.TWO, twin.NODES, twin.TIED, twin.ROW] == list(range(twin.OUT_WORDS))


@pytest.mark.parametrize("damage", ["truncated", "junk"])
def test_a_damaged_compiled_module_falls_back_with_one_warning_instead_of_crashing(tmp_path: Path,
                                                                                   damage: str) -> None:
    """A copy of the package whose compiled module is cut short (the loader
    would map past its end: SIGBUS, exit 135) or is junk counts in Python."""
    import importlib.util
    import shutil

    origin = Path(importlib.util.find_spec("nqueens_cp.kernel._search").origin)
    copy = tmp_path / "nqueens_cp"
    shutil.copytree(ROOT / "nqueens_cp", copy, ignore=shutil.ignore_patterns("__pycache__"))
    data = origin.read_bytes()
    (copy / "kernel" / origin.name).write_bytes(data[:len(data) // 2] if damage == "truncated" else b"junk" * 100)
    result = subprocess.run([sys.executable, "-c", "import nqueens_cp as nq; print(nq.count(9))"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert (result.returncode, result.stdout) == (0, f"{TOTAL[9]}\n"), result.stderr
    assert result.stderr.count("compiled search is missing") == 1
    assert damage != "truncated" or "is cut short" in result.stderr


@pytest.mark.parametrize("build", ["JOIN_PORTABLE", "JOIN_AVX2"])
def test_the_join_counts_the_same_on_its_other_loops(tmp_path: Path, build: str) -> None:
    """join.c and dense.c list, bucket and test their pairs with AVX-512
    written by hand where the CPU has it, else with AVX2 written by hand,
    else with the compiler's loops (`tested_portable`, `dense_portable`); the
    suite's other tests run the CPU's own.  These builds run the others, on
    the sanitizer test's join commands, against the twin: JOIN_PORTABLE
    (nothing x86-specific, no clones either, as on another architecture) the
    compiler's, and JOIN_AVX2 AVX2's, which a CPU with AVX-512 would not
    otherwise take."""
    if COMPILER is None:
        pytest.skip("no C compiler here to build the driver")
    if build == "JOIN_AVX2" and not {"avx2", "bmi2"} <= (cpu_flags() or set()):
        pytest.skip("this CPU has no AVX2 and BMI2 (or Linux's /proc/cpuinfo cannot say), so the AVX2 loops cannot run here")
    if build == "JOIN_AVX2" and kernel.join_loops() == "avx2":
        pytest.skip("this CPU joins with the AVX2 loops already: the sanitized driver and the suite's other tests "
                    "run them here")
    binary = tmp_path / "driver"
    build_run = subprocess.run([COMPILER, "-O2", f"-D{build}", *DENSE_C_FLAGS, f"-I{SOURCES}", "-o", str(binary),
                                str(ROOT / "tests" / "c" / "driver.c"), str(SOURCES / "search.c"), str(SOURCES / "decide.c"),
                                str(SOURCES / "repair.c"), str(SOURCES / "join.c"), str(SOURCES / "dense.c")],
                               capture_output=True, text=True)
    assert build_run.returncode == 0, build_run.stderr
    lines, answers = _join_input()
    run = subprocess.run([str(binary)], input="".join(line + "\n" for line in lines), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0 and run.stderr == "", run.stderr[-3000:]
    assert run.stdout.splitlines() == answers
