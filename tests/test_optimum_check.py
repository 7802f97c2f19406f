"""check and grade of an optimisation model: queen domination and independent domination.

Each model's best board goes through the question's own validator and its size is held
to the reference's proved optimum (nq.optimum: OEIS A075458, A075324).  A model that
needs more queens gets a reference board it excludes, with the constraint at its line;
one whose best is no answer gets the square nobody covers, or the attacking pair.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.checking import ModelError

DOMINATION = '''from ortools.sat.python import cp_model


def grid(n):
    m = cp_model.CpModel()
    return m, [[m.NewBoolVar(f"x{r}_{c}") for c in range(n)] for r in range(n)]


def right(n):
    m, x = grid(n)
    for r in range(n):
        for c in range(n):
            m.AddBoolOr([x[i][j] for i in range(n) for j in range(n)
                         if i == r or j == c or i - j == r - c or i + j == r + c])
    m.Minimize(sum(x[r][c] for r in range(n) for c in range(n)))
    return m, x


def rows_only(n):
    m, x = grid(n)
    for r in range(n):
        for c in range(n):
            m.AddBoolOr([x[i][j] for i in range(n) for j in range(n) if i == r or j == c])
    m.Minimize(sum(x[r][c] for r in range(n) for c in range(n)))
    return m, x


def knights_too(n):
    m, x = grid(n)
    for r in range(n):
        for c in range(n):
            m.AddBoolOr([x[i][j] for i in range(n) for j in range(n) if i == r or j == c or i - j == r - c
                         or i + j == r + c or {abs(i - r), abs(j - c)} == {1, 2}])
    m.Minimize(sum(x[r][c] for r in range(n) for c in range(n)))
    return m, x


def independent(n):
    m, x = right(n)
    for r in range(n):
        for c in range(n):
            for i in range(n):
                for j in range(n):
                    if (i, j) > (r, c) and (i == r or j == c or i - j == r - c or i + j == r + c):
                        m.AddBoolOr([x[r][c].Not(), x[i][j].Not()])
    return m, x


def no_objective(n):
    m, x = grid(n)
    return m, x
'''


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("optimum") / "dom.py"
    path.write_text(DOMINATION)
    return path


def test_a_right_domination_model_proves_every_optimum(models: Path) -> None:
    report = nq.check(f"{models}:right", "1-6", variant="domination")
    assert report.ok
    assert [(row.optimum, row.proved, row.valid) for row in report.rows] == \
        [(nq.optimum(n).size, True, True) for n in range(1, 7)] == [(1, True, True)] * 3 + [(2, True, True),
                                                                                           (3, True, True),
                                                                                           (3, True, True)]
    for row in report.rows:
        assert nq.VARIANTS["domination"].is_dominating(row.witness, row.n)


def test_a_model_that_needs_more_queens_is_shown_a_board_it_excludes_at_its_line(models: Path, cli) -> None:
    code, out, _ = cli("check", f"{models}:rows_only", "1-6", "--variant", "domination", "--format", "json")
    first = json.loads(out.splitlines()[-1])
    assert code == 1 and first["n"] == 2 and not first["agrees"] and first["valid"]
    assert (first["optimum"], first["reference"], first["proved"]) == (2, 1, True)
    excluded = [tuple(q) for q in first["excluded"]]
    assert len(excluded) == 1 and nq.VARIANTS["domination"].is_dominating(excluded, 2)
    line = next(i for i, text in enumerate(DOMINATION.splitlines(), 1) if "if i == r or j == c])" in text)
    assert first["why"]["sites"][0]["line"] == line and "m.AddBoolOr(" in first["why"]["sites"][0]["source"]


def test_a_board_that_is_no_answer_shows_the_square_nobody_covers(models: Path, cli) -> None:
    code, out, _ = cli("check", f"{models}:knights_too", "4", "--variant", "domination")
    assert code == 1 and "N=4   DIFFERS  the model's best, 1 queen (proved optimal by its solver), is no answer: " \
                         "no queen occupies or attacks the square" in out
    row = nq.check(f"{models}:knights_too", 4, variant="domination").rows[0]
    r, c = (int(v) for v in row.attack.rsplit(" ", 1)[1].split(":"))
    assert not any((r, c) in nq.VARIANTS["domination"].covers(4, q) for q in row.witness)


def test_independent_domination_and_an_ordinary_domination_model_against_it(models: Path) -> None:
    assert nq.check(f"{models}:independent", "1-6", variant="independent").ok
    # gamma(Q4) = 2 < i(Q4) = 3: a domination model's best board of 2 queens has them in attack
    row = nq.check(f"{models}:right", 4, variant="independent").rows[0]
    assert (row.agrees, row.valid, row.optimum, row.reference) == (False, False, 2, 3)
    assert "attack each other along" in row.attack
    named = {(int(r), int(c)) for r, c in (word.split(":") for word in row.attack.split() if ":" in word)}
    assert named == set(row.witness)


def test_an_optimisation_check_needs_an_objective_and_reads_cpsat(models: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="has no objective"):
        nq.check(f"{models}:no_objective", 4, variant="domination")
    lp = tmp_path / "dom.lp"
    lp.write_text("q(R,C) :- R = 1..n, C = 1..n, not q(R,C).\n")
    pytest.importorskip("clingo")
    with pytest.raises(ModelError, match="reads CP-SAT and CPMpy models from Python and MiniZinc models"):
        nq.check(str(lp), 4, variant="domination")


def test_grade_takes_optimisation_models_as_the_others(models: Path, tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("right", "rows_only"):
        (folder / f"{name}.py").write_text(DOMINATION.replace(f"def {name}(n):", "def model(n):")
                                           .replace("m, x = right(n)", "m, x = model(n)"))
    report = nq.grade(folder, "1-5", variant="domination")
    assert [(r.submission, r.verdict, r.first_wrong) for r in report.records] == [("right.py", "right", None),
                                                                                 ("rows_only.py", "wrong", 2)]
    assert report.records[1].records[1]["reference"] == 1


def test_an_optimisation_models_autograder_results(models: Path, cli) -> None:
    code, out, _ = cli("check", f"{models}:rows_only", "1-3", "--variant", "domination", "--format", "gradescope")
    result = json.loads(out)
    assert code == 1 and [t["status"] for t in result["tests"]] == ["passed", "failed", "failed"]
    assert result["tests"][1]["output"].startswith("differs: the model's best is 2 queens (proved by its solver), "
                                                   "the optimum 1")


def test_a_cpmpy_domination_model(tmp_path: Path) -> None:
    pytest.importorskip("cpmpy", reason="CPMpy is not installed (the 'cpmpy' extra)")
    path = tmp_path / "cpm.py"
    path.write_text("import cpmpy as cp\n\n\ndef model(n):\n    x = cp.boolvar(shape=(n, n), name='x')\n"
                    "    m = cp.Model([cp.any([x[i, j] for i in range(n) for j in range(n) if i == r or j == c\n"
                    "                          or i - j == r - c or i + j == r + c]) for r in range(n) for c in range(n)])\n"
                    "    m.minimize(cp.sum([x[i, j] for i in range(n) for j in range(n)]))\n    return m, x\n")
    report = nq.check(f"{path}:model", "1-5", variant="domination")
    assert report.ok and [row.optimum for row in report.rows] == [1, 1, 1, 2, 3]


MZN = """int: n;
array[1..n, 1..n] of var 0..1: x;
constraint forall(r in 1..n, c in 1..n)(
  exists(i in 1..n, j in 1..n where i == r \\/ j == c \\/ i - j == r - c \\/ i + j == r + c)(x[i, j] = 1));
solve minimize sum(x);
"""


def test_a_minizinc_domination_model_and_its_mistake_at_its_line(tmp_path: Path) -> None:
    import shutil

    if shutil.which("minizinc") is None:
        pytest.skip("MiniZinc is not installed (Debian: minizinc flatzinc; .ci/run installs it)")
    right, rows = tmp_path / "dom.mzn", tmp_path / "rows.mzn"
    right.write_text(MZN)
    rows.write_text(MZN.replace(" \\/ i - j == r - c \\/ i + j == r + c", ""))
    assert nq.check(str(right), "1-5", variant="domination", var="x").ok
    row = nq.check(str(rows), "1-5", variant="domination", var="x").first_difference
    assert (row.n, row.optimum, row.reference, row.valid) == (2, 2, 1, True)
    assert row.why.parts[0].startswith("rows.mzn:3.") and row.why.sites[0]["line"] == 3
