"""CSPLib prob079 instance files: read as published, answered as published, by every complete engine."""

from __future__ import annotations

import json

from pathlib import Path

import pytest

import nqueens_cp as nq
from conftest import usable
from nqueens_cp.studies import batch
from nqueens_cp.model.board import is_solution
from nqueens_cp.model.position import diagonal
from nqueens_cp.model.instances import COMPLETION, EXCLUDED_DIAGONALS, InstanceError, parse_instance, read_instance

DATA = Path(__file__).parent / "data" / "prob079"  # copied from shared/data/prob079 (see its README)
ANSWERS = batch.read_answers(str(DATA / "answers.tsv"))
COMPLETE = nq.names(proves_none=True, takes_fixed=True)


def test_the_sample_is_all_here() -> None:
    assert len(ANSWERS) == 40 and sum(p.satisfiable for p in ANSWERS.values()) == 20
    assert sorted(p.name for p in DATA.glob("diag-*.param")) == sorted(ANSWERS)


def test_an_excluded_diagonals_file_reads_as_published() -> None:
    instance = read_instance(DATA / "diag-10-4-501.param", 8)
    # diags = [[4, 0], [14, 0], [0, 0], [17, 0], [9, 1], [11, 1], [7, 1], [2, 0], [10, 1], ...]: 17 pairs;
    # type 1 is r + c = k, type 0 is r - c = k - 9
    expected = set()
    for k, kind in [(4, 0), (14, 0), (0, 0), (17, 0), (9, 1), (11, 1), (7, 1), (2, 0)]:
        expected |= set(diagonal(10, "r+c", k) if kind else diagonal(10, "r-c", k - 9))
    assert (0, 9) in expected and (9, 0) in expected  # [0, 0] is the corner square r - c = -9; [9, 1] the anti-diagonal
    assert (instance.kind, instance.n, instance.diagonals, instance.available) == (EXCLUDED_DIAGONALS, 10, 8, 17)
    assert instance.blocked == frozenset(expected) and not instance.fixed
    assert read_instance(DATA / "diag-10-4-501.param", 0).blocked == frozenset()


def test_a_completion_file_reads_as_published() -> None:
    instance = read_instance(DATA / "completion-40-16-3.param")
    assert (instance.kind, instance.n, len(instance.fixed)) == (COMPLETION, 40, 16)
    assert instance.fixed[15] == 37 and instance.fixed[36] == 11 and not instance.blocked
    outcome = nq.solve(40, "bitmask", instance.position(), time_limit=60)
    assert outcome.status is nq.Status.SOLVED and all(outcome.solution[r] == c for r, c in instance.fixed.items())


@pytest.mark.parametrize("engine", COMPLETE)
def test_every_sample_instance_is_answered_as_published(engine: str) -> None:
    usable(engine)
    # The tutorial's backtrackers (pure Python, copies and generators on purpose) take a minute on the
    # whole sample: they answer its instances up to N = 11, the rest of the engines every one.
    top = 11 if nq.engine_class(engine).group == "classic" and engine != "backtrack" else None
    for name, published in sorted(ANSWERS.items()):
        if top is not None and read_instance(DATA / name, published.diagonals).n > top:
            continue
        instance = read_instance(DATA / name, published.diagonals)
        outcome = nq.solve(instance.n, engine, instance.position(), time_limit=120)
        assert outcome.status is (nq.Status.SOLVED if published.satisfiable else nq.Status.NONE), name
        if outcome.solution is not None:
            assert is_solution(outcome.solution, instance.n)
            assert not any((r, c) in instance.blocked for r, c in enumerate(outcome.solution)), name


@pytest.mark.parametrize("text, where, what", [
    ("n = 10\nnumdiags = 3\ndiags = [[1, 0], [2,", "f:3", "cut off"),
    ("n = 10\nnumdiags = 3\ndiags = [[1, 0], [2, 1]]\n", "f:2", "numdiags is 3 but 'diags' lists 2"),
    ("n = 10\nnumdiags = 1\n", "f:3", "truncated"),
    ("letting n = 8\nletting init = [[0, 9]]\n", "f:2", "off the 8x8 board"),
    ("letting n = 8\nletting init = [[0, 1], [0, 2]]\n", "f:2", "two queens in row 0"),
    ("letting n = 8\nletting init = [[0, 1, 2]]\n", "f:2", "pairs of integers"),
    ("n = 8\nn = 9\n", "f:2", "given twice"),
    ("n = x\n", "f:1", "not a number"),
    ("n = 0\ndiags = []\n", "f:1", "an integer from 1 to"),
    ("hello\n", "f:1", "expected 'name = value'"),
    ("", "f:1", "no 'n = ...'"),
    ("n = 4\nnumdiags = 1\ndiags = [[9, 0]]\n", "f:3", "not a diagonal of the 4x4 board"),
    # a wrong pair past the D used was accepted (issue 52): the file is wrong whatever D is
    ("n = 6\nnumdiags = 2\ndiags = [[1, 1], [3, 5]]\n", "f:3", "[3, 5] is not a diagonal of the 6x6 board"),
    ("n = 6\nnumdiags = 2\ndiags = [[1, 1], [50, 1]]\n", "f:3", "[50, 1] is not a diagonal of the 6x6 board"),
])
def test_bad_files_are_one_error_naming_file_and_line(text: str, where: str, what: str) -> None:
    with pytest.raises(InstanceError) as error:
        parse_instance("f", text, None if "letting" in text else 1)
    message = str(error.value)
    assert message.startswith(where + ":") and what in message and "\n" not in message


def test_d_is_required_and_checked_for_excluded_diagonals_only() -> None:
    with pytest.raises(nq.InvalidInputError, match="--diagonals D, 0..27"):
        read_instance(DATA / "diag-14-4-416.param")
    with pytest.raises(nq.InvalidInputError, match="must be 0..27"):
        read_instance(DATA / "diag-14-4-416.param", 28)
    with pytest.raises(nq.InvalidInputError, match="completion instance"):
        read_instance(DATA / "completion-40-16-3.param", 3)


def test_solve_reads_files_and_exits_as_it_answers(cli, tmp_path: Path) -> None:
    code, out, err = cli("solve", DATA / "diag-14-4-416.param", "--diagonals", 12, "--engine", "bitmask")
    assert code == 1 and out.startswith("none:") and "diag-14-4-416.param D=12: N=14" in err
    code, out, err = cli("solve", DATA / "diag-14-4-399.param", "-D", 12, "-f", "json")
    assert code == 0 and '"status": "solved"' in out and '"blocked": [[' in out
    code, out, err = cli("solve", DATA / "diag-14-4-399.param")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--diagonals D" in err
    (tmp_path / "cut.param").write_text("n = 10\nnumdiags = 3\ndiags = [[1, 0], [2,")
    code, out, err = cli("solve", tmp_path / "cut.param", "-D", 1)
    assert code == 1 and out == "" and err.count("\n") == 1 and "cut.param:3:" in err  # a bad input file: 1
    (tmp_path / "bin.param").write_bytes(b"n = 4\n\xff\xfe\n")
    code, out, err = cli("solve", tmp_path / "bin.param")
    assert code == 1 and "bin.param:2: not text" in err
    code, _, err = cli("solve", tmp_path / "missing.param")
    assert code == 1 and "cannot read" in err and err.count("\n") == 1
    # what complete generate writes, solve reads
    assert cli("complete", "generate", 30, 8, "--seed", 1, "-o", tmp_path / "g.json")[0] == 0
    code, out, err = cli("solve", tmp_path / "g.json", "--format", "json")
    assert code == 0 and '"status": "solved"' in out, err
    for text, message in [("letting n = 99999999999999999999\n", "n must be an integer from 1 to 1,000,000"),
                          ("n = 8\ninit = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deep"),
                          ('{"n": 8, "placed": [[0, 9]]}', "off the 8x8 board")]:
        (tmp_path / "hostile.param").write_text(text)
        code, out, err = cli("solve", tmp_path / "hostile.param")
        assert code == 1 and out == "" and err.count("\n") == 1 and message in err, err
    assert cli("solve", 8, "--diagonals", 3)[0] == 2
    # --place adds to the file's queens, and may not contradict them
    code, _, err = cli("solve", DATA / "completion-40-16-3.param", "--place", "15:1")
    assert code == 2 and "already has a queen in row 15" in err


def test_batch_checks_engines_against_each_other_and_the_published_answers(cli, tmp_path: Path) -> None:
    chosen = nq.preset("core")
    code, out, err = cli("batch", DATA / "diag-1[01]-*.param", "--answers", DATA / "answers.tsv",
                         "--engines", ",".join(chosen), "--csv", tmp_path / "r.csv")
    assert code == 0, err
    assert out.count(".param") == 16 and "wrong" in out
    rows = (tmp_path / "r.csv").read_text().splitlines()
    assert len(rows) == 1 + 16 * len(chosen) and all(row.endswith(",True") for row in rows[1:])
    # A wrong published answer is caught, and so is a file whose D is unknown.
    bad = tmp_path / "answers.tsv"
    bad.write_text("diag-10-4-63.param\t8\t1\n")
    code, out, err = cli("batch", DATA / "diag-10-4-63.param", "--answers", bad, "--engines", "bitmask")
    assert code == 1 and "published answer is satisfiable" in err
    code, _, err = cli("batch", DATA / "diag-10-4-501.param", "--answers", bad)
    assert code == 2 and "not in the answers table" in err
    code, out, _ = cli("batch", DATA, "--diagonals", 0, "--engines", "bitmask", "--format", "json")
    rows = json.loads(out)  # --diagonals D for all: the folder's completion file takes none, and ignores it
    assert code == 0 and {r["diagonals"] for r in rows if "completion" in r["file"]} == {None}
    assert {r["diagonals"] for r in rows if "diag-" in r["file"]} == {0}
    assert cli("batch", tmp_path / "nothing-*.param", "--diagonals", 1)[0] == 2


def test_the_generator_follows_the_authors_rules_byte_for_byte() -> None:
    """Every published sample file, diag-<n>-<mininfile>-<seed>, comes out of our generator as it is."""
    from nqueens_cp.model.instances import excluded_diagonals_text, generate_excluded_diagonals

    for path in sorted(DATA.glob("diag-*.param")):
        _, n, min_in_file, seed = path.stem.split("-")
        pairs = generate_excluded_diagonals(int(n), int(min_in_file), int(seed))
        assert excluded_diagonals_text(int(n), pairs) == path.read_text(), path.name


def test_complete_diagonals_writes_an_instance_that_solve_reads(cli, tmp_path: Path) -> None:
    path = tmp_path / "d.param"
    assert cli("complete", "diagonals", 10, "--seed", 501, "-o", path)[0] == 0
    assert path.read_text() == (DATA / "diag-10-4-501.param").read_text()
    code, out, _ = cli("complete", "diagonals", 12, "--seed", 3, "--min-in-file", 2)
    assert code == 0 and out.startswith("n =  12\nnumdiags =  ")


@pytest.mark.parametrize("name, d", [("diag-14-4-416.param", 12), ("diag-14-4-72.param", 12),
                                     ("completion-40-16-3.param", None)])
def test_a_split_decision_gives_the_same_answer_on_any_number_of_workers(name: str, d: int | None) -> None:
    """Split, the answer is the first part's with a board, whatever the
    workers; unsplit (one job, the default), the whole board's search: the
    same status, each board its own."""
    instance = read_instance(DATA / name, d)
    one = nq.solve(instance.n, "bitmask", instance.position())
    two = nq.solve(instance.n, "bitmask", instance.position(), jobs=2)
    three = nq.solve(instance.n, "bitmask", instance.position(), jobs=3)
    assert (two.status, two.solution) == (three.status, three.solution) and one.status == two.status
    assert "parts" not in one.stats and two.stats["parts"] > 1 and two.stats["parts_searched"] <= two.stats["parts"]
    if one.status is nq.Status.NONE:
        assert two.stats["parts_searched"] == two.stats["parts"]
    with pytest.raises(nq.InvalidInputError, match="jobs"):
        nq.solve(8, "bitmask", jobs=0)


def test_cp_sat_workers_apply_to_solve_only(cli) -> None:
    instance = read_instance(DATA / "diag-12-4-709.param", 10)
    assert nq.solve(12, "cpsat", instance.position(), workers=1).status is nq.Status.NONE
    with pytest.raises(nq.InvalidInputError, match="use one worker"):
        nq.count(8, "cpsat", workers=2)
    assert nq.count(8, "cpsat", workers=1) == 92


def test_batch_writes_json_and_a_plot(cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="matplotlib is not installed (the plot extra)")
    import json

    code, out, err = cli("batch", DATA / "diag-12-4-7*.param", "--diagonals", 10, "--engines", "bitmask,sat",
                         "--format", "json", "--json", tmp_path / "r.json", "--plot", tmp_path / "r.png")
    assert code == 0, err
    rows = json.loads(out)
    assert rows == json.loads((tmp_path / "r.json").read_text())
    assert {(Path(r["file"]).name, r["engine"]) for r in rows} == {
        (f"diag-12-4-{s}.param", e) for s in (709, 727, 77, 79) for e in ("bitmask", "sat")}
    assert all(r["published"] is None and r["status"] in ("solved", "none") for r in rows)
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert cli("batch", DATA, "--answers", DATA / "answers.tsv", "--plot", tmp_path / "r.txt")[0] == 2
