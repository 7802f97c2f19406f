"""What callers pass: NumPy's integers and arrays from a notebook, standard input,
an empty or unwritable certificate path (issue 52's items that are done; each
test failed before its fix)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import nqueens_cp as nq
from conftest import CLI, program
from nqueens_cp import TOTAL


def test_numpy_arrays_and_integers_are_taken_wherever_an_int_or_a_sequence_is() -> None:
    board = np.array([0, 4, 7, 5, 2, 6, 1, 3])
    assert nq.is_solution(board, 8) and nq.is_solution(board.astype(np.int32), 8)  # was False
    assert nq.model.variants.VARIANTS["toroidal"].is_solution(np.array([0, 2, 4, 1, 3]), 5)
    assert nq.count(8, fixed={np.int64(0): np.int64(0)}) == 4  # was "column np.int64(0) is off the 8x8 board"
    assert nq.count(8, blocked=[(np.int64(0), np.int64(0))]) == 88
    assert nq.count(10, jobs=np.int64(2)) == TOTAL[10]  # was "jobs must be a positive integer"
    assert len(list(nq.solutions(8, limit=np.int64(3)))) == 3
    assert nq.solve(12, "cpsat", seed=np.int64(5)).status is nq.Status.SOLVED
    assert nq.solve(14, jobs=np.int64(2)).status is nq.Status.SOLVED


def test_what_is_not_a_whole_number_is_still_refused() -> None:
    assert not nq.is_solution((0, 4, 7, 5, 2, 6, 1, True), 8)
    assert not nq.is_solution(np.array([0.0, 4, 7, 5, 2, 6, 1, 3]), 8)
    assert not nq.is_solution(np.array([True, False]), 2)
    for keywords in ({"jobs": True}, {"jobs": np.float64(2)}, {"fixed": {0: 1.0}}, {"fixed": {0: np.True_}}):
        with pytest.raises(nq.InvalidInputError):
            nq.count(8, **keywords)


def test_decode_names_standard_input_as_such(tmp_path) -> None:
    picosat = program("picosat", "Debian package 'picosat'")
    cnf = tmp_path / "q6.cnf"
    assert subprocess.run([*CLI, "dimacs", "6", "-o", str(cnf)]).returncode == 0
    answer = subprocess.run([picosat, str(cnf)], capture_output=True, text=True).stdout
    edited = cnf.read_text().replace("c nqueens n=6", "c nqueens n=7")
    for argv, stdin in ((["-", str(tmp_path / "a.out")], edited), ([str(tmp_path / "e.cnf"), "-"], answer)):
        (tmp_path / "a.out").write_text(answer)
        (tmp_path / "e.cnf").write_text(edited)
        run = subprocess.run([*CLI, "decode", *argv], input=stdin, capture_output=True, text=True)
        name = "stdin" if argv[0] == "-" else argv[0]
        assert run.returncode == 1 and run.stderr == f"nqueens-cp decode: {name}: maps 36 cells, a 7x7 board " \
            "has 49\n", run.stderr  # was "None: maps ..."


@pytest.mark.parametrize("command", [["count", "8"], ["enumerate", "6"], ["optimum", "5"]])
def test_an_empty_or_unwritable_certificate_path_is_a_usage_error_before_any_work(command, tmp_path) -> None:
    for path, said in (("", "a certificate goes into a directory named by a path, got ''"),
                       ("/proc/c", "cannot write the certificate /proc/c: ")):
        run = subprocess.run([*CLI, *command, "--certificate", path], capture_output=True, text=True, cwd=tmp_path,
                             timeout=120)
        assert (run.returncode, run.stdout) == (2, ""), (command, path, run.stdout, run.stderr)
        assert run.stderr.count("\n") == 1 and said in run.stderr, run.stderr  # '' printed 92 and exit 0
    assert not list(tmp_path.iterdir())
