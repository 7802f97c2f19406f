"""Real external programs read our DIMACS, and their answers decode to the right boards.

picosat and clasp come from Debian's packages of those names (.ci/run installs
them); pyganak from PyPI (the test extra).  A test skips only when its program
is truly absent, and says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import cli_file, program, reference, run_program
from nqueens_cp import TOTAL, is_solution
from nqueens_cp.model.cnf import encode
from nqueens_cp.model.dimacs import DimacsError, dimacs_text
from nqueens_cp.model.dimacs_answer import decode_model, read_answer
from nqueens_cp.model.dimacs_read import read_cnf
from nqueens_cp.model.encodings import ENCODINGS

# program -> (enumerate every model, one answer)
SOLVERS = {
    "picosat": (["picosat", "--all"], ["picosat"]),
    "clasp": (["clasp", "-n", "0"], ["clasp"]),
}


def debian(name: str) -> str:
    return program(name, f"Debian package '{name}'")


def write_cnf(cli, tmp_path: Path, n: int, encoding: str) -> Path:
    return cli_file(cli, tmp_path / f"q{n}-{encoding}.cnf", "dimacs", n, "--encoding", encoding)


def run_solver(command: list[str], cnf: Path) -> str:
    return run_program([*command, cnf], ok=(10, 20, 30))  # SAT, UNSAT, SAT and exhausted (clasp)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("n", range(1, 10))
def test_external_enumeration_of_pairwise_cnf(tmp_path: Path, cli, solver: str, n: int) -> None:
    debian(solver)
    cnf = write_cnf(cli, tmp_path, n, "pairwise")
    header = read_cnf(cnf.read_text())
    output = run_solver(SOLVERS[solver][0], cnf)
    if TOTAL[n] == 0:
        with pytest.raises(DimacsError, match="UNSATISFIABLE"):
            read_answer(output)
        return
    solutions = [decode_model(model, header) for model in read_answer(output)]
    assert len(solutions) == TOTAL[n]
    assert set(solutions) == reference(n)


@pytest.mark.parametrize("solver", SOLVERS)
def test_external_enumeration_decoded_by_the_cli(tmp_path: Path, cli, solver: str) -> None:
    debian(solver)
    cnf = write_cnf(cli, tmp_path, 8, "pairwise")
    answer = tmp_path / "all.out"
    answer.write_text(run_solver(SOLVERS[solver][0], cnf))
    code, out, err = cli("decode", cnf, answer, "--format", "line")
    assert code == 0, err
    assert {tuple(map(int, line.split())) for line in out.splitlines()} == reference(8)
    assert "92 solutions decoded for N=8 (encoding pairwise), all valid" in err


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("encoding", [e for e in ENCODINGS if e != "pairwise"])
@pytest.mark.parametrize("n", [8, 12])
def test_external_single_answer_for_every_encoding(tmp_path: Path, cli, solver: str, encoding: str, n: int) -> None:
    debian(solver)
    cnf = write_cnf(cli, tmp_path, n, encoding)
    answer = tmp_path / "one.out"
    answer.write_text(run_solver(SOLVERS[solver][1], cnf))
    code, out, err = cli("decode", cnf, answer, "--format", "line")
    assert code == 0, err
    (line,) = out.splitlines()
    assert is_solution(tuple(map(int, line.split())), n)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_projected_model_count_honours_the_show_line(encoding: str) -> None:
    pyganak = pytest.importorskip("pyganak", reason="pyganak is not installed (pip install pyganak; in the test extra)")
    # (N = 6: Ganak counts its 4 boards in 0.01 s, N = 8's 92 in 2 s an encoding)
    header = read_cnf(dimacs_text(encode(6, encoding)), clauses=True)
    assert header.show is not None
    counter = pyganak.Counter()
    counter.new_vars(header.nvars)
    counter.add_clauses(header.clauses)
    counter.set_sampling_set(header.show)
    assert counter.count() == TOTAL[6] == 4


def test_unprojected_count_shows_why_projection_matters() -> None:
    pyganak = pytest.importorskip("pyganak", reason="pyganak is not installed (pip install pyganak; in the test extra)")
    header = read_cnf(dimacs_text(encode(6, "seqcounter")), clauses=True)
    counter = pyganak.Counter()
    counter.new_vars(header.nvars)
    counter.add_clauses(header.clauses)
    assert counter.count() > TOTAL[6]  # auxiliary variables multiply the models


def test_an_exported_instance_with_blocked_squares_counts_and_solves_alike(tmp_path: Path, cli) -> None:
    """The DIMACS of an Excluded Diagonals instance: picosat enumerates exactly our solutions."""
    picosat = debian("picosat")
    instance = Path(__file__).parent / "data" / "prob079" / "diag-10-4-501.param"
    from nqueens_cp import solutions
    from nqueens_cp.model.instances import read_instance

    position = read_instance(instance, 3).position()
    squares = ",".join(f"{r}:{c}" for r, c in sorted(position.blocked))
    cnf = tmp_path / "blocked.cnf"
    code, _, err = cli("dimacs", 10, "--block", squares, "-o", cnf)
    assert code == 0, err
    text = cnf.read_text()
    assert all(f"\n-{r * 10 + c + 1} 0\n" in text for r, c in position.blocked)
    header = read_cnf(text)
    found = {decode_model(model, header) for model in read_answer(run_solver([picosat, "--all"], cnf))}
    assert found == set(solutions(10, fixed=position)) and 0 < len(found) < TOTAL[10]
