"""Every at-most-one encoding: correct on every assignment, costs as documented, exact sets."""

from __future__ import annotations

from itertools import product

import pytest

from conftest import reference
from nqueens_cp import TOTAL, get_engine, is_solution
from nqueens_cp.model.cnf import encode, lines
from nqueens_cp.model.encodings import COSTS, ENCODINGS

pysat = pytest.importorskip("pysat", reason="python-sat is not installed")
from pysat.solvers import Solver  # noqa: E402


def group(name: str, k: int) -> tuple[list[list[int]], int]:
    top = k

    def fresh() -> int:
        nonlocal top
        top += 1
        return top

    clauses = list(ENCODINGS[name](list(range(1, k + 1)), fresh))
    return clauses, top - k


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("k", range(2, 11))
def test_at_most_one_is_exact_on_every_assignment(name: str, k: int) -> None:
    clauses, aux = group(name, k)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for bits in product((False, True), repeat=k):
            assumptions = [v if b else -v for v, b in zip(range(1, k + 1), bits)]
            assert solver.solve(assumptions=assumptions) == (sum(bits) <= 1), (name, bits)


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("k", [*range(2, 30), 64, 100, 257])
def test_documented_cost_matches_generated_group(name: str, k: int) -> None:
    clauses, aux = group(name, k)
    assert (aux, len(clauses)) == COSTS[name](k)
    assert all(abs(lit) <= k + aux for clause in clauses for lit in clause)


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_documented_cost_matches_whole_cnf(name: str, n: int) -> None:
    cnf = encode(n, name)
    groups = [len(line) for line in lines(n) if len(line) > 1]
    aux = sum(COSTS[name](k)[0] for k in groups)
    amo_clauses = sum(COSTS[name](k)[1] for k in groups)
    assert cnf.nvars == n * n + aux
    assert len(cnf.clauses) == 2 * n + amo_clauses  # one at-least-one clause per row and column


def test_seqcounter_small_cases_by_hand() -> None:
    # k = 3: s1, s2;  (-x1|s1) (-x2|s2) (-s1|s2) (-x2|-s1) (-x3|-s2)
    clauses, aux = group("seqcounter", 3)
    assert aux == 2 and clauses == [[-1, 4], [-2, 5], [-4, 5], [-2, -4], [-3, -5]]


def test_binary_small_case_by_hand() -> None:
    # k = 3: bits b1 (var 4), b2 (var 5); x1 = 00, x2 = 01, x3 = 10
    clauses, aux = group("binary", 3)
    assert aux == 2 and clauses == [[-1, -4], [-1, -5], [-2, 4], [-2, -5], [-3, -4], [-3, 5]]


@pytest.mark.parametrize("name", ENCODINGS)
@pytest.mark.parametrize("n", range(1, 10))
def test_sat_enumeration_gives_the_reference_set(name: str, n: int) -> None:
    found = list(get_engine("sat", encoding=name).search(n))
    assert len(found) == TOTAL[n] and all(is_solution(s, n) for s in found)
    assert set(found) == reference(n)


def test_blocking_whole_models_overcounts_but_blocking_cells_does_not() -> None:
    # Why the sat engine blocks cells only: PySAT's enum_models blocks the
    # auxiliary variables too, so one board appears once per aux assignment.
    cnf = encode(6, "seqcounter")
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        whole_models = sum(1 for _ in solver.enum_models())
    assert whole_models > TOTAL[6]
    assert get_engine("sat", encoding="seqcounter").search(6).count() == TOTAL[6]


def test_fixed_placements_are_unit_clauses() -> None:
    cnf = encode(5, "ladder", {2: 3, 0: 1})
    assert cnf.clauses[-2:] == [[cnf.cell(0, 1)], [cnf.cell(2, 3)]]


def test_unknown_encoding() -> None:
    from nqueens_cp.errors import InvalidInputError

    with pytest.raises(InvalidInputError, match="unknown encoding 'nope' \\(choose from pairwise, seqcounter"):
        encode(4, "nope")
