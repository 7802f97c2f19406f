"""check: a model someone wrote against the reference, in every form, right and wrong.

Every claim of a report is held to something independent of the check: the
counts to the published totals, an extra board to the validator (it must be
refused) and to the user's model (it must accept it: fixed, the model is
still satisfiable), a missing board to the validator (accepted) and the
model (fixed, unsatisfiable), the reason to the line of the user's file.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

import nqueens_cp as nq
from nqueens_cp.checking import ModelError, check
from nqueens_cp.known import TOTAL
from nqueens_cp.model.variants import COLUMNS, Lines, family

from conftest import program

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "models"
MISTAKES = MODELS / "mistakes"

CPSAT = textwrap.dedent("""\
    from ortools.sat.python import cp_model

    def right(n):
        m = cp_model.CpModel(); q = [m.NewIntVar(0, n - 1, f"q{r}") for r in range(n)]
        m.AddAllDifferent(q); m.AddAllDifferent([q[r] + r for r in range(n)]); m.AddAllDifferent([q[r] - r for r in range(n)])
        return m, q

    def wrong(n):
        m = cp_model.CpModel(); q = [m.NewIntVar(0, n - 1, f"q{r}") for r in range(n)]
        m.AddAllDifferent(q); m.AddAllDifferent([q[r] + r for r in range(n)])
        return m, q

    def one_based_off_by_one(n):  # 1-based; the last row's diagonal key off by one
        m = cp_model.CpModel(); q = [m.new_int_var(1, n, f"q{r}") for r in range(n)]
        m.add_all_different(q).with_name("columns")
        m.add_all_different([q[r] + r for r in range(n)]).with_name("anti")
        m.add_all_different([q[r] - r - (1 if r == n - 1 else 0) for r in range(n)]).with_name("diagonals")
        return m, q

    def grid(n):
        m = cp_model.CpModel(); x = [[m.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
        for r in range(n): m.add_exactly_one(x[r])
        for c in range(n): m.add_exactly_one([x[r][c] for r in range(n)])
        for k in range(2 * n - 1):
            m.add_at_most_one([x[r][k - r] for r in range(n) if 0 <= k - r < n])
            m.add_at_most_one([x[r][r - k + n - 1] for r in range(n) if 0 <= r - k + n - 1 < n])
        return m, x

    def floating(n):
        m, q = right(n)
        m.new_bool_var("spare")
        return m, q

    def toroidal(n):
        m = cp_model.CpModel(); q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
        m.add_all_different(q)
        for k in (1, -1):
            keys = [m.new_int_var(0, n - 1, f"k{k}_{r}") for r in range(n)]
            for r in range(n): m.add_modulo_equality(keys[r], q[r] + k * r + n, n)
            m.add_all_different(keys)
        return m, q

    def off_board(n):
        m = cp_model.CpModel(); q = [m.new_int_var(0, n, f"q{r}") for r in range(n)]
        m.add_all_different(q); m.add_all_different([q[r] + r for r in range(n)]); m.add_all_different([q[r] - r for r in range(n)])
        return m, q

    def rooks(n):
        m = cp_model.CpModel(); q = [m.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
        m.add_all_different(q)
        return m, q

    def raises(n):
        rows = list(range(n))
        return rows[n]

    def three(n):
        return 1, 2, 3

    def ignores_n(n):
        m = cp_model.CpModel(); return m, [m.new_int_var(0, 7, f"q{r}") for r in range(8)]

    def expressions(n):
        m = cp_model.CpModel(); return m, [m.new_int_var(0, n - 1, f"q{r}") + 1 for r in range(n)]

    def objective(n):
        m, q = right(n); m.minimize(q[0]); return m, q
    """)


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("models")
    (folder / "m.py").write_text(CPSAT)
    return folder


def model_accepts(function, n: int, board: tuple[int, ...], base: int = 0) -> bool:
    """The user's CP-SAT model with ``board`` fixed: satisfiable?  (CP-SAT itself, not the check.)"""
    from ortools.sat.python import cp_model

    m, q = function(n)
    for var, col in zip(q, board):
        m.add(var == col + base)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # (CP-SAT's handler would stay this process's for good)
    solver.parameters.num_workers = 1
    return solver.solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def load(models: Path, name: str):
    import runpy

    return runpy.run_path(str(models / "m.py"))[name]


# --- right models in every form pass ---------------------------------------------------

def test_a_right_cpsat_model_agrees_at_every_n(cli, models: Path) -> None:
    code, out, err = cli("check", f"{models}/m.py:right", "1-8", "--format", "json")
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["n"] for r in rows] == list(range(1, 9))
    for row in rows:
        assert row["agrees"] and row["boards"] == row["reference"] == TOTAL[row["n"]]
        assert row["missing"] == row["extra"] == [] and row["why"] is None
        assert row["determined"] is (True if TOTAL[row["n"]] else None)
        assert {"n", "agrees", "boards", "reference", "missing", "extra", "why", "determined", "seconds"} <= set(row)
    assert "agrees with the reference at every N" in err


@pytest.mark.parametrize("name", ["grid", "one_based_off_by_one"])
def test_grids_and_one_based_columns_are_read(models: Path, name: str) -> None:
    report = check(f"{models}/m.py:{name}", "4-6", every=True)
    if name == "grid":
        assert report.ok and [r.base for r in report.rows] == [None] * 3
    else:
        assert [r.base for r in report.rows] == [1, 1, 1]  # told from the declared domain 1..n


def test_every_checked_in_model_file_passes() -> None:
    program("minizinc", "Debian: apt install minizinc flatzinc")
    pytest.importorskip("clingo", reason="clingo is not installed")
    # (to 10: the files of 11 and 12, 2,680 and 14,200 boards through the blocking clauses, are counted
    # by test_models, and regenerated byte for byte there)
    assert check(str(MODELS / "nqueens-{n:02}-pairwise.cnf"), range(4, 11)).ok
    for encoding in ("seqcounter", "ladder", "commander", "product", "binary"):
        assert check(str(MODELS / f"nqueens-{{n:02}}-{encoding}.cnf"), 8).ok
    assert check(str(MODELS / "nqueens-08.lp"), "1-9").ok
    assert check(str(MODELS / "nqueens-{n:02}-cpsat.pbtxt"), 8).ok  # (the file of N = 8: its variables q0..q7)
    report = check(str(MODELS / "nqueens-08.mzn"), "1-8",
                   data="placed_row = []; placed_col = []; blocked_row = []; blocked_col = [];")
    assert report.ok and report.rows[-1].boards == 92 and report.rows[-1].base == 0


def test_a_function_passed_from_python_and_a_generator(models: Path, tmp_path: Path) -> None:
    assert check(load(models, "right"), [4, 6, 8]).ok
    generator = tmp_path / "gen.py"
    generator.write_text(textwrap.dedent("""\
        import sys
        from nqueens_cp.model.cnf import encode
        cnf = encode(int(sys.argv[1]), "ladder")
        print(f"p cnf {cnf.nvars} {len(cnf.clauses)}")
        for clause in cnf.clauses:
            print(*clause, 0)
        """))
    report = check(None, "1-7", generator=f"{sys.executable} {generator} {{n}}")
    assert report.ok and [r.boards for r in report.rows] == [TOTAL[n] for n in range(1, 8)]


# --- wrong models: the first N that differs, true counterexamples ---------------------------

def test_the_hooks_pair_right_exits_0_and_wrong_exits_1(cli, models: Path) -> None:
    assert cli("check", f"{models}/m.py:right", "1-6")[0] == 0
    code, out, err = cli("check", f"{models}/m.py:wrong", "1-6")
    assert code == 1 and "Traceback" not in err
    assert "N=2" in out and "DIFFERS" in out and "first differs from the reference at N=2" in err
    assert "N=3" not in out  # it stops at the first N that differs


def test_an_extra_board_is_refused_by_the_validator_and_accepted_by_the_model(models: Path) -> None:
    wrong = load(models, "wrong")
    report = check(wrong, "5-6", every=True, show=5)
    for row in report.rows:
        assert not row.agrees and row.missing_count == 0 and row.extra_count > 0
        assert row.boards == row.reference + row.extra_count
        for board in row.extra:
            assert not nq.is_solution(board, row.n) and model_accepts(wrong, row.n, board)
        assert row.extra == sorted(row.extra) and len(row.extra) == min(5, row.extra_count)
        assert "diagonal (c - r)" in row.attack


def test_a_missing_board_comes_with_the_constraint_that_excludes_it(cli, models: Path) -> None:
    function = load(models, "one_based_off_by_one")
    report = check(function, 6, show=10)
    row = report.rows[0]
    assert not row.agrees and row.missing_count > 0
    assert row.missing == sorted(row.missing)
    for board in row.missing:
        assert nq.is_solution(board, 6) and not model_accepts(function, 6, board, base=1)
    assert row.why is not None and not row.why.accepted
    assert row.why.parts and '"diagonals" AllDifferent(q0, q1 - 1' in row.why.parts[0]
    assert row.why.sites[0]["file"].endswith("m.py") and ".with_name(\"diagonals\")" in row.why.sites[0]["source"]
    code, out, _ = cli("check", f"{models}/m.py:one_based_off_by_one", "6")
    assert code == 1 and "smallest missing board" in out and "why:" in out and '"diagonals"' in out


def test_the_mistakes_in_models_mistakes_are_caught(cli) -> None:
    code, out, _ = cli("check", f"{MISTAKES}/no_anti_diagonal.py:model", "1-8")
    assert code == 1 and "N=2" in out and "anti-diagonal (c + r)" in out
    assert cli("check", f"{MISTAKES}/no_anti_diagonal.py:fixed", "1-8")[0] == 0
    code, out, _ = cli("check", f"{MISTAKES}/floating_aux.py:model", "4-6", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and all(r["agrees"] and r["determined"] is False for r in rows)


def test_a_minizinc_off_by_one_is_located_in_the_users_file(cli) -> None:
    program("minizinc", "Debian: apt install minizinc flatzinc")
    code, out, _ = cli("check", f"{MISTAKES}/off_by_one.mzn", "1-6", "--all", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [r["n"] for r in rows] == list(range(1, 7))
    six = rows[-1]
    assert six["reference"] == 4 and six["missing_count"] == 2
    assert all(nq.is_solution(tuple(b), 6) for b in six["missing"])
    assert all(not nq.is_solution(tuple(b), 6) for b in six["extra"])
    line = next(i for i, text in enumerate((MISTAKES / "off_by_one.mzn").read_text().splitlines(), 1)
                if text.startswith("constraint forall"))
    assert f"off_by_one.mzn:{line}." in six["why"]["parts"][0] and "j - i + 1" in six["why"]["parts"][0]


def test_a_clingo_rule_that_excludes_a_board_is_named(tmp_path: Path) -> None:
    pytest.importorskip("clingo", reason="clingo is not installed")
    path = tmp_path / "wrong.lp"
    path.write_text("{ queen(I,1..n) } = 1 :- I = 1..n.\n"
                    ":- queen(I,J), queen(I',J), I != I'.\n"
                    ":- queen(I,J), queen(I',J'), I < I', I'-I = J-J'.\n"
                    ":- queen(I,J), queen(I',J'), I < I', I'-I = J'-J+1.\n")
    row = check(str(path), 6).rows[0]
    assert not row.agrees and row.base == 1
    assert all(nq.is_solution(b, 6) for b in row.missing) and all(not nq.is_solution(b, 6) for b in row.extra)
    assert row.why is not None and row.why.parts[0].startswith("wrong.lp:4:1:")
    assert row.why.sites == ({"file": str(path), "line": 4, "source": ":- queen(I,J), queen(I',J'), I < I', I'-I = J'-J+1."},)


def test_a_cnf_clause_that_excludes_a_board_is_named(tmp_path: Path) -> None:
    from nqueens_cp.model.cnf import encode

    n = 5
    cnf = encode(n, "pairwise")
    wrong = [*cnf.clauses, [-(0 * n + 1 + 1), -(2 * n + 0 + 1)]]  # no queens on 0:1 and 2:0 together
    path = tmp_path / f"bad-{n}.cnf"
    path.write_text(f"p cnf {cnf.nvars} {len(wrong)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in wrong))
    row = check(str(tmp_path / "bad-{n}.cnf"), n).rows[0]
    excluded = sorted(b for b in nq.solutions(n) if b[0] == 1 and b[2] == 0)
    assert not row.agrees and excluded and row.missing == excluded[:3] and row.extra == []
    assert row.why is not None and f"clause {len(wrong)}: -2 -11 0  (not (row 0, column 1) or not (row 2, column 0))" \
        in row.why.parts[0]
    assert row.why.sites == ({"file": str(path), "line": len(wrong) + 1, "source": "-2 -11 0"},)


def test_cpmpy_models_are_read_and_explained(models: Path) -> None:
    cp = pytest.importorskip("cpmpy", reason="cpmpy is not installed")

    def right(n):
        q = cp.intvar(1, n, shape=(n,), name="q")
        return cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(n)]),
                        cp.AllDifferent([q[i] - i for i in range(n)])), q

    def wrong(n):
        q = cp.intvar(1, n, shape=(n,), name="q")
        return cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(n)]),
                        cp.AllDifferent([q[i] - i for i in range(n - 1)] + [q[n - 1] - n])), q

    assert check(right, "1-7").ok
    row = check(wrong, 6).rows[0]
    assert not row.agrees and row.missing and row.why is not None and "alldifferent" in row.why.parts[0].lower()


# --- members of the family ---------------------------------------------------------------

def test_other_members_and_declared_ones(models: Path) -> None:
    toroidal = load(models, "toroidal")
    assert check(toroidal, "1-7", variant="toroidal").ok
    row = check(load(models, "right"), 7, variant="toroidal").rows[0]  # plain queens: 40 boards, the torus 28 of them
    assert not row.agrees and (row.boards, row.reference, row.extra_count) == (40, 28, 12) and "wrapped" in row.attack
    assert check(load(models, "rooks"), "1-6", variant="rooks").ok
    columns_only = family("columns-only", [COLUMNS])
    assert check(load(models, "rooks"), 5, variant=columns_only).ok
    far = family("far", [COLUMNS, Lines(-1), Lines(1)], [(3, 1)])
    row = check(load(models, "right"), 7, variant=far).rows[0]
    assert not row.agrees and row.extra and "offset (3, 1)" in row.attack


# --- bad models: one clear message each ------------------------------------------------

@pytest.mark.parametrize("name, said", [
    ("raises", "m.py:raises(4) raised IndexError"),
    ("three", "returned a tuple of 3; expected (model, board)"),
    ("ignores_n", "a board of 8 entries for N = 4 (does the model ignore n?)"),
    ("expressions", "not a variable"),
    ("objective", "has an objective"),
    ("absent", "has no function absent (it defines"),
])
def test_a_broken_python_model_is_one_line(cli, models: Path, name: str, said: str) -> None:
    code, out, err = cli("check", f"{models}/m.py:{name}", "4")
    assert code == 4 and out == "" and said in err.splitlines()[-1]
    if name == "raises":  # the user's traceback, not ours
        assert 'm.py", line' in err and "nqueens_cp" not in err
    else:
        assert "Traceback" not in err


def test_syntax_errors_are_the_tools_own_message(cli, tmp_path: Path) -> None:
    (tmp_path / "s.py").write_text("def f(n)\n    return 1\n")
    code, _, err = cli("check", f"{tmp_path}/s.py:f", "4")
    assert code == 4 and "s.py, line 1" in err and "Traceback" not in err
    program("minizinc", "Debian: apt install minizinc flatzinc")
    (tmp_path / "s.mzn").write_text("int: n;\narray[1..n] of var 1..n: q\nconstraint q[1] = 1;\n")
    code, _, err = cli("check", f"{tmp_path}/s.mzn", "4")
    assert code == 4 and "s.mzn:3" in err.splitlines()[-1] and "syntax error" in err


def test_a_clingo_syntax_error_and_a_minizinc_model_without_n(cli, tmp_path: Path) -> None:
    pytest.importorskip("clingo", reason="clingo is not installed")
    (tmp_path / "s.lp").write_text("{ queen(I,1..n) } = 1 :- I = 1..n.\n:- queen(I,J), queen(K,J) I != K.\n")
    code, _, err = cli("check", f"{tmp_path}/s.lp", "4")
    assert code == 4 and err.count("\n") == 1 and "s.lp:2:" in err and "syntax error" in err
    program("minizinc", "Debian: apt install minizinc flatzinc")
    (tmp_path / "size.mzn").write_text("int: size;\narray[1..size] of var 1..size: q;\n")
    code, _, err = cli("check", f"{tmp_path}/size.mzn", "4")
    assert code == 4 and "declares no 'int: n;'" in err and err.count("\n") == 1


def test_a_variable_that_is_not_there(cli, tmp_path: Path) -> None:
    program("minizinc", "Debian: apt install minizinc flatzinc")
    code, _, err = cli("check", f"{MISTAKES}/off_by_one.mzn", "4", "--var", "x")
    assert code == 4 and "has no decision variable x (its variables: q)" in err
    pytest.importorskip("clingo", reason="clingo is not installed")
    code, _, err = cli("check", f"{MODELS}/nqueens-08.lp", "4", "--var", "piece/2")
    assert code == 4 and "no atom piece/2" in err


def test_values_off_the_board_are_not_boards(models: Path) -> None:
    row = check(load(models, "off_board"), 4).rows[0]
    assert not row.agrees and row.not_boards_count > 0
    assert all(any(c == 4 for _, c in squares) for squares in row.not_boards)
    assert "off the 4x4 board" in row.attack or "column" in row.attack


def test_millions_of_solutions_stream_and_every_one_is_counted(models: Path) -> None:
    row = check(load(models, "rooks"), 8).rows[0]  # 40,320 permutations, 92 of them boards
    assert row.boards == row.solutions == 40320 and row.extra_count == 40320 - 92 and row.missing_count == 0


def test_a_model_that_never_ends_meets_the_time_limit(cli, models: Path) -> None:
    code, out, err = cli("check", f"{models}/m.py:rooks", "6", "13", "--all", "--time-limit", "1")
    assert code == 3 and "time limit" in err and "N=6" in out
    with pytest.raises(nq.TimeLimitReached) as stopped:  # (from Python: the N checked by then, on the error)
        check(f"{models}/m.py:rooks", [6, 13], every=True, time_limit=1)
    assert [row.n for row in stopped.value.report.rows] == [6]


def test_duplicates_and_undetermined_variables_are_reported(models: Path) -> None:
    row = check(load(models, "floating"), 6).rows[0]
    assert row.agrees and row.solutions == 2 * row.boards and row.duplicates == row.boards
    assert row.determined is False and "spare" in row.undetermined


@pytest.mark.parametrize("argv, said", [
    (["check", "m.py:right"], "name the sizes"),
    (["check", "m.py:right", "x"], "SPEC 'x'"),
    (["check", "m.txt", "4"], "not a form check reads"),
    (["check", "m.py", "4"], "name the function too"),
    (["check", "m.py:right", "4", "--generator", "gen {n}"], "name no MODEL"),
    (["check", "--generator", "gen", "4"], "put {n}"),
    (["check", "q.cnf", "4"], "put {n} in the path"),
    (["check", "m.py:right", "4", "--base", "2"], "--base"),
])
def test_usage_mistakes_exit_2(cli, argv: list[str], said: str) -> None:
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and said in err and "Traceback" not in err


def test_a_missing_file_is_a_failure_of_one_line(cli, tmp_path: Path) -> None:
    code, _, err = cli("check", f"{tmp_path}/none-{{n}}.cnf", "4")
    assert code == 4 and "cannot read" in err and len(err.splitlines()) == 1


def test_the_api_refuses_bad_arguments_with_its_own_error(models: Path) -> None:
    with pytest.raises(nq.InvalidInputError):
        check(load(models, "right"), 0)
    with pytest.raises(nq.InvalidInputError):
        check(load(models, "right"), 4, base=3)
    with pytest.raises(ModelError):
        check(f"{models}/m.py:three", 4)


def test_a_model_imports_what_lies_beside_it(tmp_path: Path) -> None:
    (tmp_path / "sizes.py").write_text("def top(n):\n    return n - 1\n")
    (tmp_path / "uses.py").write_text(CPSAT.replace("from ortools.sat.python import cp_model",
                                                    "from ortools.sat.python import cp_model\nfrom sizes import top"))
    assert check(f"{tmp_path}/uses.py:right", "4-6").ok
    assert str(tmp_path) not in sys.path


def test_ctrl_c_keeps_the_rows_printed_and_exits_130(models: Path) -> None:
    import signal
    import subprocess

    process = subprocess.Popen([sys.executable, "-m", "nqueens_cp", "check", f"{models}/m.py:rooks", "6", "12",
                                "--all", "--format", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(process.stdout.readline())  # N = 6 is checked: N = 12 (12! solutions) is under way
        assert first["n"] == 6 and first["boards"] == 720
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130 and out == "" and "interrupted" in err and "Traceback" not in err


def test_a_cpsat_model_exported_as_protobuf_text(models: Path, tmp_path: Path) -> None:
    for n in (5, 6):
        model, _ = load(models, "one_based_off_by_one")(n)
        assert model.export_to_file(str(tmp_path / f"student-{n}.pbtxt"))
    row = check(str(tmp_path / "student-{n}.pbtxt"), 6).rows[0]
    assert not row.agrees and row.base == 1 and row.missing and '"diagonals"' in row.why.parts[0]
    with pytest.raises(ModelError, match="no variables x0 .. x4"):
        check(str(tmp_path / "student-{n}.pbtxt"), 5, var="x")


def test_a_model_that_imports_what_this_python_lacks_is_one_line(cli, tmp_path: Path) -> None:
    (tmp_path / "needs.py").write_text("import no_such_package_for_nqueens\n\ndef f(n):\n    return None\n")
    code, out, err = cli("check", f"{tmp_path}/needs.py:f", "4")
    assert code == 4 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "imports no_such_package_for_nqueens, which the Python running the check" in err and sys.executable in err


def test_a_model_that_imports_our_own_dependency_this_python_lacks_is_told_the_python_that_has_it(
        monkeypatch) -> None:
    """The stop hook's `python3 -m nqueens_cp check M.py:right 1-6` exited 4, and 1 was expected of a
    wrong model: its python3 was the machine's, with no OR-Tools, running the package from the clone's
    folder (the README's install is in .venv).  The one line now says which Python has it."""
    import importlib.util

    from nqueens_cp.checking import python as loading

    venv = Path(loading.__file__).resolve().parents[2] / ".venv"
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ortools" else real(name, *a))
    monkeypatch.setattr(sys, "prefix", "/a-python-without-ortools")
    said = loading._missing("M.py", ImportError("No module named 'ortools'", name="ortools"))
    assert said.startswith("M.py imports ortools, which the Python running the check") and "\n" not in said
    if (venv / "bin" / "python").exists():  # (a clone with the README's install: CI's)
        assert said.endswith(f"which the README's install put in {venv}: run {venv}/bin/python -m nqueens_cp")
    else:
        assert said.endswith("install nqueens-cp for this Python (README.md)")
    # a package of the user's own, or a module missing from a dependency this Python has: no such word
    for name in ("no_such_package_for_nqueens", "pysat.no_such_module"):
        assert "own dependencies" not in loading._missing("M.py", ImportError("No module", name=name))


def test_our_dependencies_named_in_that_line_are_pyprojects() -> None:
    """OUR_DEPENDENCIES, the import names that line calls ours, are pyproject.toml's dependencies:
    each the import name of one of them (python-sat's is pysat), and none left out."""
    import importlib.metadata
    import re
    import tomllib

    from nqueens_cp.checking.python import OUR_DEPENDENCIES

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
    declared = {re.split(r"[<>=!~; \[]", requirement, maxsplit=1)[0].lower() for requirement in project["dependencies"]}
    of = importlib.metadata.packages_distributions()
    assert {name.lower() for module in OUR_DEPENDENCIES for name in of[module]} == declared


def test_options_go_anywhere_spec_after_an_option(cli, models: Path) -> None:
    """check MODEL --variant toroidal 1-8 was 'unrecognized arguments: 1-8' (MODEL is optional beside
    --generator, so argparse took the words before the option alone)."""
    code, out, err = cli("check", f"{models}/m.py:toroidal", "--variant", "toroidal", "1-7")
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()] == [f"N={n}" for n in range(1, 8)]
    code, _, err = cli("check", f"{models}/m.py:toroidal", "--variant", "toroidal", "1-7", "--nope")
    assert code == 2 and "unrecognized arguments: " in err and err.rstrip().split("(see")[0].rstrip().endswith("--nope")
