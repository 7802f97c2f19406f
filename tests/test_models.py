"""models/ is exactly what the code generates today."""

from __future__ import annotations

from pathlib import Path

import pytest

from nqueens_cp import TOTAL
from nqueens_cp.model.artifacts import model_files, write_models
from nqueens_cp.model.dimacs_read import read_cnf

MODELS = Path(__file__).resolve().parent.parent / "models"


def test_regenerated_models_are_byte_identical(tmp_path: Path) -> None:
    pytest.importorskip("ortools", reason="the CP-SAT model export needs OR-Tools")
    written = write_models(tmp_path)
    # (models/mistakes/ holds hand-written models for check, docs/checking.md: not generated)
    checked_in = sorted(p.name for p in MODELS.iterdir() if p.is_file() and p.name != "README.md")
    assert sorted(p.name for p in written) == checked_in, "models/ holds stale or missing files"
    for path in written:
        assert path.read_bytes() == (MODELS / path.name).read_bytes(), f"{path.name} differs: run python -m nqueens_cp.model.artifacts"


def test_model_set_is_the_promised_one() -> None:
    names = set(model_files())
    assert {f"nqueens-{n:02d}-pairwise.cnf" for n in range(4, 13)} <= names
    for encoding in ("pairwise", "seqcounter", "ladder", "commander", "product", "binary"):
        assert f"nqueens-08-{encoding}.cnf" in names
    assert "nqueens-08-cpsat.pbtxt" in names


@pytest.mark.parametrize("name", [n for n in model_files() if n.endswith(".cnf")])
def test_checked_in_cnf_solves_to_the_known_count(name: str) -> None:
    pytest.importorskip("pysat", reason="python-sat is not installed")
    from pysat.solvers import Solver

    header = read_cnf((MODELS / name).read_text(), name, clauses=True)
    count = 0
    with Solver(name="cadical195", bootstrap_with=header.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            true = [v for v in header.cells if model[v - 1] > 0]
            solver.add_clause([-v for v in true])
            count += 1
    assert count == TOTAL[header.n]


def test_checked_in_cpsat_model_loads_and_counts_92() -> None:
    pytest.importorskip("ortools", reason="OR-Tools is not installed")
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    model.proto.parse_text_format((MODELS / "nqueens-08-cpsat.pbtxt").read_text())
    assert len(model.proto.variables) == 8 and len(model.proto.constraints) == 3

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1

    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # (CP-SAT's handler would stay this process's for good)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.solve(model, counter)
    assert counter.count == 92
