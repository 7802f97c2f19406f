"""A reason in the student's own words: the file, line and text of what excludes a board; and a
reason is a claim, held to what it says.

Each model below has a mistake on a known line; the check's reason must name that
line and its text (``why.sites`` in JSON), and say the constraint as written, never
as CP-SAT's int64 domains.  The 1-based models have no board at N = 4, so nothing
but their declared domain tells their numbering: fed 0-based, a board once read
"the model accepts it", which was false.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.checking.cpsat import linear_text

INT64 = (-(1 << 63), (1 << 63) - 1)

CPSAT = '''from ortools.sat.python import cp_model


def model(n):
    m = cp_model.CpModel()
    q = [m.NewIntVar({low}, n - 1 + {low}, f"q{{i}}") for i in range(n)]
    m.AddAllDifferent(q)
    m.AddAllDifferent([q[i] + i for i in range(n)])
    m.AddAllDifferent([q[i] - i for i in range(n)])
    {mistake}
    return m, q
'''


def written(tmp_path: Path, mistake: str, low: int = 0) -> Path:
    path = tmp_path / "student.py"
    path.write_text(CPSAT.format(low=low, mistake=mistake))
    return path


def line_of(path: Path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == text)


@pytest.mark.parametrize(("mistake", "said"), [
    ("m.Add(q[0] != 1)", "q0 != 1"),
    ("m.add(q[0] < q[n - 1])", "q0 < q4"),
    ("m.Add(2 * q[1] + q[2] <= 5)", "2*q1 + q2 <= 5"),
], ids=["not-equal", "less-than", "linear"])
def test_a_cpsat_reason_names_the_students_line_and_says_the_constraint_as_written(
        tmp_path: Path, cli, mistake: str, said: str) -> None:
    path = written(tmp_path, mistake)
    code, out, _ = cli("check", f"{path}:model", "5", "--format", "json")
    why = json.loads(out.splitlines()[0])["why"]
    line = line_of(path, mistake)
    assert code == 1 and why["sites"] == [{"file": str(path), "line": line, "source": mistake}]
    assert why["text"] == f"the model's constraint at student.py:{line} ({mistake}) is false for this board"
    assert why["parts"][0].startswith(f"student.py:{line}  {mistake}   [#3 {said}]")
    assert not any(str(bound) in why["parts"][0] for bound in INT64)


def test_a_pysat_clause_and_a_dimacs_line_are_named_with_the_cells_in_words(tmp_path: Path, cli) -> None:
    path = tmp_path / "sat.py"
    path.write_text("from nqueens_cp.model.cnf import encode\nfrom pysat.formula import CNF\n\n\n"
                    "def model(n):\n    cnf = CNF(from_clauses=encode(n, 'pairwise').clauses)\n"
                    "    cnf.append([-(1 * n + 3 + 1)])\n    cnf.nv = max(cnf.nv, n * n)\n"
                    "    return cnf, [[r * n + c + 1 for c in range(n)] for r in range(n)]\n")
    why = nq.check(f"{path}:model", 5).rows[0].why
    assert why.sites == ({"file": str(path), "line": 7, "source": "cnf.append([-(1 * n + 3 + 1)])"},)
    assert "clause" in why.text and "sat.py:7 (cnf.append([-(1 * n + 3 + 1)]))" in why.text
    assert why.parts[0].endswith("-9 0  (not (row 1, column 3))")
    assert cli("dimacs", "5", "-o", tmp_path / "q-5.cnf")[0] == 0
    text = (tmp_path / "q-5.cnf").read_text().splitlines()
    header = next(i for i, line in enumerate(text) if line.startswith("p cnf"))
    words = text[header].split()
    text[header] = f"p cnf {words[2]} {int(words[3]) + 1}"
    (tmp_path / "q-5.cnf").write_text("\n".join([*text, "-9 0"]) + "\n")
    why = nq.check(str(tmp_path / "q-{n}.cnf"), 5).rows[0].why
    assert why.sites == ({"file": str(tmp_path / "q-5.cnf"), "line": len(text) + 1, "source": "-9 0"},)


ONE_BASED_MZN = """include "alldifferent.mzn";
int: n;
array[1..n] of var 1..n: q;
constraint alldifferent(q);
constraint alldifferent(i in 1..n)(q[i] + i);
constraint alldifferent(i in 1..n)(q[i] - i);
constraint q[1] = 1;
solve satisfy;
"""


@pytest.mark.parametrize("form", ["CP-SAT", "CPMpy", "MiniZinc"])
def test_a_one_based_model_with_no_board_is_fed_its_boards_one_based_and_the_reason_is_true(
        tmp_path: Path, form: str) -> None:
    """q[0] == 1 (the first column, 1-based) at N = 4, where no board has it: the base comes from the declared
    domain, and the reason names that constraint (fed 0-based, the board (1, 3, 0, 2) satisfied it)."""
    if form == "MiniZinc":
        if shutil.which("minizinc") is None:
            pytest.skip("MiniZinc is not installed (Debian: minizinc flatzinc; .ci/run installs it)")
        model = tmp_path / "one.mzn"
        model.write_text(ONE_BASED_MZN)
        name = str(model)
    elif form == "CPMpy":
        pytest.importorskip("cpmpy", reason="CPMpy is not installed (the 'cpmpy' extra)")
        model = tmp_path / "one.py"
        model.write_text("import cpmpy as cp\n\n\ndef model(n):\n    q = cp.intvar(1, n, shape=(n,), name='q')\n"
                         "    return cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(n)]),\n"
                         "                    cp.AllDifferent([q[i] - i for i in range(n)]), q[0] == 1), q\n")
        name = f"{model}:model"
    else:
        name = f"{written(tmp_path, 'm.Add(q[0] == 1)', low=1)}:model"
    row = nq.check(name, 4).rows[0]
    assert row.boards == 0 and row.missing_count == 2 and row.base == 1
    assert not row.why.accepted and "1" in row.why.parts[0]
    assert {"CP-SAT": "m.Add(q[0] == 1)", "CPMpy": "q[0] == 1", "MiniZinc": "constraint q[1] = 1;"}[form] \
        in row.why.parts[0]


def test_a_value_outside_the_declared_domain_is_said_so(tmp_path: Path) -> None:
    """--base 0 forced on a 1-based model: the reason says the board needs a value the variable cannot take."""
    path = written(tmp_path, "pass", low=1)
    row = nq.check(f"{path}:model", 4, base=0).rows[0]
    assert "outside its declared domain 1..4" in row.why.text and not row.why.accepted


@pytest.mark.parametrize(("terms", "domain", "said"), [
    ([("x", 1)], [INT64[0], 0, 2, INT64[1]], "x != 1"),
    ([("x", 1), ("y", -1)], [INT64[0], -1], "x < y"),
    ([("x", 1), ("y", -1)], [1, INT64[1]], "x > y"),
    ([("x", 1), ("y", -1)], [0, 0], "x == y"),
    ([("x", 2), ("y", 1)], [INT64[0], 7], "2*x + y <= 7"),
    ([("x", 1)], [3, INT64[1]], "x >= 3"),
    ([("x", 1)], [1, 4], "1 <= x <= 4"),
    ([("x", 1), ("y", -2)], [INT64[0], 3], "x <= 2*y + 3"),
])
def test_linear_constraints_read_as_written(terms, domain, said: str) -> None:
    assert linear_text(terms, domain) == said


MAXIMIZE = {
    "CP-SAT": ("student.py", CPSAT.format(low=0, mistake="m.maximize(q[0])"), "model"),
    "CPMpy": ("student.py", "import cpmpy as cp\n\n\ndef model(n):\n    q = cp.intvar(0, n - 1, shape=(n,), name='q')\n"
              "    m = cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(n)]),\n"
              "                 cp.AllDifferent([q[i] - i for i in range(n)]))\n    m.maximize(q[0])\n"
              "    return m, q\n", "model"),
    "MiniZinc": ("student.mzn", ONE_BASED_MZN.replace("constraint q[1] = 1;\n", "").replace(
        "solve satisfy;", "solve maximize q[1];"), None),
    "clingo": ("student.lp", "row(1..n). col(1..n).\n{ queen(R,C) : col(C) } = 1 :- row(R).\n"
               ":- queen(R1,C), queen(R2,C), R1 < R2.\n:- queen(R1,C1), queen(R2,C2), R1 < R2, R2 - R1 = |C2 - C1|.\n"
               "#maximize { C : queen(1,C) }.\n", None),
}


@pytest.mark.parametrize("form", sorted(MAXIMIZE))
def test_a_model_with_an_objective_is_refused_by_one_rule_in_every_form(tmp_path: Path, cli, form: str) -> None:
    if form == "MiniZinc" and shutil.which("minizinc") is None:
        pytest.skip("MiniZinc is not installed (Debian: minizinc flatzinc; .ci/run installs it)")
    pytest.importorskip({"CPMpy": "cpmpy", "clingo": "clingo"}.get(form, "ortools"))
    name, text, function = MAXIMIZE[form]
    (tmp_path / name).write_text(text)
    model = str(tmp_path / name) + (f":{function}" if function else "")
    code, out, err = cli("check", model, "1-6")
    assert code == 4 and out == ""
    assert err.strip().endswith("the model has an objective (maximize): check compares all of a model's boards, and "
                                "an objective asks for the best one; take it out, or give --ignore-objective to check "
                                "its feasible boards")
    code, out, err = cli("check", model, "1-6", "--ignore-objective")
    assert code == 0, err


def test_the_tools_own_words_on_a_mistake_are_passed_on(tmp_path: Path, cli) -> None:
    pytest.importorskip("clingo")
    typo = tmp_path / "typo.lp"
    typo.write_text("row(1..n). col(1..n).\n{ queen(R,C) : col(C) } = 1 :- row(R).\n"
                    ":- quen(R1,C), queen(R2,C), R1 < R2.\n")
    code, _, err = cli("check", typo, "4")
    assert code == 1 and "clingo says:" in err and "quen(R1,C)" in err and "does not occur in any rule head" in err
    if shutil.which("minizinc"):
        fixed_n = tmp_path / "eight.mzn"
        fixed_n.write_text(ONE_BASED_MZN.replace("int: n;", "int: n = 8;"))
        code, _, err = cli("check", fixed_n, "4")
        assert code == 4 and "multiple assignment" in err and "declare it 'int: n;', with no value" in err


def test_a_knights_move_is_named_and_floating_auxiliaries_are_counted(tmp_path: Path, cli) -> None:
    row = nq.check(f"{written(tmp_path, 'pass')}:model", 6, variant="superqueens").rows[0]
    assert "along a knight's move (" in row.attack
    floating = tmp_path / "floating.py"
    floating.write_text(CPSAT.format(low=0, mistake="m.NewBoolVar('spare')"))
    code, out, _ = cli("check", f"{floating}:model", "6")
    assert code == 0 and "4 boards from 8 solutions (2 a board): the model's other variables float" in out
