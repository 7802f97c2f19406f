"""Certified "none": DRAT proofs written beside their CNF, checked by drat-trim, corruption caught."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.model.dimacs_read import read_cnf
from nqueens_cp.model.instances import read_instance
from nqueens_cp.model.proofs import check_proof, cnf_beside

DATA = Path(__file__).parent / "data" / "prob079"  # copied from shared/data/prob079 (see its README)
UNSATISFIABLE = [("diag-10-4-63.param", 8), ("diag-12-4-709.param", 10), ("diag-14-4-416.param", 12)]


def drat_trim() -> None:
    if shutil.which("drat-trim") is None:
        pytest.skip("drat-trim is not installed (Debian package drat-trim; .ci/run installs it)")


@pytest.mark.parametrize("name, d", UNSATISFIABLE)
def test_none_comes_with_a_proof_that_drat_trim_verifies(tmp_path: Path, name: str, d: int) -> None:
    drat_trim()
    instance = read_instance(DATA / name, d)
    proof = tmp_path / "none.drat"
    outcome = nq.solve(instance.n, "sat", instance.position(), proof=str(proof))
    assert outcome.status is nq.Status.NONE and "checked by drat-trim" in outcome.reason
    assert outcome.stats["proof_check"] == "verified" and outcome.stats["proof_cnf"] == str(tmp_path / "none.cnf")
    header = read_cnf((tmp_path / "none.cnf").read_text())
    assert header.n == instance.n
    assert proof.read_text().splitlines()[-1] == "0"  # the empty clause ends a refutation
    assert check_proof(tmp_path / "none.cnf", proof).verified  # and anyone can recheck the pair


def test_a_corrupted_proof_is_rejected(tmp_path: Path, cli) -> None:
    drat_trim()
    instance = read_instance(DATA / "diag-12-4-709.param", 10)
    proof = tmp_path / "p.drat"
    nq.solve(instance.n, "sat", instance.position(), proof=str(proof))
    lines = proof.read_text().splitlines()
    lemmas = [i for i, line in enumerate(lines) if not line.startswith("d") and line != "0"]
    # A lemma that unit propagation cannot justify: the first cell alone.
    bogus = [*lines[:lemmas[0]], "1 0", *lines[lemmas[0]:]]
    (tmp_path / "bogus.drat").write_text("\n".join(bogus) + "\n")
    assert check_proof(tmp_path / "p.cnf", tmp_path / "bogus.drat").status == "rejected"
    # A proof cut short never reaches the empty clause.
    (tmp_path / "short.drat").write_text("\n".join(lines[:len(lines) // 3]) + "\n")
    assert check_proof(tmp_path / "p.cnf", tmp_path / "short.drat").status == "rejected"
    # A proof of another formula: the same proof against the board with nothing blocked.
    plain = tmp_path / "plain.cnf"
    assert cli("dimacs", 12, "-o", plain)[0] == 0
    assert check_proof(plain, proof).status == "rejected"


def test_a_solution_writes_no_proof_and_bad_requests_are_refused(tmp_path: Path, cli) -> None:
    proof = tmp_path / "s.drat"
    assert nq.solve(8, "sat", proof=str(proof)).status is nq.Status.SOLVED
    assert not proof.exists() and not cnf_beside(proof).exists()
    assert cnf_beside("a/x.drat") == Path("a/x.cnf") and cnf_beside("x.proof") == Path("x.proof.cnf")
    with pytest.raises(nq.InvalidInputError, match="cannot log proofs"):
        nq.solve(3, "sat", solver="minisat22", proof=str(proof))
    with pytest.raises(nq.InvalidInputError, match="applies to solve"):
        nq.count(6, "sat", proof=str(proof))
    code, out, err = cli("count", 6, "--engine", "sat", "--proof", proof)  # count does not show the flag
    assert code == 2 and out == "" and "nqueens-cp count: error: unrecognized arguments: --proof" in err
    code, out, err = cli("solve", 3, "--engine", "sat", "--proof", tmp_path / "no" / "p.drat")
    assert code == 2 and out == "" and "cannot write" in err and err.count("\n") == 1


def test_the_cli_says_whether_the_proof_was_checked(tmp_path: Path, cli) -> None:
    drat_trim()
    code, out, err = cli("solve", DATA / "diag-10-4-63.param", "-D", 8, "--engine", "sat", "--proof", tmp_path / "n.drat")
    assert code == 1 and "checked by drat-trim" in out and (tmp_path / "n.cnf").exists()
