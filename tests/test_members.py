"""Every question a user can declare, against a brute force written here.

Members of the family are drawn by Hypothesis from the whole space that
``family()`` accepts: the columns with any of the two diagonal directions,
each wrapping or not, and offsets reaching up to N - 1 rows and columns
(sets that no symmetry keeps among them), with pre-placed queens and
blocked squares.  The oracle reads only the member's data: it computes the
attack relation from the definition, the boards by a search of its own, and
which of the square's maps keep the question by trying every pair of
squares.  Each drawn question goes through every engine that accepts it and
every path a user can take: count, solutions as exact sets, ``unique``
(classes against the oracle's orbits), a split search (mirror-halved and
translated where the question keeps those), two processes, a Dask cluster,
certify and verify, and the DIMACS file through picosat and ``decode``.

The suite runs a fixed seed and a few hundred examples; ``python
benchmarks/soak.py --factor K`` runs K times as many, drawn afresh (a soak,
run before an issue on symmetry is resolved).
"""

from __future__ import annotations

import operator
from functools import lru_cache
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import nqueens_cp as nq
from conftest import SOAK, program, run_program
from nqueens_cp import engine_class, names
from nqueens_cp.execution import plan as planning
from nqueens_cp.model.question import question
from nqueens_cp.model.symmetry import SQUARE_MAPS, kept
from nqueens_cp.model.variants import COLUMNS, Lines, Variant, family

def examples(count: int) -> settings:
    """``count`` examples from a fixed seed (derandomized); in a soak, K times as
    many, drawn afresh (a failure prints the seed that gives it again:
    ``--hypothesis-seed``)."""
    return settings(max_examples=count * SOAK, derandomize=SOAK == 1, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# --- the oracle: the definition, nothing of the package's ------------------------------------

def attacks(member: Variant, n: int, a: tuple[int, int], b: tuple[int, int]) -> bool:
    (r1, c1), (r2, c2) = a, b
    if r1 == r2:
        return True
    for line in member.families:
        x, y = c1 + line.slope * r1, c2 + line.slope * r2
        if ((x - y) % n == 0) if line.wraps else x == y:
            return True
    d = (r2 - r1, c2 - c1)
    return d in member.offsets or (-d[0], -d[1]) in member.offsets


def boards(member: Variant, n: int, fixed: tuple[tuple[int, int], ...] = (),
           blocked: tuple[tuple[int, int], ...] = ()) -> frozenset[tuple[int, ...]]:
    """Every board, by a search row by row that tries each square against every piece placed."""
    return _boards(member.families, member.offsets, n, fixed, blocked)


@lru_cache(maxsize=None)
def _boards(families, offsets, n, fixed, blocked) -> frozenset[tuple[int, ...]]:
    member = family("oracle", families, offsets)
    # hit[r][c][r2]: the columns of row r2 > r that a piece on (r, c) attacks, by the definition
    hit = [[[sum(1 << c2 for c2 in range(n) if attacks(member, n, (r, c), (r2, c2))) for r2 in range(n)]
            for c in range(n)] for r in range(n)]
    allowed = [(1 << dict(fixed)[r]) if r in dict(fixed) else (1 << n) - 1 for r in range(n)]
    for r, c in blocked:
        allowed[r] &= ~(1 << c)
    found = []

    def place(row: int, cols: list[int], free: list[int]) -> None:
        if row == n:
            found.append(tuple(cols))
            return
        for c in range(n):
            if free[row] >> c & 1:
                place(row + 1, [*cols, c], [free[r2] & ~hit[row][c][r2] for r2 in range(n)])

    place(0, [], allowed)
    return frozenset(found)


def keeps(member: Variant, n: int, name: str, fixed=(), blocked=()) -> bool:
    """Whether the map of that name keeps the question: every pair of squares, and the placements."""
    image = SQUARE_MAPS[name]
    squares = [(r, c) for r in range(n) for c in range(n)]
    if {image(n, *s) for s in fixed} != set(fixed) or {image(n, *s) for s in blocked} != set(blocked):
        return False
    return all(attacks(member, n, a, b) == attacks(member, n, image(n, *a), image(n, *b))
               for i, a in enumerate(squares) for b in squares[i + 1:])


def image_board(name: str, board: tuple[int, ...]) -> tuple[int, ...]:
    n = len(board)
    cols = [0] * n
    for r, c in enumerate(board):
        r2, c2 = SQUARE_MAPS[name](n, r, c)
        cols[r2] = c2
    return tuple(cols)


def orbits(found: frozenset[tuple[int, ...]], maps: list[str]) -> set[tuple[int, ...]]:
    """One board per class under ``maps``: the least of each."""
    return {min(image_board(name, b) for name in maps) for b in found}


# --- the draws --------------------------------------------------------------------------------

@st.composite
def members(draw: st.DrawFn, reach: int = 11, lines: list[Lines] | None = None) -> Variant:
    """A member from the whole vocabulary: the columns, each diagonal direction
    (wrapping or not) or none, and 0 to 3 offsets reaching up to ``reach``."""
    if lines is None:
        lines = [COLUMNS] + [Lines(slope, draw(st.booleans())) for slope in (-1, 1) if draw(st.booleans())]
    offsets = draw(st.lists(st.tuples(st.integers(1, reach), st.integers(-reach, reach).filter(bool)),
                            max_size=3, unique=True))
    return family("drawn", lines, offsets)


def largest(lines: list[Lines]) -> int:
    """The largest N the oracle's search takes in well under a second, and the engines with it."""
    return {1: 6, 2: 7, 3: 9}[len(lines)]


@st.composite
def questions(draw: st.DrawFn, placements: bool = False) -> tuple[Variant, int, tuple, tuple]:
    """(member, N, pre-placed queens, blocked squares): N up to what the oracle
    searches quickly, offsets reaching up to N - 1 rows and columns (the far
    ones are where a symmetry sampled on small boards went wrong)."""
    lines = [COLUMNS] + [Lines(slope, draw(st.booleans())) for slope in (-1, 1) if draw(st.booleans())]
    n = draw(st.integers(1, largest(lines)))
    member = draw(members(reach=max(1, n - 1), lines=lines))
    fixed: tuple = ()
    blocked: tuple = ()
    if placements and n > 1:
        square = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
        fixed = tuple(sorted(dict(draw(st.lists(square, max_size=1))).items()))
        blocked = tuple(sorted(set(draw(st.lists(square, max_size=2))) - set(fixed)))
    return member, n, fixed, blocked


FAR = family("far", [COLUMNS, Lines(-1), Lines(1)], [(8, 1)])  # the issue's: 1916 boards at N = 11, 9466 at 12


def answering(member: Variant, *, enumerates: bool | None = None, boards: int = 0, programs: bool = False,
              seconds: float = 0.25) -> list[str]:
    """The engines installed here that accept the member (from their own data),
    but those that would take more than ``seconds`` for that many ``boards`` by
    their own rate, and (unless ``programs``) those that run external programs,
    which a few draws cover (test_two_processes_and_the_engines_that_run_programs)."""
    found = []
    for name in names(counts=True):
        cls = engine_class(name)
        rate = cls.enumeration_rate or cls.count_rate
        if cls.answers(member) and not cls.unavailable_reason() and (programs or not cls.programs) \
                and (enumerates is None or cls.enumerates == enumerates) and boards <= rate * seconds:
            found.append(name)
    return found


# --- the symmetries: exact at every N --------------------------------------------------------

@examples(200)
@given(members(reach=13), st.integers(1, 14), st.booleans())
@example(FAR, 11, False).via("the issue's member, whose mirror breaks at N = 9 and beyond")
def test_the_symmetries_are_exactly_those_that_keep_the_question(member, n, placed):
    fixed = ((0, n // 2),) if placed else ()
    found = kept(n, member.families, member.offsets, fixed, ())
    assert found == tuple(name for name in SQUARE_MAPS if keeps(member, n, name, fixed)), (member, n)
    assert found == question(n, dict(fixed), variant=member).symmetries


@examples(40)
@given(members(reach=30), st.integers(0, 25))
def test_the_algebra_beyond_the_window_agrees_with_the_window(member, above):
    from nqueens_cp.model import symmetry

    n = symmetry.ALGEBRA_FROM + 2 * 3 + 2 + above  # where the algebra answers for up to 3 offsets
    reach = [(dr, dc) for dr, dc in member.offsets if dr <= n - 1 and abs(dc) <= n - 1]
    assert symmetry._kept_by_algebra(n, member.families, reach) == symmetry._kept_on_window(n, member.families, reach)


# --- every engine, every path, against the oracle ---------------------------------------------

@examples(20)
@given(questions())
@example((FAR, 9, (), ())).via("an offset of 8 rows, on the smallest board it reaches")
def test_every_engine_counts_and_lists_a_drawn_question(drawn):
    member, n, _, _ = drawn
    truth = boards(member, n)
    for name in answering(member, boards=len(truth)):
        assert nq.count(n, name, variant=member, jobs=1) == len(truth), (name, member, n)
        if engine_class(name).enumerates:
            found = list(nq.solutions(n, name, variant=member, jobs=1))
            assert len(found) == len(set(found)) and set(found) == truth, (name, member, n)


@examples(15)
@given(questions())
def test_a_split_search_is_the_whole_set_mirror_halved_or_translated_only_where_kept(drawn):
    """Split from N = 1: the mirror halving (where the mirror keeps the question
    at this N) and, for counts, the torus's translations run on every draw."""
    member, n, _, _ = drawn
    truth = boards(member, n)
    with mock.patch.object(planning, "SPLIT_MIN_N", 1):
        for name in answering(member, enumerates=True, boards=len(truth) * 4):
            made = planning.plan(n, name, variant=member)
            assert made.split and made.mirror == ("mirror" in kept(n, member.families, member.offsets))
            assert nq.count(n, name, variant=member, jobs=1) == len(truth), (name, member, n)
            found = list(nq.solutions(n, name, variant=member, jobs=1))
            assert len(found) == len(set(found)) and set(found) == truth, (name, member, n)


@examples(20)
@given(questions())
@example((FAR, 9, (), ()))
def test_unique_is_one_board_per_orbit_of_the_questions_own_symmetries(drawn):
    member, n, _, _ = drawn
    truth = boards(member, n)
    maps = [name for name in SQUARE_MAPS if keeps(member, n, name)]
    least = orbits(truth, maps)
    for name in answering(member, enumerates=True, boards=len(truth) * 5):
        assert nq.count(n, name, variant=member, unique=True, jobs=1) == len(least), (name, member, n)
        assert set(nq.solutions(n, name, variant=member, unique=True, jobs=1)) == least, (name, member, n)


@examples(20)
@given(questions(placements=True))
def test_pre_placed_queens_and_blocked_squares(drawn):
    member, n, fixed, blocked = drawn
    truth = boards(member, n, fixed, blocked)
    for name in answering(member, enumerates=True, boards=len(boards(member, n)) * 2):
        if not engine_class(name).takes_fixed:
            continue
        assert nq.count(n, name, dict(fixed), blocked=blocked, variant=member) == len(truth), (name, member, n)
        assert set(nq.solutions(n, name, dict(fixed), blocked=blocked, variant=member)) == truth, (name, member)
        outcome = nq.solve(n, name, dict(fixed), blocked=blocked, variant=member)
        assert outcome.solution in truth if truth else outcome.status is nq.Status.NONE, (name, member, n)


@pytest.mark.parametrize("n, total", [(11, 1916), (12, 9466)][:1 if SOAK == 1 else 2])
def test_the_issues_member_at_eleven_and_twelve(n, total):
    """The issue's snippet: 1951 and 9528 before, by mirror halving a question the mirror does not keep
    (N = 12 in the soak)."""
    assert len(boards(FAR, n)) == total
    for name in answering(FAR, enumerates=True, boards=total, seconds=1):
        if engine_class(name).declarative:  # (the hand-written backtracker takes 15 s here: N <= 9 cover it)
            assert nq.count(n, name, variant=FAR, jobs=1) == total, name
    found = list(nq.solutions(n, "cpsat", variant=FAR))
    assert len(found) == total and set(found) == boards(FAR, n)


# --- the paths that cost a process or a program: a few draws -------------------------------------

@examples(3)
@given(questions())
@example((FAR, 9, (), ()))
def test_two_processes_and_the_engines_that_run_programs(drawn):
    member, n, _, _ = drawn
    split_everywhere(member, n, answering(member, boards=len(boards(member, n)) * 4, programs=True), jobs=2)


def split_everywhere(member: Variant, n: int, engines: list[str], **where: object) -> None:
    """Each engine's count and exact set, split from N = 1 and run ``where`` (two jobs, a cluster)."""
    truth = boards(member, n)
    with mock.patch.object(planning, "SPLIT_MIN_N", 1):
        for name in engines:
            assert nq.count(n, name, variant=member, **where) == len(truth), (name, member, n)
            if engine_class(name).enumerates:
                assert set(nq.solutions(n, name, variant=member, **where)) == truth, (name, member, n)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A Dask cluster of two local worker processes, on 127.0.0.1, for the module."""
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed (the test extra)")
    import dask

    scratch = str(tmp_path_factory.mktemp("dask"))
    with dask.config.set({"temporary-directory": scratch}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                     dashboard_address=None, local_directory=scratch) as local:
        yield local.scheduler_address


def test_a_dask_cluster_counts_and_lists_drawn_questions(cluster):
    @examples(4)
    @given(questions())
    @example((FAR, 9, (), ()))
    def check(drawn):
        member, n, _, _ = drawn
        split_everywhere(member, n, answering(member, enumerates=True)[:1], executor=cluster)

    check()


def test_a_drawn_question_is_refused_a_checkpoint_in_one_line(tmp_path):
    with pytest.raises(nq.InvalidInputError, match="checkpoints are kept for counts by symmetry classes"):
        nq.count(9, "backtrack", variant=FAR, checkpoint=str(tmp_path / "c"))


def test_certify_and_verify_drawn_questions(tmp_path):
    program("drat-trim", "Debian package 'drat-trim'")
    from nqueens_cp.certificates import certify, verify

    made = []

    @examples(4)
    @given(questions())
    @example((FAR, 9, (), ()))
    def check(drawn):
        member, n, _, _ = drawn
        truth = boards(member, n)
        folder = tmp_path / f"c{len(made)}"
        made.append(folder)
        done = certify(n, folder, variant=member, split=n > 6)
        found = verify(folder)
        assert found.certified and done.count == found.count == len(truth), (member, n, found.reason)
        maps = [name for name in SQUARE_MAPS if keeps(member, n, name)]
        assert found.classes == (len(orbits(truth, maps)) if len(maps) == 8 else None), (member, n)

    check()


def test_the_dimacs_of_drawn_questions_through_picosat_and_decode(tmp_path, cli):
    picosat = program("picosat", "Debian package 'picosat'")
    from nqueens_cp.model.dimacs import write_dimacs_file

    @examples(6)
    @given(questions())
    @example((FAR, 9, (), ()))
    def check(drawn):
        member, n, _, _ = drawn
        truth = boards(member, n)
        cnf, answer = tmp_path / "q.cnf", tmp_path / "q.out"
        write_dimacs_file(str(cnf), n, "pairwise", variant=member)
        answer.write_text(run_program([picosat, "--all", cnf], ok=(10, 20)))
        code, out, err = cli("decode", cnf, answer, "--format", "line")
        if not truth:
            assert code == 1 and "UNSATISFIABLE" in err, (member, n)
            return
        assert code == 0, err
        assert {tuple(map(int, line.split())) for line in out.splitlines()} == truth, (member, n)

    check()


# --- nothing unvalidated leaves, even from a wrong plan ----------------------------------------

@pytest.mark.parametrize("jobs", [1, 2])
def test_a_plan_that_mirrors_a_question_the_mirror_does_not_keep_is_caught_by_the_validator(jobs):
    """The defect of the issue, made on purpose: each path refuses with the engine and the strategy named,
    never a board and never a count."""
    from nqueens_cp.execution import execute

    n = 11
    with mock.patch.object(planning, "SPLIT_MIN_N", 1):
        for counting in (False, True):
            made = planning.plan(n, "cpsat", variant=FAR, jobs=jobs, counting=counting)
            wrong = made._replace(strategy=made.strategy._replace(weights="mirror"))
            with pytest.raises(nq.NQueensError, match=r"^engine cpsat \(split on its first row, mirror-halved .*\): "
                               r"the mirror image of a board of the sub-problem \{0: \d+\} is not one of N=11 "
                               r"variant=far: [\d ]+$"):
                execute.count(wrong) if counting else list(execute.search(wrong))


def test_an_engine_that_returns_a_wrong_board_is_caught_on_every_path(monkeypatch):
    from nqueens_cp.engines.backtrack import BacktrackEngine

    honest = BacktrackEngine._search

    def tampered(self, n, fixed, limit, stats, deadline=None):
        for board in honest(self, n, fixed, limit, stats, deadline):
            yield board[:-1] + (board[0],) if board[0] == 1 else board  # one row's queen moved onto another's column

    monkeypatch.setattr(BacktrackEngine, "_search", tampered)
    for n, jobs in ((8, 1), (11, 1)):
        with pytest.raises(nq.NQueensError, match=r"^engine backtrack \(.*\): a board( of the sub-problem .*)? is "
                           rf"not one of N={n}: 1 [\d ]+ 1$"):
            list(nq.solutions(n, "backtrack", jobs=jobs))


@st.composite
def far_questions(draw: st.DrawFn) -> tuple[Variant, int]:
    """Queens' lines and one offset that no board of 8 reaches (8 rows down or 8 columns across), at N = 10
    or 11: where a symmetry sampled on small boards went wrong."""
    n = draw(st.integers(10, 11))
    far = draw(st.one_of(st.tuples(st.integers(8, n - 1), st.integers(-(n - 1), n - 1).filter(bool)),
                         st.tuples(st.integers(1, n - 1), st.sampled_from([-1, 1])).map(lambda d: (d[0], 8 * d[1]))))
    return family("far-drawn", [COLUMNS, Lines(-1), Lines(1)], [far]), n


@examples(3)
@given(far_questions())
def test_far_offsets_on_boards_they_reach_split_and_mirror_only_where_kept(drawn):
    member, n = drawn
    truth = boards(member, n)
    with mock.patch.object(planning, "SPLIT_MIN_N", 1):
        # the fastest model handed to a solver (the hand-written backtracker takes 10 s here; N <= 9 cover it)
        name = max((name for name in answering(member, enumerates=True) if engine_class(name).declarative),
                   key=lambda name: engine_class(name).enumeration_rate)
        made = planning.plan(n, name, variant=member)
        assert made.mirror == ("mirror" in kept(n, member.families, member.offsets))
        assert nq.count(n, name, variant=member, jobs=1) == len(truth), (name, member, n)
        assert set(nq.solutions(n, name, variant=member, jobs=1)) == truth, (name, member, n)


@examples(60)
@given(questions(placements=True), st.lists(st.lists(st.integers(-1, 12), min_size=12, max_size=12), max_size=8))
def test_the_block_validator_is_the_board_validator(drawn, noise):
    """Question.valid_rows (NumPy, a block of boards at once) against is_solution, one board at a time: on
    the oracle's boards, their mirror images, and boards drawn at random."""
    import numpy as np

    member, n, fixed, blocked = drawn
    asked = question(n, dict(fixed), blocked, variant=member)
    rows = sorted(boards(member, n))[:40] + [tuple(n - 1 - c for c in b) for b in sorted(boards(member, n))[:10]]
    rows += [tuple(row[:n]) for row in noise]
    if not rows:
        return
    found = asked.valid_rows(np.array(rows, dtype=np.int64))
    assert found.tolist() == [asked.is_solution(row) for row in rows], (member, n, fixed, blocked)


def test_a_decision_or_an_optimum_that_is_wrong_is_caught_on_every_path(monkeypatch, cli):
    """Every answer is validated in one place, the execution layer (execution/answers.py): a decision whole and
    split, by the API and the command line, and an optimum (the engine itself hands back what it found)."""
    from nqueens_cp.engines.backtrack import BacktrackEngine
    from nqueens_cp.engines.bitmask import BitmaskEngine

    def wrong(self, n, placed, time_limit, stats):
        return nq.Status.SOLVED, tuple(range(n)), ""  # every queen on one diagonal

    def moved(self, n, placed, time_limit, stats):
        return nq.Status.SOLVED, (1, 3, 5, 0, 2, 4), ""  # a board of 6, but not the queen pre-placed at 0:2

    monkeypatch.setattr(BacktrackEngine, "_solve", wrong)
    with pytest.raises(nq.NQueensError, match="^engine backtrack returned an invalid board$"):
        nq.solve(8, "backtrack")
    assert nq.get_engine("backtrack").solve(8).solution == tuple(range(8))  # (as found: the engine's own)
    code, _, err = cli("solve", 8, "-e", "backtrack")
    assert code == 1 and err.strip().endswith("engine backtrack returned an invalid board")
    monkeypatch.setattr(BacktrackEngine, "_solve", moved)
    with pytest.raises(nq.NQueensError, match="^engine backtrack moved the pre-placed queen at 0:2$"):
        nq.solve(6, "backtrack", {0: 2})
    with pytest.raises(nq.NQueensError, match="^engine backtrack put a queen on the blocked square 0:1$"):
        nq.solve(6, "backtrack", blocked=[(0, 1)])
    # A part that answers a board with every queen on one diagonal (and 1 node): a call the pool's workers
    # unpickle without importing this module (which would import conftest there, and its folder).
    wrong_part = (operator.itemgetter(slice(None)), (tuple(range(20)), 1))
    monkeypatch.setattr(BitmaskEngine, "solve_parts", lambda self, n, placed: [wrong_part])
    with pytest.raises(nq.NQueensError, match="^engine bitmask returned an invalid board$"):
        nq.solve(20, "bitmask", jobs=2)  # (split: its parts on the pool)

    def no_cover(self, n, time_limit, stats, report):
        return [(0, 0)], True, 1, ""

    monkeypatch.setattr(BacktrackEngine, "_optimum", no_cover)
    with pytest.raises(nq.NQueensError, match=r"^engine backtrack returned queens that do not answer .*: \[\(0, 0\)\]$"):
        nq.optimum(5, engine="backtrack")

