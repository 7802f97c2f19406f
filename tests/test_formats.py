"""The model in the field's formats, read by the field's own tools.

Each file is written by ``nqueens-cp export`` and handed to a real program:
MiniZinc with Gecode, clingo, Z3, clasp (which reads the PB competition
format) and ACE (the XCSP3 solver that pycsp3 ships, on Java).  Every
answer is checked against our reference set, for plain N and for a question
with pre-placed queens and blocked squares.  A test skips only where its
program is absent, saying how to get it (.ci/run installs them all).
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from conftest import cli_file, expected, program, run_program
from nqueens_cp import count, is_solution, names
from nqueens_cp.errors import InvalidInputError
from nqueens_cp.model.position import Position
from nqueens_cp.model.formats import FORMATS, save, text, write

# A question beyond plain N: a queen at 0:1, two blocked squares.
PLACED = Position({0: 1}, [(2, 3), (5, 0)])
def written(cli, tmp_path: Path, name: str, n: int, placed: Position | None = None) -> Path:
    argv: list[object] = ["export", n]
    if placed:
        argv += ["--place", ",".join(f"{r}:{c}" for r, c in placed.items()),
                 "--block", ",".join(f"{r}:{c}" for r, c in sorted(placed.blocked))]
    return cli_file(cli, tmp_path / f"q{n}{FORMATS[name][0]}", *argv)


CASES = [(8, None), (8, PLACED), (6, None)]


@pytest.mark.parametrize("n, placed", CASES)
def test_minizinc_with_gecode_lists_exactly_our_boards(cli, tmp_path: Path, n: int, placed: Position | None) -> None:
    minizinc = program("minizinc", "Debian packages minizinc and flatzinc")
    program("fzn-gecode", "Debian package flatzinc")
    model, data = written(cli, tmp_path, "mzn", n, placed), written(cli, tmp_path, "dzn", n, placed)
    out = run_program([minizinc, "--solver", "gecode", "-a", str(model), str(data)])
    boards = [tuple(json.loads(line[4:].rstrip(";"))) for line in out.splitlines() if line.startswith("q = ")]
    assert len(boards) == len(set(boards)) and set(boards) == expected(n, placed)
    assert out.rstrip().endswith("==========" if boards else "=====UNSATISFIABLE=====")


@pytest.mark.parametrize("n, placed", CASES)
def test_clingo_lists_exactly_our_boards_as_answer_sets(cli, tmp_path: Path, n: int, placed: Position | None) -> None:
    pytest.importorskip("clingo", reason="clingo is not installed (pip install clingo; in the test extra)")
    out = run_program([sys.executable, "-m", "clingo", "0", "--outf=2", str(written(cli, tmp_path, "lp", n, placed))],
              ok=(0, 10, 20, 30))  # clasp's exit codes (SAT, UNSAT, SAT and exhausted), or 0 from python -m
    boards = []
    for witness in json.loads(out)["Call"][0].get("Witnesses", []):
        columns = [-1] * n
        for atom in witness["Value"]:
            r, c = map(int, re.fullmatch(r"queen\((\d+),(\d+)\)", atom).groups())
            columns[r] = c
        boards.append(tuple(columns))
    assert len(boards) == len(set(boards)) and set(boards) == expected(n, placed)


@pytest.mark.parametrize("n, placed", CASES)
def test_z3_says_sat_with_a_valid_board(cli, tmp_path: Path, n: int, placed: Position | None) -> None:
    z3 = program("z3", "pip install z3-solver, or Debian package z3")
    out = run_program([z3, str(written(cli, tmp_path, "smt2", n, placed))])
    assert out.splitlines()[0] == "sat"
    values = dict(re.findall(r"\(q(\d+) (\d+)\)", out))
    board = tuple(int(values[str(r)]) for r in range(n))
    assert board in expected(n, placed)


def test_z3_says_unsat_where_there_is_no_board(cli, tmp_path: Path) -> None:
    z3 = program("z3", "pip install z3-solver, or Debian package z3")
    # (get-value) after unsat is an error by the standard: exit 1 after the answer
    assert run_program([z3, str(written(cli, tmp_path, "smt2", 3))], ok=(0, 1)).splitlines()[0] == "unsat"


@pytest.mark.parametrize("n, placed", CASES)
def test_clasp_reads_the_opb_file_and_lists_exactly_our_boards(cli, tmp_path: Path, n: int,
                                                                 placed: Position | None) -> None:
    clasp = program("clasp", "Debian package clasp")
    # --quiet=0: every model (in PB mode clasp prints only the last one by default)
    out = run_program([clasp, "-n", "0", "--quiet=0", str(written(cli, tmp_path, "opb", n, placed))], ok=(10, 20, 30))
    models: list[list[int]] = []  # the true variables of each answer; clasp wraps long 'v' lines
    for line in out.splitlines():
        if line.startswith("c Answer:"):
            models.append([])
        elif line.startswith("v "):
            models[-1] += [int(word[1:]) for word in line[2:].split() if word.startswith("x")]
    boards = []
    for true in models:
        board = [-1] * n
        for var in true:
            r, c = divmod(var - 1, n)
            board[r] = c
        boards.append(tuple(board))
    assert len(boards) == len(set(boards)) and set(boards) == expected(n, placed)
    assert all(is_solution(b, n) for b in boards)


@pytest.mark.parametrize("n, placed", CASES)
def test_ace_solves_the_xcsp3_file_and_counts_our_boards(cli, tmp_path: Path, n: int, placed: Position | None) -> None:
    # Found, not imported: importing pycsp3 registers an exit hook that compiles a model.
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or spec.origin is None:
        pytest.skip("pycsp3 (which ships the ACE solver) is not installed; in the test extra")
    java = program("java", "Debian package default-jre-headless")
    ace = sorted(Path(spec.origin).parent.glob("solvers/ace/ACE-*.jar"))
    assert ace, "pycsp3 ships ACE"
    out = run_program([java, "-jar", str(ace[-1]), str(written(cli, tmp_path, "xml", n, placed)), "-s=all"])
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)  # ACE colours its output
    found = re.search(r"d FOUND SOLUTIONS\s+(\d+)", plain)
    boards = expected(n, placed)
    assert "COMPLETE EXPLORATION" in plain
    assert (int(found.group(1)) if found else 0) == len(boards)
    last = re.findall(r"<values> ([\d ]+) </values>", plain)
    if boards:
        assert tuple(map(int, last[-1].split())) in boards


def test_every_format_states_the_same_question_as_our_engines() -> None:
    """The counts the engines of the declarative field get (asp, minizinc and smt from the
    files the model command writes) equal the reference's."""
    for engine in names(group="field", enumerates=True):
        from conftest import usable

        usable(engine)
        assert count(8, engine, PLACED, jobs=1) == len(expected(8, PLACED))


def test_writers_stream_in_pieces_bounded_by_n() -> None:
    """A huge N is written a line at a time: no piece holds more than a few lines' worth."""
    n = 600
    for name in FORMATS:
        biggest = 0
        for i, piece in enumerate(write(name, n)):
            biggest = max(biggest, len(piece))
            if i > 5000:
                break
        bound = 400 * n if name == "cnf" else 20 * n  # the CNF header maps cells in blocks
        assert biggest <= max(bound, len(text("mzn", 1))), (name, biggest)


def test_the_same_question_gives_the_same_bytes_and_mentions_what_it_holds() -> None:
    for name in FORMATS:
        assert text(name, 7, PLACED) == text(name, 7, Position(dict(PLACED), sorted(PLACED.blocked, reverse=True)))
    assert "1 pre-placed queen, 2 blocked squares" in text("lp", 7, PLACED)
    assert "placed(0,1)." in text("lp", 7, PLACED) and "blocked(5,0)." in text("lp", 7, PLACED)
    assert "placed_row = [0];" in text("dzn", 7, PLACED) and "blocked_col = [3, 0];" in text("dzn", 7, PLACED)
    assert "(assert (not (= q5 0)))" in text("smt2", 7, PLACED)
    assert "+1 x18 = 0 ;" in text("opb", 7, PLACED)  # cell (2, 3) of 7: 2*7 + 3 + 1
    assert "<intension> eq(q[0],1) </intension>" in text("xml", 7, PLACED)


def test_the_opb_header_counts_what_follows() -> None:
    for n in (1, 2, 3, 8):
        lines = text("opb", n, PLACED if n == 8 else None).splitlines()
        variables, constraints = map(int, re.findall(r"= (\d+)", lines[0]))
        assert variables == n * n
        assert constraints == sum(1 for line in lines if line.endswith(";"))


def test_save_writes_atomically_and_refuses_an_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "q.lp"
    assert save(str(path), None, 5) == "lp"
    assert path.read_text() == text("lp", 5)
    with pytest.raises(InvalidInputError, match="cannot tell the format from the name"):
        save(str(tmp_path / "q.txt"), None, 5)
    assert not (tmp_path / "q.txt").exists()
    with pytest.raises(InvalidInputError, match="N must be a positive integer"):
        save(str(tmp_path / "q0.lp"), None, 0)
    assert not (tmp_path / "q0.lp").exists()


def test_export_writes_stdout_and_files_and_answers_to_its_old_name(cli, tmp_path: Path) -> None:
    code, out, err = cli("export", "6", "--format", "smt2")
    assert code == 0 and out == text("smt2", 6) and err == ""
    code, out, err = cli("model", "6", "--format", "smt2")  # (its name up to 0.2)
    assert code == 0 and out == text("smt2", 6) and err == ""
    code, out, err = cli("model", "--help")
    assert code == 0 and "usage: nqueens-cp export" in out and "called model" in out
    target = tmp_path / "q.xml"
    code, out, err = cli("export", "6", "--place", "0:1", "-o", str(target))
    assert code == 0 and out == "" and f"wrote {target}" in err
    assert target.read_text() == text("xml", 6, {0: 1})
