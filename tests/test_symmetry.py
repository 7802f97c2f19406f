"""The symmetries of the square: each operation against drawn boards, fundamental
solutions against A002562, orbit expansion, and symmetry breaking in the models."""

from __future__ import annotations

import pytest

from conftest import reference, usable
from nqueens_cp import DEFAULT_ENGINE, FUNDAMENTAL, TOTAL, get_engine, is_solution, names
from nqueens_cp.model.board import SYMMETRIES, canonical, orbit, render
from nqueens_cp.model.board import pack
from nqueens_cp.studies.crosscheck import _check_symmetry, _sorted_keys
from nqueens_cp.model.symmetry import expand, fundamental


def survives(s: tuple[int, ...]) -> bool:
    """True when ``s`` satisfies the symmetry-breaking constraints that the
    cpsat and sat models add (this predicate is their specification)."""
    return all(s[0] <= g(s)[0] for g in SYMMETRIES.values())


def parse(picture: str) -> tuple[int, ...]:
    return tuple(row.split().index("Q") for row in picture.strip().splitlines())


BOARD = """
. Q . .
. . . Q
. . Q .
Q . . .
"""

# Drawn by hand: the board above turned a quarter clockwise (its left column,
# read bottom to top, becomes the top row) and reflected in its main diagonal.
ROTATED_CLOCKWISE = """
Q . . .
. . . Q
. Q . .
. . Q .
"""
TRANSPOSED = """
. . . Q
Q . . .
. . Q .
. Q . .
"""


def test_quarter_turn_and_transpose_against_drawn_boards() -> None:
    s = parse(BOARD)
    assert s == (1, 3, 2, 0)
    assert SYMMETRIES["rotate90"](s) == parse(ROTATED_CLOCKWISE)
    assert SYMMETRIES["transpose"](s) == parse(TRANSPOSED)


def grid(s: tuple[int, ...]) -> list[list[str]]:
    return [row.split() for row in render(s).splitlines()]


# The same operations done on the picture itself, by plain list manipulation.
PICTURE_OPS = {
    "identity": lambda g: g,
    "rotate90": lambda g: [list(row) for row in zip(*g[::-1])],
    "rotate180": lambda g: [row[::-1] for row in g[::-1]],
    "rotate270": lambda g: [list(row) for row in zip(*g)][::-1],
    "mirror": lambda g: [row[::-1] for row in g],
    "flip": lambda g: g[::-1],
    "transpose": lambda g: [list(row) for row in zip(*g)],
    "antitranspose": lambda g: [list(row) for row in zip(*[r[::-1] for r in g[::-1]])],
}


@pytest.mark.parametrize("name", SYMMETRIES)
@pytest.mark.parametrize("s", [(1, 3, 2, 0), (0, 4, 7, 5, 2, 6, 1, 3), (2, 0, 6, 4, 7, 1, 3, 5), (0,)])
def test_each_operation_moves_the_drawn_picture(name: str, s: tuple[int, ...]) -> None:
    assert grid(SYMMETRIES[name](s)) == PICTURE_OPS[name](grid(s))


def test_group_structure() -> None:
    s = (0, 4, 7, 5, 2, 6, 1, 3)
    r = SYMMETRIES["rotate90"]
    assert r(r(r(r(s)))) == s and r(r(s)) == SYMMETRIES["rotate180"](s)
    assert SYMMETRIES["mirror"](SYMMETRIES["mirror"](s)) == s
    assert len(orbit(s)) == 8
    assert all(is_solution(image, 8) for image in orbit(s))
    assert canonical(s) == min(orbit(s)) and canonical(SYMMETRIES["flip"](s)) == canonical(s)


def test_symmetric_classes_have_small_orbits() -> None:
    assert len(orbit((1, 3, 0, 2))) == 2  # the 4-queens solution is fixed by a quarter turn
    sizes = sorted(len(orbit(s)) for s in fundamental(reference(6)))
    assert sizes == [4]  # 6-queens: one class, symmetric under a half turn


# One class per orbit depends on the boards, not on who found them: every engine's exact set is held to the
# oracle's (test_engines), and the classes are counted here from the default's boards, and from the survivors
# each engine with symmetry breaking expands (what its own code does to the classes).
UNIQUE_FROM = [(DEFAULT_ENGINE, {}), *((name, {"symmetry_breaking": True}) for name in names(option="symmetry_breaking"))]


@pytest.mark.parametrize("name, options", UNIQUE_FROM, ids=[name + ("+sb" if o else "") for name, o in UNIQUE_FROM])
@pytest.mark.parametrize("n", range(1, 11))
def test_unique_count_equals_a002562_from_the_default_and_symmetry_breaking(name: str, options: dict, n: int) -> None:
    usable(name)
    unique = list(fundamental(get_engine(name, **options).search(n)))
    assert len(unique) == FUNDAMENTAL[n]
    assert all(s == canonical(s) for s in unique)


@pytest.mark.parametrize("n", range(1, 11))
def test_orbit_expansion_gives_the_full_set(n: int) -> None:
    full = set(get_engine("bitmask").search(n))
    expanded = {image for s in fundamental(full) for image in orbit(s)}
    assert expanded == full and len(full) == TOTAL[n]


def model_survivors(name: str, n: int) -> set[tuple[int, ...]]:
    """The solutions of the symmetry-breaking model itself, read straight from the solver."""
    if name == "sat":
        from pysat.solvers import Solver

        from nqueens_cp.model.cnf import encode

        cnf, found = encode(n, symmetry_breaking=True), set()
        with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
            while solver.solve():
                cells = [v for v in solver.get_model()[: n * n] if v > 0]
                found.add(tuple((v - 1) % n for v in cells))
                solver.add_clause([-v for v in cells])
        return found
    from ortools.sat.python import cp_model

    from nqueens_cp.model.cpsat import build_model

    model, q = build_model(n, symmetry_breaking=True)
    found = set()

    class Record(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.add(tuple(self.value(v) for v in q))

    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # (CP-SAT's handler would stay this process's for good)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.solve(model, Record())
    return found


@pytest.mark.parametrize("name", names(option="symmetry_breaking"))
@pytest.mark.parametrize("n", range(1, 11))
def test_symmetry_breaking_enumerates_the_exact_full_set(name: str, n: int) -> None:
    engine = get_engine(name, symmetry_breaking=True)
    found = list(engine.search(n))
    assert len(found) == len(set(found)) == TOTAL[n]
    assert set(found) == set(get_engine("bitmask").search(n))
    # The model's constraints are exactly the documented predicate.
    survivors = model_survivors(name, n)
    assert survivors == {s for s in found if survives(s)}
    assert FUNDAMENTAL[n] <= len(survivors) < max(TOTAL[n], 1) or n == 1


def test_symmetry_breaking_cuts_the_search() -> None:
    plain = get_engine("sat").search(10)
    broken = get_engine("sat", symmetry_breaking=True).search(10)
    assert plain.count() == broken.count() == 724
    assert broken.stats["decisions"] < plain.stats["decisions"]


def test_symmetry_breaking_with_limit_and_with_fixed_placements() -> None:
    from nqueens_cp.errors import InvalidInputError

    found = list(get_engine("cpsat", symmetry_breaking=True).search(8, limit=10))
    assert len(found) == 10 and all(s in reference(8) for s in found)
    with pytest.raises(InvalidInputError, match="cannot be combined with fixed placements"):
        get_engine("sat", symmetry_breaking=True).search(8, {0: 1})


def test_expand_produces_each_solution_once_from_redundant_survivors() -> None:
    full = reference(8)
    survivors = sorted(s for s in full if survives(s))
    assert len(survivors) > 12  # a superset of one per class...
    out = list(expand(survivors))
    assert len(out) == 92 and set(out) == full  # ...expanded without duplicates


@pytest.mark.parametrize("n", range(4, 11))
def test_the_least_survivor_of_a_class_is_its_lex_least_member(n: int) -> None:
    """What expand relies on to pick one survivor per class without testing them all."""
    for s in reference(n):
        members = orbit(s)
        assert min(u for u in members if survives(u)) == min(members)


@pytest.mark.parametrize("n", range(1, 11))
def test_orbit_is_the_set_of_images_under_each_symmetry(n: int) -> None:
    for s in reference(n):
        assert orbit(s) == {op(s) for op in SYMMETRIES.values()}


def test_crosscheck_symmetry_check_catches_a_missing_image() -> None:
    full = sorted(reference(8))
    missing = next(s for s in full if s != canonical(s))
    keys = _sorted_keys((pack(s, 8) for s in full if s != missing), 8)
    unique, problem = _check_symmetry(8, keys, 12)
    assert unique == 12 and problem is not None and "orbits of the fundamental solutions are not the full set" in problem
    keys = _sorted_keys((pack(s, 8) for s in full), 8)
    assert _check_symmetry(8, keys, 12) == (12, None)
    assert "published number of classes is 13" in _check_symmetry(8, keys, 13)[1]



def test_cli_unique(cli, engine_name: str) -> None:
    engine = engine_name
    code, out, _ = cli("count", "8", "--unique", "--engine", engine)
    assert (code, out) == (0, "12\n")
    code, out, err = cli("enumerate", "8", "--unique", "--format", "line", "--engine", engine)
    sols = [tuple(map(int, line.split())) for line in out.splitlines()]
    assert code == 0 and len(sols) == 12 and set(sols) == set(fundamental(reference(8)))
    assert "12 fundamental solutions for N=8" in err


def test_cli_symmetry_breaking(cli) -> None:
    for engine in names(option="symmetry_breaking"):
        code, out, _ = cli("enumerate", "7", "--engine", engine, "--symmetry-breaking", "-f", "line")
        assert code == 0 and {tuple(map(int, line.split())) for line in out.splitlines()} == reference(7)
        assert len(out.splitlines()) == 40
    code, out, _ = cli("count", "9", "--unique", "--engine", "sat", "--symmetry-breaking")
    assert (code, out) == (0, "46\n")


def test_is_canonical_shortcut_agrees_with_the_definition() -> None:
    from itertools import permutations

    from nqueens_cp.model.symmetry import is_canonical

    for n in range(1, 7):
        for s in permutations(range(n)):
            assert is_canonical(s) == (s == canonical(s)), s
    for n in range(1, 11):
        for s in reference(n) if n <= 9 else get_engine("bitmask").search(n):
            assert is_canonical(s) == (s == canonical(s))


def test_the_kernels_quarter_turns_are_the_one_definition_of_the_squares_symmetries() -> None:
    """The compiled search (and its twin, line for line) compares a board with
    its quarter turns in bit form; each comparison must agree with the board
    turned by board.SQUARE_MAPS, row by row from the top."""
    import itertools

    from nqueens_cp.kernel import twin
    from nqueens_cp.model.board import SYMMETRIES

    for n in (5, 6, 7, 8):
        for s in itertools.permutations(range(n)):
            bits = [1 << c for c in s]  # (a row's word: bit c for column c)
            inverse = [0] * n
            for r, c in enumerate(s):
                inverse[c] = r
            for k, name in ((1, "rotate90"), (2, "rotate180"), (3, "rotate270")):
                image = [1 << c for c in SYMMETRIES[name](s)]
                want = next(((-1 if a < b else 1) for a, b in zip(image, bits) if a != b), 0)
                assert twin.turned(n, bits, inverse, k) == want, (s, k)
