"""DIMACS out and back in: the header contract, determinism, decoding, every bad case."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import reference
from nqueens_cp.model.cnf import encode
from nqueens_cp.model.dimacs import DimacsError, dimacs_text, write_dimacs
from nqueens_cp.model.dimacs_answer import decode_model, read_answer
from nqueens_cp.model.dimacs_read import read_cnf
from nqueens_cp.model.encodings import ENCODINGS
from nqueens_cp.files import atomic_write



def answer_for(solution: tuple[int, ...], nvars: int, form: str = "competition") -> str:
    n = len(solution)
    true = {r * n + c + 1 for r, c in enumerate(solution)}
    lits = " ".join(str(v if v in true else -v) for v in range(1, nvars + 1))
    return f"SAT\n{lits} 0\n" if form == "minisat" else f"s SATISFIABLE\nv {lits} 0\n"


# --- out ---------------------------------------------------------------------------

def test_header_contract(cli) -> None:
    code, out, _ = cli("dimacs", "3")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "c nqueens n=3 encoding=pairwise"
    cells = [line for line in lines if line.startswith("c q ")]
    assert cells == [f"c q {r} {c} {3 * r + c + 1}" for r in range(3) for c in range(3)]
    assert "c p show 1 2 3 4 5 6 7 8 9 0" in lines
    p = next(i for i, line in enumerate(lines) if line.startswith("p "))
    assert all(line.startswith("c ") for line in lines[:p])
    assert lines[p] == f"p cnf 9 {len(lines) - p - 1}"
    assert all(line.endswith(" 0") for line in lines[p + 1 :])


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_same_command_gives_byte_identical_files(tmp_path: Path, cli, encoding: str) -> None:
    for name in ("a.cnf", "b.cnf"):
        assert cli("dimacs", "7", "--encoding", encoding, "-o", tmp_path / name)[0] == 0
    assert (tmp_path / "a.cnf").read_bytes() == (tmp_path / "b.cnf").read_bytes()
    code, out, _ = cli("dimacs", "7", "--encoding", encoding, "-o", "-")
    assert out.encode() == (tmp_path / "a.cnf").read_bytes()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_pysat_and_our_reader_read_the_file_back(encoding: str) -> None:
    pytest.importorskip("pysat", reason="python-sat is not installed")
    from pysat.formula import CNF as PySatCNF

    cnf = encode(6, encoding)
    text = dimacs_text(cnf)
    theirs = PySatCNF(from_string=text)
    assert theirs.nv == cnf.nvars and theirs.clauses == cnf.clauses
    ours = read_cnf(text, clauses=True)
    assert (ours.n, ours.encoding, ours.nvars, ours.clauses) == (6, encoding, cnf.nvars, cnf.clauses)
    assert ours.show == list(range(1, 37))
    assert ours.cells == {6 * r + c + 1: (r, c) for r in range(6) for c in range(6)}


def test_unwritable_path_is_one_line_and_exit_2_before_any_work(tmp_path: Path, cli) -> None:
    """The rule for every command: an output path that cannot be written is
    found before the work and is a usage error (2), like --csv, --plot and
    --proof; a write that fails during the work (a full disk) is a failure (1)."""
    code, out, err = cli("dimacs", "8", "-o", tmp_path / "missing-dir" / "q.cnf")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "cannot write" in err and "no directory" in err
    if os.geteuid() != 0:  # root may write anywhere
        (tmp_path / "ro").mkdir(mode=0o500)
        code, _, err = cli("dimacs", "8", "-o", tmp_path / "ro" / "q.cnf")
        assert code == 2 and "is not writable" in err
    code, _, err = cli("dimacs", "8", "-o", "/dev/full")
    assert code == 1 and "No space left on device" in err and err.count("\n") == 1


def test_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "q.cnf"
    target.write_text("old contents\n")

    def interrupted(temporary: str) -> None:
        Path(temporary).write_text("half a fi")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, interrupted)
    assert target.read_text() == "old contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.cnf"]


def test_written_file_has_normal_permissions(tmp_path: Path, cli) -> None:
    cli("dimacs", "4", "-o", tmp_path / "q.cnf")
    umask = os.umask(0)
    os.umask(umask)
    assert (tmp_path / "q.cnf").stat().st_mode & 0o777 == 0o666 & ~umask


# --- back in ---------------------------------------------------------------------------

@pytest.fixture
def q8(tmp_path: Path) -> Path:
    path = tmp_path / "q8.cnf"
    path.write_text(dimacs_text(encode(8, "ladder")))
    return path


def test_decode_competition_and_minisat_forms(q8: Path, tmp_path: Path, cli) -> None:
    nvars = encode(8, "ladder").nvars
    solution = (0, 4, 7, 5, 2, 6, 1, 3)
    for form in ("competition", "minisat"):
        (tmp_path / "a.out").write_text(answer_for(solution, nvars, form))
        code, out, err = cli("decode", q8, tmp_path / "a.out", "--format", "line")
        assert (code, out) == (0, "0 4 7 5 2 6 1 3\n")
        assert "1 solution decoded for N=8 (encoding ladder), all valid" in err


def test_decode_several_models_wrapped_over_lines(q8: Path, tmp_path: Path, cli) -> None:
    n, nvars = 8, encode(8, "ladder").nvars
    sols = sorted(reference(8))[:3]
    text = "c clasp-like\n"
    for i, s in enumerate(sols, 1):
        true = {r * n + c + 1 for r, c in enumerate(s)}
        lits = [str(v if v in true else -v) for v in range(1, nvars + 1)]
        text += f"c Answer: {i}\n" + "".join(f"v {' '.join(lits[j:j + 10])}\n" for j in range(0, len(lits), 10)) + "v 0\n"
    text += "s SATISFIABLE\n"
    (tmp_path / "all.out").write_text(text)
    code, out, _ = cli("decode", q8, tmp_path / "all.out", "--format", "json")
    assert code == 0
    import json

    assert [tuple(json.loads(line)["solution"]) for line in out.splitlines()] == sols


def test_decode_reads_stdin(q8: Path, cli, monkeypatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(answer_for((1, 3, 5, 7, 2, 0, 6, 4), encode(8, "ladder").nvars)))
    code, out, _ = cli("decode", q8, "-")
    assert code == 0 and out.startswith("Solution 1:\n. Q . . . . . .\n")
    assert out.splitlines()[-1].startswith("1 solution decoded")


BAD_ANSWERS = [
    ("s UNSATISFIABLE\n", "line 1: the solver says UNSATISFIABLE"),
    ("c picosat --all\ns SOLUTIONS 0\n", "line 2: the solver says UNSATISFIABLE"),
    ("UNSAT\n", "line 1: the solver says UNSATISFIABLE"),
    ("", "is empty"),
    ("s SATISFIABLE\nv 1 2 x 0\n", "line 2: 'x' is not a literal"),
    ("s SATISFIABLE\nv 1 -2 3\n", "line 2: model is not terminated by 0"),
    ("hello world\n", "line 1: expected a 'c', 's' or 'v' line, got 'hello world'"),
    ("s MAYBE\n", "line 1: unknown status line 's MAYBE'"),
    ("s UNKNOWN\n", "line 1: the solver gave up"),
    ("s SATISFIABLE\n", "no model found"),
    ("SAT\n", "expected one line of literals ending in 0 after SAT"),
    ("s SATISFIABLE\nv 1 -1 0\n", "line 2: variable 1 is both true and false"),
    ("s SATISFIABLE\nv 1 2 0\n", "line 2: the model leaves cell variable 3 (0 2) unassigned"),
    ("s SATISFIABLE\nv " + "7" * 5000 + " 0\n", "is not a literal (longer than 12 digits)"),
    ("SAT\n-" + "9" * 5000 + " 0\n", "is not a literal (longer than 12 digits)"),
]


@pytest.mark.parametrize("answer, message", BAD_ANSWERS)
def test_bad_answers_are_one_line_exit_1(q8: Path, tmp_path: Path, cli, answer: str, message: str) -> None:
    (tmp_path / "bad.out").write_text(answer)
    code, out, err = cli("decode", q8, tmp_path / "bad.out")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


@pytest.mark.parametrize("unsat_first", [False, True])
def test_an_answer_that_says_unsatisfiable_beside_a_model_is_refused(q8: Path, tmp_path: Path, cli,
                                                                    unsat_first: bool) -> None:
    model = answer_for((1, 3, 5, 7, 2, 0, 6, 4), encode(8, "ladder").nvars)
    (tmp_path / "both.out").write_text("s UNSATISFIABLE\n" + model if unsat_first else model + "s UNSATISFIABLE\n")
    code, out, err = cli("decode", q8, tmp_path / "both.out")
    assert code == 1 and err.count("\n") == 1 and "contradicts itself" in err
    assert out == "" if unsat_first else out.startswith("Solution 1:")  # (a model before it was streamed out)


def test_answer_over_other_variables(q8: Path, tmp_path: Path, cli) -> None:
    nvars = encode(8, "ladder").nvars
    (tmp_path / "a.out").write_text(answer_for((0, 4, 7, 5, 2, 6, 1, 3), nvars).replace(" 0\n", f" {nvars + 5} 0\n"))
    code, _, err = cli("decode", q8, tmp_path / "a.out")
    assert code == 1
    assert f"line 2: a literal is over variable {nvars + 5}, but the CNF has only {nvars} variables" in err


@pytest.mark.parametrize(
    "solution, message",
    [((0, 1, 7, 5, 2, 6, 1, 3), "queens at 0:0 and 1:1 attack each other"),
     ((0, 4, 7, 5, 2, 6, 1, 1), "queens at 6:1 and 7:1 attack each other")],
)
def test_model_that_is_not_a_valid_placement(q8: Path, tmp_path: Path, cli, solution, message: str) -> None:
    (tmp_path / "a.out").write_text(answer_for(solution, encode(8, "ladder").nvars))
    code, _, err = cli("decode", q8, tmp_path / "a.out")
    assert code == 1 and "line 2: not a valid placement: " + message in err


def test_model_with_an_empty_row(q8: Path, tmp_path: Path, cli) -> None:
    text = answer_for((0, 4, 7, 5, 2, 6, 1, 3), encode(8, "ladder").nvars).replace(" 1 ", " -1 ", 1)
    (tmp_path / "a.out").write_text(text.replace("v 1 ", "v -1 "))
    code, _, err = cli("decode", q8, tmp_path / "a.out")
    assert code == 1 and "not a valid placement: row 0 has no queen" in err


def test_missing_files(q8: Path, tmp_path: Path, cli) -> None:
    code, _, err = cli("decode", tmp_path / "nope.cnf", tmp_path / "nope.out")
    assert code == 1 and "cannot read" in err and "nope.cnf: No such file or directory" in err
    code, _, err = cli("decode", q8, tmp_path / "nope.out")
    assert code == 1 and "nope.out: No such file or directory" in err


BAD_CNFS = [
    ("p cnf 4 0\n", "is not an nqueens_cp CNF"),
    ("c nqueens n=2 encoding=pairwise\nc q 0 0 1\np cnf 4 0\n", "maps 1 cells, a 2x2 board has 4"),
    ("c nqueens n=1 encoding=pairwise\nc q 0 0 1\n", "no 'p cnf <variables> <clauses>' line"),
    ("c nqueens n=1 encoding=pairwise\nc q 0 0 1\np cnf one 1\n", "line 3: malformed problem line"),
    ("c nqueens n=1 encoding=pairwise\nc q 0 3 1\np cnf 1 1\n", "line 2: cell 0 3 is off the 1x1 board"),
    ("c nqueens n=2 encoding=pairwise\nc q 0 0 1\nc q 0 0 2\n", "line 3: cell 0 0 or variable 2 mapped twice"),
    ("c q 0 0 1\n", "line 1: cell line before the 'c nqueens"),
    ("c nqueens n=1 encoding=x\nc q 0 0 9\np cnf 1 1\n1 0\n", "cell variable 9 exceeds the declared 1 variables"),
    ("c nqueens n=1 encoding=x\nc p show 1\nc q 0 0 1\np cnf 1 1\n", "line 2: malformed projection line"),
    ("c nqueens n=1 encoding=pairwise\n1 0\n", "line 2: expected a comment or 'p cnf' line"),
    ("c nqueens n=" + "1" * 5000 + " encoding=pairwise\n", "line 1: malformed header"),
    ("c nqueens n=1 encoding=pairwise\nc q 0 0 " + "1" * 5000 + "\n", "line 2: malformed cell line"),
    ("c nqueens n=1 encoding=pairwise\nc q 0 0 1\np cnf 1 " + "1" * 5000 + "\n", "line 3: malformed problem line"),
]


@pytest.mark.parametrize("cnf, message", BAD_CNFS)
def test_malformed_cnf(tmp_path: Path, cli, cnf: str, message: str) -> None:
    (tmp_path / "bad.cnf").write_text(cnf)
    (tmp_path / "a.out").write_text("s SATISFIABLE\nv 1 0\n")
    code, out, err = cli("decode", tmp_path / "bad.cnf", tmp_path / "a.out")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err


def test_decode_usage_errors(cli) -> None:
    code, _, err = cli("decode", "only-one-file")
    assert code == 2 and "the following arguments are required: SOLVER_OUTPUT" in err
    code, _, err = cli("decode", "a", "b", "--format", "xml")
    assert code == 2 and "invalid choice: 'xml'" in err


def test_clause_body_checks() -> None:
    head = "c nqueens n=1 encoding=pairwise\nc q 0 0 1\n"
    with pytest.raises(DimacsError, match="line 4: literal 2 exceeds the declared 1 variables"):
        read_cnf(head + "p cnf 1 1\n2 0\n", clauses=True)
    with pytest.raises(DimacsError, match="2 clauses, the header declares 1"):
        read_cnf(head + "p cnf 1 1\n1 0\n-1 0\n", clauses=True)
    with pytest.raises(DimacsError, match="last clause is not terminated by 0"):
        read_cnf(head + "p cnf 1 1\n1\n", clauses=True)


# --- fuzzing: the parsers fail only with DimacsError, never a traceback ------------------

HEADER8 = read_cnf(dimacs_text(encode(8)))

answer_lines = st.one_of(
    st.text(max_size=40),
    st.builds(lambda ws: "v " + " ".join(ws), st.lists(st.integers(-80, 80).map(str), max_size=70)),
    st.sampled_from(["s SATISFIABLE", "s UNSATISFIABLE", "SAT", "UNSAT", "c x", "v 0", "s SOLUTIONS 3", ""]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(answer_lines, max_size=12))
def test_fuzz_answer_parser(lines: list[str]) -> None:
    text = "\n".join(lines)
    try:
        models = read_answer(text)
    except DimacsError:
        return
    for model in models:
        try:
            solution = decode_model(model, HEADER8)
        except DimacsError:
            continue
        assert solution in reference(8)


cnf_lines = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["c nqueens n=2 encoding=pairwise", "p cnf 4 2", "c p show 1 2 0", "1 -2 0", "c"]),
    st.builds(lambda r, c, v: f"c q {r} {c} {v}", st.integers(0, 3), st.integers(0, 3), st.integers(0, 9)),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(cnf_lines, max_size=12))
def test_fuzz_cnf_parser(lines: list[str]) -> None:
    try:
        header = read_cnf("\n".join(lines), clauses=True)
    except DimacsError:
        return
    assert len(header.cells) == header.n**2 and max(header.cells) <= header.nvars


# --- streams and bounded memory ----------------------------------------------------------

def test_decode_prints_each_board_as_its_model_arrives(q8: Path) -> None:
    """A reader that waited for the whole answer would block here: the second model is
    written only after the first board has been read back."""
    import subprocess
    import sys

    nvars = encode(8, "ladder").nvars
    first, second = sorted(reference(8))[:2]
    proc = subprocess.Popen([sys.executable, "-m", "nqueens_cp", "decode", str(q8), "-", "-f", "line"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    try:
        proc.stdin.write(answer_for(first, nvars).replace("s SATISFIABLE\n", ""))
        proc.stdin.flush()
        assert proc.stdout.readline() == " ".join(map(str, first)) + "\n"
        proc.stdin.write(answer_for(second, nvars))
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        proc.kill()
    assert rest == " ".join(map(str, second)) + "\n"


def test_decode_prints_each_board_once_and_counts_repeats(q8: Path, tmp_path: Path, cli) -> None:
    # An external enumerator on an encoding with free auxiliaries repeats boards.
    nvars = encode(8, "ladder").nvars
    sols = sorted(reference(8))[:3]
    text = "".join(answer_for(s, nvars).replace("s SATISFIABLE\n", "") for s in sols * 4) + "s SATISFIABLE\n"
    (tmp_path / "many.out").write_text(text)
    code, out, err = cli("decode", q8, tmp_path / "many.out", "-f", "line")
    assert code == 0 and [tuple(map(int, line.split())) for line in out.splitlines()] == sols
    assert "3 solutions decoded" in err and "12 models, 9 of them repeats" in err


def test_writing_dimacs_holds_no_formula_in_memory() -> None:
    import io
    import tracemalloc

    class Sink(io.TextIOBase):
        written = 0

        def write(self, text: str) -> int:
            self.written += len(text)
            return len(text)

    def peak(work) -> int:
        tracemalloc.start()
        try:
            work()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    sink = Sink()
    streamed = peak(lambda: write_dimacs(sink, 40, "pairwise"))
    held = peak(lambda: encode(40))
    assert sink.written == len(dimacs_text(encode(40)))
    # The formula held in memory is 60,000 clause lists; a stream holds one group and one chunk of text.
    assert streamed < held / 5, (streamed, held)


def test_dimacs_to_a_file_is_byte_identical_to_stdout(tmp_path: Path, cli) -> None:
    code, out, _ = cli("dimacs", "7", "--encoding", "commander")
    assert code == 0 and out == dimacs_text(encode(7, "commander"))
    assert cli("dimacs", "7", "--encoding", "commander", "-o", tmp_path / "q.cnf")[0] == 0
    assert (tmp_path / "q.cnf").read_text() == out


def test_dimacs_carries_pre_placed_queens(cli) -> None:
    code, out, _ = cli("dimacs", "6", "--place", "0:1,3:4")
    clauses = [line for line in out.splitlines() if line and line[0] not in "cp"]
    assert code == 0 and clauses[-2:] == ["2 0", "23 0"]
    assert f"p cnf 36 {len(encode(6).clauses) + 2}" in out


def test_output_through_a_symlink_writes_where_it_points(tmp_path: Path, cli) -> None:
    target = tmp_path / "real.cnf"
    target.write_text("old")
    (tmp_path / "link.cnf").symlink_to(target)
    assert cli("dimacs", "4", "-o", tmp_path / "link.cnf")[0] == 0
    assert (tmp_path / "link.cnf").is_symlink() and target.read_text() == dimacs_text(encode(4))


def test_encodings_of_a_large_n_give_sizes_at_once(cli) -> None:
    import json

    from nqueens_cp.model.cnf import size

    code, out, err = cli("encodings", "40", "--format", "json")
    table = json.loads(out)
    assert code == 0 and "sizes only" in err
    assert [(r["variables"], r["clauses"]) for r in table["rows"]] == [size(40, e) for e in ENCODINGS]
    assert all("solutions" not in r for r in table["rows"])
    code, out, _ = cli("encodings", "6")
    assert code == 0 and [line.split()[4] for line in out.splitlines()[1:]] == ["4"] * len(ENCODINGS)


@pytest.mark.parametrize("flags, board, message", [
    (["--block", "0:1"], (1, 3, 5, 0, 2, 4), "a queen stands on its blocked square 0:1"),
    (["--place", "0:2"], (1, 3, 5, 0, 2, 4), "its pre-placed queen at 0:2 is missing"),
    (["--place", "0:1", "--block", "1:0"], (1, 3, 5, 0, 2, 4), None),  # honours both: decoded
])
def test_a_decoded_board_must_answer_the_question_the_cnf_asked(tmp_path: Path, cli, flags, board, message) -> None:
    """Not only the N-queens rules: the CNF's own unit clauses (pre-placed
    queens, blocked squares) too."""
    cnf = tmp_path / "q6.cnf"
    assert cli("dimacs", "6", *flags, "-o", cnf)[0] == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(answer_for(board, 36))
    code, out, err = cli("decode", cnf, answer, "--format", "line")
    if message is None:
        assert code == 0 and out == "1 3 5 0 2 4\n", err
    else:
        assert code == 1 and out == "" and err.count("\n") == 1 and message in err


def test_decode_with_stdin_closed_is_one_line() -> None:
    from conftest import CLI

    out = subprocess.run([*CLI, "decode", "q8.cnf", "-"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                         timeout=60, close_fds=True, preexec_fn=lambda: os.close(0))
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr


def test_a_huge_model_line_is_read_in_memory_bounded_by_the_board(tmp_path: Path) -> None:
    """A 'v' line of two million auxiliary literals: decode keeps only the
    cells (the line is read word by word, never split whole).  Measured in a
    process of its own: its peak memory."""
    import sys

    if not Path("/proc/self/status").is_file():
        pytest.skip("reads the peak memory from /proc/self/status (Linux)")

    cnf = tmp_path / "q8.cnf"
    cnf.write_text(dimacs_text(encode(8, "pairwise")).replace("p cnf 64 ", "p cnf 2000064 "))
    cells = answer_for((0, 4, 7, 5, 2, 6, 1, 3), 64).split("\n")[1][2:-2]
    with open(tmp_path / "big.out", "w") as out:
        out.write("s SATISFIABLE\nv " + cells + " " + " ".join(str(-v) for v in range(65, 2_000_065)) + " 0\n")
    # The peak of this process's own memory: VmHWM (getrusage's ru_maxrss
    # would also count the forking parent's, kept across exec on Linux).
    code = ("import sys; from nqueens_cp.cli.main import main; "
            f"rc = main(['decode', {str(cnf)!r}, {str(tmp_path / 'big.out')!r}, '--format', 'line']); "
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')), file=sys.stderr); "
            "sys.exit(rc)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout == "0 4 7 5 2 6 1 3\n", run.stderr
    peak_kb = int(run.stderr.split()[-1])
    assert peak_kb < 260_000, f"peak {peak_kb} kB"  # the line is 17 MB; split whole it took about 330 MB


def test_an_endless_line_is_refused_in_memory_bounded_by_the_limit(q8: Path, cli) -> None:
    """decode q8.cnf /dev/zero: one line with no end (it grew without bound)."""
    from nqueens_cp.model import dimacs

    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    code, out, err = cli("decode", q8, "/dev/zero")
    assert (code, out) == (1, "") and f"line 1: longer than {dimacs.MAX_LINE:,} characters" in err


def test_the_lines_of_a_huge_board_are_made_one_at_a_time() -> None:
    """What the CNF of every encoding is written from: all of them at once held 4N^2 cells
    (dimacs 3000 --encoding seqcounter: a MemoryError under a 1 GB cap)."""
    from itertools import islice

    from nqueens_cp.model.cnf import lines

    first = list(islice(lines(100_000), 2))  # four times 10^10 cells, if they were all made
    assert first[1][:2] == [(1, 0), (1, 1)] and len(first[0]) == 100_000


body_lines = st.one_of(
    st.builds(lambda lits, end: " ".join(map(str, lits)) + (" 0" if end else ""),
              st.lists(st.integers(-7, 7).filter(bool), max_size=4), st.booleans()),
    st.sampled_from(["c a comment", "", "x", "-", "+4 0", " 3\t 0 ", "1 0 -2 0", "12345678901234 0", "0", "1-2 0",
                     "-1 0", "-4 0", "2 0"]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(body_lines, max_size=14), st.integers(1, 6), st.integers(1, 40))
def test_a_file_body_read_by_blocks_reads_as_the_clause_by_clause_reader(lines: list[str], nclauses: int,
                                                                          block: int) -> None:
    """decode reads a CNF file's body a block at a time at C speed (12 million clauses took 40 s
    clause by clause): the same units, the same errors with the same lines, at every block size."""
    import io

    from nqueens_cp.model import dimacs_read

    text = "c nqueens n=2 encoding=pairwise\n" + "".join(f"c q {v // 2} {v % 2} {v + 1}\n" for v in range(4)) + \
        f"p cnf 6 {nclauses}\n" + "\n".join(lines) + ("\n" if lines else "")

    def read(source):
        try:
            return read_cnf(source, "F", units=True).units
        except DimacsError as error:
            return str(error)

    expected = read(text)  # (a text: clause by clause)
    previous = dimacs_read._BODY_CHUNK
    dimacs_read._BODY_CHUNK = block
    try:
        assert read(io.StringIO(text)) == expected
    finally:
        dimacs_read._BODY_CHUNK = previous


@pytest.mark.parametrize(("n", "options"), [
    (1, {}), (2, {}), (9, {}), (12, {"variant": "superqueens"}), (10, {"variant": "toroidal"}),
    (11, {"fixed": {0: 3, 5: 1}}), (10, {"symmetry_breaking": True}), (9, {"encoding": "seqcounter"}),
])
def test_a_written_cnf_is_byte_identical_to_its_clauses_one_at_a_time(n: int, options: dict) -> None:
    """The writer joins a line's pairwise clauses into text at once (N = 300 took 18 s a clause at a
    time, 0.7 s so): the same bytes as the formula's clauses formatted one by one."""
    import io

    from nqueens_cp.model.variants import get

    encoding = options.pop("encoding", "pairwise")
    variant = get(options.pop("variant", "queens"))
    out = io.StringIO()
    write_dimacs(out, n, encoding, variant=variant, **options)
    assert out.getvalue() == dimacs_text(encode(n, encoding, variant=variant, **options))
